/**
 * `npx projen conformance`: starts the real kube-apiserver (conformance/cmd/oracle), runs the
 * differential suites against it, prints a table per suite and the disagreements no entry of
 * known-differences.json covers, and ends with the summary line
 * `conformance: manifests A/N (P%), cel B/M (Q%), reviews C/K (R%), objects D/L (S%), types E/T (U%), defaults F/V (W%), eval G/X (Y%), matching H/Z (V%), static S/N (T%)`.
 *
 * Options: --seed N (default 20261202, the one CI uses), --manifests N (generated manifest cases,
 * default 5000), --cel N (generated expressions, default 3000), --emulated-manifests N
 * (generated manifest cases for each emulated minor, default 300), --reviews N (generated review
 * scenarios, default 1200; 0 skips the suite), --objects N (generated built-in objects, default 1000),
 * --types N (generated expressions type-checked against built-in kinds, default 3000), --defaults N
 * (generated objects whose admitted form is compared, default 600), --eval N (generated expressions
 * evaluated by both sides, default 10000), --report FILE (every outcome as JSON), --only SUITES (a
 * comma-separated subset of manifests,cel,reviews,objects,types,defaults,eval,matching,emulated,declarations,static,
 * for work on one suite; stale entries are
 * then not checked).
 */
import * as fs from 'fs';
import * as path from 'path';
import { exampleManifests } from './corpus/example-manifests';
import { recordedManifests } from './corpus/recorded-manifests';
import { recordedReviews } from './corpus/recorded-reviews';
import { celFunctions } from './oracle/cel-functions';
import { Oracle } from './oracle/oracle';
import { Disagreement, disagreements } from './outcomes/disagreements';
import { KnownDifferences } from './outcomes/known-differences';
import { CaseOutcome, SuiteResult } from './outcomes/suite-result';
import { percent, printTable } from './outcomes/table';
import { KubernetesVersion } from '../../src';
import { generateExpressions } from './suites/cel/expressions';
import { celCases, runCelSuite } from './suites/cel/suite';
import { runDeclarationsSuite } from './suites/declarations/suite';
import { runDefaultsSuite } from './suites/defaults/suite';
import { evalCases } from './suites/eval/cases';
import { runEvalSuite } from './suites/eval/suite';
import { bases } from './suites/manifests/bases';
import { corpusCases, gatedCases, generatedCases, sizeLimitCases } from './suites/manifests/cases';
import { runManifestSuite } from './suites/manifests/suite';
import { runMatchingSuite } from './suites/matching/suite';
import { baseObjects } from './suites/objects/bases';
import { generatedObjects, recordedObjects } from './suites/objects/cases';
import { customResourceOutcomes } from './suites/objects/custom-resources';
import { runObjectSuite } from './suites/objects/suite';
import { corpusScenarios } from './suites/reviews/corpus-scenarios';
import { costScenarios } from './suites/reviews/cost-scenarios';
import { generatedScenarios } from './suites/reviews/generated-scenarios';
import { runReviewSuite } from './suites/reviews/suite';
import { runStaticSuite } from './suites/static/suite';
import { applyLiteralCases, applyLiteralOutcomes } from './suites/types/apply-literals';
import { runTypesSuite } from './suites/types/suite';
import { BuiltinSchemas } from '../../src/schemas/builtin-schemas';

export const DEFAULT_SEED = 20261202;
/** Generated review scenarios: 1,200 (at least 1,000) take about 3 minutes. */
const DEFAULT_REVIEWS = 1200;
/** Generated built-in objects for the objects suite (a dry run each, a few seconds in all). */
const DEFAULT_OBJECTS = 1000;
/** Generated expressions for the types suite (type-checked by the oracle offline, about 15 s). */
const DEFAULT_TYPES = 3000;
/** Generated expressions evaluated by both sides (offline: about N ms on the oracle's side). */
const DEFAULT_EVAL = 10_000;
/** Generated objects sent raw to the defaults suite (a dry run and a recorded review each). */
const DEFAULT_DEFAULTS = 600;
/** Apply-configuration literals installed as policies and run by the apiserver (a few seconds). */
const DEFAULT_APPLY_LITERALS = 120;
/** Review scenarios drawn for the static suite, which keeps those a static set can hold (CREATE, no params: about one in ten). */
const STATIC_DRAWN_SCENARIOS = 3000;
export const RECORDED_DIR = path.join(__dirname, '..', '.out', 'recorded');

interface Options {
  readonly seed: number;
  readonly manifests: number;
  readonly cel: number;
  readonly emulatedManifests: number;
  readonly reviews: number;
  readonly objects: number;
  readonly types: number;
  readonly defaults: number;
  readonly eval: number;
  readonly report?: string;
  readonly only?: readonly string[];
}

function parseOptions(argv: readonly string[]): Options {
  const get = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const int = (flag: string, fallback: number): number => {
    const v = get(flag);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${flag} takes a whole number, got ${JSON.stringify(v)}`);
    return n;
  };
  return {
    seed: int('--seed', DEFAULT_SEED),
    manifests: int('--manifests', 5000),
    cel: int('--cel', 3000),
    emulatedManifests: int('--emulated-manifests', 300),
    reviews: int('--reviews', DEFAULT_REVIEWS),
    objects: int('--objects', DEFAULT_OBJECTS),
    types: int('--types', DEFAULT_TYPES),
    defaults: int('--defaults', DEFAULT_DEFAULTS),
    eval: int('--eval', DEFAULT_EVAL),
    report: get('--report'),
    only: get('--only')?.split(','),
  };
}

/** The minors the 1.37 apiserver can emulate (--emulated-version goes back three minors). */
const EMULATED_MINORS = [34, 35, 36];
/** Every target the library supports, for the CEL declarations. */
const DECLARATION_MINORS = [28, 29, 30, 31, 32, 33, 34, 35, 36, 37];

/** The CEL suite against `oracle` for target `version`: new expressions compile against the minor before. */
async function celSuite(oracle: Oracle, version: KubernetesVersion, count: number, seed: number): Promise<SuiteResult> {
  const overloads = celFunctions(`1.${version.minor - 1}`);
  return runCelSuite(oracle, celCases(generateExpressions(overloads, count, seed)), version);
}

async function servedVersions(oracle: Oracle): Promise<Set<string>> {
  const served = new Set<string>();
  for (const version of ['v1', 'v1beta1', 'v1alpha1']) {
    const res = await oracle.request('GET', `/apis/admissionregistration.k8s.io/${version}`);
    if (res.status !== 200) continue;
    for (const r of res.body.resources as Array<{ name: string; kind: string }>) {
      if (!r.name.includes('/')) served.add(`${r.kind}/${version}`);
    }
  }
  return served;
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const known = KnownDifferences.load();
  const runs = (suite: string) => !options.only || options.only.includes(suite);
  const version = KubernetesVersion.LATEST;
  console.log(`conformance: seed ${options.seed} (rerun with --seed ${options.seed}), target Kubernetes ${version}`);

  const started = Date.now();
  const oracle = await Oracle.start();
  console.log(`conformance: kube-apiserver ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const results: SuiteResult[] = [];
  let applyLiterals: CaseOutcome[] = [];
  try {
    const servedSet = await servedVersions(oracle);
    const served = (kind: string, v: string) => servedSet.has(`${kind}/${v}`);
    console.log(`conformance: the apiserver serves ${[...servedSet].sort().join(', ')}`);
    const baseList = bases(served);
    if (runs('manifests')) {
      const cases = [
        ...corpusCases('base', baseList.map((b) => b.manifest), served),
        ...corpusCases('example', exampleManifests(), served),
        ...corpusCases('test suite', recordedManifests(path.join(RECORDED_DIR, 'manifests')), served),
        ...generatedCases(baseList, options.manifests, options.seed),
        ...gatedCases(baseList),
        ...sizeLimitCases(baseList),
      ];
      results.push(await runManifestSuite(oracle, cases, version));
    }
    if (runs('cel')) results.push(await celSuite(oracle, version, options.cel, options.seed));
    if (runs('reviews') && options.reviews > 0) {
      const corpus = corpusScenarios(recordedReviews(path.join(RECORDED_DIR, 'reviews')));
      const scenarios = [...corpus.scenarios, ...generatedScenarios(options.reviews, options.seed), ...costScenarios(options.reviews)];
      results.push(await runReviewSuite(oracle, scenarios, version, corpus.unrealized));
    }
    if (runs('objects')) {
      const schemas = BuiltinSchemas.of(version.minor);
      const objects = [...baseObjects(), ...recordedObjects(recordedReviews(path.join(RECORDED_DIR, 'reviews')), schemas)];
      const cases = [...objects, ...generatedObjects(objects, options.objects, options.seed, schemas)];
      const suite = await runObjectSuite(oracle, cases, version);
      const custom = await customResourceOutcomes(oracle, schemas);
      const agreeing = custom.filter((o) => o.verdictAgrees && o.locationAgrees !== false).length;
      results.push({ ...suite, outcomes: [...suite.outcomes, ...custom], rows: [...suite.rows, ['custom resources (a CRD\'s object and variants): agree', `${agreeing}/${custom.length}`]] });
    }
    if (runs('defaults')) results.push(await runDefaultsSuite(oracle, options.defaults, options.seed, version));
    if (runs('matching')) results.push(await runMatchingSuite(oracle, options.seed, version));
    if (runs('types')) applyLiterals = await applyLiteralOutcomes(oracle, applyLiteralCases(DEFAULT_APPLY_LITERALS, options.seed, BuiltinSchemas.of(version.minor)), version);
  } finally {
    await oracle.stop();
  }
  // Older targets. Emulation (--emulated-version) switches the served API versions, but not the CEL
  // environment of new expressions (an apiserver emulating 1.34 still accepts 1.34's list functions,
  // which a real 1.34 compiles against 1.33 without): the version gates of CEL are checked against
  // the apiserver's versioned declarations instead.
  for (const minor of runs('emulated') ? EMULATED_MINORS : []) {
    const emulated = await Oracle.start({ emulatedVersion: `1.${minor}` });
    try {
      const target = KubernetesVersion.of(`1.${minor}`);
      const servedSet = await servedVersions(emulated);
      const baseList = bases((kind, v) => servedSet.has(`${kind}/${v}`));
      const cases = [...corpusCases(`base@1.${minor}`, baseList.map((b) => b.manifest), () => true), ...generatedCases(baseList, options.emulatedManifests, options.seed + minor), ...gatedCases(baseList)];
      results.push({ ...(await runManifestSuite(emulated, cases, target)), title: `manifests, emulating Kubernetes 1.${minor}` });
    } finally {
      await emulated.stop();
    }
  }
  // Static manifests are loaded when an apiserver starts: the suite starts its own, one per set.
  if (runs('static')) results.push(await runStaticSuite(generatedScenarios(STATIC_DRAWN_SCENARIOS, options.seed), version));
  if (runs('declarations')) results.push(runDeclarationsSuite(celFunctions, DECLARATION_MINORS));
  if (runs('types')) results.push(runTypesSuite(version.minor, options.types, options.seed, applyLiterals));
  if (runs('eval')) results.push(runEvalSuite(evalCases(celFunctions(`1.${version.minor - 1}`), options.eval, options.seed), version.minor));

  const all: Disagreement[] = results.flatMap((r) => disagreements(r, known));
  for (const r of results) {
    const d = disagreements(r, known);
    printTable(r.title ?? r.suite, [
      ...r.rows,
      ['disagreements (listed as known)', `${d.length} (${d.filter((x) => x.known).length})`],
    ]);
    for (const note of r.notes ?? []) console.log(`  ${note}`);
  }
  const unknown = all.filter((d) => !d.known);
  if (unknown.length > 0) {
    console.log(`\n${unknown.length} disagreements not in conformance/known-differences.json (the first 40):`);
    for (const d of unknown.slice(0, 40)) {
      console.log(`- [${d.suite}, ${d.kind}] ${d.outcome.name.slice(0, 300)}\n    library:   ${d.outcome.library}\n    apiserver: ${d.outcome.apiserver}`);
    }
  }
  // Entries are checked for staleness on the run CI makes (other seeds and sizes draw other cases).
  const isDefaultRun = options.seed === DEFAULT_SEED && options.manifests === 5000 && options.cel === 3000 && options.emulatedManifests === 300
    && options.reviews === DEFAULT_REVIEWS && options.objects === DEFAULT_OBJECTS && options.types === DEFAULT_TYPES
    && options.defaults === DEFAULT_DEFAULTS && options.eval === DEFAULT_EVAL && !options.only;
  const stale = isDefaultRun ? known.stale(results.map((r) => r.suite)) : [];
  for (const s of stale) console.log(`stale entry in known-differences.json (covers nothing): [${s.suite}] ${s.case}`);
  if (options.report) {
    fs.writeFileSync(options.report, JSON.stringify({ seed: options.seed, results, disagreements: all }, null, 2));
    console.log(`conformance: report written to ${options.report}`);
  }

  const summary = (suite: string): string => {
    const outcomes = results.filter((x) => x.suite === suite).flatMap((r) => r.outcomes);
    const agree = outcomes.filter((o) => o.verdictAgrees).length;
    return `${suite} ${agree}/${outcomes.length} (${percent(agree, outcomes.length)})`;
  };
  console.log(`\nconformance: ${summary('manifests')}, ${summary('cel')}, ${summary('reviews')}, ${summary('objects')}, ${summary('types')}, ${summary('defaults')}, ${summary('eval')}, ${summary('matching')}, ${summary('static')}`);
  return unknown.length > 0 || stale.length > 0 ? 1 : 0;
}

main().then((code) => process.exit(code), (e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(2);
});
