import { ApiObjectMetadata } from 'cdk8s';
import { FailurePolicy, MatchPolicy } from './enums';
import { KubernetesVersion } from './kubernetes-version';
import { LabelSelector } from './label-selector';
import { MatchCondition, ParamKind, Variable } from './policy-parts';
import { ResourceRule } from './resource-rule';

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
