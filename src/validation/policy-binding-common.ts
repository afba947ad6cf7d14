import { FieldViolation, invalidEach, required } from './field-errors';
import { FieldPath } from './field-path';
import { excludesEverything, selectorWithoutEffect } from './match-reach';
import { validateMatchResources } from './match-resources';
import { validateParamRef } from './params';
import { RuleContext } from './rule-context';
import { lintMatchResources } from './served-resources';
import { isDns1123Subdomain } from '../shared/name-formats';
import type { MatchResources, ParamRef } from '../wire/admissionregistration';

const SPEC = FieldPath.root('spec');

/**
 * The spec fields both binding kinds share, which k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go:
 * validateValidatingAdmissionPolicyBindingSpec and validateMutatingAdmissionPolicyBindingSpec check alike.
 */
export interface BindingSpecCommon {
  readonly policyName?: string;
  readonly paramRef?: ParamRef;
  readonly matchResources?: MatchResources;
}

/**
 * `v1alpha1` MutatingAdmissionPolicyBindings default `paramRef.parameterNotFoundAction`.
 * The path is `spec.matchResources`; apiservers up to about 1.35 print it as `spec.matchResouces` (sic).
 */
export function validateBindingCommon(spec: BindingSpecCommon, v1alpha1: boolean, ctx: RuleContext): FieldViolation[] {
  const out: FieldViolation[] = [];
  const policyName = spec.policyName ?? '';
  if (policyName === '') {
    out.push(required(SPEC.child('policyName')));
  } else {
    out.push(...invalidEach(SPEC.child('policyName'), policyName, isDns1123Subdomain(policyName)));
  }
  if (spec.paramRef) out.push(...validateParamRef(spec.paramRef, SPEC.child('paramRef'), v1alpha1));
  if (spec.matchResources) {
    out.push(...validateMatchResources(spec.matchResources, SPEC.child('matchResources')));
    out.push(...lintMatchResources(spec.matchResources, SPEC.child('matchResources'), ctx));
    out.push(...excludesEverything(spec.matchResources, SPEC.child('matchResources'), 'binding'));
    out.push(...selectorWithoutEffect(spec.matchResources.resourceRules, spec.matchResources.namespaceSelector,
      SPEC.child('matchResources').child('namespaceSelector'), ctx));
  }
  return out;
}
