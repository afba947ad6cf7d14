import { duplicate, FieldViolation, invalid, notSupported, required } from './field-errors';
import { FieldPath } from './field-path';
import { validateObjectMeta } from './metadata';
import { validateBindingCommon } from './policy-binding-common';
import { VALIDATION_ACTIONS } from './policy-enums';
import { RuleContext } from './rule-context';
import { validateApiObjectName } from './static-suffix';
import type { ValidatingAdmissionPolicyBinding } from '../wire/admissionregistration';

const ACTIONS = FieldPath.root('spec').child('validationActions');

/** A ValidatingAdmissionPolicyBinding (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go: validateValidatingAdmissionPolicyBinding). */
export function validateValidatingPolicyBinding(binding: ValidatingAdmissionPolicyBinding, ctx: RuleContext): FieldViolation[] {
  const spec = binding.spec ?? ({} as Partial<NonNullable<ValidatingAdmissionPolicyBinding['spec']>>);
  const out = [...validateObjectMeta(binding.metadata), ...validateApiObjectName(binding.metadata, ctx)];
  out.push(...validateBindingCommon(spec, false, ctx));
  out.push(...validateValidationActions(spec.validationActions ?? []));
  return out;
}

function validateValidationActions(actions: readonly string[]): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (actions.length === 0) out.push(required(ACTIONS, 'at least one validation action is required'));
  const seen = new Set<string>();
  actions.forEach((action, i) => {
    if (typeof action !== 'string') return;
    if (!VALIDATION_ACTIONS.includes(action)) out.push(notSupported(ACTIONS.index(i), action, VALIDATION_ACTIONS));
    if (seen.has(action)) out.push(duplicate(ACTIONS.index(i), action));
    seen.add(action);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    out.push(invalid(ACTIONS, actions,
      'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  return out;
}
