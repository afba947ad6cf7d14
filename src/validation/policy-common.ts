import { FieldViolation, notSupported, required } from './field-errors';
import { FieldPath } from './field-path';
import { excludesEverything, selectorWithoutEffect } from './match-reach';
import { validateMatchResources } from './match-resources';
import { FAILURE_POLICIES } from './policy-enums';
import { RuleContext } from './rule-context';
import { lintMatchResources } from './served-resources';
import type { MatchResources } from '../wire/admissionregistration';

const SPEC = FieldPath.root('spec');

/**
 * The spec fields ValidatingAdmissionPolicy and MutatingAdmissionPolicy share, which k8s.io/kubernetes
 * pkg/apis/admissionregistration/validation/validation.go: validateValidatingAdmissionPolicySpec and validateMutatingAdmissionPolicySpec check alike.
 */
export interface PolicySpecCommon {
  readonly failurePolicy?: string;
  readonly matchConstraints?: MatchResources;
}

export function validatePolicyCommon(spec: PolicySpecCommon, ctx: RuleContext): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (spec.failurePolicy !== undefined && !FAILURE_POLICIES.includes(spec.failurePolicy)) {
    out.push(notSupported(SPEC.child('failurePolicy'), spec.failurePolicy, FAILURE_POLICIES));
  }
  const path = SPEC.child('matchConstraints');
  if (!spec.matchConstraints) {
    out.push(required(path));
    return out;
  }
  out.push(...validateMatchResources(spec.matchConstraints, path));
  out.push(...lintMatchResources(spec.matchConstraints, path, ctx));
  out.push(...excludesEverything(spec.matchConstraints, path, 'policy'));
  out.push(...selectorWithoutEffect(spec.matchConstraints.resourceRules, spec.matchConstraints.namespaceSelector, path.child('namespaceSelector'), ctx));
  if ((spec.matchConstraints.resourceRules ?? []).length === 0) out.push(required(path.child('resourceRules')));
  return out;
}
