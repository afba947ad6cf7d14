// The coverage record's JSON form (coverage.json, format version 1; docs/policy-coverage.md),
// and the pure functions over it: merging records and counting what they cover.
import { Branch } from './cel-branches';

export const COVERAGE_FORMAT = 'cdk8s-admission.policy-coverage';
export const COVERAGE_VERSION = 1;

/** What an expression is to its policy. */
export type ExpressionRole = 'matchCondition' | 'variable' | 'validation' | 'messageExpression' | 'auditAnnotation' | 'mutation';

export interface BranchRecord extends Branch {
  hits: number;
}

export interface ExpressionRecord {
  readonly field: string;
  readonly role: ExpressionRole;
  readonly expression: string;
  /** Evaluations, and how many of them erred, were true or were false. */
  evaluations: number;
  errors: number;
  trueResults: number;
  falseResults: number;
  readonly branches: BranchRecord[];
}

export interface PolicyRecord {
  readonly kind: string;
  readonly name: string;
  /** The first 16 hex digits of the SHA-256 of the policy's spec (keys sorted): the same name with other content is another policy. */
  readonly contentHash: string;
  /** Per binding of the policy, the reviews it acted in through it. */
  readonly bindings: { [binding: string]: number };
  readonly expressions: ExpressionRecord[];
}

export interface CoverageRecord {
  readonly format: typeof COVERAGE_FORMAT;
  readonly version: typeof COVERAGE_VERSION;
  readonly policies: PolicyRecord[];
}

export function policyId(p: { readonly kind: string; readonly name: string; readonly contentHash: string }): string {
  return `${p.kind}/${p.name}@${p.contentHash}`;
}

/** Records added together: a policy (by kind, name and content) once, with its counts summed. */
export function mergeRecords(records: readonly CoverageRecord[]): CoverageRecord {
  const merged = new Map<string, PolicyRecord>();
  for (const record of records) {
    for (const p of record.policies) {
      const id = policyId(p);
      const into = merged.get(id);
      if (!into) {
        merged.set(id, JSON.parse(JSON.stringify(p)));
        continue;
      }
      for (const [binding, n] of Object.entries(p.bindings)) into.bindings[binding] = (into.bindings[binding] ?? 0) + n;
      p.expressions.forEach((e, i) => {
        const target = into.expressions[i];
        target.evaluations += e.evaluations;
        target.errors += e.errors;
        target.trueResults += e.trueResults;
        target.falseResults += e.falseResults;
        e.branches.forEach((b, j) => { target.branches[j].hits += b.hits; });
      });
    }
  }
  const policies = [...merged.values()].sort((a, b) => policyId(a).localeCompare(policyId(b)));
  return { format: COVERAGE_FORMAT, version: COVERAGE_VERSION, policies };
}

/** Covered out of total. */
export interface Count {
  readonly covered: number;
  readonly total: number;
}

/** The measures of a policy's coverage, as the table, the HTML report and the thresholds count them. */
export interface Measures {
  /** Bindings through which the policy acted. */
  readonly bindings: Count;
  /** Each match condition seen true and seen false (two per condition). */
  readonly matchConditions: Count;
  /** Each validation seen passing and seen failing (two per validation). */
  readonly validations: Count;
  /** Expressions evaluated at least once (every CEL field of the policy). */
  readonly expressions: Count;
  /** CEL branches taken (cel-branches.ts). */
  readonly branches: Count;
}

export const MEASURES: ReadonlyArray<keyof Measures> = ['bindings', 'matchConditions', 'validations', 'expressions', 'branches'];

/** Each measure's column heading, in the text table and the HTML page. */
export const MEASURE_HEADINGS: { readonly [measure in keyof Measures]: string } = {
  bindings: 'Bindings',
  matchConditions: 'Conditions',
  validations: 'Validations',
  expressions: 'Expressions',
  branches: 'Branches',
};

export function measuresOf(p: PolicyRecord): Measures {
  const outcomes = (role: ExpressionRole): Count => {
    const of = p.expressions.filter((e) => e.role === role);
    return { covered: of.reduce((n, e) => n + (e.trueResults > 0 ? 1 : 0) + (e.falseResults > 0 ? 1 : 0), 0), total: 2 * of.length };
  };
  const branches = p.expressions.flatMap((e) => e.branches);
  return {
    bindings: { covered: Object.values(p.bindings).filter((n) => n > 0).length, total: Object.keys(p.bindings).length },
    matchConditions: outcomes('matchCondition'),
    validations: outcomes('validation'),
    expressions: { covered: p.expressions.filter((e) => e.evaluations > 0).length, total: p.expressions.length },
    branches: { covered: branches.filter((b) => b.hits > 0).length, total: branches.length },
  };
}

/** Measures added up (the table's "all policies" row, a global threshold). */
export function sumMeasures(all: readonly Measures[]): Measures {
  const sum = (k: keyof Measures): Count => ({
    covered: all.reduce((n, m) => n + m[k].covered, 0), total: all.reduce((n, m) => n + m[k].total, 0),
  });
  return { bindings: sum('bindings'), matchConditions: sum('matchConditions'), validations: sum('validations'), expressions: sum('expressions'), branches: sum('branches') };
}

/** A count as a percentage; nothing to cover is fully covered. */
export function percentOf(c: Count): number {
  return c.total === 0 ? 100 : (100 * c.covered) / c.total;
}
