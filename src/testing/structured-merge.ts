import { setDataKey } from '../cel/data-keys';
import { BuiltinSchemas, OpenApiSchema } from '../schemas/builtin-schemas';

/**
 * An apply configuration merged into an object as a MutatingAdmissionPolicy merges it
 * (k8s.io/apiserver mutating/patch/smd.go, ApplyStructuredMergeDiff: sigs.k8s.io/structured-merge-diff
 * `typed.Merge` over the resource's schema):
 *
 * - the configuration is first converted to the schema's types: a field the schema does not declare,
 *   a value of another type, a keyed list item without any of its keys or a duplicate key are errors
 *   (`failed to convert patch object to typed object: .spec.replicsa: field not declared in schema`);
 * - it may not set an atomic list, map or struct (`invalid ApplyConfiguration: may not mutate atomic
 *   arrays, maps or structs: .spec.template.spec.containers[0].args`); lists without a list type are atomic;
 * - then structs and maps merge field by field, keyed lists item by item by their keys (`map`) or
 *   values (`set`), with new items placed as structured-merge-diff places them; scalars are replaced.
 *
 * Where the schema leaves the type open (int-or-string, quantities, preserve-unknown-fields, raw
 * JSON), objects merge key by key and other values are replaced. A keyed item that omits a key
 * field with a default (a port's `protocol: TCP`) is keyed by the default, as the apiserver keys it.
 */
export class ApplyConfigurationError extends Error {}

type Json = unknown;
type JsonObject = { [key: string]: Json };

type Shape =
  | { readonly kind: 'scalar'; readonly type: 'string' | 'integer' | 'number' | 'boolean' }
  | { readonly kind: 'struct'; readonly fields: { readonly [name: string]: OpenApiSchema }; readonly atomic: boolean }
  | { readonly kind: 'map'; readonly values: OpenApiSchema; readonly atomic: boolean }
  | {
    readonly kind: 'list';
    readonly items: OpenApiSchema;
    readonly listType: 'atomic' | 'set' | 'map';
    readonly keys: readonly string[];
    /** The defaults of the key fields that have one. */
    readonly keyDefaults: { readonly [key: string]: string | number | boolean };
  }
  | { readonly kind: 'untyped' };

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** `schema` as a resource's root: apiVersion, kind and metadata are declared whatever it says (custom resources). */
export function resourceRoot(schema: OpenApiSchema): OpenApiSchema {
  return { ...schema, properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { $ref: OBJECT_META }, ...schema.properties } };
}

function shapeOf(given: OpenApiSchema, schemas: BuiltinSchemas): Shape {
  const s = schemas.resolve(given);
  if (s['x-kubernetes-preserve-unknown-fields'] || s['x-kubernetes-int-or-string'] || s.format === 'int-or-string') return { kind: 'untyped' };
  const s2 = s['x-kubernetes-embedded-resource'] ? resourceRoot(s) : s;
  switch (s2.type) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return { kind: 'scalar', type: s2.type };
    case 'array': {
      const listType = s2['x-kubernetes-list-type'] ?? 'atomic';
      const keys = s2['x-kubernetes-list-map-keys'] ?? [];
      const itemFields = s2.items ? schemas.resolve(s2.items).properties ?? {} : {};
      const keyDefaults: { [key: string]: string | number | boolean } = {};
      for (const k of keys) {
        const d = itemFields[k]?.default;
        if (d !== undefined) keyDefaults[k] = d;
      }
      return { kind: 'list', items: s2.items ?? {}, listType, keys, keyDefaults };
    }
    case 'object': {
      const atomic = s2['x-kubernetes-map-type'] === 'atomic';
      if (s2.properties) return { kind: 'struct', fields: s2.properties, atomic };
      if (typeof s2.additionalProperties === 'object') return { kind: 'map', values: s2.additionalProperties, atomic };
      return { kind: 'untyped' };
    }
    default:
      return { kind: 'untyped' };
  }
}

function isObject(v: Json): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function has(o: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** structured-merge-diff's value.ToString. */
function toText(v: Json): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(toText).join(',')}]`;
  if (isObject(v)) return `{${Object.entries(v).map(([k, x]) => `${k}=${toText(x)}`).join(',')}}`;
  return String(v);
}

/** Go's `%T` of a decoded JSON value. */
function goType(v: Json): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
}

/** An item's path element: `[name="app"]` for keyed lists, `[="a"]` for sets. */
function itemKey(item: Json, shape: Extract<Shape, { kind: 'list' }>, index: number, path: string, errors: string[]): string | undefined {
  if (shape.listType === 'set') {
    if (isObject(item)) {
      errors.push(`${path}: element ${index}: associative list without keys has an element that's a map type`);
      return undefined;
    }
    return `[=${toText(item)}]`;
  }
  if (item === null) {
    errors.push(`${path}: element ${index}: associative list with keys may not have a null element`);
    return undefined;
  }
  if (!isObject(item)) {
    errors.push(`${path}: element ${index}: associative list with keys may not have non-map elements`);
    return undefined;
  }
  const present = shape.keys.filter((k) => has(item, k) || has(shape.keyDefaults, k)).sort();
  if (present.length === 0) {
    errors.push(`${path}: element ${index}: associative list with keys has an element that omits all key fields [${shape.keys.map((k) => JSON.stringify(k)).join(' ')}] (and doesn't have default values for any key fields)`);
    return undefined;
  }
  return `[${present.map((k) => `${k}=${toText(has(item, k) ? item[k] : shape.keyDefaults[k])}`).join(',')}]`;
}

/** The configuration converted to the schema's types: every error, as the apiserver words them. */
function conversionErrors(value: Json, given: OpenApiSchema, path: string, schemas: BuiltinSchemas, out: string[]): void {
  if (value === null || value === undefined) return;
  const shape = shapeOf(given, schemas);
  switch (shape.kind) {
    case 'untyped':
      return;
    case 'scalar':
      if (shape.type === 'integer' || shape.type === 'number') {
        if (typeof value !== 'number') out.push(`${path}: expected numeric (int or float), got ${goType(value)}`);
      } else if (shape.type === 'string') {
        if (typeof value !== 'string') out.push(`${path}: expected string, got &value.valueUnstructured{Value:${toText(value)}}`);
      } else if (typeof value !== 'boolean') {
        out.push(`${path}: expected boolean, got ${toText(value)}`);
      }
      return;
    case 'struct':
    case 'map':
      if (!isObject(value)) {
        out.push(`${path}: expected map, got ${toText(value)}`);
        return;
      }
      for (const [key, item] of Object.entries(value)) {
        const child = `${path}.${key}`;
        if (shape.kind === 'map') conversionErrors(item, shape.values, child, schemas, out);
        else if (has(shape.fields, key)) conversionErrors(item, shape.fields[key], child, schemas, out);
        else out.push(`${child}: field not declared in schema`);
      }
      return;
    case 'list': {
      if (!Array.isArray(value)) {
        out.push(`${path}: expected list, got ${toText(value)}`);
        return;
      }
      const seen = new Set<string>();
      value.forEach((item, i) => {
        const key = shape.listType === 'atomic' ? `[${i}]` : itemKey(item, shape, i, path, out);
        if (key === undefined) return;
        if (shape.listType !== 'atomic') {
          if (seen.has(key)) out.push(`${path}: duplicate entries for key ${key}`);
          seen.add(key);
        }
        conversionErrors(item, shape.items, `${path}${key}`, schemas, out);
      });
    }
  }
}

/** The atomic lists, maps and structs the configuration sets (validatePatch's findAtomics). */
function atomicPaths(value: Json, given: OpenApiSchema, path: string, schemas: BuiltinSchemas, out: string[]): void {
  const shape = shapeOf(given, schemas);
  if ((shape.kind === 'struct' || shape.kind === 'map') && isObject(value)) {
    if (shape.atomic) out.push(path);
    for (const [key, item] of Object.entries(value)) {
      const field = shape.kind === 'map' ? shape.values : has(shape.fields, key) ? shape.fields[key] : undefined;
      if (field) atomicPaths(item, field, `${path}.${key}`, schemas, out);
    }
  } else if (shape.kind === 'list' && Array.isArray(value)) {
    if (shape.listType === 'atomic') out.push(path);
    value.forEach((item, i) => atomicPaths(item, shape.items, `${path}[${i}]`, schemas, out));
  }
}

/**
 * Merges `patch` into `live` by the schema `root` (a built-in kind's definition, or a custom
 * resource's root schema); throws ApplyConfigurationError with the apiserver's message.
 */
export function structuredMerge(live: Json, patch: Json, root: OpenApiSchema, schemas: BuiltinSchemas): Json {
  const errors: string[] = [];
  conversionErrors(patch, root, '', schemas, errors);
  if (errors.length > 0) throw new ApplyConfigurationError(`error applying patch: failed to convert patch object to typed object: ${joined(errors)}`);
  const atomics: string[] = [];
  atomicPaths(patch, root, '', schemas, atomics);
  if (atomics.length > 0) {
    throw new ApplyConfigurationError(`error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: ${atomics.join(', ')}`);
  }
  return mergeValues(live, patch, root, schemas);
}

function joined(errors: readonly string[]): string {
  return errors.length === 1 ? errors[0] : ['errors:', ...errors.map((e) => `  ${e}`)].join('\n');
}

function isEmpty(v: Json): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

function mergeValues(lhs: Json, rhs: Json, given: OpenApiSchema, schemas: BuiltinSchemas): Json {
  if (rhs === undefined) return lhs;
  if (lhs === undefined || rhs === null) return rhs;
  const shape = shapeOf(given, schemas);
  if (shape.kind === 'untyped') {
    return isObject(lhs) && isObject(rhs) ? mergeFields(lhs, rhs, () => ({}), schemas) : rhs;
  }
  if (shape.kind === 'struct' || shape.kind === 'map') {
    // Both empty: a leaf, so that {} and null stay distinct.
    if (!isObject(lhs) || !isObject(rhs) || shape.atomic || (isEmpty(lhs) && isEmpty(rhs))) return rhs;
    return mergeFields(lhs, rhs, (key) => (shape.kind === 'map' ? shape.values : has(shape.fields, key) ? shape.fields[key] : {}), schemas);
  }
  if (shape.kind === 'list') {
    if (!Array.isArray(lhs) || !Array.isArray(rhs) || shape.listType === 'atomic' || (isEmpty(lhs) && isEmpty(rhs))) return rhs;
    return mergeLists(lhs, rhs, shape, schemas);
  }
  return rhs;
}

function mergeFields(lhs: JsonObject, rhs: JsonObject, fieldSchema: (key: string) => OpenApiSchema, schemas: BuiltinSchemas): JsonObject {
  const out: JsonObject = {};
  const keys = [...Object.keys(lhs), ...Object.keys(rhs).filter((k) => !has(lhs, k))];
  for (const key of keys) {
    const l = has(lhs, key) ? lhs[key] : undefined;
    const r = has(rhs, key) ? rhs[key] : undefined;
    const merged = mergeValues(l, r, fieldSchema(key), schemas);
    if (merged !== undefined) setDataKey(out, key, merged);
  }
  return out;
}

/**
 * Keyed and set lists, item by item: shared items merged where they are, the live object's other
 * items kept, and the configuration's new items placed before the next shared item, as
 * structured-merge-diff's visitListItems orders them.
 */
function mergeLists(lhs: Json[], rhs: Json[], shape: Extract<Shape, { kind: 'list' }>, schemas: BuiltinSchemas): Json[] {
  const ignore: string[] = [];
  const keyOf = (item: Json, i: number) => itemKey(item, shape, i, '', ignore) ?? `#${i}`;
  const lKeys = lhs.map(keyOf);
  const rKeys = rhs.map(keyOf);
  const lItems = new Map<string, Json>();
  lKeys.forEach((k, i) => { if (!lItems.has(k)) lItems.set(k, lhs[i]); });
  const rItems = new Map<string, Json>(rKeys.map((k, i) => [k, rhs[i]]));
  const sharedOrder = rKeys.filter((k) => lItems.has(k));
  let nextShared = sharedOrder.shift();
  const mergedR = new Set<string>();
  const out: Json[] = [];
  const push = (v: Json) => { if (v !== undefined) out.push(v); };
  let lI = 0;
  let rI = 0;
  while (lI < lKeys.length || rI < rKeys.length) {
    if (lI < lKeys.length && rI < rKeys.length) {
      const key = lKeys[lI];
      if (key === rKeys[rI]) {
        mergedR.add(key);
        push(mergeValues(lItems.get(key), rItems.get(key), shape.items, schemas));
        lI++;
        rI++;
        nextShared = sharedOrder.shift();
        continue;
      }
      if (rItems.has(key) && nextShared !== undefined && nextShared !== key) {
        lI++;
        continue;
      }
    }
    if (lI < lKeys.length) {
      const key = lKeys[lI];
      if (!rItems.has(key)) {
        push(lhs[lI]);
        lI++;
        continue;
      } else if (mergedR.has(key)) {
        lI++;
      }
    }
    if (rI < rKeys.length) {
      const key = rKeys[rI];
      mergedR.add(key);
      push(mergeValues(lItems.get(key), rItems.get(key), shape.items, schemas));
      rI++;
      if (nextShared === key) nextShared = sharedOrder.shift();
    }
  }
  return out;
}
