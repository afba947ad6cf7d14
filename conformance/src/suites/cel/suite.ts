/**
 * The CEL suite: each generated expression is placed in one kind of expression field of an
 * otherwise valid object, the object is created with `dryRun=All`, and the apiserver's verdict on
 * that field (accepted, or rejected with the error's `<input>:line:column`) is compared with
 * `ManifestValidator.validate`'s.
 */
import { GeneratedExpression } from './expressions';
import { Placement, PLACEMENTS } from './placements';
import { KubernetesVersion, ManifestValidator, ViolationSeverity } from '../../../../src';
import { collectionPath, dryRunCreate } from '../../oracle/dry-run';
import { mapConcurrently } from '../../oracle/map-concurrently';
import { Oracle } from '../../oracle/oracle';
import { CaseOutcome, SuiteResult } from '../../outcomes/suite-result';
import { percent } from '../../outcomes/table';

export interface CelCase {
  readonly name: string;
  readonly placement: Placement;
  readonly expression: string;
}

/**
 * Each expression goes to one field: one whose result type it has when there is one (so that
 * most cases test the expression, not the result-type rule), else any.
 */
export function celCases(expressions: readonly GeneratedExpression[]): CelCase[] {
  return expressions.map((e, i) => {
    const fitting = PLACEMENTS.filter((p) => p.accepts?.includes(e.result));
    const pool = fitting.length > 0 && i % 5 !== 0 ? fitting : PLACEMENTS;
    const placement = pool[i % pool.length];
    return { name: `${placement.field} (${e.origin}): ${e.expression.length > 300 ? e.expression.slice(0, 300) + '…' : e.expression}`, placement, expression: e.expression };
  });
}

/** The first `<input>:line:column` of a message, if any. */
function position(messages: readonly string[]): string | undefined {
  for (const m of messages) {
    const p = /<input>:(\d+:\d+)/.exec(m);
    if (p) return p[1];
  }
  return undefined;
}

export async function runCelSuite(oracle: Oracle, cases: readonly CelCase[], version: KubernetesVersion): Promise<SuiteResult> {
  const outcomes = await mapConcurrently(cases, 8, async (c): Promise<CaseOutcome> => {
    // The apiVersion the target serves (MutatingAdmissionPolicy is v1beta1 on 1.34-1.35).
    const manifest = { ...c.placement.build(c.expression) };
    manifest.apiVersion = version.apiVersionFor(manifest.kind);
    const api = await dryRunCreate(oracle, collectionPath(manifest.kind, manifest.apiVersion), manifest);
    const apiMessages = api.paths.map((p, i) => (p === c.placement.path ? api.messages[i] : undefined)).filter((m): m is string => m !== undefined);
    const libMessages = ManifestValidator.validate(manifest, { kubernetesVersion: version })
      .filter((v) => v.severity === ViolationSeverity.ERROR && v.path === c.placement.path)
      .map((v) => v.message);
    const otherApiErrors = api.paths.filter((p) => p !== c.placement.path);
    const apiAccepted = apiMessages.length === 0;
    const libAccepted = libMessages.length === 0;
    const verdictAgrees = apiAccepted === libAccepted;
    return {
      name: c.name,
      apiserverAccepted: apiAccepted,
      verdictAgrees,
      locationAgrees: verdictAgrees && !apiAccepted ? position(apiMessages) === position(libMessages) : undefined,
      library: libAccepted ? 'accepted' : `rejected: ${libMessages.join(' | ').slice(0, 500)}`,
      apiserver: (apiAccepted ? 'accepted' : `rejected: ${apiMessages.join(' | ').slice(0, 500)}`)
        + (otherApiErrors.length > 0 ? ` (other errors: ${otherApiErrors.join(', ')}; ${api.messages.join(' | ').slice(0, 200)})` : ''),
    };
  });
  const by = (field: string) => {
    const mine = outcomes.filter((_, i) => cases[i].placement.field === field);
    return `${mine.filter((o) => o.verdictAgrees).length}/${mine.length}`;
  };
  const rejected = outcomes.filter((o) => o.locationAgrees !== undefined);
  return {
    suite: 'cel',
    outcomes,
    rows: [
      ['expressions', String(cases.length)],
      ['accepted by the apiserver', String(outcomes.filter((o) => o.apiserverAccepted).length)],
      ['verdicts agree', `${outcomes.filter((o) => o.verdictAgrees).length} (${percent(outcomes.filter((o) => o.verdictAgrees).length, outcomes.length)})`],
      ['library rejects, apiserver accepts', String(outcomes.filter((o) => !o.verdictAgrees && o.apiserverAccepted).length)],
      ['library accepts, apiserver rejects', String(outcomes.filter((o) => !o.verdictAgrees && !o.apiserverAccepted).length)],
      ['both reject, positions agree', `${rejected.filter((o) => o.locationAgrees).length}/${rejected.length} (${percent(rejected.filter((o) => o.locationAgrees).length, rejected.length)})`],
      ...PLACEMENTS.map((p): [string, string] => [`  ${p.field}`, by(p.field)]),
    ],
  };
}
