/**
 * Compiles 10,000 realistic admission expressions (distinct strings, so no cache hits) with this
 * library's CEL layer (environment per field, post-check validators, result type) and with the
 * raw engine in the same run: (a) parse + type-check in the very environments the layer builds
 * (so the difference is what the layer adds: post-check validators, error translation, result
 * type, cache), and (b) parse + type-check with the same libraries and every variable dyn.
 * Prints the time per expression and the ratios. Best of 5 rounds, rotating the order.
 *
 *   npx projen bench:cel-compile
 */
import { compileExpression } from '../src/cel/checker';
import { engine } from '../src/cel/engine';
import { environmentFor, EnvironmentSpec } from '../src/cel/environment';
import { librariesFor } from '../src/cel/version-gates';
import { ExpressionField } from '../src/shared/expression-field';

const COUNT = 10_000;
const ROUNDS = 5;
const MINOR = 36;

interface Case { readonly expression: string; readonly field: ExpressionField; readonly params: boolean }

const TEMPLATES: Array<(i: number) => Case> = [
  (i) => ({ field: ExpressionField.VALIDATION, params: true, expression: `object.spec.replicas <= int(params.data.maxReplicas) + ${i % 100}` }),
  (i) => ({ field: ExpressionField.VALIDATION, params: false, expression: `object.metadata.name.startsWith("team-${i}-")` }),
  (i) => ({
    field: ExpressionField.VALIDATION,
    params: false,
    expression: `object.spec.template.spec.containers.all(c, c.image.startsWith("registry${i}.example.com/") && !c.image.endsWith(":latest"))`,
  }),
  (i) => ({ field: ExpressionField.VALIDATION, params: false, expression: `has(object.metadata.labels) && "app.kubernetes.io/name-${i}" in object.metadata.labels` }),
  (i) => ({ field: ExpressionField.MATCH_CONDITION, params: false, expression: `request.userInfo.groups.exists(g, g == "group-${i}") || request.namespace != "ns-${i}"` }),
  (i) => ({
    field: ExpressionField.VALIDATION,
    params: false,
    expression: `object.spec.containers.all(c, !has(c.resources.limits.memory) || quantity(c.resources.limits.memory).isLessThan(quantity("${i + 1}Mi")))`,
  }),
  (i) => ({ field: ExpressionField.MESSAGE_EXPRESSION, params: false, expression: `"replicas " + string(object.spec.replicas) + " exceed ${i}"` }),
  (i) => ({ field: ExpressionField.VALIDATION, params: false, expression: `object.spec.ports.map(p, p.port).all(p, p > ${i % 1024} && p < 65536)` }),
  (i) => ({
    field: ExpressionField.VALIDATION,
    params: false,
    expression: `oldObject == null || object.spec.selector == oldObject.spec.selector || request.userInfo.username == "admin-${i}"`,
  }),
  (i) => ({ field: ExpressionField.AUDIT_ANNOTATION_VALUE, params: false, expression: `object.spec.replicas > ${i % 50} ? "high replicas: " + string(object.spec.replicas) : null` }),
];

function cases(round: number): Case[] {
  return Array.from({ length: COUNT }, (_, i) => {
    const n = round * COUNT + i;
    return TEMPLATES[n % TEMPLATES.length](n);
  });
}

function spec(c: Case): EnvironmentSpec {
  return { field: c.field, hasParams: c.params, variables: [], minor: MINOR };
}

const rawEnv = new engine.Environment({ enableOptionalTypes: true });
for (const library of librariesFor(MINOR)) library.install(rawEnv);
for (const name of ['object', 'oldObject', 'params', 'request', 'namespaceObject']) rawEnv.registerVariable(name, 'dyn');

/** Collects garbage between timed phases when node runs with --expose-gc (the bench task does). */
function settle(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function timeLayer(list: Case[]): number {
  settle();
  const start = process.hrtime.bigint();
  for (const c of list) {
    if (compileExpression(c.expression, spec(c)).errors.length > 0) throw new Error(`unexpected error: ${c.expression}`);
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function timeRaw(list: Case[]): number {
  settle();
  const start = process.hrtime.bigint();
  for (const c of list) {
    if (!rawEnv.parse(c.expression).check().valid) throw new Error(`unexpected error: ${c.expression}`);
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The raw engine on the very environments the layer builds: what the layer adds is the rest. */
function timeRawSameEnvironments(list: Case[]): number {
  settle();
  const start = process.hrtime.bigint();
  for (const c of list) {
    if (!environmentFor(spec(c)).parse(c.expression).check().valid) throw new Error(`unexpected error: ${c.expression}`);
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function main(): void {
  // Warm up (JIT, environments), with expressions not used below.
  timeLayer(cases(ROUNDS * 3));
  timeRaw(cases(ROUNDS * 3 + 1));
  timeRawSameEnvironments(cases(ROUNDS * 3 + 2));
  const layer: number[] = [];
  const raw: number[] = [];
  const rawSame: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const a = cases(3 * r);
    const b = cases(3 * r + 1);
    const c = cases(3 * r + 2);
    const runs = [() => layer.push(timeLayer(a)), () => raw.push(timeRaw(b)), () => rawSame.push(timeRawSameEnvironments(c))];
    for (let k = 0; k < runs.length; k++) runs[(k + r) % runs.length]();
  }
  const cached = cases(0);
  timeLayer(cached);
  settle();
  const cachedStart = process.hrtime.bigint();
  for (const c of cached) compileExpression(c.expression, spec(c));
  const cachedMs = Number(process.hrtime.bigint() - cachedStart) / 1e6;

  const best = (xs: number[]) => Math.min(...xs);
  const us = (ms: number) => ((ms * 1000) / COUNT).toFixed(1);
  console.log(`Compiling ${COUNT.toLocaleString('en')} distinct admission expressions (${TEMPLATES.length} templates, Kubernetes 1.${MINOR}), best of ${ROUNDS}, Node ${process.version}\n`);
  console.log('| | total | per expression |');
  console.log('|---|---:|---:|');
  console.log(`| raw engine: parse + check, same libraries, every variable dyn | ${best(raw).toFixed(0)} ms | ${us(best(raw))} µs |`);
  console.log(`| raw engine: parse + check in the layer's own environments | ${best(rawSame).toFixed(0)} ms | ${us(best(rawSame))} µs |`);
  console.log(`| cdk8s-admission layer (environment per field, validators, result type) | ${best(layer).toFixed(0)} ms | ${us(best(layer))} µs |`);
  console.log(`| cdk8s-admission layer, same expressions again (cache hits) | ${cachedMs.toFixed(0)} ms | ${us(cachedMs)} µs |`);
  console.log(`\nratio layer / raw engine in the same environments: ${(best(layer) / best(rawSame)).toFixed(2)}x`);
  console.log(`ratio layer / raw engine with dyn variables: ${(best(layer) / best(raw)).toFixed(2)}x`);
}

main();
