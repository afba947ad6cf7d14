import { FieldViolation, notSupported } from './field-errors';
import { FieldPath } from './field-path';
import { validateLabelSelector } from './label-selector';
import { MATCH_POLICIES } from './policy-enums';
import { validateNamedRule } from './resource-rules';
import type { MatchResources } from '../wire/admissionregistration';


/**
 * The match criteria of a policy (`matchConstraints`) or a binding (`matchResources`)
 * (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go: validateMatchResources).
 */
export function validateMatchResources(match: MatchResources, path: FieldPath): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (match.matchPolicy !== undefined && !MATCH_POLICIES.includes(match.matchPolicy)) {
    out.push(notSupported(path.child('matchPolicy'), match.matchPolicy, MATCH_POLICIES));
  }
  out.push(...validateLabelSelector(match.namespaceSelector, path.child('namespaceSelector')));
  out.push(...validateLabelSelector(match.objectSelector, path.child('objectSelector')));
  (match.resourceRules ?? []).forEach((rule, i) => {
    if (rule) out.push(...validateNamedRule(rule, path.child('resourceRules').index(i)));
  });
  (match.excludeResourceRules ?? []).forEach((rule, i) => {
    if (rule) out.push(...validateNamedRule(rule, path.child('excludeResourceRules').index(i)));
  });
  return out;
}
