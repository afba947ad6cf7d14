import { duplicate, FieldViolation, invalid, invalidEach, notSupported, required } from './field-errors';
import { FieldPath } from './field-path';
import { validateMatchConditions } from './match-conditions';
import { validateObjectMeta } from './metadata';
import { validateParamKind } from './params';
import { validatePolicyCommon } from './policy-common';
import { VALIDATION_REASONS } from './policy-enums';
import { policyTypes } from './policy-types';
import { RuleContext } from './rule-context';
import { validateApiObjectName } from './static-suffix';
import { declaredVariables, validateVariables } from './variables';
import { ExpressionField } from '../shared/expression-field';
import { isQualifiedName } from '../shared/name-formats';
import type { AuditAnnotation, ValidatingAdmissionPolicy, Validation } from '../wire/admissionregistration';

const SPEC = FieldPath.root('spec');
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_VALUE_EXPRESSION_BYTES = 5120;

/** A ValidatingAdmissionPolicy (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go: validateValidatingAdmissionPolicy). */
export function validateValidatingPolicy(policy: ValidatingAdmissionPolicy, untypedCtx: RuleContext): FieldViolation[] {
  const spec = policy.spec ?? {};
  const hasParams = spec.paramKind !== undefined;
  const ctx = untypedCtx.withTypes(policyTypes(spec, untypedCtx.kubernetesVersion, untypedCtx.customResources));
  const out = [...validateObjectMeta(policy.metadata), ...validateApiObjectName(policy.metadata, untypedCtx)];
  out.push(...validatePolicyCommon(spec, ctx));
  if (spec.paramKind) out.push(...validateParamKind(spec.paramKind, SPEC.child('paramKind')));
  out.push(...validateMatchConditions(spec.matchConditions ?? [], SPEC.child('matchConditions'), ctx,
    { field: ExpressionField.MATCH_CONDITION, hasParams }, { rules: spec.matchConstraints?.resourceRules, what: 'policy' }));
  out.push(...validateVariables(spec.variables ?? [], SPEC.child('variables'), ctx, hasParams));

  const validations = spec.validations ?? [];
  const auditAnnotations = spec.auditAnnotations ?? [];
  if (validations.length === 0 && auditAnnotations.length === 0) {
    const detail = 'validations or auditAnnotations must contain at least one item';
    out.push(required(SPEC.child('validations'), detail), required(SPEC.child('auditAnnotations'), detail));
  }
  const variables = declaredVariables(spec.variables ?? []);
  validations.forEach((v, i) => {
    if (v) out.push(...validateValidation(v, SPEC.child('validations').index(i), ctx, hasParams, variables));
  });
  if (auditAnnotations.length > MAX_AUDIT_ANNOTATIONS) {
    out.push(invalid(SPEC.child('auditAnnotations'), auditAnnotations.length, `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  }
  const policyName = policy.metadata?.name || (policy.metadata?.generateName ? `${policy.metadata.generateName}x` : '');
  const keys = new Set<string>();
  auditAnnotations.forEach((a, i) => {
    if (!a) return;
    const p = SPEC.child('auditAnnotations').index(i);
    out.push(...validateAuditAnnotation(a, p, policyName, ctx, hasParams, variables));
    if (a.key !== undefined) {
      if (keys.has(a.key)) out.push(duplicate(p.child('key'), a.key));
      keys.add(a.key);
    }
  });
  return out;
}

function validateValidation(v: Validation, path: FieldPath, ctx: RuleContext, hasParams: boolean, variables: string[]): FieldViolation[] {
  const out: FieldViolation[] = [];
  const expression = v.expression ?? '';
  if (expression.trim() === '') {
    out.push(required(path.child('expression'), 'expression is not specified'));
  } else {
    // Compiled untrimmed, so error columns count leading spaces as the apiserver's do.
    out.push(...ctx.checkExpression(path.child('expression'), expression, { field: ExpressionField.VALIDATION, hasParams, variables }));
  }
  if (v.messageExpression !== undefined) {
    if (v.messageExpression.trim() === '') {
      out.push(invalid(path.child('messageExpression'), v.messageExpression, 'must be non-empty if specified'));
    } else {
      out.push(...ctx.checkExpression(path.child('messageExpression'), v.messageExpression,
        { field: ExpressionField.MESSAGE_EXPRESSION, hasParams, variables }));
    }
  }
  if (v.message !== undefined) {
    if (v.message.length > 0 && v.message.trim() === '') {
      out.push(invalid(path.child('message'), v.message, 'must be non-empty if specified'));
    } else if (/[\r\n]/.test(v.message.trim())) {
      out.push(invalid(path.child('message'), v.message, 'must not contain line breaks'));
    }
  }
  if (v.reason !== undefined && !VALIDATION_REASONS.includes(v.reason)) {
    out.push(notSupported(path.child('reason'), v.reason, VALIDATION_REASONS));
  }
  return out;
}

function validateAuditAnnotation(
  a: AuditAnnotation, path: FieldPath, policyName: string, ctx: RuleContext, hasParams: boolean, variables: string[],
): FieldViolation[] {
  const out: FieldViolation[] = [];
  const key = a.key ?? '';
  if (policyName === '') {
    out.push(invalid(path.child('key'), key, 'requires metadata.name be non-empty'));
  } else {
    const fullKey = `${policyName}/${key}`;
    out.push(...invalidEach(path.child('key'), fullKey, isQualifiedName(fullKey)));
  }
  const value = (a.valueExpression ?? '').trim();
  const valuePath = path.child('valueExpression');
  if (value === '') {
    out.push(required(valuePath, 'valueExpression is not specified'));
  } else if (Buffer.byteLength(value) > MAX_AUDIT_VALUE_EXPRESSION_BYTES) {
    out.push(required(valuePath, `must not exceed ${MAX_AUDIT_VALUE_EXPRESSION_BYTES} bytes in length`));
  } else {
    out.push(...ctx.checkExpression(valuePath, value, { field: ExpressionField.AUDIT_ANNOTATION_VALUE, hasParams, variables }));
  }
  return out;
}
