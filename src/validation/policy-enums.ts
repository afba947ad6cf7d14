// The closed value sets the rules check, from the public enums, sorted as the apiserver lists
// them in `supported values` (alphabetically, from a string set).
import { FailurePolicy, MatchPolicy, Operation, PatchType, ReinvocationPolicy, RuleScope, SideEffects, ValidationAction, ValidationReason } from '../enums';

const sorted = (values: string[]) => [...values].sort();

export const OPERATIONS = sorted(Object.values(Operation));
export const SCOPES = sorted(Object.values(RuleScope));
export const FAILURE_POLICIES = sorted(Object.values(FailurePolicy));
export const MATCH_POLICIES = sorted(Object.values(MatchPolicy));
export const REINVOCATION_POLICIES = sorted(Object.values(ReinvocationPolicy));
export const SIDE_EFFECTS_ON_CREATE = sorted(Object.values(SideEffects));
export const VALIDATION_ACTIONS = sorted(Object.values(ValidationAction));
export const VALIDATION_REASONS = sorted(Object.values(ValidationReason));
export const PATCH_TYPES = sorted(Object.values(PatchType));
/** Operations a mutating admission policy may match: never DELETE. */
export const MUTATING_POLICY_OPERATIONS = OPERATIONS.filter((op) => op !== Operation.DELETE);
