import { AdmissionKind } from '../admission-kind';
import { AdmissionRequest } from './admission-request';
import { PolicyDenial } from './admission-result';
import {
  Decision, denial, errorMessage, logConditions, logMismatch, logMissingParams, matchConditions, NO_PARAMS, paramKindNamespaced,
} from './binding-evaluation';
import { BUDGET_EXCEEDED, CelRuntime, EvaluationScope } from './cel-runtime';
import { MatchLog } from './match-log';
import { RequestAttributes } from './matching';
import { resolveParams } from './params';
import { PolicySet } from './policy-set';
import { RequestModel } from './request-model';
import { ReviewObserver } from './review-observer';
import { ExpressionField } from '../shared/expression-field';
import type * as wire from '../wire/admissionregistration';

const AUDIT_FAILURE_KEY = 'validation.policy.admission.k8s.io/validation_failure';
const MAX_MESSAGE_BYTES = 5 * 1024;
const KIND = AdmissionKind.VALIDATING_ADMISSION_POLICY;

/** What a validating policy's invocations decide, gathered across bindings and params. */
interface ValidatingDecision {
  readonly denials: PolicyDenial[];
  readonly warnings: string[];
  readonly auditAnnotations: { [key: string]: string };
  readonly auditFailures: object[];
}

/**
 * The validating policies, as the apiserver's validating dispatcher runs them
 * (k8s.io/apiserver pkg/admission/plugin/policy/validating/dispatcher.go): every binding that
 * selects the request, once per param, its validations reported through the binding's
 * validationActions, and the decisions of all bindings together.
 */
export class ValidatingDispatcher {
  constructor(
    private readonly policies: PolicySet,
    private readonly requests: RequestModel,
    private readonly runtime: CelRuntime,
    private readonly manifests: readonly any[],
  ) {}

  public dispatch(request: AdmissionRequest, a: RequestAttributes, object: unknown, log: MatchLog, recorder: ReviewObserver | undefined): Decision {
    const decision: ValidatingDecision = { denials: [], warnings: [], auditAnnotations: {}, auditFailures: [] };
    const base = this.requests.activation(request, a, object);
    this.policies.eachBinding<wire.ValidatingAdmissionPolicySpec>(KIND, log, (spec, policyName, bindingName, binding) => {
      if (logMismatch(log, KIND, spec, policyName, bindingName, binding, a)) return;
      const actions: string[] = binding.spec?.validationActions ?? [];
      const failsClosed = spec.failurePolicy !== 'Ignore';
      const params = resolveParams(spec.paramKind, binding.spec?.paramRef, this.manifests, a.namespace, paramKindNamespaced(spec.paramKind));
      if (params.kind === 'notFound' || params.kind === 'error') {
        // A configuration error denies whatever the validationActions (under Fail).
        if (failsClosed && (params.kind === 'error' || params.action === 'Deny')) {
          const message = params.kind === 'error' ? params.message : NO_PARAMS;
          decision.denials.push(denial(who(policyName, bindingName), policyName, bindingName, `failed to configure binding: ${message}`, 'Invalid'));
        }
        logMissingParams(log, KIND, policyName, bindingName, params, failsClosed);
        return;
      }
      const hasParams = params.kind === 'objects';
      for (const param of hasParams ? params.objects : [undefined]) {
        const observer = recorder?.evaluation(KIND, policyName, bindingName, param, false);
        const scope = this.runtime.scope(spec.variables ?? [], hasParams, hasParams ? { ...base, params: param ?? null } : base, undefined, observer);
        invoke(spec, policyName, bindingName, actions, scope, decision, log);
      }
    });
    const { denials, warnings, auditAnnotations, auditFailures } = decision;
    if (auditFailures.length > 0) auditAnnotations[AUDIT_FAILURE_KEY] = JSON.stringify(auditFailures);
    return { allowed: denials.length === 0, denials, warnings, auditAnnotations };
  }
}

/**
 * One evaluation of a validating policy (a binding with one of its params): match conditions,
 * validations and audit annotations, reported through the binding's validationActions.
 */
function invoke(
  spec: wire.ValidatingAdmissionPolicySpec, policyName: string, bindingName: string, actions: readonly string[],
  scope: EvaluationScope, decision: ValidatingDecision, log: MatchLog,
): void {
  const name = who(policyName, bindingName);
  const fail = (validationMessage: string, reason: string, expressionIndex?: number) => {
    if (actions.includes('Deny')) decision.denials.push(denial(name, policyName, bindingName, validationMessage, reason, expressionIndex));
    // The apiserver's warning recorder drops a text it already has (several params, the same failure).
    const warning = `Validation failed for ${name}: ${validationMessage}`;
    if (actions.includes('Warn') && !decision.warnings.includes(warning)) decision.warnings.push(warning);
    if (actions.includes('Audit')) {
      decision.auditFailures.push({
        message: validationMessage,
        policy: policyName,
        binding: bindingName,
        // A failure that is not a validation's (a match condition's error) is the policy's only decision.
        expressionIndex: expressionIndex ?? 0,
        validationActions: actions,
      });
    }
  };
  const failsClosed = spec.failurePolicy !== 'Ignore';
  const conditions = matchConditions(spec.matchConditions ?? [], scope, spec.failurePolicy, (m) => fail(m, 'Invalid'));
  logConditions(log, KIND, policyName, bindingName, conditions);
  if (!conditions.holds) return;
  // Failures are reported once every validation ran: running out of the binding's budget
  // makes the whole evaluation one error, and the failures before it are not reported.
  const failures: Array<() => void> = [];
  let outOfBudget = false;
  for (const [i, v] of (spec.validations ?? []).entries()) {
    const result = scope.evaluate(v.expression, ExpressionField.VALIDATION, `spec.validations[${i}].expression`);
    if ('error' in result && result.error === BUDGET_EXCEEDED) {
      outOfBudget = true;
      break;
    }
    if ('error' in result) {
      if (failsClosed) failures.push(() => fail(errorMessage(v.expression, result), 'Invalid', i));
    } else if (result.value !== true) {
      const message = messageFor(v, i, scope);
      failures.push(() => fail(message, v.reason ?? 'Invalid', i));
    }
  }
  if (outOfBudget) {
    if (failsClosed) fail(BUDGET_EXCEEDED, 'Invalid');
  } else {
    failures.forEach((report) => report());
  }
  for (const [i, annotation] of (spec.auditAnnotations ?? []).entries()) {
    const result = scope.evaluate(annotation.valueExpression, ExpressionField.AUDIT_ANNOTATION_VALUE, `spec.auditAnnotations[${i}].valueExpression`);
    if ('error' in result) {
      // An audit annotation's error denies whatever the validationActions (under Fail).
      if (failsClosed) decision.denials.push(denial(name, policyName, bindingName, errorMessage(annotation.valueExpression, result), 'Invalid'));
      continue;
    }
    if (typeof result.value === 'string' && result.value.trim() !== '') {
      // One value per param; distinct values from several params are joined, as the apiserver does.
      const key = `${policyName}/${annotation.key}`;
      const values = new Set((decision.auditAnnotations[key] ?? '').split(', ').filter((x) => x !== ''));
      values.add(result.value.trim());
      decision.auditAnnotations[key] = [...values].join(', ');
    }
  }
}

/** messageExpression (a non-empty, one-line string of at most 5 KiB), else message, else `failed expression: ...`. */
function messageFor(v: wire.Validation, index: number, scope: EvaluationScope): string {
  if (v.messageExpression) {
    const result = scope.evaluate(v.messageExpression, ExpressionField.MESSAGE_EXPRESSION, `spec.validations[${index}].messageExpression`);
    if (!('error' in result) && typeof result.value === 'string') {
      const text = result.value.trim();
      if (text !== '' && !/[\r\n]/.test(text) && Buffer.byteLength(text) <= MAX_MESSAGE_BYTES) return text;
    }
  }
  if (v.message && v.message.trim() !== '') return v.message.trim();
  return `failed expression: ${v.expression.trim()}`;
}

function who(policyName: string, bindingName: string): string {
  return `ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}'`;
}
