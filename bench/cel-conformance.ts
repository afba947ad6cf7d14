/**
 * Runs the CEL conformance suite (cel-spec's simple tests, as data in @bufbuild/cel-spec) against
 * this library's Kubernetes CEL layer (src/cel/), and against the raw engine in the same run, and
 * prints the pass rate per section for the sections whose features Kubernetes enables.
 *
 *   npx projen bench:cel-conformance [--failures <section>]
 *
 * A simplified driver, not the official runner: every test is type-checked (Kubernetes always
 * checks, so `disableCheck` is ignored), values are compared with CEL equality; tests needing
 * protobuf messages, containers or message-typed declarations are skipped.
 */
import { compileIn } from '../src/cel/checker';
import { CelEnvironment, engine } from '../src/cel/engine';
import { kubernetesEnvironment } from '../src/cel/environment';
import { celEquals } from '../src/cel/libraries/values';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { tests: conformance } = require('@bufbuild/cel-spec/testdata/conformance.js');

/** Sections of features the Kubernetes environment does not have (protobuf messages, extensions it does not install). */
const NOT_IN_KUBERNETES = new Set(['bindings_ext', 'block_ext', 'encoders_ext', 'math_ext', 'proto2', 'proto2_ext', 'proto3', 'enums', 'wrappers']);
const MINOR = 36;

class Skip extends Error {}

interface Outcome { pass: number; fail: number; skip: number; kubernetes: number; failures: string[] }

function value(v: any): unknown {
  if (v === undefined) throw new Skip('no value');
  if ('int64Value' in v) return BigInt(v.int64Value);
  if ('uint64Value' in v) return new engine.UnsignedInt(BigInt(v.uint64Value));
  if ('doubleValue' in v) return typeof v.doubleValue === 'string' ? Number(v.doubleValue) : v.doubleValue;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('nullValue' in v) return null;
  if ('bytesValue' in v) return Uint8Array.from(Buffer.from(v.bytesValue, 'base64'));
  if ('listValue' in v) return (v.listValue.values ?? []).map(value);
  if ('mapValue' in v) return new Map((v.mapValue.entries ?? []).map((e: any) => [value(e.key), value(e.value)]));
  if ('typeValue' in v) return { typeName: v.typeValue };
  throw new Skip(`value kind ${Object.keys(v).join(',')}`);
}

function celType(t: any): string {
  if (!t || Object.keys(t).length === 0 || 'dyn' in t) return 'dyn';
  if (t.primitive) {
    const p: Record<string, string> = { INT64: 'int', UINT64: 'uint', DOUBLE: 'double', STRING: 'string', BOOL: 'bool', BYTES: 'bytes' };
    if (p[t.primitive]) return p[t.primitive];
  }
  if (t.wellKnown === 'TIMESTAMP') return 'google.protobuf.Timestamp';
  if (t.wellKnown === 'DURATION') return 'google.protobuf.Duration';
  if (t.listType) return `list<${celType(t.listType.elemType)}>`;
  if (t.mapType) return `map<${celType(t.mapType.keyType)}, ${celType(t.mapType.valueType)}>`;
  if ('null' in t) return 'null';
  throw new Skip(`declared type ${JSON.stringify(t)}`);
}

function sameValue(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number' && Number.isNaN(expected)) return typeof actual === 'number' && Number.isNaN(actual);
  if (expected && typeof expected === 'object' && 'typeName' in expected) {
    const name = (actual as { name?: string })?.name ?? String(actual);
    const want = (expected as { typeName: string }).typeName;
    return name === want || (want === 'null_type' && name === 'null') || want.endsWith(`.${name}`);
  }
  return celEquals(actual, expected) && typeof actual === typeof expected || celEquals(actual, expected) && typeof expected === 'object';
}

interface Compiled { readonly ok: boolean; readonly error?: string; run?(ctx: Record<string, unknown>): unknown }
type Compile = (expression: string, declarations: Array<[string, string]>) => Compiled;

/**
 * Kubernetes rejects mixed-type list and map literals at compile time (homogeneous aggregate
 * literals); conformance tests written with them are not Kubernetes CEL, so they are counted apart.
 */
function rejectedAsKubernetesDoes(compiled: Compiled): boolean {
  return !compiled.ok && /expected type '.*' but found '.*'/.test(compiled.error ?? '');
}

const layerEnvs = new Map<string, CelEnvironment>();
function declared(
  key: string, make: () => CelEnvironment, declarations: Array<[string, string]>, cache: Map<string, CelEnvironment>,
): CelEnvironment {
  const k = `${key}|${declarations.map((d) => d.join(':')).join(',')}`;
  let env = cache.get(k);
  if (!env) {
    env = make();
    for (const [name, type] of declarations) env.registerVariable(name, type);
    cache.set(k, env);
  }
  return env;
}

const layer: Compile = (expression, declarations) => {
  const env = declared('layer', () => kubernetesEnvironment(MINOR), declarations, layerEnvs);
  const result = compileIn(env, expression, MINOR);
  return result.program ? { ok: true, run: (ctx) => result.program!(ctx) } : { ok: false, error: result.errors[0] };
};

const rawEnvs = new Map<string, CelEnvironment>();
const raw: Compile = (expression, declarations) => {
  const env = declared('raw', () => new engine.Environment({ enableOptionalTypes: true }), declarations, rawEnvs);
  try {
    const program = env.parse(expression);
    if (!program.check().valid) return { ok: false };
    return { ok: true, run: (ctx) => program(ctx) };
  } catch {
    return { ok: false };
  }
};

type Result = 'pass' | 'fail' | 'skip' | 'kubernetes';
let lastError = '';

function runTest(test: any, compile: Compile): Result {
  const t = test.original;
  try {
    if (t.container) throw new Skip('container');
    const declarations: Array<[string, string]> = (t.typeEnv ?? [])
      .filter((d: any) => d.ident).map((d: any) => [d.name, celType(d.ident.type)]);
    if ((t.typeEnv ?? []).some((d: any) => d.function)) throw new Skip('function declarations');
    const bindings: Record<string, unknown> = {};
    for (const [name, b] of Object.entries<any>(t.bindings ?? {})) {
      bindings[name] = value(b.value);
      if (!declarations.some(([n]) => n === name)) declarations.push([name, 'dyn']);
    }
    const expected = t.evalError || t.checkOnly ? undefined
      : t.typedResult ? value(t.typedResult.result) : value(t.value ?? { boolValue: true });
    const compiled = compile(t.expr, declarations);
    lastError = compiled.ok ? '' : (compiled.error ?? '').split('\n')[0];
    if (t.checkOnly) return compiled.ok ? 'pass' : 'fail';
    if (!compiled.ok && t.evalError) return 'pass';
    if (rejectedAsKubernetesDoes(compiled)) return 'kubernetes';
    if (!compiled.ok) return 'fail';
    let actual: unknown;
    try {
      actual = compiled.run!(bindings);
      if (actual instanceof Promise) return 'fail';
    } catch {
      return t.evalError ? 'pass' : 'fail';
    }
    if (t.evalError) return 'fail';
    return sameValue(actual, expected) ? 'pass' : 'fail';
  } catch (e) {
    if (e instanceof Skip) return 'skip';
    return 'fail';
  }
}

function collect(suite: any, section: string, out: Array<[string, any]>): void {
  for (const s of suite.suites ?? []) collect(s, section || s.name, out);
  for (const t of suite.tests ?? []) out.push([section, t]);
}

function main(): void {
  const failuresOf = process.argv.indexOf('--failures') !== -1 ? process.argv[process.argv.indexOf('--failures') + 1] : undefined;
  const all: Array<[string, any]> = [];
  for (const s of conformance.suites) collect(s, s.name, all);
  const sections = new Map<string, { layer: Outcome; raw: Outcome }>();
  const empty = (): Outcome => ({ pass: 0, fail: 0, skip: 0, kubernetes: 0, failures: [] });
  for (const [section, test] of all) {
    if (NOT_IN_KUBERNETES.has(section)) continue;
    if (!sections.has(section)) sections.set(section, { layer: empty(), raw: empty() });
    const entry = sections.get(section)!;
    for (const [which, compile] of [['layer', layer], ['raw', raw]] as const) {
      const outcome = runTest(test, compile);
      entry[which][outcome]++;
      if (outcome === 'fail' && which === 'layer') {
        entry.layer.failures.push(`${test.original.name}: ${test.original.expr}${lastError ? `\n      ${lastError}` : ''}`);
      }
    }
  }
  const pct = (o: Outcome) => (o.pass + o.fail === 0 ? '-' : `${((100 * o.pass) / (o.pass + o.fail)).toFixed(1)}%`);
  const rows = [...sections.entries()].sort(([a], [b]) => a.localeCompare(b));
  const total = { layer: empty(), raw: empty() };
  console.log(`CEL conformance (@bufbuild/cel-spec), Kubernetes ${`1.${MINOR}`} environment, sections Kubernetes enables\n`);
  console.log('| section | run | skipped | rejected as Kubernetes does | cdk8s-admission layer | raw engine |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, { layer: l, raw: r }] of rows) {
    console.log(`| ${name} | ${l.pass + l.fail} | ${l.skip} | ${l.kubernetes} | ${l.pass} (${pct(l)}) | ${r.pass} (${pct(r)}) |`);
    for (const k of ['pass', 'fail', 'skip', 'kubernetes'] as const) {
      total.layer[k] += l[k];
      total.raw[k] += r[k];
    }
  }
  const t = total.layer;
  console.log(`| **total** | ${t.pass + t.fail} | ${t.skip} | ${t.kubernetes} | ${t.pass} (${pct(t)}) | ${total.raw.pass} (${pct(total.raw)}) |`);
  console.log('\nRates are passed / run. The raw engine runs the same tests (its own skips and Kubernetes rejections count as failures there).');
  console.log(`\nNot run (not in the Kubernetes environment): ${[...NOT_IN_KUBERNETES].sort().join(', ')}`);
  if (failuresOf) {
    console.log(`\nFailures in ${failuresOf}:`);
    for (const f of sections.get(failuresOf)?.layer.failures ?? []) console.log(`  ${f}`);
  }
}

main();
