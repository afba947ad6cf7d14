import { ApiObject, ApiObjectMetadata, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { AdmissionKind } from './admission-kind';
import { AdmissionPolicy } from './admission-policy';
import { KubernetesVersion, toKubernetesVersion } from './kubernetes-version';
import { MatchResources, ParamRef, renderMatchResources, renderParamRef } from './policy-parts';
import { attachChecks, CheckedApiObject, checkedObjectsNamed } from './private/admission-checks';
import { objectMetadata } from './private/object-metadata';
import { staticChartOf } from './private/static-scope';
import { checkStructKeys, MUTATING_POLICY_BINDING_PROPS, VALIDATING_POLICY_BINDING_PROPS } from './private/struct-keys';
import { checkBindingPolicyName, readEntry } from './validation/cross-object';
import { missingStaticPolicy } from './validation/static-manifests';
import { Violation, ViolationSeverity } from './validation/violation';
import type * as wire from './wire/admissionregistration';

/** What every policy binding can say. */
export interface AdmissionPolicyBindingOptions {
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
   * @default - the policy's version when it is a policy of this app, else the context value `cdk8s-admission:kubernetesVersion`, else `KubernetesVersion.LATEST`
   */
  readonly kubernetesVersion?: KubernetesVersion;
}

/** The spec fields both binding kinds render the same way. */
export interface BindingSpecBase {
  readonly policyName: string;
  readonly paramRef?: wire.ParamRef;
  readonly matchResources?: wire.MatchResources;
}

/**
 * What ValidatingPolicyBinding and MutatingPolicyBinding share: the policy they bind, its
 * parameters and scope, and the checks against the policy when it is part of the app.
 */
export abstract class AdmissionPolicyBinding extends Construct {
  /** The ApiObject this binding renders to (an escape hatch, e.g. for `addJsonPatch`). */
  public readonly apiObject: ApiObject;

  /** The Kubernetes version the binding is written for. */
  public readonly kubernetesVersion: KubernetesVersion;

  /** The name of the bound policy (`spec.policyName`). */
  public readonly policyName: string;

  private readonly options: AdmissionPolicyBindingOptions;
  private readonly localPolicy?: AdmissionPolicy;

  /**
   * @param policyName the name of the policy to bind
   * @param localPolicy the policy, when it is defined in this app (for ordering and cross-object checks)
   */
  protected constructor(
    scope: Construct, id: string, kind: AdmissionKind, options: AdmissionPolicyBindingOptions, policyName: string, localPolicy?: AdmissionPolicy,
  ) {
    super(scope, id);
    const shape = kind === AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING ? VALIDATING_POLICY_BINDING_PROPS : MUTATING_POLICY_BINDING_PROPS;
    checkStructKeys(this.node.path, options, shape);
    this.options = options;
    this.policyName = policyName;
    this.localPolicy = localPolicy;
    this.kubernetesVersion = toKubernetesVersion(options.kubernetesVersion, `${this.node.path}: kubernetesVersion`,
      () => this.localPolicy?.kubernetesVersion ?? KubernetesVersion.fromContext(this));
    this.apiObject = new CheckedApiObject(this, 'Resource', {
      apiVersion: this.kubernetesVersion.apiVersionFor(kind),
      kind,
      metadata: objectMetadata(options, this),
      spec: Lazy.any({ produce: () => this._renderSpec() }),
    });
    // Between the two ApiObjects rather than the two constructs: the same order in the output,
    // without cdk8s expanding a construct dependency over both subtrees at every synthesis.
    if (this.localPolicy) this.apiObject.node.addDependency(this.localPolicy.apiObject);
    attachChecks({
      construct: this,
      kind,
      apiObject: this.apiObject,
      kubernetesVersion: this.kubernetesVersion,
      crossChecks: () => this.checkAgainstPolicy(),
    });
  }

  /** The binding's name (`metadata.name`). */
  public get name(): string {
    return this.apiObject.name;
  }

  /**
   * The whole spec of the binding, rendered at synth.
   * @internal
   */
  public abstract _renderSpec(): any;

  /**
   * The spec fields both kinds share.
   * @internal
   */
  public _renderSpecBase(): BindingSpecBase {
    const o = this.options;
    return {
      policyName: this.policyName,
      ...(o.paramRef ? { paramRef: renderParamRef(o.paramRef) } : {}),
      ...(o.matchResources ? { matchResources: renderMatchResources(o.matchResources) } : {}),
    };
  }

  /**
   * Params, blast-radius and version checks against the bound policy, when it is part of this app:
   * given as the construct, or named (`fromPolicyName`) by a policy defined elsewhere in the app.
   * A name that only a policy of the other kind has is an error.
   */
  private checkAgainstPolicy(): Violation[] {
    // The specs as the constructs render them: what the checks read, without resolving both objects again.
    const binding = readEntry({ kind: this.apiObject.kind, metadata: { name: this.name }, spec: this._renderSpec() }, 0);
    if (!binding) return [];
    const policyIn = (kind: AdmissionKind): AdmissionPolicy | undefined => {
      if (this.localPolicy?.apiObject.kind === kind) return this.localPolicy;
      return checkedObjectsNamed(this, kind, this.policyName)
        .map((o) => o.construct)
        .find((c): c is AdmissionPolicy => c instanceof AdmissionPolicy);
    };
    const entryOf = (policy: AdmissionPolicy) =>
      readEntry({ kind: policy.apiObject.kind, metadata: { name: policy.name }, spec: policy._renderSpec() }, 1);
    const policyKind = this.apiObject.kind === AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING
      ? AdmissionKind.VALIDATING_ADMISSION_POLICY : AdmissionKind.MUTATING_ADMISSION_POLICY;
    const bound = policyIn(policyKind);
    const found = checkBindingPolicyName(binding, (kind) => {
      const policy = policyIn(kind);
      return policy ? entryOf(policy) : undefined;
    }).map(({ manifestIndex: _, ...v }) => v);
    const checks = bound ? [...this.versionMismatch(bound), ...found] : found;
    const chart = staticChartOf(this);
    if (!chart) return checks;
    // A static binding: the loader forbids params outright, and binds only a policy of its own directory.
    const staticChecks = checks.filter((v) => v.path !== 'spec.paramRef');
    if (bound && staticChartOf(bound) === chart) return staticChecks;
    const missing = missingStaticPolicy(this.policyName);
    return [...staticChecks, { path: missing.path.toString(), message: `${missing.message} (this StaticAdmissionChart is ${chart.node.path})`, severity: missing.severity }];
  }

  private versionMismatch(policy: AdmissionPolicy): Violation[] {
    if (policy.apiObject.apiVersion === this.apiObject.apiVersion) return [];
    return [{
      path: 'apiVersion',
      message: `${this.apiObject.apiVersion} differs from the bound policy's ${policy.apiObject.apiVersion} `
        + `(${policy.node.path}): the binding targets Kubernetes ${this.kubernetesVersion}, the policy ${policy.kubernetesVersion}; `
        + (policy === this.localPolicy
          ? 'drop the binding\'s kubernetesVersion to follow the policy'
          : `set the binding's kubernetesVersion to ${policy.kubernetesVersion}`),
      severity: ViolationSeverity.WARNING,
    }];
  }
}
