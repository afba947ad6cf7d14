import { Construct } from 'constructs';
import { AdmissionKind } from './admission-kind';
import { AdmissionPolicy } from './admission-policy';
import { AdmissionPolicyBinding, AdmissionPolicyBindingOptions } from './admission-policy-binding';
import { IMutatingPolicy, MutatingPolicy } from './mutating-policy';
import type * as wire from './wire/admissionregistration';

/** Options of `MutatingPolicy.withBinding()`. */
export interface MutatingPolicyBindingOptions extends AdmissionPolicyBindingOptions {}

/** Properties of a MutatingPolicyBinding. */
export interface MutatingPolicyBindingProps extends MutatingPolicyBindingOptions {
  /** The policy to bind: a MutatingPolicy of this app, or `MutatingPolicy.fromPolicyName(...)`. */
  readonly policy: IMutatingPolicy;
}

/**
 * A MutatingAdmissionPolicyBinding: puts a mutating policy into effect, with its parameters and
 * its scope. Written after its policy in the manifests.
 */
export class MutatingPolicyBinding extends AdmissionPolicyBinding {
  /** The bound policy. */
  public readonly policy: IMutatingPolicy;

  public constructor(scope: Construct, id: string, props: MutatingPolicyBindingProps) {
    super(scope, id, AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING, props, props?.policy?.name, // ?.: the base reports missing props by name, before using them
      MutatingPolicy.isMutatingPolicy(props?.policy) ? props.policy : undefined);
    if (props.policy instanceof AdmissionPolicy && !MutatingPolicy.isMutatingPolicy(props.policy)) {
      throw new Error(`${this.node.path}: ${props.policy.node.path} is not a MutatingPolicy: bind a ValidatingPolicy with a ValidatingPolicyBinding (policy.withBinding())`);
    }
    this.policy = props.policy;
  }

  /** @internal */
  public _renderSpec(): wire.MutatingAdmissionPolicyBindingSpec {
    return this._renderSpecBase();
  }
}
