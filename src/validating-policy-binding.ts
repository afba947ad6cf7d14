import { ApiObject, ApiObjectMetadata, JsonPatch, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { attachChecks } from './admission-checks';
import { AdmissionKind } from './admission-kind';
import { ValidationAction } from './enums';
import { KubernetesVersion } from './kubernetes-version';
import { objectMetadata } from './object-metadata';
import { MatchResources, ParamRef, renderMatchResources, renderParamRef } from './policy-parts';
import { IValidatingPolicy, ValidatingPolicy } from './validating-policy';
import { checkBindingAgainstPolicy, readEntry } from './validation/cross-object';
import { Violation } from './validation/violation';
import type * as wire from './wire/admissionregistration';

/** What a binding can say besides its validation actions. */
export interface ValidatingPolicyBindingBaseOptions {
  /**
   * The binding's name (`metadata.name`).
   * @default - a name generated from the construct path
   */
  readonly name?: string;
  /**
   * Labels and annotations of the binding. `namespace` is not allowed: bindings are cluster-scoped.
   * @default - none besides the chart's labels
   */
  readonly metadata?: ApiObjectMetadata;
  /**
   * Which parameter resources to evaluate the policy with. Required when the policy has a
   * paramKind, and not allowed when it has none.
   * @default - no parameters
   */
  readonly paramRef?: ParamRef;
  /**
   * Further restricts the requests the policy is applied to (within its own rules).
   * @default - every request the policy matches
   */
  readonly matchResources?: MatchResources;
  /**
   * The Kubernetes version to write the binding for.
   * @default - the policy's version when it is a ValidatingPolicy of this app, else the context value `cdk8s-admission:kubernetesVersion`, else `KubernetesVersion.LATEST`
   */
  readonly kubernetesVersion?: KubernetesVersion;
}

/** Options of `ValidatingPolicy.withBinding()`. */
export interface ValidatingPolicyBindingOptions extends ValidatingPolicyBindingBaseOptions {
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
export class ValidatingPolicyBinding extends Construct {
  /** The ApiObject this binding renders to (an escape hatch, e.g. for `addJsonPatch`). */
  public readonly apiObject: ApiObject;

  /** The bound policy. */
  public readonly policy: IValidatingPolicy;

  /** The Kubernetes version the binding is written for. */
  public readonly kubernetesVersion: KubernetesVersion;

  private readonly props: ValidatingPolicyBindingProps;

  public constructor(scope: Construct, id: string, props: ValidatingPolicyBindingProps) {
    super(scope, id);
    this.props = props;
    this.policy = props.policy;
    this.kubernetesVersion = props.kubernetesVersion
      ?? (ValidatingPolicy.isValidatingPolicy(props.policy) ? props.policy.kubernetesVersion : KubernetesVersion.fromContext(this));
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: this.kubernetesVersion.apiVersionFor(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING),
      kind: AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING,
      metadata: objectMetadata(props, this),
      spec: Lazy.any({ produce: () => this.renderSpec() }),
    });
    this.apiObject.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    if (ValidatingPolicy.isValidatingPolicy(props.policy)) this.node.addDependency(props.policy);
    attachChecks({
      construct: this,
      kind: AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING,
      apiObject: this.apiObject,
      kubernetesVersion: this.kubernetesVersion,
      crossChecks: () => this.checkAgainstPolicy(),
    });
  }

  /** The binding's name (`metadata.name`). */
  public get name(): string {
    return this.apiObject.name;
  }

  /** The name of the bound policy (`spec.policyName`). */
  public get policyName(): string {
    return this.policy.name;
  }

  private renderSpec(): wire.ValidatingAdmissionPolicyBindingSpec {
    const p = this.props;
    return {
      policyName: this.policy.name,
      ...(p.paramRef ? { paramRef: renderParamRef(p.paramRef) } : {}),
      ...(p.matchResources ? { matchResources: renderMatchResources(p.matchResources) } : {}),
      validationActions: [...p.validationActions],
    };
  }

  /** Params and blast-radius checks against the bound policy, when it is part of this app. */
  private checkAgainstPolicy(): Violation[] {
    if (!ValidatingPolicy.isValidatingPolicy(this.policy)) return [];
    const binding = readEntry(this.apiObject.toJson(), 0);
    const policy = readEntry(this.policy.apiObject.toJson(), 1);
    if (!binding || !policy) return [];
    return checkBindingAgainstPolicy(binding, policy).map(({ manifestIndex: _, ...v }) => v);
  }
}
