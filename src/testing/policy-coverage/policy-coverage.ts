// What a test suite exercised of its policies: PolicyTester.coverage() and the jest reporter's
// merged report, with its text table, HTML page and thresholds.
import { coverageHtml } from './coverage-html';
import {
  CoverageRecord, Count, Measures, MEASURES, measuresOf, mergeRecords, percentOf, PolicyRecord, sumMeasures,
} from './coverage-record';
import { coverageTable } from './coverage-table';
import { checkedRecord } from './record-shape';
import { checkStructKeys, COVERAGE_THRESHOLD, COVERAGE_THRESHOLDS } from '../../private/struct-keys';

/** Covered out of total, and the percentage (100 when there is nothing to cover). */
export interface CoverageCount {
  readonly covered: number;
  readonly total: number;
  readonly percent: number;
}

/** One policy's coverage, by measure. */
export interface PolicyCoverageSummary {
  /** `ValidatingAdmissionPolicy` or `MutatingAdmissionPolicy`. */
  readonly policyKind: string;
  /** The policy's name. */
  readonly policy: string;
  /** The first 16 hex digits of the SHA-256 of the policy's spec: a policy is its name and its content. */
  readonly contentHash: string;
  /** Bindings through which the policy acted on some review. */
  readonly bindings: CoverageCount;
  /** Match conditions seen true and seen false (two per condition). */
  readonly matchConditions: CoverageCount;
  /** Validations seen passing and seen failing (two per validation). */
  readonly validations: CoverageCount;
  /** CEL expressions evaluated at least once: conditions, variables, validations, messages, audit annotations, mutations. */
  readonly expressions: CoverageCount;
  /** CEL branches taken: each boolean sub-expression true and false, each ternary arm, each macro body, each deciding `&&`/`||` operand. */
  readonly branches: CoverageCount;
}

/** Minimum percentages, per measure (0 to 100). */
export interface CoverageThreshold {
  /** @default - no minimum */
  readonly bindings?: number;
  /** @default - no minimum */
  readonly matchConditions?: number;
  /** @default - no minimum */
  readonly validations?: number;
  /** @default - no minimum */
  readonly expressions?: number;
  /** @default - no minimum */
  readonly branches?: number;
}

/** Thresholds a coverage report must meet, as jest's `coverageThreshold`. */
export interface CoverageThresholds {
  /**
   * Minimums for all policies together.
   * @default - none
   */
  readonly global?: CoverageThreshold;
  /**
   * Minimums per policy, by name (every policy of that name, whatever its content).
   * @default - none
   */
  readonly policies?: { [policy: string]: CoverageThreshold };
}

/**
 * The coverage of admission policies by reviews: per policy (identified by kind, name and
 * content), the bindings that acted, the outcomes of its match conditions and validations, the
 * expressions evaluated and the CEL branches taken.
 */
export class PolicyCoverage {
  /** A report from its JSON form (coverage.json, `toJson()`); the format and version are checked. */
  public static fromJson(json: any): PolicyCoverage {
    return new PolicyCoverage(checkedRecord(json, 'PolicyCoverage.fromJson'));
  }

  /** Reports added together: a policy with the same kind, name and content is counted once, its counts summed. */
  public static merge(reports: PolicyCoverage[]): PolicyCoverage {
    if (!Array.isArray(reports) || reports.some((r) => !(r instanceof PolicyCoverage))) {
      throw new Error('PolicyCoverage.merge: expected an array of PolicyCoverage reports');
    }
    return new PolicyCoverage(mergeRecords(reports.map((r) => r.record)));
  }

  /** @internal */
  public static _fromRecord(record: CoverageRecord): PolicyCoverage {
    return new PolicyCoverage(mergeRecords([record]));
  }

  private constructor(private readonly record: CoverageRecord) {}

  /** Each policy's coverage, ordered by kind, name and content hash. */
  public get policies(): PolicyCoverageSummary[] {
    return this.record.policies.map((p) => summary(p, measuresOf(p)));
  }

  /** All policies together, per measure. */
  public get total(): PolicyCoverageSummary {
    return summary({ kind: '', name: '', contentHash: '' }, sumMeasures(this.record.policies.map(measuresOf)));
  }

  /** The report as JSON: coverage.json, format `cdk8s-admission.policy-coverage` version 1 (docs/policy-coverage.md). */
  public toJson(): any {
    return JSON.parse(JSON.stringify(this.record));
  }

  /** The report as a text table, one row per policy and one for all of them, as jest prints its coverage. */
  public toText(): string {
    return coverageTable(this.record);
  }

  /** The report as a self-contained HTML page: each policy, its counts, and its expressions with the parts not covered marked. */
  public toHtml(): string {
    return coverageHtml(this.record);
  }

  /**
   * What falls short of the thresholds, a sentence each (none when all are met). A threshold
   * for a policy the report does not have is an error, as is a percentage outside 0 to 100.
   */
  public thresholdFailures(thresholds: CoverageThresholds): string[] {
    checkStructKeys('PolicyCoverage.thresholdFailures: thresholds', thresholds, COVERAGE_THRESHOLDS);
    const failures: string[] = [];
    if (thresholds.global !== undefined) {
      failures.push(...shortfalls('all policies', sumMeasures(this.record.policies.map(measuresOf)), thresholds.global, 'global'));
    }
    const names = [...new Set(this.record.policies.map((p) => p.name))];
    for (const [name, threshold] of Object.entries(thresholds.policies ?? {})) {
      const of = this.record.policies.filter((p) => p.name === name);
      if (of.length === 0) {
        throw new Error(`PolicyCoverage.thresholdFailures: thresholds.policies names '${name}', which the report does not have (it has ${
          names.map((n) => `'${n}'`).join(', ') || 'no policies'})`);
      }
      failures.push(...shortfalls(`policy '${name}'`, sumMeasures(of.map(measuresOf)), threshold, `policies.${name}`));
    }
    return failures;
  }
}

function count(c: Count): CoverageCount {
  return { covered: c.covered, total: c.total, percent: percentOf(c) };
}

function summary(p: Pick<PolicyRecord, 'kind' | 'name' | 'contentHash'>, m: Measures): PolicyCoverageSummary {
  return {
    policyKind: p.kind,
    policy: p.name,
    contentHash: p.contentHash,
    bindings: count(m.bindings),
    matchConditions: count(m.matchConditions),
    validations: count(m.validations),
    expressions: count(m.expressions),
    branches: count(m.branches),
  };
}

function shortfalls(who: string, m: Measures, threshold: CoverageThreshold, where: string): string[] {
  checkStructKeys(`PolicyCoverage.thresholdFailures: thresholds.${where}`, threshold, COVERAGE_THRESHOLD);
  return MEASURES.flatMap((measure) => {
    const minimum = threshold[measure];
    if (minimum === undefined) return [];
    if (typeof minimum !== 'number' || !(minimum >= 0 && minimum <= 100)) {
      throw new Error(`PolicyCoverage.thresholdFailures: thresholds.${where}.${measure} must be a percentage from 0 to 100, got ${JSON.stringify(minimum)}`);
    }
    const got = percentOf(m[measure]);
    return got < minimum ? [`${who}: ${measure} coverage ${got.toFixed(2)}% (${m[measure].covered}/${m[measure].total}) is below the threshold of ${minimum}%`] : [];
  });
}

