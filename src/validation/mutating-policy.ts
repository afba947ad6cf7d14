import { FieldViolation, invalid, notSupported, required, warning } from './field-errors';
import { FieldPath } from './field-path';
import { validateMatchConditions } from './match-conditions';
import { validateObjectMeta } from './metadata';
import { validateParamKind } from './params';
import { validatePolicyCommon } from './policy-common';
import { MUTATING_POLICY_OPERATIONS, PATCH_TYPES, REINVOCATION_POLICIES } from './policy-enums';
import { policyTypes } from './policy-types';
import { RuleContext } from './rule-context';
import { validateApiObjectName } from './static-suffix';
import { declaredVariables, validateVariables } from './variables';
import { ExpressionField } from '../shared/expression-field';
import type { MutatingAdmissionPolicy, Mutation, NamedRuleWithOperations } from '../wire/admissionregistration';

const SPEC = FieldPath.root('spec');

/** A MutatingAdmissionPolicy (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go: validateMutatingAdmissionPolicy). */
export function validateMutatingPolicy(policy: MutatingAdmissionPolicy, untypedCtx: RuleContext): FieldViolation[] {
  const spec = policy.spec ?? {};
  const hasParams = spec.paramKind !== undefined;
  const ctx = untypedCtx.withTypes(policyTypes(spec, untypedCtx.kubernetesVersion, untypedCtx.customResources));
  const out = [...validateObjectMeta(policy.metadata), ...validateApiObjectName(policy.metadata, untypedCtx)];
  out.push(...validatePolicyCommon(spec, ctx));
  out.push(...validateNoDelete(spec.matchConstraints?.resourceRules ?? [], SPEC.child('matchConstraints')));
  if (spec.paramKind) out.push(...validateParamKind(spec.paramKind, SPEC.child('paramKind')));
  out.push(...validateMatchConditions(spec.matchConditions ?? [], SPEC.child('matchConditions'), ctx,
    { field: ExpressionField.MATCH_CONDITION, hasParams }, { rules: spec.matchConstraints?.resourceRules, what: 'policy' }));
  out.push(...validateVariables(spec.variables ?? [], SPEC.child('variables'), ctx, hasParams));
  const mutations = spec.mutations ?? [];
  if (mutations.length === 0) out.push(required(SPEC.child('mutations'), 'mutations must contain at least one item'));
  const variables = declaredVariables(spec.variables ?? []);
  mutations.forEach((m, i) => {
    if (m) out.push(...validateMutation(m, SPEC.child('mutations').index(i), ctx, hasParams, variables));
  });
  if (spec.reinvocationPolicy === 'IfNeeded' && (spec.matchConditions ?? []).length === 0) {
    mutations.forEach((m, i) => {
      if (m && isListAppend(m)) out.push(nonIdempotentAppend(SPEC.child('mutations').index(i).child('jsonPatch').child('expression')));
    });
  }
  if (spec.reinvocationPolicy === undefined || spec.reinvocationPolicy === '') {
    out.push(required(SPEC.child('reinvocationPolicy')));
  } else if (!REINVOCATION_POLICIES.includes(spec.reinvocationPolicy)) {
    out.push(notSupported(SPEC.child('reinvocationPolicy'), spec.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  return out;
}

/** A JSON patch that adds at the end of a list (`path: ".../-"`). */
function isListAppend(m: Mutation): boolean {
  const expression = m.patchType === 'JSONPatch' ? m.jsonPatch?.expression ?? '' : '';
  return /op\s*:\s*["']add["']/.test(expression) && /["'][^"']*\/-["']/.test(expression);
}

function nonIdempotentAppend(path: FieldPath): FieldViolation {
  return warning(path,
    'with reinvocationPolicy IfNeeded, this JSON patch appends to a list ("/-"), and every reinvocation appends again '
    + '(a second sidecar, a repeated env var): guard it with a matchCondition such as '
    + "`!object.spec.containers.exists(c, c.name == 'sidecar')`, use an apply configuration, or use reinvocationPolicy Never");
}

/**
 * Mutating policies never run on DELETE (pkg/apis/admissionregistration/validation/validation.go: supportedMutatingOperations, checked by
 * validateMutatingAdmissionPolicySpec and validateMutatingAdmissionPolicyBindingSpec). The apiserver reports it without indices
 * (`spec.matchConstraints.resourceRules.operations`); excludeResourceRules may name DELETE.
 */
export function validateNoDelete(rules: readonly NamedRuleWithOperations[], matchPath: FieldPath): FieldViolation[] {
  const out: FieldViolation[] = [];
  const path = matchPath.child('resourceRules').child('operations');
  for (const rule of rules) {
    for (const op of rule?.operations ?? []) {
      if (typeof op === 'string' && !MUTATING_POLICY_OPERATIONS.includes(op)) {
        out.push(notSupported(path, op, MUTATING_POLICY_OPERATIONS));
      }
    }
  }
  return out;
}

function validateMutation(m: Mutation, path: FieldPath, ctx: RuleContext, hasParams: boolean, variables: string[]): FieldViolation[] {
  const out: FieldViolation[] = [];
  const patchType = m.patchType ?? '';
  if (patchType === '') {
    out.push(required(path.child('patchType')));
  } else if (!PATCH_TYPES.includes(patchType)) {
    out.push(notSupported(path.child('patchType'), patchType, PATCH_TYPES));
  }
  const expectations: Array<[string, 'applyConfiguration' | 'jsonPatch', ExpressionField]> = [
    ['ApplyConfiguration', 'applyConfiguration', ExpressionField.APPLY_CONFIGURATION],
    ['JSONPatch', 'jsonPatch', ExpressionField.JSON_PATCH],
  ];
  for (const [type, field, expressionField] of expectations) {
    const value = m[field];
    const fieldPath = path.child(field);
    if (patchType === type) {
      if (value === undefined) {
        out.push(required(fieldPath, `must be specified when patchType is ${type}`));
        continue;
      }
      const expression = (value.expression ?? '').trim();
      if (expression === '') {
        out.push(required(fieldPath.child('expression')));
      } else {
        out.push(...ctx.checkExpression(fieldPath.child('expression'), expression, { field: expressionField, hasParams, variables }));
      }
    } else if (value !== undefined && PATCH_TYPES.includes(patchType)) {
      // The apiserver reports a placeholder, not the object: `Invalid value: "{jsonPatch}"`.
      out.push(invalid(fieldPath, `{${field}}`, `must not be specified when patchType is ${patchType}`));
    }
  }
  return out;
}
