// A tester's coverage record, kept while coverage is on: every policy of the tester with each of
// its CEL expressions and their branches, counted as the reviews evaluate them.
import { createHash } from 'crypto';
import { branchesOf, branchesTaken, branchKey } from './cel-branches';
import { BranchRecord, COVERAGE_FORMAT, COVERAGE_VERSION, CoverageRecord, ExpressionRecord, ExpressionRole, PolicyRecord } from './coverage-record';
import { ExpressionField } from '../../shared/expression-field';
import type * as wire from '../../wire/admissionregistration';
import { AdmissionResult } from '../admission-result';
import { canonicalJson } from '../canonical-json';
import type { CelRuntime, Evaluation } from '../cel-runtime';
import type { EvaluationTrace } from '../explain/evaluation-trace';
import { PolicyKind, ReviewObserver } from '../review-observer';

/** A policy of the tester, and the names of the bindings that name it. */
export interface CoveredPolicy {
  readonly kind: PolicyKind;
  readonly name: string;
  readonly spec: any;
  readonly bindings: readonly string[];
}

interface TrackedExpression {
  readonly record: ExpressionRecord;
  readonly branches: ReadonlyMap<string, BranchRecord>;
}

interface TrackedPolicy {
  readonly record: PolicyRecord;
  readonly expressions: ReadonlyMap<string, TrackedExpression>;
}

interface ExpressionSite {
  readonly field: string;
  readonly role: ExpressionRole;
  readonly expression: string;
  readonly celField: ExpressionField;
  readonly variableIndex?: number;
}

export class CoverageRecorder {
  private readonly policies = new Map<string, TrackedPolicy>();

  public constructor(policies: readonly CoveredPolicy[], runtime: CelRuntime) {
    for (const p of policies) this.policies.set(key(p.kind, p.name), tracked(p.kind, p.name, p.spec, p.bindings, runtime));
  }

  /** The observer of one review. */
  public observer(): ReviewObserver {
    return {
      requested: () => undefined,
      evaluation: (kind, policy) => (field, _expression, outcome, trace) => this.evaluated(kind, policy, field, outcome, trace),
    };
  }

  /** After a review: the bindings that acted. */
  public reviewed(result: AdmissionResult): void {
    for (const p of result.policies) {
      if (!p.matched || p.binding === undefined) continue;
      const bindings = this.policies.get(key(p.policyKind, p.policy))?.record.bindings;
      if (bindings) bindings[p.binding] = (bindings[p.binding] ?? 0) + 1;
    }
  }

  /** A copy of the record as it is now. */
  public record(): CoverageRecord {
    const policies: PolicyRecord[] = JSON.parse(JSON.stringify([...this.policies.values()].map((p) => p.record)));
    return { format: COVERAGE_FORMAT, version: COVERAGE_VERSION, policies };
  }

  private evaluated(kind: PolicyKind, policy: string, field: string, outcome: Evaluation, trace: EvaluationTrace | undefined): void {
    const expression = this.policies.get(key(kind, policy))?.expressions.get(field);
    if (!expression) return;
    const r = expression.record;
    r.evaluations++;
    if ('error' in outcome) r.errors++;
    else if (outcome.value === true) r.trueResults++;
    else if (outcome.value === false) r.falseResults++;
    if (!trace) return;
    for (const [k, n] of branchesTaken(trace)) {
      const b = expression.branches.get(k);
      if (b) b.hits += n;
    }
  }
}

function key(kind: string, name: string): string {
  return `${kind}/${name}`;
}

function tracked(kind: PolicyKind, name: string, spec: any, bindings: readonly string[], runtime: CelRuntime): TrackedPolicy {
  const variables: wire.Variable[] = spec.variables ?? [];
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  const expressions = new Map<string, TrackedExpression>();
  for (const site of expressionSites(spec)) {
    const root = runtime.syntaxTree(site.expression, site.celField, variables, hasParams, site.variableIndex);
    const branches = root ? branchesOf(root).map((b) => ({ ...b, hits: 0 })) : [];
    const record: ExpressionRecord = {
      field: site.field, role: site.role, expression: site.expression, evaluations: 0, errors: 0, trueResults: 0, falseResults: 0, branches,
    };
    expressions.set(site.field, { record, branches: new Map(branches.map((b) => [branchKey(b), b])) });
  }
  const record: PolicyRecord = {
    kind,
    name,
    contentHash: contentHash(spec),
    bindings: Object.fromEntries(bindings.map((b) => [b, 0])),
    expressions: [...expressions.values()].map((e) => e.record),
  };
  return { record, expressions };
}

/** Every CEL expression of a policy's spec, with the field path the tester's observer names it by. */
function expressionSites(spec: any): ExpressionSite[] {
  const sites: ExpressionSite[] = [];
  const add = (field: string, role: ExpressionRole, expression: unknown, celField: ExpressionField, variableIndex?: number) => {
    if (typeof expression === 'string') sites.push({ field, role, expression, celField, ...(variableIndex !== undefined ? { variableIndex } : {}) });
  };
  (spec.matchConditions ?? []).forEach((c: any, i: number) => add(`spec.matchConditions[${i}].expression`, 'matchCondition', c?.expression, ExpressionField.MATCH_CONDITION));
  (spec.variables ?? []).forEach((v: any, i: number) => add(`spec.variables[${i}].expression`, 'variable', v?.expression, ExpressionField.VARIABLE, i));
  (spec.validations ?? []).forEach((v: any, i: number) => {
    add(`spec.validations[${i}].expression`, 'validation', v?.expression, ExpressionField.VALIDATION);
    add(`spec.validations[${i}].messageExpression`, 'messageExpression', v?.messageExpression, ExpressionField.MESSAGE_EXPRESSION);
  });
  (spec.auditAnnotations ?? []).forEach((a: any, i: number) => add(`spec.auditAnnotations[${i}].valueExpression`, 'auditAnnotation', a?.valueExpression, ExpressionField.AUDIT_ANNOTATION_VALUE));
  (spec.mutations ?? []).forEach((m: any, i: number) => {
    if (m?.patchType === 'JSONPatch') add(`spec.mutations[${i}].jsonPatch.expression`, 'mutation', m.jsonPatch?.expression, ExpressionField.JSON_PATCH);
    else add(`spec.mutations[${i}].applyConfiguration.expression`, 'mutation', m?.applyConfiguration?.expression, ExpressionField.APPLY_CONFIGURATION);
  });
  return sites;
}

/** The first 16 hex digits of the SHA-256 of the spec as JSON with its keys sorted. */
function contentHash(spec: unknown): string {
  return createHash('sha256').update(canonicalJson(spec)).digest('hex').slice(0, 16);
}
