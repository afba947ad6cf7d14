import { ExpressionField } from './expression-field';
import { CelExpressionChecker } from '../cel/checker';
import { KubernetesVersion } from '../kubernetes-version';

export { ExpressionField } from './expression-field';

/** What an expression may see, as the apiserver declares it for the field. */
export interface ExpressionEnvironment {
  readonly field: ExpressionField;
  /** The policy has a paramKind, so `params` is declared. */
  readonly hasParams: boolean;
  /**
   * The variables declared before this expression (`variables.<name>`), in order. Read during the
   * call only: the validator appends to the same list as it goes.
   */
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

/** Accepts every expression (for tests of rules that do not concern CEL). */
export const ACCEPT_ALL_EXPRESSIONS: ExpressionChecker = {
  check: () => [],
};

/**
 * The checker the manifest validator uses: CEL compiled in the apiserver's environment for the
 * field (src/cel/). One per manifest, as it carries the manifest's variable types forward.
 */
export function defaultExpressionChecker(): ExpressionChecker {
  return new CelExpressionChecker();
}
