/**
 * The objects suite: built-in objects, as the test suite's reviews gave them to PolicyTester, and
 * generated variants of them with unknown fields and values of the wrong JSON type, created in the
 * real apiserver with `dryRun=All&fieldValidation=Strict` (kubectl's default). The apiserver's
 * decoding verdict (a 400 that names unknown fields or a type mismatch, or none) is compared with
 * what the library's strict decoding of the built-in schemas (src/schemas/) finds in the same object.
 */
import fc from 'fast-check';
import { ApiserverVerdict, dryRunCreate } from './dry-run';
import { Oracle } from './oracle';
import { RecordedReview } from './review-corpus';
import { CaseOutcome, percent, SuiteResult } from './suite';
import { KubernetesVersion } from '../../src';
import { BuiltinSchemas, OpenApiSchema } from '../../src/schemas/builtin-schemas';
import { DecodingProblem, decodingProblems } from '../../src/schemas/strict-decoding';

export interface ObjectCase {
  readonly name: string;
  readonly object: any;
}

const NAMESPACE = 'default';
const CONCURRENCY = 8;

/** The built-in objects of the recorded reviews (request objects and old objects), once each. */
export function recordedObjects(reviews: readonly RecordedReview[], schemas: BuiltinSchemas): ObjectCase[] {
  const seen = new Set<string>();
  const out: ObjectCase[] = [];
  for (const review of reviews) {
    for (const field of ['object', 'oldObject'] as const) {
      const object = review.request[field];
      if (!object || typeof object.apiVersion !== 'string' || typeof object.kind !== 'string' || !schemas.kind(object.apiVersion, object.kind)) continue;
      if (!urlOf(object, schemas)) continue;
      const key = JSON.stringify(object);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ name: `recorded ${object.apiVersion} ${object.kind} (${review.test.slice(0, 80)})`, object });
    }
  }
  return out;
}

export interface Position {
  readonly path: Array<string | number>;
  readonly value: unknown;
  readonly schema: OpenApiSchema;
  /** The definition the schema names, before it is resolved (Quantity, Time, … say more than their schemas). */
  readonly ref?: string;
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const EXTENSIONS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
/** Values for the types whose decoding is their own: what it takes, and what it refuses. */
export const SPECIAL: { readonly [ref: string]: { readonly decodes: readonly unknown[]; readonly refused: readonly unknown[] } } = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    decodes: ['1', '0.5', '100m', '1Gi', '1e3', '+1k', '.5', '1.', 'E', ' 2 ', 2, 0.25, 1e21],
    refused: ['1ki', 'seven', '1e', '1.2.3', '', '1Gix', '5 Mi', '--1', '1M5', '1Gi\n', '\t1'],
  },
  [`${META}.Time`]: {
    decodes: ['2026-01-02T15:04:05Z', '2026-01-02T15:04:05+02:00', '2026-01-02T15:04:05.5Z', '2024-02-29T00:00:00Z'],
    refused: ['yesterday', '', '2026-01-02', '2026-13-02T15:04:05Z', '2026-02-30T00:00:00Z', '2026-01-02t15:04:05z', '2026-01-02T24:00:00Z', '2026-01-02 15:04:05Z', 7],
  },
  [`${META}.MicroTime`]: {
    decodes: ['2026-01-02T15:04:05.000000Z', '2026-01-02T15:04:05.123456+01:00'],
    refused: ['2026-01-02T15:04:05Z', '2026-01-02T15:04:05.5Z', '2026-01-02T15:04:05.1234567Z', 'now'],
  },
  [`${EXTENSIONS}.JSONSchemaPropsOrBool`]: { decodes: [true, false, { type: 'string' }], refused: ['yes', 5, [{ type: 'string' }]] },
  // OrArray ignores what is neither an object nor an array.
  [`${EXTENSIONS}.JSONSchemaPropsOrArray`]: { decodes: [{ type: 'string' }, [{ type: 'string' }], true, 'x', 5], refused: [[5], ['x']] },
};
/** Integers around the limits of int64, and JSON numbers Go's ParseInt does not read as integers. */
const INT64 = { decodes: [2 ** 53, -(2 ** 53), 9007199254740993], refused: [2 ** 63, 1e21, -(2 ** 63), 2 ** 64] };

/** Every value of `object` with the schema it is decoded with (objects without a schema are not entered). */
export function positions(value: unknown, schema: OpenApiSchema, schemas: BuiltinSchemas, path: Array<string | number> = []): Position[] {
  const resolved = schemas.resolve(schema);
  const out: Position[] = [{ path, value, schema: resolved, ref: schema.$ref }];
  if (typeof resolved.additionalProperties === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, item] of Object.entries(value)) out.push(...positions(item, resolved.additionalProperties, schemas, [...path, key]));
  }
  if (resolved['x-kubernetes-preserve-unknown-fields']) return out;
  if (Array.isArray(value) && resolved.items) {
    value.forEach((item, i) => out.push(...positions(item, resolved.items!, schemas, [...path, i])));
  } else if (value && typeof value === 'object' && resolved.properties) {
    for (const [key, item] of Object.entries(value)) {
      const field = resolved.properties[key];
      if (field) out.push(...positions(item, field, schemas, [...path, key]));
    }
  }
  return out;
}

type Change = {
  readonly at: Array<string | number>;
  readonly key?: string;
  readonly value: unknown;
  readonly what: string;
  /** Made to decode (a field or map entry of the right type): half the picks, so that both verdicts are common. */
  readonly decodes?: boolean;
};

/** A value the schema decodes: what a field of it could be set to. */
export function sampleValue(given: OpenApiSchema, schemas: BuiltinSchemas): unknown {
  const schema = schemas.resolve(given);
  if (schema['x-kubernetes-int-or-string'] || schema.format === 'int-or-string') return '50%';
  if (schema.oneOf) return sampleValue(schema.oneOf[schema.oneOf.length - 1], schemas);
  switch (schema.type) {
    case 'string': return schema.format === 'date-time' ? '2026-01-01T00:00:00Z' : schema.format === 'byte' ? 'eA==' : 'x';
    case 'integer': return 1;
    case 'number': return 0.5;
    case 'boolean': return true;
    case 'array': return [];
    default: return {};
  }
}

/**
 * The changes that can be made at a position: fields the object does not have yet and map entries,
 * with values their schema decodes; unknown and miscapitalized keys; values of other JSON types.
 */
function changesAt(p: Position, schemas: BuiltinSchemas): Change[] {
  const out: Change[] = [];
  const { value, schema } = p;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const known = Object.keys(schema.properties ?? {});
    for (const key of known.filter((k) => !(k in value)).slice(0, 6)) {
      out.push({ at: p.path, key, value: sampleValue(schema.properties![key], schemas), what: `a value for ${key}`, decodes: true });
    }
    if (typeof schema.additionalProperties === 'object') {
      out.push({ at: p.path, key: 'example.com/extra', value: sampleValue(schema.additionalProperties, schemas), what: 'a map entry', decodes: true });
    }
    for (const key of known.slice(0, 6)) {
      if (key.length > 2) out.push({ at: p.path, key: `${key.slice(0, -1)}`, value: 1, what: `a misspelled ${key}` });
      // At the top, the apiserver reads apiVersion and kind whatever their case (its kind sniffing):
      // `Kind: x` is then a request for kind x, rejected for that, not as an unknown field.
      if (p.path.length > 0 || !['apiVersion', 'kind'].includes(key)) {
        out.push({ at: p.path, key: key[0].toUpperCase() + key.slice(1), value: 'x', what: `${key} capitalized` });
      }
    }
    out.push({ at: p.path, key: 'extraField', value: { a: 1 }, what: 'an unknown field' });
  }
  if (p.path.length === 0) return out;
  if (p.schema.type === 'string' && p.schema.format === 'byte') {
    for (const bytes of ['', 'eA==', 'eHk=', 'eHl6', 'eHl6\n', [1, 2], []]) out.push({ at: p.path, value: bytes, what: `the bytes ${JSON.stringify(bytes)}`, decodes: true });
    for (const bytes of ['eA', 'e===', 'x y=', '$$$$', [300], ['a']]) out.push({ at: p.path, value: bytes, what: `the bytes ${JSON.stringify(bytes)}` });
  }
  const special = p.ref === undefined ? undefined : SPECIAL[p.ref];
  const values = special ?? (schema.type === 'integer' && schema.format !== 'int32' ? INT64 : undefined);
  if (values) {
    for (const v of values.decodes) out.push({ at: p.path, value: v, what: `${JSON.stringify(v)} (decodes)`, decodes: true });
    for (const v of values.refused) out.push({ at: p.path, value: v, what: `${JSON.stringify(v)} (refused)` });
  }
  for (const replacement of [7, 'seven', true, 1.5, [], {}, 2 ** 31]) {
    if (JSON.stringify(replacement) === JSON.stringify(value)) continue;
    out.push({ at: p.path, value: replacement, what: `${JSON.stringify(replacement)} in place of ${JSON.stringify(value)?.slice(0, 30)}` });
  }
  return out;
}

function applyChange(object: any, change: Change): any {
  const copy = structuredClone(object);
  let target = copy;
  const path = change.key === undefined ? change.at.slice(0, -1) : change.at;
  for (const segment of path) target = target[segment];
  if (change.key !== undefined) target[change.key] = change.value;
  else target[change.at[change.at.length - 1]] = change.value;
  return copy;
}

function pathText(path: ReadonlyArray<string | number>): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** `count` variants of the base objects with one or two changes each, reproducible from `seed`. */
export function generatedObjects(bases: readonly ObjectCase[], count: number, seed: number, schemas: BuiltinSchemas): ObjectCase[] {
  if (bases.length === 0) return [];
  const candidates = bases.map((b) => {
    const kind = schemas.kind(b.object.apiVersion, b.object.kind)!;
    return positions(b.object, kind.schema, schemas)
      // What sendable() sets or removes is left alone.
      .filter((p) => !['apiVersion', 'kind'].includes(String(p.path[0])) && !(p.path[0] === 'metadata' && ['name', 'namespace', 'uid', 'resourceVersion'].includes(String(p.path[1]))))
      .flatMap((p) => changesAt(p, schemas));
  });
  const split = candidates.map((all) => [all.filter((c) => c.decodes), all.filter((c) => !c.decodes)]);
  const usable = bases.map((_, i) => i).filter((i) => split[i][0].length > 0 && split[i][1].length > 0);
  if (usable.length === 0) return [];
  const pick = (b: number) => fc.boolean().chain((decodes) => {
    const group = split[b][decodes ? 0 : 1];
    return fc.integer({ min: 0, max: group.length - 1 }).map((i) => group[i]);
  });
  const arbitrary = fc.constantFrom(...usable).chain((b) => fc.tuple(fc.constant(b), fc.array(pick(b), { minLength: 1, maxLength: 2 })));
  const out: ObjectCase[] = [];
  const seen = new Set<string>();
  for (const [b, picks] of fc.sample(arbitrary, { seed, numRuns: count * 3 })) {
    if (out.length >= count) break;
    let object = bases[b].object;
    const whats: string[] = [];
    for (const change of picks) {
      try {
        object = applyChange(object, change);
      } catch {
        continue; // an earlier change replaced the parent
      }
      whats.push(`${change.what} at ${pathText(change.key === undefined ? change.at : [...change.at, change.key]) || '(object)'}`);
    }
    const key = JSON.stringify(object);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name: `${bases[b].object.apiVersion} ${bases[b].object.kind} with ${whats.join(', ')}`, object });
  }
  return out;
}

function urlOf(object: any, schemas: BuiltinSchemas): string | undefined {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/', 2) : ['', object.apiVersion];
  const resource = schemas.resources().find((r) => r.group === group && r.version === version && r.kind === object.kind);
  if (!resource) return undefined;
  const prefix = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  return `${prefix}${resource.namespaced ? `/namespaces/${NAMESPACE}` : ''}/${resource.resource}?dryRun=All&fieldValidation=Strict`;
}

/** What is sent: in the suite's namespace, without what only a stored object has. */
function sendable(object: any, schemas: BuiltinSchemas): any {
  const copy = structuredClone(object);
  if (copy.metadata && typeof copy.metadata === 'object' && !Array.isArray(copy.metadata)) {
    const namespaced = urlOf(object, schemas)?.includes(`/namespaces/${NAMESPACE}/`);
    if (namespaced) copy.metadata.namespace = NAMESPACE;
    else delete copy.metadata.namespace;
    delete copy.metadata.resourceVersion;
    delete copy.metadata.uid;
  }
  return copy;
}

/** resource.Quantity's decoding errors: ErrFormatWrong and ErrSuffix. */
const QUANTITY_ERROR = /quantities must match the regular expression|unable to parse quantity's suffix/;

function compare(c: ObjectCase, lib: DecodingProblem[], api: ApiserverVerdict): CaseOutcome {
  const libraryRejects = lib.length > 0;
  const verdictAgrees = libraryRejects === api.decodeError;
  let locationAgrees: boolean | undefined;
  const message = api.messages.join(' ');
  // The parsers of quantities, base64, times and JSONSchemaPropsOrBool name no field: the kind of error is compared.
  const unnamed = QUANTITY_ERROR.test(message) ? 'invalid quantity' : /illegal base64 data/.test(message) ? 'invalid base64'
    : /parsing time/.test(message) ? 'invalid time' : /boolean or JSON schema expected/.test(message) ? 'invalid JSON schema' : undefined;
  if (verdictAgrees && libraryRejects && unnamed) {
    locationAgrees = lib.some((p) => p.kind === unnamed);
  } else if (verdictAgrees && libraryRejects) {
    const typeErrors = lib.filter((p) => p.kind === 'wrong type');
    // Go's decoder stops at a value of the wrong type and reports it alone, by its struct fields
    // (goPath); without one, strict decoding reports every unknown field, by its full path.
    locationAgrees = typeErrors.length > 0
      ? /cannot unmarshal|into Go value/.test(message) && api.paths.length > 0
        && api.paths.every((p) => typeErrors.some((t) => t.goPath === p || (p === '(object)' && t.path === '')))
      : JSON.stringify([...api.paths].sort()) === JSON.stringify(lib.map((p) => p.path).sort());
  }
  return {
    name: c.name,
    apiserverAccepted: !api.decodeError,
    verdictAgrees,
    locationAgrees,
    library: libraryRejects ? lib.map((p) => p.message).join('; ') : 'decodes',
    apiserver: api.decodeError ? `${api.status}: ${api.messages.join('; ').slice(0, 400)}` : `decodes (${api.status})`,
  };
}

/** Every string a key has anywhere in a value. */
function valuesOf(value: unknown, key: string): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => valuesOf(v, key));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === key && typeof v === 'string' ? [v] : valuesOf(v, key)));
}

export async function runObjectSuite(oracle: Oracle, cases: readonly ObjectCase[], version: KubernetesVersion): Promise<SuiteResult> {
  const schemas = BuiltinSchemas.of(version.minor);
  // Pods are admitted only with their ServiceAccount (no controller creates the namespace's
  // default one here) and PriorityClass: the ones the cases name are created first.
  const named = (key: string) => [...new Set(cases.flatMap((c) => valuesOf(c.object, key)))];
  const fixtures = [
    ...['default', ...named('serviceAccountName')].map((name) => ({ url: `/api/v1/namespaces/${NAMESPACE}/serviceaccounts`, body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } } })),
    ...named('priorityClassName').filter((n) => !n.startsWith('system-')).map((name) => ({
      url: '/apis/scheduling.k8s.io/v1/priorityclasses', body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value: 1 },
    })),
  ];
  for (const f of fixtures) {
    const res = await oracle.request('POST', f.url, f.body);
    if (res.status >= 300 && res.status !== 409) throw new Error(`creating ${f.body.kind} ${f.body.metadata.name}: ${res.status}`);
  }
  const outcomes: CaseOutcome[] = new Array(cases.length);
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < cases.length) {
      const i = next++;
      const c = cases[i];
      const kind = schemas.kind(c.object.apiVersion, c.object.kind)!;
      const lib = decodingProblems(c.object, kind.name, schemas);
      const api = await dryRunCreate(oracle, urlOf(c.object, schemas)!, sendable(c.object, schemas));
      outcomes[i] = compare(c, lib, api);
    }
  }));
  const agree = outcomes.filter((o) => o.verdictAgrees).length;
  return {
    suite: 'objects',
    title: `objects (strict decoding of built-in objects, Kubernetes ${version})`,
    outcomes,
    rows: [
      ['cases', String(outcomes.length)],
      ['the apiserver rejects while decoding', String(outcomes.filter((o) => !o.apiserverAccepted).length)],
      ['verdicts agree', `${agree} (${percent(agree, outcomes.length)})`],
      ['library rejects, apiserver decodes', String(outcomes.filter((o) => !o.verdictAgrees && o.apiserverAccepted).length)],
      ['library decodes, apiserver rejects', String(outcomes.filter((o) => !o.verdictAgrees && !o.apiserverAccepted).length)],
      ['both reject, fields differ', String(outcomes.filter((o) => o.locationAgrees === false).length)],
    ],
  };
}
