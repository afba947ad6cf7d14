// A review's result keeps a way back to its explanation, for a failing jest matcher to print:
// under a symbol, not enumerable, so that equality, JSON and the jsii runtime do not see it. The
// symbol is global, so that results of another copy of the library work with these matchers.
import { AdmissionResult } from '../admission-result';

const EXPLAIN = Symbol.for('cdk8s-admission.explain');

export function withExplanation(result: AdmissionResult, explain: () => string): AdmissionResult {
  Object.defineProperty(result, EXPLAIN, { value: explain, enumerable: false });
  return result;
}

/** The explanation of a result `review` returned, or undefined for any other object. */
export function explanationOf(result: unknown): string | undefined {
  const explain = result !== null && typeof result === 'object' ? (result as { [EXPLAIN]?: () => string })[EXPLAIN] : undefined;
  return typeof explain === 'function' ? explain() : undefined;
}
