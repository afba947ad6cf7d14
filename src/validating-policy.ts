import { Construct, IConstruct } from 'constructs';
import { AdmissionKind } from './admission-kind';
import { AdmissionPolicy, AdmissionPolicyProps } from './admission-policy';
import { AdmissionPolicyBindingOptions } from './admission-policy-binding';
import { ValidationReason } from './enums';
import { nonEmpty } from './policy-parts';
import { AUDIT_ANNOTATION, checkStructKeys, VALIDATION } from './private/struct-keys';
import { RolloutStage, validationActionsFor } from './rollout-stage';
import { ValidatingPolicyBinding, ValidatingPolicyBindingOptions } from './validating-policy-binding';
import type * as wire from './wire/admissionregistration';

/** A CEL check a ValidatingPolicy applies to each request it matches. */
export interface Validation {
  /** A CEL expression that evaluates to `true` when the request is acceptable. */
  readonly expression: string;
  /**
   * The message returned when the expression is false (one line).
   * @default - `failed expression: <expression>`, or the messageExpression
   */
  readonly message?: string;
  /**
   * A CEL expression evaluating to the message, e.g. `'replicas must be at most ' + string(params.max)`.
   * Takes precedence over `message` when it evaluates to a non-empty string.
   * @default - `message`
   */
  readonly messageExpression?: string;
  /**
   * The HTTP reason returned with a denial.
   * @default - `Invalid` (HTTP 422)
   */
  readonly reason?: ValidationReason;
}

/** A CEL expression whose value is recorded in the audit event, under `<policy name>/<key>`. */
export interface AuditAnnotation {
  /** The key, unique in the policy; `<policy name>/<key>` must be a qualified name. */
  readonly key: string;
  /** A CEL expression evaluating to a string, or `null` to record nothing. */
  readonly valueExpression: string;
}

/** Properties of a ValidatingPolicy. */
export interface ValidatingPolicyProps extends AdmissionPolicyProps {
  /**
   * The checks; more with `addValidation`. A policy needs at least one validation or audit annotation.
   * @default - none
   */
  readonly validations?: Validation[];

  /**
   * Values recorded in the audit event; more with `addAuditAnnotation`.
   * @default - none
   */
  readonly auditAnnotations?: AuditAnnotation[];
}

/** A ValidatingAdmissionPolicy, defined in this app or elsewhere. */
export interface IValidatingPolicy extends IConstruct {
  /** The policy's name, as bindings refer to it. */
  readonly name: string;
}

const IS_VALIDATING_POLICY = Symbol.for('cdk8s-admission.ValidatingPolicy');

/**
 * A ValidatingAdmissionPolicy: CEL validations the apiserver runs on the requests it matches.
 * It does nothing until bound: use `withBinding()` (or `withRolloutBinding()`).
 *
 * Everything the apiserver would reject is reported at synth with the construct path and the
 * apiserver's field path. The apiserver's defaults are written out, so the YAML says what runs.
 */
export class ValidatingPolicy extends AdmissionPolicy implements IValidatingPolicy {
  /** A policy defined outside this app, to bind it here. */
  public static fromPolicyName(scope: Construct, id: string, name: string): IValidatingPolicy {
    return new ImportedValidatingPolicy(scope, id, name);
  }

  /** True if `x` is a ValidatingPolicy of this library. */
  public static isValidatingPolicy(x: any): x is ValidatingPolicy {
    return typeof x === 'object' && x !== null && IS_VALIDATING_POLICY in x;
  }

  private readonly validations: Validation[];
  private readonly auditAnnotations: AuditAnnotation[];

  public constructor(scope: Construct, id: string, props: ValidatingPolicyProps) {
    super(scope, id, AdmissionKind.VALIDATING_ADMISSION_POLICY, props);
    Object.defineProperty(this, IS_VALIDATING_POLICY, { value: true });
    this.validations = [...(props.validations ?? [])];
    this.auditAnnotations = [...(props.auditAnnotations ?? [])];
  }

  /** Adds a check. Validations run in the order they were added. */
  public addValidation(validation: Validation): void {
    checkStructKeys(`${this.node.path}: addValidation`, validation, VALIDATION);
    this.validations.push(validation);
  }

  /** Adds an audit annotation. */
  public addAuditAnnotation(annotation: AuditAnnotation): void {
    checkStructKeys(`${this.node.path}: addAuditAnnotation`, annotation, AUDIT_ANNOTATION);
    this.auditAnnotations.push(annotation);
  }

  /**
   * Binds the policy: without a binding it does nothing. The binding is written after the policy.
   * @param id the binding's construct id, in the policy's parent scope (next to the policy): unique there
   */
  public withBinding(id: string, options: ValidatingPolicyBindingOptions): ValidatingPolicyBinding {
    return new ValidatingPolicyBinding(this.node.scope as Construct, id, { ...options, policy: this });
  }

  /**
   * Binds the policy at a stage of the usual rollout, so moving from observing to enforcing is a
   * one-word change: `AUDIT` records failures in the audit log, `WARN` also warns the client,
   * `DENY` rejects (and still audits).
   * @param id the binding's construct id, in the policy's parent scope (next to the policy): unique there
   */
  public withRolloutBinding(id: string, stage: RolloutStage, options: AdmissionPolicyBindingOptions = {}): ValidatingPolicyBinding {
    return this.withBinding(id, { ...options, validationActions: validationActionsFor(stage) });
  }

  /** @internal */
  public _renderSpec(): wire.ValidatingAdmissionPolicySpec {
    return {
      ...this._renderSpecBase(),
      ...nonEmpty('validations', this.validations.map(renderValidation)),
      ...nonEmpty('auditAnnotations', this.auditAnnotations.map((a) => ({ key: a.key, valueExpression: a.valueExpression }))),
    };
  }
}

function renderValidation(v: Validation): wire.Validation {
  return {
    expression: v.expression,
    ...(v.message !== undefined ? { message: v.message } : {}),
    ...(v.messageExpression !== undefined ? { messageExpression: v.messageExpression } : {}),
    ...(v.reason !== undefined ? { reason: v.reason } : {}),
  };
}

class ImportedValidatingPolicy extends Construct implements IValidatingPolicy {
  public constructor(scope: Construct, id: string, public readonly name: string) {
    super(scope, id);
  }
}
