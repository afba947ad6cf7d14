import { FieldViolation } from './field-errors';
import { FieldPath } from './field-path';
import { validateObjectMeta } from './metadata';
import { validateNoDelete } from './mutating-policy';
import { validateBindingCommon } from './policy-binding-common';
import { RuleContext } from './rule-context';
import { validateApiObjectName } from './static-suffix';
import type { MutatingAdmissionPolicyBinding } from '../wire/admissionregistration';

/**
 * A MutatingAdmissionPolicyBinding, which has no validationActions (k8s.io/kubernetes
 * pkg/apis/admissionregistration/validation/validation.go: validateMutatingAdmissionPolicyBinding).
 */
export function validateMutatingPolicyBinding(binding: MutatingAdmissionPolicyBinding, v1alpha1: boolean, ctx: RuleContext): FieldViolation[] {
  const spec = binding.spec ?? {};
  const out = [...validateObjectMeta(binding.metadata), ...validateApiObjectName(binding.metadata, ctx)];
  out.push(...validateBindingCommon(spec, v1alpha1, ctx));
  out.push(...validateNoDelete(spec.matchResources?.resourceRules ?? [], FieldPath.root('spec').child('matchResources')));
  return out;
}
