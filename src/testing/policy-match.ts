import { AdmissionKind } from '../admission-kind';

/** What kept a policy from acting on a request. */
export enum MatchMiss {
  /** No binding names the policy: the apiserver never evaluates it. */
  NO_BINDING = 'NoBinding',
  /** The request is for an admission policy or binding, which the apiserver exempts from every policy. */
  EXEMPT = 'Exempt',
  /** The request's operation is not among the rules' operations. */
  OPERATION = 'Operation',
  /** The request's group, version, resource or subresource is not among the rules'. */
  RESOURCE = 'Resource',
  /** The resource is namespaced and the rules ask for cluster-scoped resources, or the other way round. */
  SCOPE = 'Scope',
  /** The object's name is not among the rules' resourceNames. */
  RESOURCE_NAME = 'ResourceName',
  /** The namespace's labels fail the namespace selector. */
  NAMESPACE_SELECTOR = 'NamespaceSelector',
  /** Neither the object's nor the old object's labels match the object selector. */
  OBJECT_SELECTOR = 'ObjectSelector',
  /** An exclude rule covers the request. */
  EXCLUDED = 'Excluded',
  /** A match condition is false (or erred, under failurePolicy Ignore). */
  MATCH_CONDITION = 'MatchCondition',
  /** The binding's params were not found, and its parameterNotFoundAction is Allow (or failurePolicy Ignore). */
  PARAMS_NOT_FOUND = 'ParamsNotFound',
  /** A policy that ran before denied the request, so this one was not reached (validating policies after a mutating denial). */
  NOT_REACHED = 'NotReached',
}

/**
 * Whether one policy, through one of its bindings, acted on a request and, when it did not,
 * the first reason.
 *
 * A policy acts when its constraints and the binding's matchResources select the request and its
 * match conditions hold (for at least one of the binding's params): its validations or mutations
 * ran. A policy whose binding cannot find its params under `parameterNotFoundAction: Deny`, or
 * whose match condition erred under `failurePolicy: Fail`, acted too: it denied the request.
 */
export interface PolicyMatch {
  /** `ValidatingAdmissionPolicy` or `MutatingAdmissionPolicy`. */
  readonly policyKind: AdmissionKind;
  /** The policy's name. */
  readonly policy: string;
  /**
   * The binding's name.
   * @default - no binding names the policy (`miss` is NO_BINDING)
   */
  readonly binding?: string;
  /** True when the policy acted on the request through this binding. */
  readonly matched: boolean;
  /**
   * What kept the policy from acting.
   * @default - it acted
   */
  readonly miss?: MatchMiss;
  /**
   * The field of the policy or binding (as `reason` says) that kept it from acting:
   * `spec.matchConstraints.resourceRules[0].operations`, `spec.matchResources.namespaceSelector.matchExpressions[0]`,
   * `spec.matchConditions[1]`.
   * @default - it acted, or no field is at fault (NO_BINDING, EXEMPT, NOT_REACHED)
   */
  readonly field?: string;
  /**
   * A sentence saying why it did not act: `operation DELETE is not in spec.matchConstraints.resourceRules[0].operations [CREATE, UPDATE]`.
   * @default - it acted
   */
  readonly reason?: string;
}
