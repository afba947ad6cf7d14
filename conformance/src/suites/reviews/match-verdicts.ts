/**
 * Match verdicts: the policies the tester says did not act on a request must have taken no part in
 * the apiserver's decision, and every policy that took part must be one the tester says acted.
 *
 * What the apiserver's answer shows of a policy: its denial ("ValidatingAdmissionPolicy 'p' with
 * binding 'b' denied request", "policy 'p' with binding 'b' denied request" for a mutating one), its
 * warnings ("Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b'"), its audit
 * annotations (`p/key`, and the `validation_failure` entries naming policy and binding). A mutation
 * names no policy, so a mutating policy that only mutated leaves no trace this check can read: the
 * mutation comparison covers it.
 */
import type { PolicyMatch } from '../../../../src';

/** A policy the apiserver's answer shows taking part, through a binding when the trace names one. */
export interface Participant {
  readonly policy: string;
  readonly binding?: string;
  /** Where the answer shows it: `denial`, `warning` or `audit annotation`. */
  readonly seenIn: string;
}

const NAMED = /(?:ValidatingAdmissionPolicy |MutatingAdmissionPolicy |policy )'([^']+)' with binding '([^']+)'/g;
const FAILURE_KEY = 'validation.policy.admission.k8s.io/validation_failure';

/** The policies an answer names, from its denial messages, warnings and audit annotations. */
export function participants(answer: {
  readonly messages: readonly string[]; readonly warnings: readonly string[]; readonly auditAnnotations: { readonly [key: string]: string };
}): Participant[] {
  const named = (texts: readonly string[], seenIn: string) => texts.flatMap((text) => [...text.matchAll(NAMED)]
    .filter((m) => text.slice(m.index! + m[0].length).match(/^ denied request|^:/))
    .map((m) => ({ policy: m[1], binding: m[2], seenIn })));
  const audited = Object.entries(answer.auditAnnotations).flatMap(([key, value]): Participant[] => {
    if (key === FAILURE_KEY) {
      try {
        return (JSON.parse(value) as Array<{ policy?: string; binding?: string }>)
          .filter((f) => typeof f.policy === 'string')
          .map((f) => ({ policy: f.policy!, ...(typeof f.binding === 'string' ? { binding: f.binding } : {}), seenIn: 'audit annotation' }));
      } catch {
        return [];
      }
    }
    const slash = key.indexOf('/');
    return slash > 0 && !key.startsWith('validation.policy.admission.k8s.io/') ? [{ policy: key.slice(0, slash), seenIn: 'audit annotation' }] : [];
  });
  return [...named(answer.messages, 'denial'), ...named(answer.warnings, 'warning'), ...audited];
}

/**
 * The disagreements between the tester's match verdicts and the answer's participants: a
 * participant the tester says did not act (or does not know), as a sentence each.
 */
export function matchDisagreements(verdicts: readonly PolicyMatch[], seen: readonly Participant[]): string[] {
  const out = new Set<string>();
  for (const p of seen) {
    const entries = verdicts.filter((v) => v.policy === p.policy && (p.binding === undefined || v.binding === p.binding));
    if (entries.some((v) => v.matched)) continue;
    const who = `policy '${p.policy}'${p.binding !== undefined ? ` with binding '${p.binding}'` : ''}`;
    out.add(entries.length === 0
      ? `the apiserver's ${p.seenIn} names ${who}, which the tester does not list`
      : `the apiserver's ${p.seenIn} names ${who}, which the tester says did not act: ${entries.map((v) => v.reason ?? v.miss).join('; ')}`);
  }
  return [...out];
}
