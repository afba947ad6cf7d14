import { CelExpressionChecker } from '../../src/cel/checker';
import { KubernetesVersion } from '../../src/kubernetes-version';
import { ExpressionField } from '../../src/shared/expression-field';

export { ExpressionField };

export interface CheckOptions {
  readonly field?: ExpressionField;
  readonly params?: boolean;
  /** Variables before the expression, as [name, expression], checked first (in order). */
  readonly variables?: ReadonlyArray<readonly [string, string]>;
  /** Target Kubernetes version, e.g. '1.30'. Default: the newest. */
  readonly version?: string;
}

/** The error details for `expression` in the field's environment (empty = accepted). */
export function check(expression: string, options: CheckOptions = {}): string[] {
  const checker = new CelExpressionChecker();
  const kubernetesVersion = options.version ? KubernetesVersion.of(options.version) : KubernetesVersion.LATEST;
  const names: string[] = [];
  const hasParams = options.params ?? false;
  for (const [name, variable] of options.variables ?? []) {
    const problems = checker.check(variable, { field: ExpressionField.VARIABLE, hasParams, variables: [...names], kubernetesVersion }).errors;
    if (problems.length > 0) throw new Error(`variable ${name} does not compile: ${problems.join('; ')}`);
    names.push(name);
  }
  return checker.check(expression, { field: options.field ?? ExpressionField.VALIDATION, hasParams, variables: names, kubernetesVersion }).errors;
}

export function expectAccepted(expression: string, options?: CheckOptions): void {
  expect(check(expression, options)).toEqual([]);
}

/** Expects exactly one error detail containing `detail`. */
export function expectRejected(expression: string, detail: string, options?: CheckOptions): void {
  const problems = check(expression, options);
  expect(problems).toHaveLength(1);
  expect(problems[0]).toContain(detail);
}

/** The first line of a compile error: `compilation failed: ERROR: <input>:L:C: message`. */
export function headline(expression: string, options?: CheckOptions): string {
  return (check(expression, options)[0] ?? '').split('\n')[0];
}

export const ALL_FIELDS: readonly ExpressionField[] = Object.values(ExpressionField);
