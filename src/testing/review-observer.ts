// What a review tells whoever watches it (an explanation, a coverage record): the request, and
// an expression observer for each evaluation of a policy through a binding, with one param.
import { AdmissionKind } from '../admission-kind';
import type { ExpressionObserver } from './cel-runtime';

export type PolicyKind = AdmissionKind.VALIDATING_ADMISSION_POLICY | AdmissionKind.MUTATING_ADMISSION_POLICY;

export interface ReviewObserver {
  /** The request, as an explanation's first line says it. */
  requested(description: string): void;
  /** An observer for one evaluation of `policy` through `binding` with `param` (a reinvocation's, when `reinvocation`). */
  evaluation(kind: PolicyKind, policy: string, binding: string, param: unknown, reinvocation: boolean): ExpressionObserver;
}
