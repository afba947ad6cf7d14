import { ApiObject, ApiObjectMetadata, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { AdmissionKind } from './admission-kind';
import { FailurePolicy, MatchPolicy } from './enums';
import { KubernetesVersion, toKubernetesVersion } from './kubernetes-version';
import { LabelSelector, renderLabelSelector } from './label-selector';
import { MatchCondition, nonEmpty, ParamKind, Variable } from './policy-parts';
import { attachChecks, CheckedApiObject } from './private/admission-checks';
import { objectMetadata } from './private/object-metadata';
import { checkStructKeys, MATCH_CONDITION, MUTATING_POLICY_PROPS, RESOURCE_RULE, VALIDATING_POLICY_PROPS, VARIABLE } from './private/struct-keys';
import { renderResourceRule, ResourceRule } from './resource-rule';
import type * as wire from './wire/admissionregistration';

/** What ValidatingPolicy and MutatingPolicy have in common: what they match, and how they fail. */
export interface AdmissionPolicyProps {
  /**
   * The policy's name (`metadata.name`); bindings refer to it, and audit annotation keys start with it.
   * @default - a name generated from the construct path
   */
  readonly name?: string;

  /**
   * Labels and annotations of the policy. `namespace` is not allowed: policies are cluster-scoped.
   * @default - none besides the chart's labels
   */
  readonly metadata?: ApiObjectMetadata;

  /** The requests the policy applies to; more can be added with `addResourceRule`. */
  readonly resourceRules: ResourceRule[];

  /**
   * Requests the policy never applies to, even if `resourceRules` match them.
   * @default - none
   */
  readonly excludeResourceRules?: ResourceRule[];

  /**
   * Only objects in namespaces whose labels match. Cluster-scoped objects are not filtered by it,
   * except Namespaces, which are matched by their own labels.
   * @default - all namespaces (`{}`)
   */
  readonly namespaceSelector?: LabelSelector;

  /**
   * Only objects whose labels match (the object, or for DELETE the old object).
   * @default - all objects (`{}`)
   */
  readonly objectSelector?: LabelSelector;

  /**
   * How rules match requests made through other versions of a resource.
   * @default MatchPolicy.EQUIVALENT
   */
  readonly matchPolicy?: MatchPolicy;

  /**
   * CEL conditions that must all be true for the policy to run; more with `addMatchCondition`.
   * @default - none
   */
  readonly matchConditions?: MatchCondition[];

  /**
   * Named CEL expressions for the other expressions (`variables.<name>`); more with `addVariable`.
   * Each sees only the variables before it.
   * @default - none
   */
  readonly variables?: Variable[];

  /**
   * The kind of the resources holding the policy's parameters (`params` in expressions).
   * Bindings of a policy with a paramKind must say which parameters to use (`paramRef`).
   * @default - the policy takes no parameters
   */
  readonly paramKind?: ParamKind;

  /**
   * What happens when the policy cannot be evaluated (an expression error, a missing parameter
   * resource, a misconfigured binding): `Fail` rejects the request, `Ignore` lets it through.
   * @default FailurePolicy.FAIL
   */
  readonly failurePolicy?: FailurePolicy;

  /**
   * The Kubernetes version to write the policy for.
   * @default - the context value `cdk8s-admission:kubernetesVersion`, else `KubernetesVersion.LATEST`
   */
  readonly kubernetesVersion?: KubernetesVersion;
}

/** The spec fields both policy kinds render the same way. */
export interface PolicySpecBase {
  readonly failurePolicy: string;
  readonly paramKind?: wire.ParamKind;
  readonly matchConstraints: wire.MatchResources;
  readonly matchConditions?: wire.MatchCondition[];
  readonly variables?: wire.Variable[];
}

/**
 * What ValidatingPolicy and MutatingPolicy share: what they match, their variables and match
 * conditions, their parameters, and how they render and check themselves.
 */
export abstract class AdmissionPolicy extends Construct {
  /** The ApiObject this policy renders to (an escape hatch, e.g. for `addJsonPatch`). */
  public readonly apiObject: ApiObject;

  /** The Kubernetes version the policy is written for. */
  public readonly kubernetesVersion: KubernetesVersion;

  /** The kind of the policy's parameter resources, if it has any. */
  public readonly paramKind?: ParamKind;

  private readonly matchProps: AdmissionPolicyProps;
  private readonly resourceRules: ResourceRule[];
  private readonly excludeResourceRules: ResourceRule[];
  private readonly variables: Variable[];
  private readonly matchConditions: MatchCondition[];

  protected constructor(scope: Construct, id: string, kind: AdmissionKind, props: AdmissionPolicyProps) {
    super(scope, id);
    checkStructKeys(this.node.path, props, kind === AdmissionKind.VALIDATING_ADMISSION_POLICY ? VALIDATING_POLICY_PROPS : MUTATING_POLICY_PROPS);
    this.matchProps = props;
    this.paramKind = props.paramKind;
    this.kubernetesVersion = toKubernetesVersion(props.kubernetesVersion, `${this.node.path}: kubernetesVersion`, () => KubernetesVersion.fromContext(this));
    this.resourceRules = [...props.resourceRules];
    this.excludeResourceRules = [...(props.excludeResourceRules ?? [])];
    this.variables = [...(props.variables ?? [])];
    this.matchConditions = [...(props.matchConditions ?? [])];

    this.apiObject = new CheckedApiObject(this, 'Resource', {
      apiVersion: this.kubernetesVersion.apiVersionFor(kind),
      kind,
      metadata: objectMetadata(props, this),
      spec: Lazy.any({ produce: () => this._renderSpec() }),
    });
    attachChecks({ construct: this, kind, apiObject: this.apiObject, kubernetesVersion: this.kubernetesVersion });
  }

  /** The policy's name (`metadata.name`). */
  public get name(): string {
    return this.apiObject.name;
  }

  /** Adds a variable, visible to the policy's expressions and to the variables added after it. */
  public addVariable(variable: Variable): void {
    checkStructKeys(`${this.node.path}: addVariable`, variable, VARIABLE);
    this.variables.push(variable);
  }

  /** Adds a condition that must be true for the policy to run. */
  public addMatchCondition(condition: MatchCondition): void {
    checkStructKeys(`${this.node.path}: addMatchCondition`, condition, MATCH_CONDITION);
    this.matchConditions.push(condition);
  }

  /** Adds requests the policy applies to. */
  public addResourceRule(...rules: ResourceRule[]): void {
    rules.forEach((rule, i) => checkStructKeys(`${this.node.path}: addResourceRule`, rule, RESOURCE_RULE, { path: `[${i}]` }));
    this.resourceRules.push(...rules);
  }

  /** Adds requests the policy never applies to. */
  public addExcludeResourceRule(...rules: ResourceRule[]): void {
    rules.forEach((rule, i) => checkStructKeys(`${this.node.path}: addExcludeResourceRule`, rule, RESOURCE_RULE, { path: `[${i}]` }));
    this.excludeResourceRules.push(...rules);
  }

  /**
   * The whole spec of the policy, rendered at synth.
   * @internal
   */
  public abstract _renderSpec(): any;

  /**
   * The spec fields both kinds share, with the apiserver's defaults written out.
   * @internal
   */
  public _renderSpecBase(): PolicySpecBase {
    const p = this.matchProps;
    return {
      failurePolicy: p.failurePolicy ?? FailurePolicy.FAIL,
      ...(p.paramKind ? { paramKind: { apiVersion: p.paramKind.apiVersion, kind: p.paramKind.kind } } : {}),
      matchConstraints: {
        resourceRules: this.resourceRules.map(renderResourceRule),
        ...nonEmpty('excludeResourceRules', this.excludeResourceRules.map(renderResourceRule)),
        namespaceSelector: renderLabelSelector(p.namespaceSelector),
        objectSelector: renderLabelSelector(p.objectSelector),
        matchPolicy: p.matchPolicy ?? MatchPolicy.EQUIVALENT,
      },
      ...nonEmpty('matchConditions', this.matchConditions.map((c) => ({ name: c.name, expression: c.expression }))),
      ...nonEmpty('variables', this.variables.map((v) => ({ name: v.name, expression: v.expression }))),
    };
  }
}
