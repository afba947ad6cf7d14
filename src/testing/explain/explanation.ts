import { AdmissionResult } from '../admission-result';
import { PolicyMatch } from '../policy-match';

/** One sub-expression of an expression that was false or failed, with the value it had. */
export interface ExplainedStep {
  /** The sub-expression as written: `object.spec.replicas <= int(params.data.maxReplicas)`. */
  readonly expression: string;
  /**
   * Its value, as a CEL literal (`6`, `"5"`, `[1, 2]`), cut short past 120 characters.
   * @default - it failed (see `error`) or was not evaluated
   */
  readonly value?: string;
  /**
   * Its error, as the apiserver words it.
   * @default - it has a value, or was not evaluated
   */
  readonly error?: string;
  /** False when evaluation never reached it: a short-circuited `&&`/`||` operand, a ternary arm not taken. */
  readonly evaluated: boolean;
  /** How many macro iterations it is nested in (0 outside any macro). */
  readonly depth: number;
  /**
   * For a binary operator, the operation on its operands' values: `6 <= 5`.
   * @default - not a binary operator, or an operand failed
   */
  readonly operation?: string;
  /**
   * For the body of a macro, the iteration that decided it: `all(c, ...) at index 1, c = {...}`
   * (the first element `all` found false, the first `exists` found true, or the one that failed).
   * @default - not a macro's body
   */
  readonly iteration?: string;
}

/** One expression a policy evaluated for a request, with its value or error. */
export interface ExplainedExpression {
  /** Its field in the policy: `spec.validations[0].expression`, `spec.matchConditions[1].expression`. */
  readonly field: string;
  /** The expression as written. */
  readonly expression: string;
  /**
   * Its value, as a CEL literal.
   * @default - it failed (see `error`)
   */
  readonly value?: string;
  /**
   * Its error (a compilation error, a run-time error, the cost budget spent).
   * @default - it has a value
   */
  readonly error?: string;
  /** Its sub-expressions with their values, in evaluation order, when it was false or failed; empty otherwise. */
  readonly steps: ExplainedStep[];
}

/** One evaluation of a policy through a binding, with one of its params. */
export interface ExplainedEvaluation {
  /**
   * The param object it ran with: `team-a/limits`, or `limits` for a cluster-scoped one.
   * @default - the policy has no paramKind
   */
  readonly params?: string;
  /** True for a mutating policy run again by reinvocation (`reinvocationPolicy: IfNeeded`). */
  readonly reinvocation: boolean;
  /** The expressions it evaluated, in the order it evaluated them (variables when first read). */
  readonly expressions: ExplainedExpression[];
}

/** One policy through one of its bindings: whether it acted and, for each of its evaluations, what its expressions gave. */
export interface ExplainedPolicy {
  /** Whether it acted, and if not, why (the entry of `AdmissionResult.policies`). */
  readonly match: PolicyMatch;
  /** Its evaluations: one per param (one without params), and reinvocations; empty when it did not get as far as its expressions. */
  readonly evaluations: ExplainedEvaluation[];
}

/** A review's decision with how it was reached. */
export interface Explanation {
  /** The request, in a line: `CREATE apps/v1 deployments team-a/web by test-user`. */
  readonly request: string;
  /** The decision, as `review` returns it. */
  readonly result: AdmissionResult;
  /** Every policy and binding of the tester, mutating ones first, each in name order. */
  readonly policies: ExplainedPolicy[];
  /** The whole explanation as readable text (what `PolicyTester.explain` returns). */
  readonly text: string;
}
