import { PolicyMatch } from './policy-match';

/** One validation that denied a request. */
export interface PolicyDenial {
  /** The name of the policy (ValidatingAdmissionPolicy, or MutatingAdmissionPolicy for a failed mutation). */
  readonly policy: string;
  /** The binding's name. */
  readonly binding: string;
  /** The message the apiserver returns: `ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ...`. */
  readonly message: string;
  /** The validation's own message (from messageExpression, message, or `failed expression: ...`). */
  readonly validationMessage: string;
  /**
   * The reason of the apiserver's response: the validation's (`Invalid` by default); `Invalid` for
   * evaluation and configuration errors of validating policies and for failed mutations;
   * `Forbidden` for configuration errors of mutating policies (a binding's missing params).
   */
  readonly reason: string;
  /** The HTTP status code of the apiserver's response for this denial: 403, 401, 413 or 422, from the reason. */
  readonly code: number;
  /**
   * The index of the failing validation in `spec.validations`.
   * @default - not a validation (a match condition, parameter or evaluation failure)
   */
  readonly expressionIndex?: number;
}

/** What admission control decided for a request. */
export interface AdmissionResult {
  /** True when no policy denied the request. */
  readonly allowed: boolean;
  /** Every denial, in policy and validation order. */
  readonly denials: PolicyDenial[];
  /** The warnings returned to the client (`Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': ...`). */
  readonly warnings: string[];
  /** The audit annotations recorded: `<policy>/<key>` and `validation.policy.admission.k8s.io/validation_failure`. */
  readonly auditAnnotations: { [key: string]: string };
  /**
   * For every policy and each of its bindings, whether the policy acted on the request and, if
   * not, the first reason: mutating policies first, then validating ones, each in name order.
   */
  readonly policies: PolicyMatch[];
  /**
   * The object after the mutating policies (defaulted, as the apiserver defaults it after each
   * mutation), when any mutated it.
   * @default - no mutation
   */
  readonly patchedObject?: any;
  /**
   * The object as the validating policies saw it: decoded and defaulted for its version, changed
   * by the default admission plugins and the mutating policies, and prepared for storage (a new
   * UID and creation time on CREATE, the kind's strategy: status, generation, ...).
   * @default - no object (DELETE, CONNECT without one, or a request exempt from policies)
   */
  readonly admittedObject?: any;
}
