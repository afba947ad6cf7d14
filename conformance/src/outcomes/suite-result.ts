/** What every differential suite reports: its cases, their outcomes, and the rows of its table. */
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
