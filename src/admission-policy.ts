import { ApiObject, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { attachChecks, CheckedApiObject } from './admission-checks';
import { AdmissionKind } from './admission-kind';
import { FailurePolicy, MatchPolicy } from './enums';
import { KubernetesVersion, toKubernetesVersion } from './kubernetes-version';
import { renderLabelSelector } from './label-selector';
import { objectMetadata } from './object-metadata';
import { MatchCondition, nonEmpty, ParamKind, Variable } from './policy-parts';
import { AdmissionPolicyProps } from './policy-props';
import { renderResourceRule, ResourceRule } from './resource-rule';
import { checkStructKeys, MATCH_CONDITION, MUTATING_POLICY_PROPS, RESOURCE_RULE, VALIDATING_POLICY_PROPS, VARIABLE } from './struct-keys';
import type * as wire from './wire/admissionregistration';

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
