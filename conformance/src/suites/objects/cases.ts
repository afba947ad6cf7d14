/**
 * The objects suite's cases: the built-in objects of the recorded reviews, and generated variants
 * of the bases with one or two changes each, half made to decode (a field the object lacks or a map
 * entry, with a value of its schema's type) and half not (unknown and miscapitalized keys, values of
 * other JSON types, out-of-range integers, values the special parsers refuse).
 */
import fc from 'fast-check';
import { urlOf } from './requests';
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';
import type { RecordedReview } from '../../corpus/recorded-reviews';
import { Position, positions, sampleValue, SPECIAL } from '../../generators/schema-values';

export interface ObjectCase {
  readonly name: string;
  readonly object: any;
}

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

/** Integers around the limits of int64, and JSON numbers Go's ParseInt does not read as integers. */
const INT64 = { decodes: [2 ** 53, -(2 ** 53), 9007199254740993], refused: [2 ** 63, 1e21, -(2 ** 63), 2 ** 64] };

type Change = {
  readonly at: Array<string | number>;
  readonly key?: string;
  readonly value: unknown;
  readonly what: string;
  /** Made to decode (a field or map entry of the right type): half the picks, so that both verdicts are common. */
  readonly decodes?: boolean;
};

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
