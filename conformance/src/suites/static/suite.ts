/**
 * The static suite: admission configurations loaded from static manifests (KEP-5793), which the
 * apiserver reads from each plugin's staticManifestsDir when it starts, under an
 * AdmissionConfiguration given with `--admission-control-config-file`.
 *
 * - Broken sets (sets.ts: one loader rule broken each) start an apiserver each: it must refuse to
 *   start exactly when the library reports an error, and the library's error must be at a file or
 *   an object the apiserver's refusal names.
 * - The valid sets start one apiserver together, with the generated review scenarios that a static
 *   set can hold (CREATE requests without params) synthesized by StaticAdmissionChart: every valid
 *   set must be in force (its probe request denied, mutated or refused by its webhook), and every
 *   scenario's request is answered as PolicyTester answers it with the scenario's policies as its
 *   static set. The scenarios of two policies or more come once more with one policy static and
 *   the others created through the API, which the static ones run before. Should that apiserver
 *   refuse to start, each valid set starts alone, to name the one.
 * - The example's ControlPlaneBaselineChart, synthesized by `synthDirectory` with its own
 *   AdmissionConfiguration, starts an apiserver and must be in force: it denies deleting a
 *   protected API policy, as PolicyTester.fromChart says.
 *
 * The library's side of a set is the cdk8s CLI plugin (AdmissionValidationPlugin) over the files
 * the apiserver reads, with the AdmissionConfiguration beside them, as `cdk8s synth` runs it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Yaml } from 'cdk8s';
import { orderScenarios } from './order-scenarios';
import { brokenSets, PROBE_LABEL, PROBE_NAMESPACE, Probe, StaticFile, StaticSetCase, SUFFIX, validSets } from './sets';
import { ControlPlaneBaselineChart } from '../../../../examples/main';
import { AdmissionResult, AdmissionValidationPlugin, AdmissionWarnings, KubernetesVersion, Operation, PolicyTester, StaticAdmissionChart } from '../../../../src';
import { STATIC_PLUGINS } from '../../../../src/validation/static-plugins';
import { AuditLog } from '../../oracle/audit-log';
import { mapConcurrently } from '../../oracle/map-concurrently';
import { Oracle, OracleExitedError } from '../../oracle/oracle';
import { CaseOutcome, SuiteResult } from '../../outcomes/suite-result';
import { percent } from '../../outcomes/table';
import { ReviewScenario } from '../reviews/scenario';
import {
  answerOf, auditAnnotations, collectionUrl, compare, must, PERMISSIONS, refusedBeforeAdmission,
  ReviewOutcome, send, sentinel, setUpRbac, testerUser, waitForSentinel,
} from '../reviews/suite';

const CONFIG_FILE = 'admission-configuration.yaml';
const CONCURRENCY = 8;

/** What the library says of a set: the errors of the CLI plugin, each with its file and object name. */
interface LibraryClaim {
  readonly errors: ReadonlyArray<{ readonly file: string; readonly name: string; readonly text: string }>;
}

/** Writes `files` under `root`, a directory per plugin, with an AdmissionConfiguration naming those that have files. */
export function writeSet(root: string, files: readonly StaticFile[]): string {
  const plugins = STATIC_PLUGINS.filter((p) => files.some((f) => f.plugin === p.plugin));
  for (const p of plugins) fs.mkdirSync(path.join(root, p.directory), { recursive: true });
  for (const f of files) fs.writeFileSync(path.join(root, STATIC_PLUGINS.find((p) => p.plugin === f.plugin)!.directory, f.name), f.text);
  const configuration = {
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'AdmissionConfiguration',
    plugins: plugins.map((p) => ({
      name: p.plugin,
      configuration: { apiVersion: 'apiserver.config.k8s.io/v1', kind: p.configurationKind, staticManifestsDir: path.join(root, p.directory) },
    })),
  };
  fs.writeFileSync(path.join(root, CONFIG_FILE), Yaml.stringify(configuration));
  return path.join(root, CONFIG_FILE);
}

/** The files the loaders read (manifest/loader.go: LoadFiles: .yaml, .yml and .json, not empty), and the AdmissionConfiguration. */
function filesOfSet(root: string): string[] {
  const out = [path.join(root, CONFIG_FILE)];
  for (const p of STATIC_PLUGINS) {
    const dir = path.join(root, p.directory);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (/\.(ya?ml|json)$/i.test(name) && fs.statSync(file).size > 0) out.push(file);
    }
  }
  return out;
}

/** The CLI plugin's report on the set under `root`, as `cdk8s synth` would make it. */
export async function libraryClaim(root: string, version: KubernetesVersion): Promise<LibraryClaim> {
  const errors: Array<{ file: string; name: string; text: string }> = [];
  const context = {
    manifests: filesOfSet(root),
    parseManifest: (file: string) => Yaml.load(file),
    report: {
      addViolation: (v: any) => {
        if (!String(v.ruleName).startsWith('cdk8s-admission error')) return;
        const where = v.violatingResources[0];
        errors.push({ file: where.manifestPath, name: String(where.resourceName), text: `${path.relative(root, where.manifestPath)}: ${v.ruleName.replace(/^cdk8s-admission error: /, '')}: ${v.recommendation}` });
      },
      submit: () => undefined,
    },
  };
  await new AdmissionValidationPlugin({ kubernetesVersion: version.toString() }).validate(context);
  return { errors };
}

/** The lines of the apiserver's output that say why it did not start. */
function refusal(e: OracleExitedError): string {
  const lines = e.output.split('\n').filter((l) => /failed to initialize admission plugin|error loading|Error:/.test(l));
  return (lines.length > 0 ? lines : e.output.split('\n').slice(-5)).join(' ').replace(/\s+/g, ' ').trim();
}

/** Starts an apiserver on the AdmissionConfiguration; a refusal to start is returned as its reason. */
async function startOn(configFile: string): Promise<Oracle | string> {
  try {
    return await Oracle.start({ admissionConfigFile: configFile });
  } catch (e) {
    if (e instanceof OracleExitedError) return refusal(e);
    throw e;
  }
}

/** Whether the apiserver's refusal names a file or an object the library reports an error at. */
function refusalNamesLibraryError(reason: string, claim: LibraryClaim): boolean {
  return claim.errors.some((e) => reason.includes(e.file) || reason.includes(`"${e.name.split(' ')[0]}"`));
}

/** A broken set: the apiserver must refuse to start exactly when the library reports an error there. */
async function brokenOutcome(c: StaticSetCase, version: KubernetesVersion): Promise<CaseOutcome> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-admission-static-'));
  try {
    const configFile = writeSet(root, c.files);
    const claim = await libraryClaim(root, version);
    const started = await startOn(configFile);
    if (typeof started !== 'string') await started.stop();
    const refused = typeof started === 'string';
    const library = claim.errors.length === 0 ? 'accepted' : `rejected: ${claim.errors.map((e) => e.text).join(' | ')}`;
    return {
      name: `broken: ${c.name}`,
      apiserverAccepted: !refused,
      verdictAgrees: refused === claim.errors.length > 0,
      ...(refused && claim.errors.length > 0 ? { locationAgrees: refusalNamesLibraryError(started, claim) } : {}),
      library: library.replace(new RegExp(root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'), '<dir>'),
      apiserver: refused ? `refused to start: ${started}`.replace(new RegExp(root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'), '<dir>') : 'started',
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** A dry-run create of the probe's ConfigMap, and whether the answer shows the set in force. */
async function probe(oracle: Oracle, p: Probe): Promise<{ inForce: boolean; answer: string }> {
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `probe-${p.label}`, namespace: PROBE_NAMESPACE, labels: { [PROBE_LABEL]: p.label } } };
  const res = await oracle.request('POST', `/api/v1/namespaces/${PROBE_NAMESPACE}/configmaps?dryRun=All`, object);
  const message = String(res.body?.message ?? '');
  const inForce = p.expect === 'denied' ? res.status === 422 && message.includes(p.text)
    : p.expect === 'mutated' ? res.status === 201 && res.body?.metadata?.labels?.['mutated-by'] === p.text
      : res.status >= 400 && message.includes(`failed calling webhook "${p.text}"`);
  return { inForce, answer: `${res.status} ${message || JSON.stringify(res.body?.metadata?.labels ?? {})}`.slice(0, 300) };
}

/** A valid set in force on `oracle` (or refused, alone or with the others). */
async function validOutcome(c: StaticSetCase, oracle: Oracle | string, claim: LibraryClaim): Promise<CaseOutcome> {
  const library = claim.errors.length === 0 ? 'accepted' : `rejected: ${claim.errors.map((e) => e.text).join(' | ')}`;
  if (typeof oracle === 'string') {
    return { name: `loads: ${c.name}`, apiserverAccepted: false, verdictAgrees: claim.errors.length > 0, library, apiserver: `refused to start: ${oracle}` };
  }
  const { inForce, answer } = await probe(oracle, c.probe!);
  return {
    name: `loads: ${c.name}`,
    apiserverAccepted: true,
    verdictAgrees: claim.errors.length === 0 && inForce,
    library,
    apiserver: `${inForce ? 'in force' : 'started, but the set is not in force'}: ${answer}`,
  };
}

/** A review scenario as the static suite runs it: its static policies, and those created through the API. */
export interface StaticReview {
  /** The scenario, its policies named as the apiserver sees them (static ones with the suffix). */
  readonly scenario: ReviewScenario;
  readonly staticPolicies: readonly any[];
  readonly apiPolicies: readonly any[];
}

/** The generated review scenarios a static set can hold: CREATE requests, no params, nothing stored first. */
export function staticScenarios(scenarios: readonly ReviewScenario[]): ReviewScenario[] {
  return scenarios.filter((s) => s.operation === 'CREATE' && s.objects.length === 0 && !s.solo && !s.definitions && !s.resource
    && s.policies.every((p) => p.spec?.paramKind === undefined && p.spec?.paramRef === undefined));
}

/** Policies and bindings named as a static set's. */
function asStatic(policies: readonly any[]): any[] {
  const named = (name: string) => `${name}${SUFFIX}`;
  return policies.map((p) => ({
    ...p,
    metadata: { ...p.metadata, name: named(p.metadata.name) },
    ...(p.spec?.policyName ? { spec: { ...p.spec, policyName: named(p.spec.policyName) } } : {}),
  }));
}

/** Every scenario with all its policies static. */
export function allStatic(scenarios: readonly ReviewScenario[]): StaticReview[] {
  return staticScenarios(scenarios).map((s) => {
    const policies = asStatic(s.policies);
    return { scenario: { ...s, policies }, staticPolicies: policies, apiPolicies: [] };
  });
}

/**
 * The scenarios of two policies or more once more, in Namespaces of their own (`rv<i>` renamed
 * `rm<i>` wherever the scenario says it): one policy with its bindings static (the first one, or
 * the last, by turns; a mutating one when there are two), the others created through the API, so
 * that the static ones run first.
 * Left out: those leaving two mutating policies to the API, whose order is a Go map's.
 */
export function mixedScenarios(scenarios: readonly ReviewScenario[]): StaticReview[] {
  const out: StaticReview[] = [];
  for (const s of staticScenarios(scenarios)) {
    const renamed: ReviewScenario = JSON.parse(JSON.stringify(s).replace(/\brv(\d+)(?!\d)/g, 'rm$1'));
    const groups = renamed.policies.filter((p) => p.spec?.policyName === undefined)
      .map((policy) => [policy, ...renamed.policies.filter((b) => b.spec?.policyName === policy.metadata.name)]);
    if (groups.length < 2) continue;
    // With two mutating policies, one of them is static: their order shows in the object admitted.
    const mutating = groups.map((g, i) => (g[0].kind === 'MutatingAdmissionPolicy' ? i : -1)).filter((i) => i >= 0);
    const candidates = mutating.length >= 2 ? mutating : groups.map((_, i) => i);
    const pick = out.length % 2 === 0 ? candidates[0] : candidates[candidates.length - 1];
    const staticPolicies = asStatic(groups[pick]);
    const apiPolicies = groups.filter((_, i) => i !== pick).flat();
    if (apiPolicies.filter((p) => p.kind === 'MutatingAdmissionPolicy').length > 1) continue;
    out.push({
      scenario: { ...renamed, name: `${renamed.name} (mixed: ${staticPolicies[0].metadata.name} static)`, policies: [...staticPolicies, ...apiPolicies] },
      staticPolicies,
      apiPolicies,
    });
  }
  return out;
}

/** The static policies in a StaticAdmissionChart, written by `synthDirectory` under `root`: the library's own writer. */
function synthStatic(root: string, reviews: readonly StaticReview[]): StaticFile[] {
  // The scenarios hold what the apiserver accepts and the library warns (that is what the reviews
  // compare): the warnings are not this suite's output.
  const app = new App();
  app.node.setContext(AdmissionWarnings.PRINT_CONTEXT, false);
  const chart = new StaticAdmissionChart(app, 'scenarios', { hostDirectory: root });
  reviews.forEach((r, i) => r.staticPolicies.forEach((p, j) => new ApiObject(chart, `s${i}-${j}`, p)));
  const written = chart.synthDirectory(root).filter((f) => f !== CONFIG_FILE);
  return written.map((f) => {
    const plugin = STATIC_PLUGINS.find((p) => p.directory === path.dirname(f))!;
    return { plugin: plugin.plugin as StaticFile['plugin'], name: path.basename(f), text: fs.readFileSync(path.join(root, f), 'utf8') };
  });
}

/** A scenario's request, answered by the apiserver and by PolicyTester with the API policies as manifests and the others as its static set. */
async function reviewOutcome(oracle: Oracle, audit: AuditLog, r: StaticReview, version: KubernetesVersion): Promise<ReviewOutcome | undefined> {
  const s = r.scenario;
  const res = await send(oracle, s, s.object);
  if (refusedBeforeAdmission(res)) return undefined;
  const annotations = res.auditId ? await auditAnnotations(audit, res.auditId) : undefined;
  const answer = answerOf(res, annotations, s.object.kind);
  const namespaces = s.namespaces.map((ns) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns.name, labels: ns.labels } }));
  let result: AdmissionResult | Error;
  try {
    const options = { kubernetesVersion: version, permissions: [...PERMISSIONS], staticManifests: [...r.staticPolicies] };
    const tester = PolicyTester.fromManifests([...namespaces, ...r.apiPolicies], options);
    result = tester.review({ operation: Operation.CREATE, object: s.object, userInfo: testerUser(s), dryRun: true });
  } catch (e) {
    result = e as Error;
  }
  // Static policies run first, in the order of their names (the loader sorts them); at most one
  // mutating policy is the API's: no other order to try. With every policy static, the order of
  // the validating ones is known too, and with it the denial the apiserver reports.
  return { ...compare(s, result, answer, r.apiPolicies.length === 0), name: `review: ${s.name}` };
}

/** Creates the API policies of the reviews, and waits until a sentinel pair created last is in force. */
async function installApiPolicies(oracle: Oracle, reviews: readonly StaticReview[]): Promise<void> {
  const policies = reviews.flatMap((r) => r.apiPolicies);
  if (policies.length === 0) return;
  await mapConcurrently(policies, CONCURRENCY, (p) => must(oracle, 'POST', collectionUrl(p), p));
  const guard = sentinel(0);
  await must(oracle, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: guard.namespace } });
  await must(oracle, 'POST', collectionUrl(guard.param), guard.param);
  for (const p of guard.policies) await must(oracle, 'POST', collectionUrl(p), p);
  await waitForSentinel(oracle, guard.namespace);
}

/** The valid sets and the reviews' static policies, loaded by one apiserver. */
export async function loadedOutcomes(
  valid: readonly StaticSetCase[], reviews: readonly StaticReview[], version: KubernetesVersion,
): Promise<{ outcomes: CaseOutcome[]; reviews: ReviewOutcome[]; notes: string[] }> {
  const outcomes: CaseOutcome[] = [];
  const notes: string[] = [];
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-admission-static-'));
  let reviewOutcomes: ReviewOutcome[] = [];
  try {
    const files = [...synthStatic(root, reviews), ...valid.flatMap((c) => c.files)];
    const configFile = writeSet(root, files);
    const claim = await libraryClaim(root, version);
    const oracle = await startOn(configFile);
    if (typeof oracle === 'string') {
      notes.push(`the valid sets and the scenarios together: the apiserver refused to start (${oracle.slice(0, 300)}); each valid set is started alone`);
      for (const c of valid) {
        const alone = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-admission-static-'));
        try {
          const started = await startOn(writeSet(alone, c.files));
          outcomes.push(await validOutcome(c, started, await libraryClaim(alone, version)));
          if (typeof started !== 'string') await started.stop();
        } finally {
          fs.rmSync(alone, { recursive: true, force: true });
        }
      }
      reviewOutcomes = reviews.map((r) => ({
        name: `review: ${r.scenario.name}`, apiserverAccepted: false, verdictAgrees: false, library: 'loads', apiserver: `refused to start: ${oracle}`, mutating: false,
      }));
    } else {
      try {
        const own = (c: StaticSetCase): LibraryClaim => ({ errors: claim.errors.filter((e) => c.files.some((f) => e.file.endsWith(`${path.sep}${f.name}`))) });
        await must(oracle, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: PROBE_NAMESPACE } });
        for (const c of valid) outcomes.push(await validOutcome(c, oracle, own(c)));
        await setUpRbac(oracle);
        const namespaces = reviews.flatMap((r) => r.scenario.namespaces);
        await mapConcurrently(namespaces, CONCURRENCY, (ns) => must(oracle, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns.name, labels: ns.labels } }));
        await installApiPolicies(oracle, reviews);
        const audit = new AuditLog(oracle.auditLog);
        const answered = await mapConcurrently(reviews, CONCURRENCY, (r) => reviewOutcome(oracle, audit, r, version));
        reviewOutcomes = answered.filter((o): o is ReviewOutcome => o !== undefined);
        const notSent = reviews.length - reviewOutcomes.length;
        if (notSent > 0) notes.push(`${notSent} scenarios not sent: the apiserver refused their objects before admission`);
        // Errors the library reports on the scenarios' own files (the chart wrote them: there should be none).
        const scenarioErrors = claim.errors.filter((e) => !valid.some((c) => c.files.some((f) => e.file.endsWith(`${path.sep}${f.name}`))));
        for (const e of scenarioErrors) notes.push(`the library reports an error on a scenario's file the apiserver loaded: ${e.text.slice(0, 300)}`);
        if (scenarioErrors.length > 0) reviewOutcomes = reviewOutcomes.map((o) => ({ ...o, verdictAgrees: false }));
      } finally {
        await oracle.stop();
      }
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  return { outcomes, reviews: reviewOutcomes, notes };
}

export async function runStaticSuite(scenarios: readonly ReviewScenario[], version: KubernetesVersion): Promise<SuiteResult> {
  // Broken sets, one apiserver each, two at a time (a refused start takes a few seconds).
  const outcomes: CaseOutcome[] = await mapConcurrently(brokenSets(), 2, (c) => brokenOutcome(c, version));
  const reviewed = [...allStatic(scenarios), ...mixedScenarios(scenarios), ...orderScenarios()];
  const loaded = await loadedOutcomes(validSets(), reviewed, version);
  const reviewOutcomes = loaded.reviews;
  outcomes.push(...loaded.outcomes, ...reviewOutcomes);
  // The example's baseline, as synthDirectory writes it with its own AdmissionConfiguration.
  outcomes.push(await exampleOutcome(version));
  const notes = loaded.notes;

  const rate = (of: readonly CaseOutcome[], f: (o: CaseOutcome) => boolean) => `${of.filter(f).length}/${of.length} (${percent(of.filter(f).length, of.length)})`;
  const count = (prefix: string, f: (o: CaseOutcome) => boolean) => rate(outcomes.filter((o) => o.name.startsWith(prefix)), f);
  const mixed = (o: CaseOutcome) => o.name.includes('(mixed: ');
  const ordered = (o: CaseOutcome) => o.name.startsWith('review: order #');
  const agrees = (o: CaseOutcome & { matchAgrees?: boolean }) => o.verdictAgrees && o.locationAgrees !== false
    && ![o.codeAgrees, o.messageAgrees, o.warningsAgree, o.auditAgrees, o.mutationAgrees, o.matchAgrees].includes(false);
  return {
    suite: 'static',
    outcomes,
    rows: [
      ['broken sets (one loader rule broken): refused by both', count('broken: ', (o) => o.verdictAgrees && !o.apiserverAccepted)],
      ['  the refusal names a file or object the library reports', count('broken: ', (o) => o.locationAgrees === true)],
      ['valid sets (each form the loader reads): loaded and in force', count('loads: ', (o) => o.verdictAgrees)],
      ['reviews (generated scenarios): sent of drawn', `${reviewOutcomes.length} of ${reviewed.length}`],
      ['  every policy static: answers agree with PolicyTester', rate(reviewOutcomes.filter((o) => !mixed(o) && !ordered(o)), agrees)],
      ['    with several denials: the apiserver\'s one is the tester\'s first',
        rate(reviewOutcomes.filter((o) => !mixed(o) && !ordered(o) && !o.mutating && (o.testerDenials ?? 0) > 1), (o) => o.messageAgrees === true)],
      ['  one policy static, the others the API\'s: answers agree', rate(reviewOutcomes.filter(mixed), agrees)],
      ['  a static and an API mutating policy, every ordered pair of templates: answers agree', rate(reviewOutcomes.filter(ordered), agrees)],
      ['the example\'s control-plane baseline: loaded and in force', count('example: ', (o) => o.verdictAgrees)],
    ],
    notes,
  };
}

/** The example app's ControlPlaneBaselineChart, synthesized by synthDirectory, must load and keep a protected API policy from deletion. */
export async function exampleOutcome(version: KubernetesVersion): Promise<CaseOutcome> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-admission-static-'));
  try {
    const chart = new ControlPlaneBaselineChart(new App(), 'baseline', { hostDirectory: root });
    chart.synthDirectory(root);
    const claim = await libraryClaim(root, version);
    const library = claim.errors.length === 0 ? 'accepted' : `rejected: ${claim.errors.map((e) => e.text).join(' | ')}`;
    const oracle = await startOn(chart.admissionConfigurationFile);
    if (typeof oracle === 'string') return { name: 'example: ControlPlaneBaselineChart', apiserverAccepted: false, verdictAgrees: false, library, apiserver: `refused to start: ${oracle}` };
    try {
      // An API policy the platform team protects: only a static policy sees its deletion.
      const stored = (await must(oracle, 'POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'platform-limits', labels: { 'platform.example.com/protected': 'true' } },
        spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] }, validations: [{ expression: 'true' }] },
      })).body;
      const res = await oracle.request('DELETE', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/platform-limits?dryRun=All');
      const tester = PolicyTester.fromChart(chart, { kubernetesVersion: version });
      const expected = tester.review({ operation: Operation.DELETE, oldObject: stored });
      const message = String(res.body?.message ?? '');
      const denied = res.status === 422 && expected.denials.some((d) => message.includes(d.message));
      return {
        name: 'example: ControlPlaneBaselineChart',
        apiserverAccepted: true,
        verdictAgrees: claim.errors.length === 0 && !expected.allowed && denied,
        library: `${library}; PolicyTester: ${expected.allowed ? 'allowed' : `denied: ${expected.denials.map((d) => d.message).join(' | ')}`}`,
        apiserver: `in force: deleting a protected API policy: ${res.status} ${message}`.slice(0, 400),
      };
    } finally {
      await oracle.stop();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
