// One batch of hostile input against one target, in a process of its own (test/hostile/hostile.test.ts
// starts it with a time limit): `node -r ts-node/register/transpile-only hostile-child.ts <target> <seed> <runs>`.
// A run passes when the target either answers (the answer checked for being an answer, not a
// vacuous one) or throws an Error whose message says where; an internal TypeError or RangeError,
// a stack overflow, a non-Error throw, or one call over the time limit is a failure. The child
// prints one JSON line: { target, runs, answered, refused, slowestMs, failure? }.
import { Testing } from 'cdk8s';
import * as fc from 'fast-check';
import {
  AdmissionResource, AdmissionWarnings, ManifestValidator, MutatingPolicy, Mutation, Operation, PolicyTester, ValidatingPolicy,
  ValidatingWebhookConfiguration, ValidationAction, ViolationSeverity, Webhook,
} from '../../src';

const CALL_LIMIT_MS = 20_000;

// ---- hostile values ----------------------------------------------------------------------------

function deepArray(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

function deepObject(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

function cyclic(): unknown {
  const o: { [k: string]: unknown } = { name: 'x' };
  o.self = o;
  return o;
}

/** A value no JSON document holds, or holds only at a size or depth the apiserver refuses. */
const INVALID_VALUES: ReadonlyArray<[string, () => unknown]> = [
  ['cycle', cyclic],
  ['array nested 12,000 deep', () => deepArray(12_000)],
  ['object nested 12,000 deep', () => deepObject(12_000)],
  ['function', () => () => 1],
  ['symbol', () => Symbol('s')],
  ['bigint', () => 10n ** 30n],
  ['NaN', () => NaN],
  ['Infinity', () => -Infinity],
  ['Date', () => new Date(0)],
  ['Map', () => new Map([['a', 1]])],
];

/** Values JSON can hold that are odd in a field: wrong types, empty, long, odd keys, moderately deep. */
const ODD_VALUES: ReadonlyArray<[string, () => unknown]> = [
  ['null', () => null],
  ['number', () => 42],
  ['negative float', () => -1.5],
  ['boolean', () => true],
  ['empty string', () => ''],
  ['string of 70,000 characters', () => 'a'.repeat(70_000)],
  ['unicode', () => '\u0000\u202e\ud83d\ude00\ufffd'],
  ['empty object', () => ({})],
  ['empty array', () => []],
  ['array of 100,000 nulls', () => new Array(100_000).fill(null)],
  ['odd keys', () => JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1, "toString": 2, "": 3}')],
  ['array nested 500 deep', () => deepArray(500)],
  ['object nested 500 deep', () => deepObject(500)],
  ['list of strings with an object', () => ['a', { b: 1 }]],
];

/** Over the apiserver's 3 MiB request limit: invalid in a manifest or a request's objects, not in the tester's userInfo. */
const HUGE_STRING: [string, () => unknown] = ['string of 4 MB', () => 'x'.repeat(4 * 1024 * 1024)];

const hostileValue = fc.oneof(
  fc.constantFrom(...INVALID_VALUES).map(([what, make]) => ({ what, value: make(), invalid: true, huge: false })),
  fc.constantFrom(...ODD_VALUES).map(([what, make]) => ({ what, value: make(), invalid: false, huge: false })),
  fc.constant(HUGE_STRING).map(([what, make]) => ({ what, value: make(), invalid: false, huge: true })),
);

/** Every path to a value of `base` (object keys and array indices), the root excluded. */
function pathsOf(base: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof base !== 'object' || base === null) return [];
  const entries: Array<[string | number, unknown]> = Array.isArray(base) ? base.map((v, i) => [i, v]) : Object.entries(base);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
}

/** `base` (a JSON copy) with the value at `path` replaced, or a key added at `path`'s parent when `added`. */
function replaced(base: unknown, path: Array<string | number>, value: unknown, add: boolean): { input: any; added: boolean } {
  const copy = JSON.parse(JSON.stringify(base));
  let target = copy;
  for (const k of path.slice(0, -1)) target = target[k];
  const last = path[path.length - 1];
  const added = add && !Array.isArray(target);
  if (added) Object.defineProperty(target, `${String(last)}Typo`, { value, enumerable: true, writable: true, configurable: true });
  else target[last] = value;
  return { input: copy, added };
}

function mutation<T>(base: T) {
  const paths = pathsOf(base);
  return fc.record({ path: fc.constantFrom(...paths), hostile: hostileValue, add: fc.boolean() })
    .map(({ path, hostile, add }) => ({ ...hostile, path: path.join('.'), ...replaced(base, path, hostile.value, add) }));
}

// ---- the targets -------------------------------------------------------------------------------

const RULES = [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations: ['CREATE', 'UPDATE'] }];

const POLICY_PROPS = {
  name: 'hostile',
  resourceRules: RULES,
  namespaceSelector: { matchLabels: { team: 'a' } },
  variables: [{ name: 'v', expression: 'has(object.data) ? object.data : {}' }],
  validations: [{ expression: "!('x' in variables.v)", message: 'no x', reason: 'Invalid' }],
  auditAnnotations: [{ key: 'k', valueExpression: "'a'" }],
};

const WEBHOOK_OPTIONS = { name: 'hostile.example.com', path: '/validate', port: 443, rules: RULES, objectSelector: { matchLabels: { a: 'b' } } };

const VAP_MANIFEST = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'hostile', labels: { a: 'b' } },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: { resourceRules: RULES, namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' },
    variables: [{ name: 'v', expression: 'object.data' }],
    validations: [{ expression: "!('x' in variables.v)", message: 'no x' }],
  },
};

const REQUEST = {
  operation: 'UPDATE',
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'team-a', labels: { a: 'b' } }, data: { y: '1' } },
  oldObject: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'team-a' }, data: {} },
  userInfo: { username: 'alice', groups: ['dev'] },
};

interface Outcome { readonly answered: boolean }

/** Where an Error's message must say the problem is: a construct path, or the API that was called. */
const LOCATED = /(^|\n\s*)(\[?test\/|Validation failed|review:|PolicyTester\.|ManifestValidator\.|webhook |Webhook|AdmissionResource)/;

const TARGETS: Record<string, { arbitrary: fc.Arbitrary<any>; run(m: any): Outcome }> = {
  constructs: {
    arbitrary: fc.oneof(mutation(POLICY_PROPS).map((m) => ({ ...m, kind: 'policy' })), mutation(WEBHOOK_OPTIONS).map((m) => ({ ...m, kind: 'webhook' }))),
    run(m) {
      const chart = Testing.chart();
      chart.node.setContext(AdmissionWarnings.PRINT_CONTEXT, false);
      if (m.kind === 'policy') {
        new ValidatingPolicy(chart, 'p', m.input).withBinding('b', { validationActions: [ValidationAction.DENY] });
        new MutatingPolicy(chart, 'm', { ...m.input, validations: undefined, auditAnnotations: undefined, mutations: [Mutation.applyConfiguration('Object{}')] })
          .withBinding('mb');
      } else {
        new ValidatingWebhookConfiguration(chart, 'w', { webhooks: [Webhook.forServiceName('svc', 'hooks', m.input)] });
      }
      const manifests = Testing.synth(chart);
      if (!Array.isArray(manifests) || manifests.length === 0) throw new Error('vacuous: synthesis produced no manifests');
      if (m.invalid || m.huge) throw new Error(`vacuous: ${m.what} at ${m.path} synthesized`);
      return { answered: true };
    },
  },
  validator: {
    arbitrary: mutation(VAP_MANIFEST),
    run(m) {
      const violations = ManifestValidator.validate(m.input);
      if (!Array.isArray(violations)) throw new Error('vacuous: the validator returned no list');
      for (const v of violations) {
        if (typeof v.path !== 'string' || typeof v.message !== 'string' || v.message === '') throw new Error(`vacuous violation ${JSON.stringify(v)}`);
        if (v.message.startsWith('Internal error: the validator failed')) throw new Error(`vacuous: an internal error reported as a violation: ${v.message.slice(0, 300)}`);
      }
      if ((m.invalid || m.huge) && !violations.some((v) => v.severity === ViolationSeverity.ERROR)) throw new Error(`vacuous: ${m.what} at ${m.path} validated`);
      return { answered: true };
    },
  },
  tester: {
    arbitrary: mutation(REQUEST),
    run(m) {
      const result = tester().review(m.input);
      if (typeof result.allowed !== 'boolean' || !Array.isArray(result.denials) || !Array.isArray(result.warnings)) {
        throw new Error(`vacuous: review returned ${JSON.stringify(result).slice(0, 200)}`);
      }
      if (m.invalid || (m.huge && /^(object|oldObject)\b/.test(m.path))) throw new Error(`vacuous: ${m.what} at ${m.path} was reviewed`);
      return { answered: true };
    },
  },
};

let cachedTester: PolicyTester | undefined;
function tester(): PolicyTester {
  if (!cachedTester) {
    const chart = Testing.chart();
    new ValidatingPolicy(chart, 'p', POLICY_PROPS as any).withBinding('b', { validationActions: [ValidationAction.DENY] });
    new MutatingPolicy(chart, 'm', {
      resourceRules: [AdmissionResource.CONFIG_MAPS.rule(Operation.CREATE, Operation.UPDATE)],
      mutations: [Mutation.applyConfiguration("Object{metadata: Object.metadata{labels: {'seen': 'yes'}}}")],
    }).withBinding('mb');
    cachedTester = PolicyTester.fromChart(chart);
  }
  return cachedTester;
}

function describeFailure(m: any, reason: string): string {
  return `${reason}\n  input: ${m.what} ${m.added ? 'added next to' : 'at'} ${m.path}`;
}

function main(): void {
  const [target, seedText, runsText] = process.argv.slice(2);
  const spec = TARGETS[target];
  if (!spec) throw new Error(`unknown target ${target}: ${Object.keys(TARGETS).join(', ')}`);
  let answered = 0;
  let refused = 0;
  let slowest = 0;
  let failure: string | undefined;
  const details = fc.check(fc.property(spec.arbitrary, (m) => {
    failure = undefined;
    const started = Date.now();
    try {
      spec.run(m);
      answered++;
    } catch (e) {
      if (e instanceof Error && e.message.startsWith('vacuous')) {failure = describeFailure(m, e.message);} else if (!(e instanceof Error)) {failure = describeFailure(m, `threw a non-Error: ${String(e)}`);} else if (e instanceof TypeError || e instanceof RangeError || e instanceof SyntaxError || /Maximum call stack/.test(e.message)) {
        failure = describeFailure(m, `internal ${e.name}: ${e.message.slice(0, 300)}\n${e.stack?.split('\n').slice(1, 4).join('\n')}`);
      } else if (!LOCATED.test(e.message)) {
        failure = describeFailure(m, `an error that does not say where: ${e.message.slice(0, 300)}`);
      } else {
        refused++;
      }
    }
    const elapsed = Date.now() - started;
    slowest = Math.max(slowest, elapsed);
    if (!failure && elapsed > CALL_LIMIT_MS) failure = describeFailure(m, `took ${elapsed} ms`);
    return failure === undefined;
  }), { seed: Number(seedText), numRuns: Number(runsText), endOnFailure: true });
  if (details.failed) {
    process.stdout.write(`${JSON.stringify({ target, seed: Number(seedText), failure: failure ?? details.errorInstance?.message })}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`${JSON.stringify({ target, runs: Number(runsText), answered, refused, slowestMs: slowest })}\n`);
}

try {
  main();
} catch (e) {
  process.stdout.write(`${JSON.stringify({ failure: e instanceof Error ? e.message.split('\n').slice(0, 12).join('\n') : String(e) })}\n`);
  process.exitCode = 1;
}
