import { ValidationAction } from './enums';

/** A stage of the usual rollout of a ValidatingPolicy: observe, warn, then enforce. */
export enum RolloutStage {
  /** Record failures in the audit log only (`[Audit]`). */
  AUDIT = 'Audit',
  /** Also return a warning to the client (`[Warn, Audit]`). */
  WARN = 'Warn',
  /** Reject failing requests, still recording them (`[Deny, Audit]`). */
  DENY = 'Deny',
}

export function validationActionsFor(stage: RolloutStage): ValidationAction[] {
  switch (stage) {
    case RolloutStage.AUDIT:
      return [ValidationAction.AUDIT];
    case RolloutStage.WARN:
      return [ValidationAction.WARN, ValidationAction.AUDIT];
    case RolloutStage.DENY:
      return [ValidationAction.DENY, ValidationAction.AUDIT];
  }
}
