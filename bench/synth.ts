/**
 * Synthesis cost of cdk8s-admission constructs against raw cdk8s ApiObjects carrying the same
 * manifests, in one process, alternating runs: N ValidatingPolicy + binding pairs (N = 1,000 and
 * 4,000) and a few hundred webhooks, in one chart, and the 4,000 pairs again spread over ten
 * charts (cdk8s validates the whole app again for every chart it serializes). Every check runs in the library's case (the validator, CEL
 * compilation, cross-object checks); the raw objects are only resolved and serialized. A third
 * app carries the same manifests in the construct structure of the library without its checks
 * (a wrapper construct per object, a lazy spec, the binding-to-policy dependency), which splits
 * the library's cost into what the structure costs in cdk8s and what the checks cost. Prints the
 * times, the ratios, the growth from 1,000 to 4,000 pairs, and the peak memory (RSS) of
 * synthesizing 4,000 pairs in a fresh process, against the raw objects' in another.
 *
 *   npx projen bench:synth
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import {
  AdmissionResource, Operation, ParameterNotFoundAction, RuleScope, ValidatingPolicy, ValidatingWebhookConfiguration, ValidationAction, Webhook,
} from '../src';

const ROUNDS = 5;

/**
 * A custom resource has no built-in schema: its policies are not type-checked, which is the
 * baseline for the cost of typed CEL (Deployments, typed against their schema and params against
 * ConfigMap's).
 */
const WIDGETS = AdmissionResource.custom({ apiGroup: 'example.com', apiVersion: 'v1', resource: 'widgets', scope: RuleScope.NAMESPACED });

/** N policy + binding pairs, pair i in chart i mod the number of charts. */
function policies(charts: Chart[], n: number, resource = AdmissionResource.DEPLOYMENTS): void {
  for (let i = 0; i < n; i++) {
    new ValidatingPolicy(charts[i % charts.length], `policy-${i}`, {
      name: `policy-${i}`,
      resourceRules: [resource.rule(Operation.CREATE, Operation.UPDATE)],
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      variables: [{ name: 'max', expression: 'int(params.data.maxReplicas)' }],
      matchConditions: [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" }],
      validations: [
        { expression: `object.spec.replicas <= variables.max + ${i % 10}`, messageExpression: "'at most ' + string(variables.max) + ' replicas'" },
        { expression: `object.metadata.name.startsWith('team-${i % 50}-')`, message: 'names start with the team' },
      ],
    }).withBinding(`binding-${i}`, {
      name: `binding-${i}`,
      validationActions: [ValidationAction.DENY],
      paramRef: { name: 'limits', namespace: 'params', parameterNotFoundAction: ParameterNotFoundAction.DENY },
    });
  }
}

function webhooks(chart: Chart, n: number): void {
  const config = new ValidatingWebhookConfiguration(chart, 'webhooks', { name: 'webhooks' });
  for (let i = 0; i < n; i++) {
    config.addWebhook(Webhook.forServiceName('hooks', 'hooks', {
      name: `validate-${i}.pods.example.com`,
      path: `/validate-${i}`,
      rules: [AdmissionResource.PODS.rule(Operation.CREATE)],
      matchConditions: [{ name: 'not-kubelet', expression: "!('system:nodes' in request.userInfo.groups)" }],
    }));
  }
}

function library(n: number, hooks: number, chartCount = 1, resource = AdmissionResource.DEPLOYMENTS): App {
  const app = new App({ outdir: '/tmp/cdk8s-admission-bench' });
  const charts = Array.from({ length: chartCount }, (_, c) => new Chart(app, `library-${c}`));
  policies(charts, n, resource);
  webhooks(charts[0], hooks);
  return app;
}

/** The manifests of each chart of the library's app, as the library synthesizes them. */
function manifestsOf(app: App): any[][] {
  return app.charts.map((chart) => chart.toJson());
}

function raw(manifests: any[][]): App {
  const app = new App({ outdir: '/tmp/cdk8s-admission-bench' });
  manifests.forEach((list, c) => {
    const chart = new Chart(app, `raw-${c}`);
    list.forEach((m, i) => new ApiObject(chart, `o${i}`, m));
  });
  return app;
}

/** The manifests in the library's structure, unchecked: wrapper construct, lazy spec, binding after its policy. */
function wrapped(manifests: any[][]): App {
  const app = new App({ outdir: '/tmp/cdk8s-admission-bench' });
  const policyObjects = new Map<string, ApiObject>();
  manifests.forEach((list, c) => {
    const chart = new Chart(app, `wrapped-${c}`);
    list.forEach((m, i) => {
      const { spec, ...rest } = m;
      const obj = new ApiObject(new Construct(chart, `w${i}`), 'Resource', { ...rest, spec: Lazy.any({ produce: () => spec }) });
      if (m.kind === 'ValidatingAdmissionPolicy') policyObjects.set(m.metadata.name, obj);
      const policy = policyObjects.get(spec?.policyName);
      if (m.kind === 'ValidatingAdmissionPolicyBinding' && policy) obj.node.addDependency(policy);
    });
  });
  return app;
}

type Setup = 'library' | 'wrapped' | 'raw';
type Times = { [setup in Setup]: number };

function time(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function measure(n: number, hooks: number, charts: number): Times {
  const manifests = manifestsOf(library(n, hooks, charts));
  const build: { [setup in Setup]: () => App } = {
    library: () => library(n, hooks, charts),
    wrapped: () => wrapped(manifests),
    raw: () => raw(manifests),
  };
  const best: Times = { library: Infinity, wrapped: Infinity, raw: Infinity };
  for (let round = 0; round < ROUNDS; round++) {
    const order: Setup[] = round % 2 === 0 ? ['library', 'wrapped', 'raw'] : ['raw', 'wrapped', 'library'];
    for (const which of order) {
      // Construction and synthesis (validation, resolution, serialization) of the whole app.
      best[which] = Math.min(best[which], time(() => build[which]().synthYaml()));
    }
  }
  return best;
}

/**
 * The library's synthesis of the same app with its policies typed (Deployments) and untyped (a
 * custom resource), alternating, best of the rounds; and the first synthesis of each in a fresh
 * process, where every typed environment is built (not cached).
 */
function typedCheckingCost(n: number, hooks: number): { typed: number; untyped: number; coldTyped: number; coldUntyped: number } {
  let typed = Infinity;
  let untyped = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [true, false] : [false, true];
    for (const isTyped of order) {
      const t = time(() => library(n, hooks, 1, isTyped ? AdmissionResource.DEPLOYMENTS : WIDGETS).synthYaml());
      if (isTyped) typed = Math.min(typed, t);
      else untyped = Math.min(untyped, t);
    }
  }
  const cold = (mode: string) => {
    const out = execFileSync(process.execPath, [...process.execArgv, __filename, '--cold', mode, String(n)], { encoding: 'utf-8' });
    return Number(/ms=([\d.]+)/.exec(out)![1]);
  };
  return { typed, untyped, coldTyped: cold('typed'), coldUntyped: cold('untyped') };
}

/** Peak RSS of one synthesis in a fresh process (this script with `--rss library <n>` or `--rss raw <manifests.json>`). */
function peakRss(args: string[]): number {
  const out = execFileSync(process.execPath, [...process.execArgv, __filename, '--rss', ...args], { encoding: 'utf-8' });
  return Number(/rss=(\d+)/.exec(out)![1]);
}

function main(): void {
  const results: Array<[number, number, Times]> = [];
  for (const [n, hooks, charts] of [[1000, 300, 1], [4000, 300, 1], [4000, 300, 10]]) {
    const r = measure(n, hooks, charts);
    results.push([n, hooks, r]);
    console.log(`${n} policy+binding pairs, ${hooks} webhooks, ${charts} chart(s): library ${r.library.toFixed(0)} ms, raw ApiObjects ${r.raw.toFixed(0)} ms, `
      + `ratio ${(r.library / r.raw).toFixed(2)}x; same structure unchecked ${r.wrapped.toFixed(0)} ms `
      + `(structure ${(r.wrapped / r.raw).toFixed(2)}x raw, checks ${(r.library / r.wrapped).toFixed(2)}x the structure)`);
  }
  const typedCost = typedCheckingCost(1000, 300);
  console.log(`typed CEL, 1,000 pairs + 300 webhooks: typed (Deployments, ConfigMap params) ${typedCost.typed.toFixed(0)} ms, `
    + `untyped (a custom resource) ${typedCost.untyped.toFixed(0)} ms, ratio ${(typedCost.typed / typedCost.untyped).toFixed(2)}x; `
    + `first synth in a fresh process (nothing cached): typed ${typedCost.coldTyped.toFixed(0)} ms, untyped ${typedCost.coldUntyped.toFixed(0)} ms`);
  const [small, large] = results;
  console.log(`growth 1,000 → 4,000 pairs: library ${(large[2].library / small[2].library).toFixed(2)}x, raw ${(large[2].raw / small[2].raw).toFixed(2)}x (linear: ~4x)`);
  const file = path.join(os.tmpdir(), 'cdk8s-admission-bench-manifests.json');
  fs.writeFileSync(file, JSON.stringify(manifestsOf(library(4000, 300))));
  const libraryRss = peakRss(['library', '4000']);
  const rawRss = peakRss(['raw', file]);
  console.log(`peak RSS, 4,000 pairs + 300 webhooks, fresh process each: library ${(libraryRss / 1024).toFixed(0)} MiB, `
    + `raw ApiObjects ${(rawRss / 1024).toFixed(0)} MiB, ratio ${(libraryRss / rawRss).toFixed(2)}x`);
}

const rssAt = process.argv.indexOf('--rss');
const coldAt = process.argv.indexOf('--cold');
if (coldAt >= 0) {
  const [mode, arg] = process.argv.slice(coldAt + 1);
  console.log(`ms=${time(() => library(Number(arg), 300, 1, mode === 'typed' ? AdmissionResource.DEPLOYMENTS : WIDGETS).synthYaml())}`);
} else if (rssAt >= 0) {
  const [mode, arg] = process.argv.slice(rssAt + 1);
  const app = mode === 'library' ? library(Number(arg), 300) : raw(JSON.parse(fs.readFileSync(arg, 'utf-8')));
  app.synthYaml();
  console.log(`rss=${process.resourceUsage().maxRSS}`);
} else {
  main();
}
