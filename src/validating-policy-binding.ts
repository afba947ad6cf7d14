import { Construct } from 'constructs';
import { AdmissionKind } from './admission-kind';
import { AdmissionPolicy } from './admission-policy';
import { AdmissionPolicyBinding, AdmissionPolicyBindingOptions } from './admission-policy-binding';
import { ValidationAction } from './enums';
import { IValidatingPolicy, ValidatingPolicy } from './validating-policy';
import type * as wire from './wire/admissionregistration';


/** Options of `ValidatingPolicy.withBinding()`. */
export interface ValidatingPolicyBindingOptions extends AdmissionPolicyBindingOptions {
  /**
   * What to do with a failed validation: `Deny`, `Warn`, `Audit` (Deny and Warn not together).
   * See also `ValidatingPolicy.withRolloutBinding()`.
   */
  readonly validationActions: ValidationAction[];
}

/** Properties of a ValidatingPolicyBinding. */
export interface ValidatingPolicyBindingProps extends ValidatingPolicyBindingOptions {
  /** The policy to bind: a ValidatingPolicy of this app, or `ValidatingPolicy.fromPolicyName(...)`. */
  readonly policy: IValidatingPolicy;
}

/**
 * A ValidatingAdmissionPolicyBinding: puts a policy into effect, with its parameters, its scope
 * and what a failed validation does. Written after its policy in the manifests.
 */
export class ValidatingPolicyBinding extends AdmissionPolicyBinding {
  /** The bound policy. */
  public readonly policy: IValidatingPolicy;

  private readonly validationActions: ValidationAction[];

  public constructor(scope: Construct, id: string, props: ValidatingPolicyBindingProps) {
    super(scope, id, AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, props, props?.policy?.name, // ?.: the base reports missing props by name, before using them
      ValidatingPolicy.isValidatingPolicy(props?.policy) ? props.policy : undefined);
    if (props.policy instanceof AdmissionPolicy && !ValidatingPolicy.isValidatingPolicy(props.policy)) {
      throw new Error(`${this.node.path}: ${props.policy.node.path} is not a ValidatingPolicy: bind a MutatingPolicy with a MutatingPolicyBinding (policy.withBinding())`);
    }
    this.policy = props.policy;
    this.validationActions = [...props.validationActions];
  }

  /** @internal */
  public _renderSpec(): wire.ValidatingAdmissionPolicyBindingSpec {
    return { ...this._renderSpecBase(), validationActions: [...this.validationActions] };
  }
}
