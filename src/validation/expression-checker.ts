import { KubernetesVersion } from '../kubernetes-version';

/** Which expression field is being checked: each has its own CEL environment and result type. */
export enum ExpressionField {
  WEBHOOK_MATCH_CONDITION = 'webhookMatchCondition',
  MATCH_CONDITION = 'matchCondition',
  VARIABLE = 'variable',
  VALIDATION = 'validation',
  MESSAGE_EXPRESSION = 'messageExpression',
  AUDIT_ANNOTATION_VALUE = 'auditAnnotationValue',
  APPLY_CONFIGURATION = 'applyConfiguration',
  JSON_PATCH = 'jsonPatch',
}

/** What an expression may see, as the apiserver declares it for the field. */
export interface ExpressionEnvironment {
  readonly field: ExpressionField;
  /** The policy has a paramKind, so `params` is declared. */
  readonly hasParams: boolean;
  /** The variables declared before this expression (`variables.<name>`), in order. */
  readonly variables: readonly string[];
  readonly kubernetesVersion: KubernetesVersion;
}

/**
 * The seam where CEL checking plugs into the manifest validator. `check` returns error details
 * (e.g. `compilation failed: ERROR: <input>:1:5: undeclared reference to 'x'`), empty when the
 * expression is accepted; the validator reports each as `Invalid value` at the expression's path.
 */
export interface ExpressionChecker {
  check(expression: string, environment: ExpressionEnvironment): string[];
}

/** Accepts every expression: used until a CEL checker is registered. */
export const ACCEPT_ALL_EXPRESSIONS: ExpressionChecker = {
  check: () => [],
};

/** The checker the manifest validator uses. */
export function defaultExpressionChecker(): ExpressionChecker {
  return ACCEPT_ALL_EXPRESSIONS;
}
