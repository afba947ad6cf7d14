// What a review evaluated, policy by policy, for its explanation: the tester hands each binding
// evaluation an observer from here, and the recorder keeps what the observer is told.
import { AdmissionResult } from '../admission-result';
import type { Evaluation, ExpressionObserver } from '../cel-runtime';
import { PolicyKind, ReviewObserver } from '../review-observer';
import { celErrorLine, celValueText } from './cel-value-text';
import { EvaluationTrace, outcomeOf } from './evaluation-trace';
import { ExplainedEvaluation, ExplainedExpression, Explanation } from './explanation';
import { explanationText } from './explanation-text';
import { expressionSteps } from './expression-steps';

export class ReviewRecorder implements ReviewObserver {
  private readonly evaluations = new Map<string, ExplainedEvaluation[]>();
  private request = '';

  /** The request, as the explanation's first line says it. */
  public requested(description: string): void {
    this.request = description;
  }

  /** An observer for one evaluation of a policy through a binding, with one param. */
  public evaluation(kind: PolicyKind, policy: string, binding: string, param: unknown, reinvocation: boolean): ExpressionObserver {
    const expressions: ExplainedExpression[] = [];
    const key = evaluationKey(kind, policy, binding);
    const list = this.evaluations.get(key) ?? [];
    list.push({ ...paramName(param), reinvocation, expressions });
    this.evaluations.set(key, list);
    return (field, expression, outcome, trace) => expressions.push(explained(field, expression, outcome, trace));
  }

  public explanation(result: AdmissionResult): Explanation {
    const policies = result.policies.map((match) => ({
      match,
      evaluations: match.binding === undefined ? [] : this.evaluations.get(evaluationKey(match.policyKind, match.policy, match.binding)) ?? [],
    }));
    const partial = { request: this.request, result, policies };
    return { ...partial, text: explanationText(partial) };
  }
}

function explained(field: string, expression: string, outcome: Evaluation, trace: EvaluationTrace | undefined): ExplainedExpression {
  const root = trace ? outcomeOf(trace) : undefined;
  const result = root
    ? (root.failed ? { error: celErrorLine(root.error) } : { value: celValueText(root.value) })
    : ('error' in outcome ? { error: outcome.error } : { value: celValueText(outcome.value) });
  // Sub-expressions explain what went wrong: a false result or an error.
  const explains = trace !== undefined && (root!.failed || root!.value === false);
  return { field, expression, ...result, steps: explains ? expressionSteps(trace!) : [] };
}

function paramName(param: unknown): { params?: string } {
  const meta = (param as { metadata?: { name?: string; namespace?: string } } | undefined)?.metadata;
  if (!meta) return {};
  return { params: meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : meta.name ?? '' };
}

function evaluationKey(kind: string, policy: string, binding: string): string {
  return JSON.stringify([kind, policy, binding]);
}
