import { Construct, IConstruct } from 'constructs';
import { AdmissionKind } from './admission-kind';
import { AdmissionPolicy, AdmissionPolicyProps } from './admission-policy';
import { ReinvocationPolicy } from './enums';
import { MutatingPolicyBinding, MutatingPolicyBindingOptions } from './mutating-policy-binding';
import { Mutation } from './mutation';
import type * as wire from './wire/admissionregistration';

/** Properties of a MutatingPolicy. */
export interface MutatingPolicyProps extends AdmissionPolicyProps {
  /** The changes, applied in order; more with `addMutation`. A policy needs at least one. */
  readonly mutations: Mutation[];

  /**
   * Whether the policy runs again when a later mutation (by another policy or a webhook) changed
   * the object. `IfNeeded` requires mutations that are safe to apply twice.
   * @default ReinvocationPolicy.NEVER
   */
  readonly reinvocationPolicy?: ReinvocationPolicy;
}

/** A MutatingAdmissionPolicy, defined in this app or elsewhere. */
export interface IMutatingPolicy extends IConstruct {
  /** The policy's name, as bindings refer to it. */
  readonly name: string;
}

const IS_MUTATING_POLICY = Symbol.for('cdk8s-admission.MutatingPolicy');

/**
 * A MutatingAdmissionPolicy: CEL mutations the apiserver applies to the requests it matches,
 * without a webhook. It does nothing until bound: use `withBinding()`.
 *
 * Served as `admissionregistration.k8s.io/v1` from Kubernetes 1.36, `v1beta1` on 1.34-1.35 and
 * `v1alpha1` on 1.32-1.33 (both behind a feature gate); older targets are an error.
 */
export class MutatingPolicy extends AdmissionPolicy implements IMutatingPolicy {
  /** A policy defined outside this app, to bind it here. */
  public static fromPolicyName(scope: Construct, id: string, name: string): IMutatingPolicy {
    return new ImportedMutatingPolicy(scope, id, name);
  }

  /** True if `x` is a MutatingPolicy of this library. */
  public static isMutatingPolicy(x: any): x is MutatingPolicy {
    return typeof x === 'object' && x !== null && IS_MUTATING_POLICY in x;
  }

  /** Whether the policy runs again after later mutations. */
  public readonly reinvocationPolicy: ReinvocationPolicy;

  private readonly mutations: Mutation[];

  public constructor(scope: Construct, id: string, props: MutatingPolicyProps) {
    super(scope, id, AdmissionKind.MUTATING_ADMISSION_POLICY, props);
    Object.defineProperty(this, IS_MUTATING_POLICY, { value: true });
    this.mutations = [...props.mutations];
    this.reinvocationPolicy = props.reinvocationPolicy ?? ReinvocationPolicy.NEVER;
  }

  /** Adds a mutation, applied after the ones before it. */
  public addMutation(mutation: Mutation): void {
    this.mutations.push(mutation);
  }

  /**
   * Binds the policy: without a binding it does nothing. The binding is written after the policy.
   * @param id the binding's construct id, in the policy's parent scope (next to the policy): unique there
   */
  public withBinding(id: string, options: MutatingPolicyBindingOptions = {}): MutatingPolicyBinding {
    return new MutatingPolicyBinding(this.node.scope as Construct, id, { ...options, policy: this });
  }

  /** @internal */
  public _renderSpec(): wire.MutatingAdmissionPolicySpec {
    return {
      ...this._renderSpecBase(),
      mutations: this.mutations.map((m) => m._render()),
      reinvocationPolicy: this.reinvocationPolicy,
    };
  }
}

class ImportedMutatingPolicy extends Construct implements IMutatingPolicy {
  public constructor(scope: Construct, id: string, public readonly name: string) {
    super(scope, id);
  }
}

