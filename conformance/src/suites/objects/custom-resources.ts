/**
 * Custom resources in the objects suite: a CustomResourceDefinition (created for real, and waited
 * for until Established) whose schema has every kind of node (integers, numbers, strings,
 * booleans, lists of scalars and of objects, maps, a nested object, int-or-string,
 * preserve-unknown-fields, an embedded resource), a valid object of it, and variants of that
 * object made from its schema: for every property, a value of another JSON type, an unknown key
 * next to it, and its key miscapitalized. Each is created with `dryRun=All&fieldValidation=Strict`;
 * whether the apiserver refuses it (strict decoding's 400, or the schema validation's 422, both
 * before validating admission), and the fields it names, are compared with what PolicyTester's
 * decoding of custom resources (src/schemas/strict-decoding.ts) finds against the CRD's schema.
 */
import { BuiltinSchemas, OpenApiSchema } from '../../../../src/schemas/builtin-schemas';
import { customResourceDecodingProblems } from '../../../../src/schemas/strict-decoding';
import { dryRunCreate } from '../../oracle/dry-run';
import { Oracle } from '../../oracle/oracle';
import { CaseOutcome } from '../../outcomes/suite-result';

const NAMESPACE = 'default';

const SCHEMA: OpenApiSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: { type: 'integer' },
        ratio: { type: 'number' },
        color: { type: 'string' },
        enabled: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        ports: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        config: { type: 'object', properties: { retries: { type: 'integer' }, mode: { type: 'string' } } },
        target: { 'x-kubernetes-int-or-string': true },
        extra: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
        template: {
          'type': 'object',
          'x-kubernetes-embedded-resource': true,
          'properties': { spec: { type: 'object', properties: { image: { type: 'string' } } } },
        },
      },
    },
  },
};

export const WIDGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'conformancewidgets.conformance.example.com' },
  spec: {
    group: 'conformance.example.com',
    scope: 'Namespaced',
    names: { kind: 'ConformanceWidget', plural: 'conformancewidgets', singular: 'conformancewidget', listKind: 'ConformanceWidgetList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: SCHEMA } }],
  },
};

const BASE = {
  apiVersion: 'conformance.example.com/v1',
  kind: 'ConformanceWidget',
  metadata: { name: 'w', namespace: NAMESPACE, labels: { app: 'w' } },
  spec: {
    size: 3,
    ratio: 0.5,
    color: 'red',
    enabled: true,
    tags: ['a', 'b'],
    ports: [{ name: 'http', port: 80 }],
    labels: { team: 'a' },
    config: { retries: 2, mode: 'fast' },
    target: 'http',
    extra: { anything: [1, { x: true }] },
    template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { image: 'nginx' } },
  },
};

interface CrCase {
  readonly name: string;
  readonly object: any;
}

/** A value of another JSON type than the schema's. */
function wrongValue(schema: OpenApiSchema): unknown {
  if (schema['x-kubernetes-int-or-string']) return true;
  switch (schema.type) {
    case 'integer': return 'seven';
    case 'number': return 'half';
    case 'string': return 7;
    case 'boolean': return 'yes';
    case 'array': return { not: 'a list' };
    default: return ['not', 'an object'];
  }
}

function withValue(object: any, path: readonly (string | number)[], value: unknown): any {
  const copy = JSON.parse(JSON.stringify(object));
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key];
  at[path[path.length - 1]] = value;
  return copy;
}

function renamed(object: any, path: readonly (string | number)[], newKey: string): any {
  const copy = JSON.parse(JSON.stringify(object));
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key];
  const last = path[path.length - 1] as string;
  at[newKey] = at[last];
  delete at[last];
  return copy;
}

/** Every property of the base object with its schema, depth first. */
type Position = { path: Array<string | number>; schema: OpenApiSchema };

function positions(schema: OpenApiSchema, value: any, path: Array<string | number>, out: Position[]): void {
  if (schema.type === 'object' && schema.properties && value && typeof value === 'object') {
    for (const [key, child] of Object.entries(schema.properties)) {
      if (!(key in value)) continue;
      out.push({ path: [...path, key], schema: child });
      positions(child, value[key], [...path, key], out);
    }
  }
  if (schema.type === 'array' && schema.items && Array.isArray(value) && value.length > 0) positions(schema.items, value[0], [...path, 0], out);
}

export function customResourceCases(): CrCase[] {
  const cases: CrCase[] = [{ name: 'custom resource: the base object', object: BASE }];
  const all: Position[] = [];
  positions(SCHEMA, BASE, [], all);
  all.push({ path: ['spec', 'template', 'metadata'], schema: { type: 'object' } });
  for (const { path, schema } of all) {
    const where = path.join('.');
    cases.push({ name: `custom resource: ${where} of another type`, object: withValue(BASE, path, wrongValue(schema)) });
    if (typeof path[path.length - 1] === 'string') {
      cases.push({ name: `custom resource: an unknown key next to ${where}`, object: withValue(BASE, [...path.slice(0, -1), 'unknownKey'], 1) });
      const key = path[path.length - 1] as string;
      const miscased = key[0] === key[0].toUpperCase() ? key.toLowerCase() : key[0].toUpperCase() + key.slice(1);
      cases.push({ name: `custom resource: ${where} miscapitalized`, object: renamed(BASE, path, miscased) });
    }
  }
  cases.push({ name: 'custom resource: an unknown metadata field', object: withValue(BASE, ['metadata', 'labelz'], { a: 'b' }) });
  cases.push({ name: 'custom resource: an unknown key under the preserved object', object: withValue(BASE, ['spec', 'extra', 'whatever'], { deep: [1] }) });
  cases.push({ name: 'custom resource: a map value of another type', object: withValue(BASE, ['spec', 'labels', 'team'], 3) });
  cases.push({ name: 'custom resource: an integer written as a float', object: withValue(BASE, ['spec', 'size'], 2.5) });
  cases.push({ name: 'custom resource: an integral number', object: withValue(BASE, ['spec', 'ratio'], 2) });
  cases.push({ name: 'custom resource: null for a string', object: withValue(BASE, ['spec', 'color'], null) });
  return cases;
}

/** Creates the CRD (once) and waits until it is established and its resource served. */
async function installCrd(oracle: Oracle): Promise<void> {
  const created = await oracle.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', WIDGET_CRD);
  if (created.status >= 300 && created.status !== 409) throw new Error(`creating the CRD: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const probe = await oracle.request('GET', `/apis/conformance.example.com/v1/namespaces/${NAMESPACE}/conformancewidgets`);
    if (probe.status === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the CRD was not served within a minute');
}

export async function customResourceOutcomes(oracle: Oracle, schemas: BuiltinSchemas): Promise<CaseOutcome[]> {
  await installCrd(oracle);
  const outcomes: CaseOutcome[] = [];
  for (const c of customResourceCases()) {
    const lib = customResourceDecodingProblems(c.object, SCHEMA, schemas);
    const api = await dryRunCreate(oracle, `/apis/conformance.example.com/v1/namespaces/${NAMESPACE}/conformancewidgets?dryRun=All&fieldValidation=Strict`, c.object);
    const libUnknown = lib.filter((p) => p.kind === 'unknown field').map((p) => p.path).sort();
    const libOther = lib.filter((p) => p.kind !== 'unknown field').map((p) => p.path).sort();
    let locationAgrees: boolean | undefined;
    if (!api.accepted && lib.length > 0) {
      // Strict decoding (a 400) stops before the schema is validated, and names every unknown field;
      // ObjectMeta is decoded by Go, whose type errors name the field before `: Invalid value`.
      const typed = api.messages.flatMap((m) => [...m.matchAll(/(\S+): Invalid value: .*cannot unmarshal/g)].map((x) => x[1]));
      const named = api.paths.filter((p) => p !== '' && p !== '<nil>' && p !== '(object)').map((p) => p.replace(/^\./, ''));
      locationAgrees = api.status === 400 && typed.length === 0
        ? JSON.stringify(named.sort()) === JSON.stringify(libUnknown)
        : libUnknown.length === 0 && [...named, ...typed].length > 0 && [...named, ...typed].every((p) => libOther.includes(p));
    }
    outcomes.push({
      name: c.name,
      apiserverAccepted: api.accepted,
      verdictAgrees: api.accepted === (lib.length === 0),
      locationAgrees,
      library: lib.length === 0 ? 'decodes' : `refuses: ${lib.map((p) => p.message).join('; ')}`,
      apiserver: api.accepted ? 'decodes' : `refuses (${api.status}): ${api.messages.join('; ').slice(0, 400)} [${api.paths.join(', ')}]`,
    });
  }
  return outcomes;
}
