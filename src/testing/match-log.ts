// The record of which policies acted on a review and why the others did not: filled in as the
// dispatchers decide it, so that it costs nothing the review does not compute anyway.
import type { Mismatch } from './matching';
import { MatchMiss, PolicyMatch } from './policy-match';
import type { PolicyKind } from './review-observer';


export class MatchLog {
  private readonly entries = new Map<string, PolicyMatch>();

  /** The policy acted through this binding (for at least one param): it overrides any miss. */
  public acted(policyKind: PolicyKind, policy: string, binding: string): void {
    this.entries.set(key(policyKind, policy, binding), { policyKind, policy, binding, matched: true });
  }

  /** The policy did not act through this binding, for the first reason given (a later one, for another param, does not replace it). */
  public missed(policyKind: PolicyKind, policy: string, binding: string | undefined, miss: MatchMiss, reason: string, field?: string): void {
    const k = key(policyKind, policy, binding);
    if (this.entries.has(k)) return;
    this.entries.set(k, {
      policyKind, policy, ...(binding !== undefined ? { binding } : {}), matched: false, miss, reason, ...(field !== undefined ? { field } : {}),
    });
  }

  /** A mismatch of the policy's constraints (`owner` 'policy') or of the binding's matchResources. */
  public mismatched(policyKind: PolicyKind, policy: string, binding: string, mismatch: Mismatch, owner: 'policy' | 'binding'): void {
    const who = owner === 'policy' ? `policy '${policy}'` : `binding '${binding}'`;
    this.missed(policyKind, policy, binding, MISS[mismatch.miss], `${who}: ${mismatch.reason}`, mismatch.field);
  }

  public has(policyKind: PolicyKind, policy: string, binding: string): boolean {
    return this.entries.has(key(policyKind, policy, binding));
  }

  /** Every entry, in the order they were first recorded (the dispatchers' order: policy, then binding, by name). */
  public list(): PolicyMatch[] {
    return [...this.entries.values()];
  }
}

const MISS: { readonly [kind in Mismatch['miss']]: MatchMiss } = {
  Operation: MatchMiss.OPERATION,
  Resource: MatchMiss.RESOURCE,
  Scope: MatchMiss.SCOPE,
  ResourceName: MatchMiss.RESOURCE_NAME,
  NamespaceSelector: MatchMiss.NAMESPACE_SELECTOR,
  ObjectSelector: MatchMiss.OBJECT_SELECTOR,
  Excluded: MatchMiss.EXCLUDED,
};

function key(policyKind: string, policy: string, binding: string | undefined): string {
  return JSON.stringify([policyKind, policy, binding ?? null]);
}
