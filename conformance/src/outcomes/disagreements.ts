/**
 * The ways a case's two answers can differ, and which of a suite's cases disagree, each marked
 * known when an entry of known-differences.json covers it.
 */
import { KnownDifferences } from './known-differences';
import { CaseOutcome, SuiteResult } from './suite-result';

export interface Disagreement {
  readonly suite: string;
  readonly outcome: CaseOutcome;
  readonly kind: DisagreementKind;
  readonly known: boolean;
}

export type DisagreementKind = 'verdict' | 'location' | 'warning' | 'code' | 'message' | 'audit' | 'mutation' | 'value' | 'cost';

/** The first way a case disagrees, in this order. */
function disagreementKind(o: CaseOutcome): DisagreementKind | undefined {
  if (!o.verdictAgrees) return 'verdict';
  if (o.locationAgrees === false) return 'location';
  if (o.codeAgrees === false) return 'code';
  if (o.messageAgrees === false) return 'message';
  if (o.warningsAgree === false) return 'warning';
  if (o.auditAgrees === false) return 'audit';
  if (o.mutationAgrees === false) return 'mutation';
  if (o.valueAgrees === false) return 'value';
  if (o.costAgrees === false) return 'cost';
  return undefined;
}

export function disagreements(result: SuiteResult, known: KnownDifferences): Disagreement[] {
  const out: Disagreement[] = [];
  for (const o of result.outcomes) {
    const kind = disagreementKind(o);
    if (!kind) continue;
    out.push({ suite: result.suite, outcome: o, kind, known: known.covering(result.suite, kind, o.name, o.library, o.apiserver) !== undefined });
  }
  return out;
}
