import { AdmissionKind } from '../admission-kind';
import { MatchLog } from './match-log';
import { CoveredPolicy } from './policy-coverage/coverage-recorder';
import { MatchMiss } from './policy-match';
import { PolicyKind } from './review-observer';

const GROUP = 'admissionregistration.k8s.io/';

/** The policy kinds with their binding kinds, mutating first (the order admission runs them). */
export const POLICY_KINDS = [
  [AdmissionKind.MUTATING_ADMISSION_POLICY, 'MutatingAdmissionPolicyBinding'],
  [AdmissionKind.VALIDATING_ADMISSION_POLICY, 'ValidatingAdmissionPolicyBinding'],
] as const;

/** A policy or binding as a manifest holds it. */
export interface Named<T> { readonly metadata?: { readonly name?: string }; readonly spec?: T }

/**
 * The admission policies and bindings among a tester's manifests, as the apiserver's policy source
 * lists them (k8s.io/apiserver pkg/admission/plugin/policy/generic/policy_source.go): each policy
 * with the bindings that name it, in name order.
 */
export class PolicySet {
  private readonly byKind = new Map<string, any[]>();

  constructor(private readonly manifests: readonly any[]) {}

  /**
   * Calls `visit` for each binding of each policy of a kind, in name order, and records a policy
   * that no binding names as such (the apiserver evaluates a policy only through its bindings).
   */
  public eachBinding<S>(
    kind: PolicyKind, log: MatchLog, visit: (spec: S, policyName: string, bindingName: string, binding: Named<any>) => void,
  ): void {
    const bindingKind = bindingKindOf(kind);
    for (const policy of this.of<Named<S>>(kind)) {
      const policyName = policy.metadata?.name ?? '';
      const own = this.bindingsOf(bindingKind, policyName);
      if (own.length === 0) log.missed(kind, policyName, undefined, MatchMiss.NO_BINDING, `no ${bindingKind} names policy '${policyName}'`);
      for (const binding of own) visit((policy.spec ?? {}) as S, policyName, binding.metadata?.name ?? '', binding);
    }
  }

  /** Records every (policy, binding) of a kind, or of both, as not acting, for one reason. */
  public missEvery(log: MatchLog, miss: MatchMiss, reason: string, only?: PolicyKind): void {
    for (const [kind] of POLICY_KINDS) {
      if (only !== undefined && only !== kind) continue;
      this.eachBinding<unknown>(kind, log, (_spec, policy, binding) => log.missed(kind, policy, binding, miss, reason));
    }
  }

  /** Every policy with the names of its bindings: what a coverage record counts. */
  public covered(): CoveredPolicy[] {
    return POLICY_KINDS.flatMap(([kind, bindingKind]) => this.of<Named<unknown>>(kind).map((policy) => {
      const name = policy.metadata?.name ?? '';
      return { kind, name, spec: policy.spec ?? {}, bindings: this.bindingsOf(bindingKind, name).map((b) => b.metadata?.name ?? '') };
    }));
  }

  /** The bindings of a kind that name a policy, in name order. */
  private bindingsOf(bindingKind: string, policyName: string): Named<any>[] {
    return this.of<Named<{ policyName?: string }>>(bindingKind).filter((b) => b.spec?.policyName === policyName);
  }

  /** The admissionregistration objects of a kind, in name order (computed once). */
  private of<T>(kind: string): T[] {
    let objects = this.byKind.get(kind);
    if (!objects) {
      objects = this.manifests
        .filter((m) => m.kind === kind && typeof m.apiVersion === 'string' && m.apiVersion.startsWith(GROUP))
        .sort((a, b) => String(a.metadata?.name).localeCompare(String(b.metadata?.name)));
      this.byKind.set(kind, objects);
    }
    return objects;
  }
}

function bindingKindOf(kind: PolicyKind): string {
  return POLICY_KINDS.find(([policyKind]) => policyKind === kind)![1];
}
