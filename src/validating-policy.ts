import { ApiObject, JsonPatch, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { attachChecks } from './admission-checks';
import { AdmissionKind } from './admission-kind';
import { FailurePolicy, MatchPolicy, ValidationReason } from './enums';
import { KubernetesVersion } from './kubernetes-version';
import { renderLabelSelector } from './label-selector';
import { objectMetadata } from './object-metadata';
import { MatchCondition, nonEmpty, ParamKind, Variable } from './policy-parts';
import { AdmissionPolicyProps } from './policy-props';
import { renderResourceRule, ResourceRule } from './resource-rule';
import { RolloutStage, validationActionsFor } from './rollout-stage';
import { ValidatingPolicyBinding, ValidatingPolicyBindingBaseOptions, ValidatingPolicyBindingOptions } from './validating-policy-binding';
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
  /** The key, unique in the policy (a qualified name part, at most 63 characters with the policy name prefix rules). */
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
export class ValidatingPolicy extends Construct implements IValidatingPolicy {
  /** A policy defined outside this app, to bind it here. */
  public static fromPolicyName(scope: Construct, id: string, name: string): IValidatingPolicy {
    return new ImportedValidatingPolicy(scope, id, name);
  }

  /** True if `x` is a ValidatingPolicy of this library. */
  public static isValidatingPolicy(x: any): x is ValidatingPolicy {
    return typeof x === 'object' && x !== null && IS_VALIDATING_POLICY in x;
  }

  /** The ApiObject this policy renders to (an escape hatch, e.g. for `addJsonPatch`). */
  public readonly apiObject: ApiObject;

  /** The Kubernetes version the policy is written for. */
  public readonly kubernetesVersion: KubernetesVersion;

  /** The kind of the policy's parameter resources, if it has any. */
  public readonly paramKind?: ParamKind;

  private readonly props: ValidatingPolicyProps;
  private readonly resourceRules: ResourceRule[];
  private readonly excludeResourceRules: ResourceRule[];
  private readonly validations: Validation[];
  private readonly auditAnnotations: AuditAnnotation[];
  private readonly variables: Variable[];
  private readonly matchConditions: MatchCondition[];

  public constructor(scope: Construct, id: string, props: ValidatingPolicyProps) {
    super(scope, id);
    Object.defineProperty(this, IS_VALIDATING_POLICY, { value: true });
    this.props = props;
    this.paramKind = props.paramKind;
    this.kubernetesVersion = props.kubernetesVersion ?? KubernetesVersion.fromContext(this);
    this.resourceRules = [...props.resourceRules];
    this.excludeResourceRules = [...(props.excludeResourceRules ?? [])];
    this.validations = [...(props.validations ?? [])];
    this.auditAnnotations = [...(props.auditAnnotations ?? [])];
    this.variables = [...(props.variables ?? [])];
    this.matchConditions = [...(props.matchConditions ?? [])];

    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: this.kubernetesVersion.apiVersionFor(AdmissionKind.VALIDATING_ADMISSION_POLICY),
      kind: AdmissionKind.VALIDATING_ADMISSION_POLICY,
      metadata: objectMetadata(props, this),
      spec: Lazy.any({ produce: () => this.renderSpec() }),
    });
    // Cluster-scoped: a namespaced chart's namespace must not reach the manifest.
    this.apiObject.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    attachChecks({
      construct: this,
      kind: AdmissionKind.VALIDATING_ADMISSION_POLICY,
      apiObject: this.apiObject,
      kubernetesVersion: this.kubernetesVersion,
    });
  }

  /** The policy's name (`metadata.name`). */
  public get name(): string {
    return this.apiObject.name;
  }

  /** Adds a check. Validations run in the order they were added. */
  public addValidation(validation: Validation): void {
    this.validations.push(validation);
  }

  /** Adds a variable, visible to every expression of the policy and to variables added after it. */
  public addVariable(variable: Variable): void {
    this.variables.push(variable);
  }

  /** Adds an audit annotation. */
  public addAuditAnnotation(annotation: AuditAnnotation): void {
    this.auditAnnotations.push(annotation);
  }

  /** Adds a condition that must be true for the policy to run. */
  public addMatchCondition(condition: MatchCondition): void {
    this.matchConditions.push(condition);
  }

  /** Adds requests the policy applies to. */
  public addResourceRule(...rules: ResourceRule[]): void {
    this.resourceRules.push(...rules);
  }

  /** Adds requests the policy never applies to. */
  public addExcludeResourceRule(...rules: ResourceRule[]): void {
    this.excludeResourceRules.push(...rules);
  }

  /**
   * Binds the policy: without a binding it does nothing. The binding is written after the policy.
   * @param id the binding's construct id, under the policy's scope
   */
  public withBinding(id: string, options: ValidatingPolicyBindingOptions): ValidatingPolicyBinding {
    return new ValidatingPolicyBinding(this.node.scope as Construct, id, { ...options, policy: this });
  }

  /**
   * Binds the policy at a stage of the usual rollout, so moving from observing to enforcing is a
   * one-word change: `AUDIT` records failures in the audit log, `WARN` also warns the client,
   * `DENY` rejects (and still audits).
   * @param id the binding's construct id, under the policy's scope
   */
  public withRolloutBinding(id: string, stage: RolloutStage, options: ValidatingPolicyBindingBaseOptions = {}): ValidatingPolicyBinding {
    return this.withBinding(id, { ...options, validationActions: validationActionsFor(stage) });
  }

  private renderSpec(): wire.ValidatingAdmissionPolicySpec {
    const p = this.props;
    return {
      failurePolicy: p.failurePolicy ?? FailurePolicy.FAIL,
      ...(p.paramKind ? { paramKind: { apiVersion: p.paramKind.apiVersion, kind: p.paramKind.kind } } : {}),
      matchConstraints: {
        resourceRules: this.resourceRules.map(renderResourceRule),
        ...nonEmpty('excludeResourceRules', this.excludeResourceRules.map(renderResourceRule)),
        namespaceSelector: renderLabelSelector(p.namespaceSelector),
        objectSelector: renderLabelSelector(p.objectSelector),
        matchPolicy: p.matchPolicy ?? MatchPolicy.EQUIVALENT,
      },
      ...nonEmpty('matchConditions', this.matchConditions.map((c) => ({ name: c.name, expression: c.expression }))),
      ...nonEmpty('variables', this.variables.map((v) => ({ name: v.name, expression: v.expression }))),
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
