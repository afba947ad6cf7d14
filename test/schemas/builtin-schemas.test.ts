// The built-in schemas (schemas/kubernetes.json, from scripts/generate-resource-schemas.ts) and
// the strict decoding PolicyTester checks request objects with; conformance/src/suites/objects/suite.ts
// compares that decoding with the real apiserver's.
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { BuiltinSchemas, OpenApiSchema } from '../../src/schemas/builtin-schemas';
import { isQuantity } from '../../src/schemas/quantity';
import { decodingProblems } from '../../src/schemas/strict-decoding';

const FILE = path.join(__dirname, '..', '..', 'schemas', 'kubernetes.json');
const MINORS = [28, 29, 30, 31, 32, 33, 34, 35, 36, 37];

function refsOf(schema: unknown, out: string[] = []): string[] {
  if (Array.isArray(schema)) {schema.forEach((s) => refsOf(s, out));} else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else refsOf(value, out);
    }
  }
  return out;
}

describe('the built-in schemas', () => {
  test('fit the package budget (3 MB for all schemas)', () => {
    expect(fs.statSync(FILE).size).toBeLessThanOrEqual(3 * 1024 * 1024);
  });

  test.each(MINORS)('Kubernetes 1.%i: every $ref resolves, and the kinds policies match are there', (minor) => {
    const schemas = BuiltinSchemas.of(minor);
    expect(schemas.minor).toBe(minor);
    expect(schemas.release).toMatch(new RegExp(`^v1\\.${minor}\\.\\d+$`));
    const file = JSON.parse(fs.readFileSync(FILE, 'utf8'));
    for (const name of Object.keys(file.minors[String(minor)].definitions)) {
      for (const ref of refsOf(schemas.definition(name))) expect([name, ref, schemas.definition(ref) !== undefined]).toEqual([name, ref, true]);
    }
    for (const [apiVersion, kind] of [['v1', 'Pod'], ['v1', 'ConfigMap'], ['v1', 'Secret'], ['v1', 'Service'], ['v1', 'Namespace'], ['apps/v1', 'Deployment'],
      ['apps/v1', 'StatefulSet'], ['batch/v1', 'CronJob'], ['networking.k8s.io/v1', 'Ingress'], ['rbac.authorization.k8s.io/v1', 'RoleBinding']]) {
      expect(schemas.kind(apiVersion, kind)?.schema.properties?.metadata).toEqual({ $ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' });
    }
    expect(schemas.kind('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy') !== undefined).toBe(minor >= 30);
  });

  test('resources: kind and scope, subresources by the body they take', () => {
    const schemas = BuiltinSchemas.of(37);
    expect(schemas.resource('apps', 'v1', 'deployments')).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment', namespaced: true });
    expect(schemas.resource('', 'v1', 'namespaces')).toEqual({ group: '', version: 'v1', kind: 'Namespace', namespaced: false });
    expect(schemas.resource('apps', 'v1', 'deployments', 'scale')).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale', namespaced: true });
    expect(schemas.resource('', 'v1', 'pods', 'eviction')).toEqual({ group: 'policy', version: 'v1', kind: 'Eviction', namespaced: true });
    expect(schemas.resource('example.com', 'v1', 'widgets')).toBeUndefined();
    expect(schemas.resources()).toContainEqual({ resource: 'cronjobs', group: 'batch', version: 'v1', kind: 'CronJob', namespaced: true });
  });

  test('a target newer than the newest generated minor uses the newest', () => {
    expect(BuiltinSchemas.of(45).minor).toBe(37);
  });
});

describe('strict decoding', () => {
  const schemas = BuiltinSchemas.of(37);
  const deployment = schemas.kind('apps/v1', 'Deployment')!;
  const valid = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'x', resources: { limits: { cpu: '1' } }, ports: [{ containerPort: 80 }] }] } },
    },
  };

  /** Every object position of `value` with a schema that names its properties. */
  type ObjectPosition = { at: Array<string | number>; known: string[] };
  function objectPositions(value: any, schema: OpenApiSchema, at: Array<string | number> = []): ObjectPosition[] {
    const resolved = schemas.resolve(schema);
    const out: ObjectPosition[] = [];
    if (Array.isArray(value) && resolved.items) {value.forEach((v, i) => out.push(...objectPositions(v, resolved.items!, [...at, i])));} else if (value && typeof value === 'object' && resolved.properties) {
      out.push({ at, known: Object.keys(resolved.properties) });
      for (const [k, v] of Object.entries(value)) if (resolved.properties[k]) out.push(...objectPositions(v, resolved.properties[k], [...at, k]));
    }
    return out;
  }
  const positions = objectPositions(valid, deployment.schema);
  const pathText = (at: Array<string | number>) => at.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');

  test('a valid object decodes', () => {
    expect(decodingProblems(valid, deployment.name, schemas)).toEqual([]);
  });

  test('a key the schema does not name is an unknown field at its path, wherever it is added', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: positions.length - 1 }), fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,11}$/), (i, key) => {
      const { at, known } = positions[i];
      fc.pre(!known.includes(key));
      const object = structuredClone(valid) as any;
      let target = object;
      for (const segment of at) target = target[segment];
      target[key] = 'x';
      const fieldPath = pathText([...at, key]);
      expect(decodingProblems(object, deployment.name, schemas)).toEqual([expect.objectContaining({ path: fieldPath, kind: 'unknown field' })]);
    }), { numRuns: 300 });
  });

  test('free-form JSON takes anything, objects or not (managedFields fieldsV1)', () => {
    fc.assert(fc.property(fc.jsonValue(), (json) => {
      const object = { ...valid, metadata: { ...valid.metadata, managedFields: [{ fieldsV1: json }] } };
      expect(decodingProblems(object, deployment.name, schemas)).toEqual([]);
    }), { numRuns: 200 });
  });

  const pod = (extra: object) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'x' }], ...extra } });
  const lease = (renewTime: unknown) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { renewTime } });
  const crd = (schema: object, status: object = {}) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'ws.example.com' },
    spec: { group: 'example.com', names: { plural: 'ws', kind: 'W' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, subresources: { status }, schema: { openAPIV3Schema: schema } }] },
  });
  const problemsOf = (object: any) => decodingProblems(object, schemas.kind(object.apiVersion, object.kind)!.name, schemas).map((p) => `${p.kind} at ${p.path}`);
  // Each checked against the apiserver by the objects suite (SPECIAL in conformance/src/generators/schema-values.ts, INT64 in conformance/src/suites/objects/cases.ts).
  test.each([
    ['a Time in RFC 3339', { ...pod({}), metadata: { name: 'p', creationTimestamp: '2026-01-02T15:04:05+02:00' } }, []],
    ['a Time that is not', { ...pod({}), metadata: { name: 'p', creationTimestamp: 'yesterday' } }, ['invalid time at metadata.creationTimestamp']],
    ['February 30', { ...pod({}), metadata: { name: 'p', creationTimestamp: '2026-02-30T00:00:00Z' } }, ['invalid time at metadata.creationTimestamp']],
    ['a MicroTime with six fraction digits', lease('2026-01-02T15:04:05.123456Z'), []],
    ['a MicroTime without them', lease('2026-01-02T15:04:05Z'), ['invalid time at spec.renewTime']],
    ['an int64 within range', pod({ activeDeadlineSeconds: 2 ** 53 }), []],
    ['an int64 out of range', pod({ activeDeadlineSeconds: 2 ** 63 }), ['wrong type at spec.activeDeadlineSeconds']],
    ['an integer written with an exponent', pod({ activeDeadlineSeconds: 1e21 }), ['wrong type at spec.activeDeadlineSeconds']],
    ['additionalProperties as a boolean', crd({ type: 'object', additionalProperties: false }), []],
    ['additionalProperties as a string', crd({ type: 'object', additionalProperties: 'yes' }), ['invalid JSON schema at spec.versions[0].schema.openAPIV3Schema.additionalProperties']],
    ['items that are neither object nor array (ignored)', crd({ type: 'array', items: 'x' }), []],
    ['items as an array of numbers', crd({ type: 'array', items: [5] }), ['wrong type at spec.versions[0].schema.openAPIV3Schema.items[0]']],
    ['an empty struct with a key', crd({ type: 'object' }, { replicas: 1 }), ['unknown field at spec.versions[0].subresources.status.replicas']],
    ['a quantity with an escaped newline', pod({ overhead: { cpu: '1\n' } }), ['invalid quantity at spec.overhead.cpu']],
  ])('%s', (_, object, expected) => {
    expect(problemsOf(object)).toEqual(expected);
  });

  test.each([
    ['100m', true], ['1Gi', true], ['2', true], ['.5', true], ['1.', true], ['1e3', true], ['E', true], [' 2 ', true],
    ['', false], ['1ki', false], ['1e', false], ['1.2.3', false], ['5 Mi', false], ['1M5', false], ['seven', false],
  ])('the quantity %j decodes: %s', (text, decodes) => {
    expect(isQuantity(text)).toBe(decodes);
  });
});
