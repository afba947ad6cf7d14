/** What every differential suite reports: its cases, their outcomes, and a table to print. */
import { KnownDifferences } from './known-differences';

export interface CaseOutcome {
  readonly name: string;
  readonly apiserverAccepted: boolean;
  /** The verdicts (accept/reject) agree. */
  readonly verdictAgrees: boolean;
  /** When both reject: whether the error's location agrees (field paths, or CEL positions). */
  readonly locationAgrees?: boolean;
  /** Whether the library warns wherever the apiserver does (undefined: the apiserver did not warn). */
  readonly warningsAgree?: boolean;
  /** Reviews, when the decisions agree: the HTTP code and messages of a denial, the audit annotations, the stored object. */
  readonly codeAgrees?: boolean;
  readonly messageAgrees?: boolean;
  readonly auditAgrees?: boolean;
  readonly mutationAgrees?: boolean;
  /** Evaluations, when both compile: the value or the runtime error, and the cost. */
  readonly valueAgrees?: boolean;
  readonly costAgrees?: boolean;
  readonly library: string;
  readonly apiserver: string;
}

export interface SuiteResult {
  /** The suite's name, which known-differences.json entries name. */
  readonly suite: string;
  /** What its table is headed with, when not the name (the same suite against an emulated version). */
  readonly title?: string;
  readonly outcomes: readonly CaseOutcome[];
  /** Extra rows for the suite's table (label, count). */
  readonly rows: ReadonlyArray<[string, string]>;
  /** Lines printed after the table: what the suite could not check, and why. */
  readonly notes?: readonly string[];
}

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

export function percent(n: number, d: number): string {
  return d === 0 ? '0.0%' : `${(Math.floor((1000 * n) / d) / 10).toFixed(1)}%`;
}

export function printTable(title: string, rows: ReadonlyArray<[string, string]>): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`\n${title}`);
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
}
