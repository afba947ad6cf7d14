// Closed choices of admissionregistration.k8s.io fields. Values are the Kubernetes spellings.

/** An operation an admission rule matches. */
export enum Operation {
  CREATE = 'CREATE',
  UPDATE = 'UPDATE',
  DELETE = 'DELETE',
  CONNECT = 'CONNECT',
  /** Every operation (`*`). */
  ALL = '*',
}

/** What happens when a policy or webhook fails to evaluate (not when it rejects). */
export enum FailurePolicy {
  /** Reject the request. */
  FAIL = 'Fail',
  /** Let the request through. */
  IGNORE = 'Ignore',
}

/** How rules match requests made through other API versions of the same resource. */
export enum MatchPolicy {
  /** Only the group, version and resource in the rules. */
  EXACT = 'Exact',
  /** Also equivalent resources in other groups or versions, converted to a matched version. */
  EQUIVALENT = 'Equivalent',
}

/** The scope of the resources a rule matches. */
export enum RuleScope {
  CLUSTER = 'Cluster',
  NAMESPACED = 'Namespaced',
  /** Both (`*`). */
  ALL = '*',
}

/** What a ValidatingAdmissionPolicyBinding does with a failed validation. */
export enum ValidationAction {
  /** Reject the request. */
  DENY = 'Deny',
  /** Return a warning to the client. */
  WARN = 'Warn',
  /** Record the failure in the audit event. */
  AUDIT = 'Audit',
}

/** The HTTP reason a failed validation reports. */
export enum ValidationReason {
  FORBIDDEN = 'Forbidden',
  INVALID = 'Invalid',
  REQUEST_ENTITY_TOO_LARGE = 'RequestEntityTooLarge',
}

/** What a binding does when its param resource is not found. */
export enum ParameterNotFoundAction {
  ALLOW = 'Allow',
  DENY = 'Deny',
}

/** Whether a mutation runs again when a later mutation changed the object. */
export enum ReinvocationPolicy {
  NEVER = 'Never',
  IF_NEEDED = 'IfNeeded',
}

/** What a webhook does besides answering. */
export enum SideEffects {
  NONE = 'None',
  /** Side effects, skipped for dry-run requests. */
  NONE_ON_DRY_RUN = 'NoneOnDryRun',
}

/** How a MutatingAdmissionPolicy mutation is expressed. */
export enum PatchType {
  APPLY_CONFIGURATION = 'ApplyConfiguration',
  JSON_PATCH = 'JSONPatch',
}
