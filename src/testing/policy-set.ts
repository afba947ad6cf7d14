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

/** A policy or binding, and whether it is of the static set (loaded from files) or of the API. */
interface Sourced {
  readonly object: any;
  readonly isStatic: boolean;
}

/**
 * The admission policies and bindings among a tester's manifests, as the apiserver's policy source
 * lists them (k8s.io/apiserver pkg/admission/plugin/policy/generic/policy_source.go): each policy
 * with the bindings that name it, in name order. With a static set, its policies come first, each
 * with the static bindings that name it, then the API's (composite_policy_source.go: Hooks
 * appends the static hooks, then the API hooks; the static loader sorts by name): a binding binds
 * only a policy of its own source.
 */
export class PolicySet {
  private readonly byKind = new Map<string, Sourced[]>();

  constructor(private readonly manifests: readonly any[], private readonly staticManifests: readonly any[] = []) {}

  /** Whether the set has a static policy of either kind. */
  public get hasStaticPolicies(): boolean {
    return POLICY_KINDS.some(([kind]) => this.of(kind).some((p) => p.isStatic));
  }

  /** The API's policies and bindings alone: what the apiserver exempts requests for admission policies from. */
  public apiOnly(): PolicySet {
    return new PolicySet(this.manifests, []);
  }

  /** The static policies and bindings alone: what the apiserver runs on requests for admission policies themselves. */
  public staticOnly(): PolicySet {
    return new PolicySet([], this.staticManifests);
  }

  /**
   * Calls `visit` for each binding of each policy of a kind, in name order, and records a policy
   * that no binding names as such (the apiserver evaluates a policy only through its bindings).
   */
  public eachBinding<S>(
    kind: PolicyKind, log: MatchLog, visit: (spec: S, policyName: string, bindingName: string, binding: Named<any>) => void,
  ): void {
    const bindingKind = bindingKindOf(kind);
    for (const { object: policy, isStatic } of this.of(kind)) {
      const policyName = policy.metadata?.name ?? '';
      const own = this.bindingsOf(bindingKind, policyName, isStatic);
      if (own.length === 0) {
        const reason = `no ${isStatic ? 'static ' : ''}${bindingKind} names policy '${policyName}'`
          + (this.bindingsOf(bindingKind, policyName, !isStatic).length > 0
            ? ` (a ${isStatic ? 'binding created through the API' : 'static binding'} does, but binds only ${isStatic ? 'API' : 'static'} policies)` : '');
        log.missed(kind, policyName, undefined, MatchMiss.NO_BINDING, reason);
      }
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
    return POLICY_KINDS.flatMap(([kind, bindingKind]) => this.of(kind).map(({ object: policy, isStatic }) => {
      const name = policy.metadata?.name ?? '';
      return { kind, name, spec: policy.spec ?? {}, bindings: this.bindingsOf(bindingKind, name, isStatic).map((b) => b.metadata?.name ?? '') };
    }));
  }

  /** The bindings of a kind and source that name a policy, in name order. */
  private bindingsOf(bindingKind: string, policyName: string, isStatic: boolean): Named<any>[] {
    return this.of(bindingKind).filter((b) => b.isStatic === isStatic && b.object.spec?.policyName === policyName).map((b) => b.object);
  }

  /** The admissionregistration objects of a kind, the static set's first, each source in name order (computed once). */
  private of(kind: string): Sourced[] {
    let objects = this.byKind.get(kind);
    if (!objects) {
      const ofKind = (manifests: readonly any[], isStatic: boolean): Sourced[] => manifests
        .filter((m) => m.kind === kind && typeof m.apiVersion === 'string' && m.apiVersion.startsWith(GROUP))
        .sort(isStatic ? byteOrderOfNames : (a, b) => String(a.metadata?.name).localeCompare(String(b.metadata?.name)))
        .map((object) => ({ object, isStatic }));
      objects = [...ofKind(this.staticManifests, true), ...ofKind(this.manifests, false)];
      this.byKind.set(kind, objects);
    }
    return objects;
  }
}

/** The static loader's order: Go's `<` on the names, which compares bytes (loader.go: LoadPolicyManifests). */
function byteOrderOfNames(a: any, b: any): number {
  const x = String(a.metadata?.name);
  const y = String(b.metadata?.name);
  return x < y ? -1 : x > y ? 1 : 0;
}

function bindingKindOf(kind: PolicyKind): string {
  return POLICY_KINDS.find(([policyKind]) => policyKind === kind)![1];
}
