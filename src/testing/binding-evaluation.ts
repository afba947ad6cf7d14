// What both dispatchers do for one binding of a policy: whether the policy's matchConstraints and
// the binding's matchResources select the request (generic/policy_matcher.go), the binding's
// params (generic/policy_dispatcher.go), its match conditions (plugin/cel/matchconditions), and the
// denial a failure becomes. Paths are under k8s.io/apiserver pkg/admission/plugin/policy/.
import { AdmissionResult, PolicyDenial } from './admission-result';
import { EvaluationScope } from './cel-runtime';
import { CostBudget, MATCH_CONDITIONS_BUDGET } from './cost-meter';
import { MatchLog } from './match-log';
import { matchResourcesMismatch, Mismatch, RequestAttributes } from './matching';
import { MatchMiss } from './policy-match';
import { Named } from './policy-set';
import { builtInResource, groupVersionKind } from './resource-table';
import { PolicyKind } from './review-observer';
import { ExpressionField } from '../shared/expression-field';
import type * as wire from '../wire/admissionregistration';

/** The apiserver's text for a binding whose params are missing under parameterNotFoundAction Deny. */
export const NO_PARAMS = 'no params found for policy binding with `Deny` parameterNotFoundAction';

/** The HTTP status codes of the reasons a denial can have (the apiserver's reasonToCode). */
const CODES: { readonly [reason: string]: number } = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };

/** A decision of the dispatchers, before the tester adds the match verdicts and objects. */
export type Decision = Omit<AdmissionResult, 'patchedObject' | 'admittedObject' | 'policies'>;

/** A denial by `who` (the policy and binding, as the dispatcher names them). */
export function denial(
  who: string, policy: string, binding: string, validationMessage: string, reason: string, expressionIndex?: number, code?: number,
): PolicyDenial {
  return {
    policy,
    binding,
    validationMessage,
    reason,
    code: code ?? CODES[reason] ?? 422,
    message: `${who} denied request: ${validationMessage}`,
    ...(expressionIndex !== undefined ? { expressionIndex } : {}),
  };
}

/**
 * Records why the policy's constraints or the binding's matchResources do not select the
 * request, and says whether they did not.
 */
export function logMismatch(
  log: MatchLog | undefined, kind: PolicyKind, spec: { matchConstraints?: wire.MatchResources }, policyName: string, bindingName: string,
  binding: Named<{ matchResources?: wire.MatchResources }>, a: RequestAttributes,
): boolean {
  const constraints = spec.matchConstraints;
  const policyMiss: Mismatch | undefined = constraints
    ? matchResourcesMismatch(constraints, a, true, 'spec.matchConstraints')
    : { miss: 'Resource', field: 'spec.matchConstraints', reason: 'the policy has no spec.matchConstraints: it matches nothing' };
  if (policyMiss) {
    log?.mismatched(kind, policyName, bindingName, policyMiss, 'policy');
    return true;
  }
  const bindingMatch = binding.spec?.matchResources;
  const bindingMiss = bindingMatch ? matchResourcesMismatch(bindingMatch, a, false, 'spec.matchResources') : undefined;
  if (bindingMiss) log?.mismatched(kind, policyName, bindingName, bindingMiss, 'binding');
  return bindingMiss !== undefined;
}

/** How a binding's match conditions decide: all hold, or one is false or erred (and, under Fail, denied). */
export type ConditionOutcome =
  | { readonly holds: true }
  | { readonly holds: false; readonly denied: boolean; readonly field: string; readonly reason: string };

/**
 * Any false match condition skips the policy; errors (with none false) skip it under
 * failurePolicy Ignore and fail the request under Fail, with every error (one as it is, several
 * as `[e1, e2]`, as the apiserver aggregates them).
 */
export function matchConditions(
  conditions: readonly wire.MatchCondition[], scope: EvaluationScope, failurePolicy: string | undefined, onError: (message: string) => void,
): ConditionOutcome {
  const errors: string[] = [];
  let firstError: { field: string; reason: string } | undefined;
  const conditionScope = scope.forMatchConditions(new CostBudget(MATCH_CONDITIONS_BUDGET));
  for (const [i, c] of conditions.entries()) {
    const result = conditionScope.evaluate(c.expression, ExpressionField.MATCH_CONDITION, `spec.matchConditions[${i}].expression`);
    if ('error' in result) {
      const message = errorMessage(c.expression, result);
      errors.push(message);
      firstError ??= { field: `spec.matchConditions[${i}]`, reason: `match condition '${c.name}' failed: ${message}` };
      continue;
    }
    if (result.value !== true) return { holds: false, denied: false, field: `spec.matchConditions[${i}]`, reason: `match condition '${c.name}' is false` };
  }
  if (errors.length === 0) return { holds: true };
  if (failurePolicy === 'Ignore') return { holds: false, denied: false, field: firstError!.field, reason: `${firstError!.reason} (failurePolicy Ignore)` };
  onError(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  return { holds: false, denied: true, ...firstError! };
}

/** A policy acted when its conditions held, or when their errors denied the request. */
export function logConditions(log: MatchLog, kind: PolicyKind, policyName: string, bindingName: string, outcome: ConditionOutcome): void {
  if (outcome.holds || outcome.denied) {
    log.acted(kind, policyName, bindingName);
  } else {
    log.missed(kind, policyName, bindingName, MatchMiss.MATCH_CONDITION, `policy '${policyName}': ${outcome.reason}`, outcome.field);
  }
}

/** A binding without its params acted when that denied the request (parameterNotFoundAction Deny, or a configuration error, under Fail). */
export function logMissingParams(
  log: MatchLog, kind: PolicyKind, policyName: string, bindingName: string,
  params: { readonly kind: 'notFound'; readonly action: string } | { readonly kind: 'error'; readonly message: string }, failsClosed: boolean,
): void {
  if (failsClosed && (params.kind === 'error' || params.action === 'Deny')) {
    log.acted(kind, policyName, bindingName);
  } else if (params.kind === 'error') {
    log.missed(kind, policyName, bindingName, MatchMiss.PARAMS_NOT_FOUND, `binding '${bindingName}': ${params.message} (failurePolicy Ignore)`, 'spec.paramRef');
  } else {
    const why = params.action === 'Deny' ? 'failurePolicy Ignore' : 'parameterNotFoundAction Allow';
    log.missed(kind, policyName, bindingName, MatchMiss.PARAMS_NOT_FOUND, `binding '${bindingName}': no params found for spec.paramRef (${why})`, 'spec.paramRef');
  }
}

/** An evaluation error as the apiserver words it: compile errors as they are, runtime errors with their expression. */
export function errorMessage(expression: string, result: { readonly error: string; readonly compilation?: boolean }): string {
  return result.compilation ? result.error : `expression '${expression}' resulted in error: ${result.error}`;
}

/** Whether a paramKind is namespaced, for the built-in kinds; undefined (decided from the param objects) otherwise. */
export function paramKindNamespaced(paramKind: wire.ParamKind | undefined): boolean | undefined {
  const gvk = paramKind ? groupVersionKind(paramKind) : undefined;
  return gvk ? builtInResource(gvk)?.namespaced : undefined;
}
