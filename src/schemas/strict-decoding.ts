import { BuiltinSchemas, OpenApiSchema } from './builtin-schemas';
import { isQuantity } from './quantity';
import { closestName } from '../shared/closest-name';
import { decodeGoInteger, isGoBase64, isJsonNull } from '../shared/go-json-decoding';

/** A field the apiserver's strict decoding of a built-in object rejects. */
export interface DecodingProblem {
  /** The field path as the apiserver writes it: `spec.template.spec.containers[0].imagePullPolicyy`. */
  readonly path: string;
  readonly kind: 'unknown field' | 'wrong type' | 'invalid quantity' | 'invalid base64' | 'invalid time' | 'invalid JSON schema';
  readonly message: string;
  /** The path as Go's decoding errors write it: struct fields only, without list indices and map keys. */
  readonly goPath: string;
}

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
const MICRO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';
const APIEXTENSIONS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
/** Types that keep their raw JSON (custom UnmarshalJSON): any JSON value decodes. */
const RAW_JSON = new Set(['io.k8s.apimachinery.pkg.runtime.RawExtension', 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1', `${APIEXTENSIONS}.JSON`]);
/**
 * apiextensions' either-or types, as their UnmarshalJSON takes them: OrBool an object or a boolean
 * ("boolean or JSON schema expected" otherwise); OrArray and OrStringArray an object or an array of
 * objects or strings, and anything else is ignored, not refused. An object is decoded by a plain
 * json.Unmarshal (no strict field checks), so only JSON types are checked here.
 */
const EITHER_OR: { readonly [name: string]: { readonly allowed?: ReadonlyArray<'object' | 'boolean'>; readonly items?: 'object' | 'string' } } = {
  [`${APIEXTENSIONS}.JSONSchemaPropsOrBool`]: { allowed: ['object', 'boolean'] },
  [`${APIEXTENSIONS}.JSONSchemaPropsOrArray`]: { items: 'object' },
  [`${APIEXTENSIONS}.JSONSchemaPropsOrStringArray`]: { items: 'string' },
};

/**
 * What the apiserver's decoding of `value` as the built-in definition `definition` rejects with
 * `fieldValidation=Strict` (kubectl's default): unknown fields, and values of the wrong JSON type.
 * `null` is "not set" anywhere, as in Go's decoding. Types that keep raw JSON (RawExtension,
 * FieldsV1, apiextensions JSON) and schemas that preserve unknown fields take any JSON value.
 */
export function decodingProblems(value: unknown, definition: string, schemas: BuiltinSchemas): DecodingProblem[] {
  const out: DecodingProblem[] = [];
  walk(value, { $ref: definition }, '', '', { schemas, customResource: false }, out);
  return out;
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * The same for a custom resource, against its CRD's schema (`openAPIV3Schema` of the object's
 * version): with strict field validation the apiserver refuses fields the schema does not declare,
 * and its schema validation refuses values of other types, before validating admission runs.
 * `apiVersion`, `kind` and `metadata` (an ObjectMeta) are declared at the root and at every
 * `x-kubernetes-embedded-resource`, whatever the schema says.
 */
export function customResourceDecodingProblems(value: unknown, schema: OpenApiSchema, schemas: BuiltinSchemas): DecodingProblem[] {
  const out: DecodingProblem[] = [];
  walk(value, { ...schema, 'x-kubernetes-embedded-resource': true }, '', '', { schemas, customResource: true }, out);
  return out;
}

/**
 * What a walk decodes with: the built-in definitions, and whether the object is a custom resource
 * (decoded as JSON, then pruned against its schema: with strict field validation, the keys of an
 * object where the schema has no properties are unknown fields, reported before any type error).
 */
interface Decoding {
  readonly schemas: BuiltinSchemas;
  readonly customResource: boolean;
}

function walk(value: unknown, given: OpenApiSchema, path: string, go: string, schemas: Decoding, out: DecodingProblem[]): void {
  if (isJsonNull(value)) return;
  // A Quantity decodes from the text of a string or a number, and nothing else (UnmarshalJSON).
  if (given.$ref === QUANTITY) {
    const text = typeof value === 'string' ? value : typeof value === 'number' ? JSON.stringify(value) : undefined;
    if (text === undefined || !isQuantity(text)) {
      out.push({ path, goPath: go, kind: 'invalid quantity', message: `${path}: must be a quantity such as 500m, 2 or 1Gi, not ${jsonType(value)}${typeof value === 'string' ? ` ${JSON.stringify(value)}` : ''}` });
    }
    return;
  }
  if (given.$ref !== undefined && RAW_JSON.has(given.$ref)) return;
  if (given.$ref === TIME || given.$ref === MICRO_TIME) return walkTime(value, given.$ref === MICRO_TIME, path, go, out);
  const eitherOr = given.$ref === undefined ? undefined : EITHER_OR[given.$ref];
  if (eitherOr) return walkEitherOr(value, eitherOr, path, go, out);
  const schema = schemas.schemas.resolve(given);
  // Whatever it holds, but of its type when it has one (a custom resource's schema validation).
  if (schema['x-kubernetes-preserve-unknown-fields']) {
    if (schema.type !== undefined && !matchesType(value, schema.type)) wrongType(path, go, value, article(schema.type), out);
    return;
  }
  if (schema['x-kubernetes-int-or-string'] || schema.format === 'int-or-string') {
    // IntOrString holds an int32.
    if (!(typeof value === 'string' || decodeGoInteger(value, 32) === 'integer')) wrongType(path, go, value, 'a 32-bit integer or a string', out);
    return;
  }
  if (schema.oneOf) {
    if (!schema.oneOf.some((alternative) => matchesType(value, schemas.schemas.resolve(alternative).type))) {
      wrongType(path, go, value, schema.oneOf.map((a) => article(schemas.schemas.resolve(a).type ?? 'value')).join(' or '), out);
    }
    return;
  }
  // Bytes ([]byte in Go): base64 text, or a JSON array of bytes, which Go's decoding takes too.
  if (schema.type === 'string' && schema.format === 'byte') {
    if (typeof value === 'string') {
      if (!isGoBase64(value)) out.push({ path, goPath: go, kind: 'invalid base64', message: `${path}: must be base64-encoded (standard alphabet, padded), not ${JSON.stringify(value.slice(0, 40))}` });
    } else if (!Array.isArray(value) || !value.every((b) => isJsonNull(b) || (Number.isInteger(b) && b >= 0 && b <= 255))) {
      wrongType(path, go, value, 'a base64 string', out);
    }
    return;
  }
  if (schemas.customResource && schema.type !== 'object' && isObject(value)) {
    for (const key of Object.keys(value)) unknownField(path ? `${path}.${key}` : key, key, [], out);
    return;
  }
  switch (schema.type) {
    case 'object':
      return walkObject(value, schema, path, go, schemas, out);
    case 'array':
      if (!Array.isArray(value)) return wrongType(path, go, value, 'an array', out);
      if (schema.items) value.forEach((item, i) => walk(item, schema.items!, `${path}[${i}]`, go, schemas, out));
      return;
    case 'integer': {
      const bits = schema.format === 'int32' ? 32 : 64;
      const decoded = decodeGoInteger(value, bits);
      if (decoded === 'not a number' || decoded === 'fraction') wrongType(path, go, value, 'an integer', out);
      else if (decoded === 'out of range') wrongType(path, go, value, `a ${bits}-bit integer`, out);
      return;
    }
    case undefined:
      return;
    default:
      if (!matchesType(value, schema.type)) wrongType(path, go, value, article(schema.type), out);
  }
}

function walkObject(value: unknown, schema: OpenApiSchema, path: string, go: string, schemas: Decoding, out: DecodingProblem[]): void {
  // Without properties or values, an empty Go struct: an object without keys.
  const properties = schema['x-kubernetes-embedded-resource']
    ? { apiVersion: { type: 'string' as const }, kind: { type: 'string' as const }, metadata: { $ref: OBJECT_META }, ...schema.properties }
    : schema.properties ?? {};
  const values = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (!isObject(value)) return wrongType(path, go, value, 'an object', out);
  for (const [key, item] of Object.entries(value)) {
    const child = path ? `${path}.${key}` : key;
    if (values) {
      walk(item, values, child, go, schemas, out);
    } else {
      const field = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
      if (field) walk(item, field, child, go ? `${go}.${key}` : key, schemas, out);
      else unknownField(child, key, Object.keys(properties), out);
    }
  }
}

/**
 * metav1.Time and MicroTime: RFC 3339 text, as Go's time.Parse reads it (time.RFC3339; MicroTime
 * with exactly six fraction digits, time.RFC3339Micro).
 */
function walkTime(value: unknown, micro: boolean, path: string, go: string, out: DecodingProblem[]): void {
  if (typeof value !== 'string') return wrongType(path, go, value, 'an RFC 3339 time (a string)', out);
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([.,]\d+)?(Z|[+-](\d{2}):(\d{2}))$/.exec(value);
  const valid = m !== null
    && (!micro || (m[7] !== undefined && m[7].length === 7 && m[7][0] === '.'))
    && Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[3]) >= 1 && Number(m[3]) <= daysIn(Number(m[1]), Number(m[2]))
    && Number(m[4]) <= 23 && Number(m[5]) <= 59 && Number(m[6]) <= 59
    && (m[9] === undefined || (Number(m[9]) <= 23 && Number(m[10]) <= 59));
  if (!valid) {
    const example = micro ? '2026-01-02T15:04:05.000000Z' : '2026-01-02T15:04:05Z';
    out.push({ path, goPath: go, kind: 'invalid time', message: `${path}: must be an RFC 3339 time such as ${example}, not ${JSON.stringify(value.slice(0, 40))}` });
  }
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function walkEitherOr(value: unknown, type: (typeof EITHER_OR)[string], path: string, go: string, out: DecodingProblem[]): void {
  const jsonKind = isObject(value) ? 'object' : typeof value === 'boolean' ? 'boolean' : 'other';
  if (type.allowed && !(type.allowed as readonly string[]).includes(jsonKind)) {
    out.push({ path, goPath: go, kind: 'invalid JSON schema', message: `${path}: must be a JSON schema (an object) or a boolean, not ${jsonType(value)}` });
    return;
  }
  if (Array.isArray(value) && type.items) {
    value.forEach((item, i) => {
      const ok = isJsonNull(item) || (type.items === 'object' ? isObject(item) : typeof item === 'string');
      if (!ok) wrongType(`${path}[${i}]`, go, item, article(type.items!), out);
    });
  }
}

function matchesType(value: unknown, type: OpenApiSchema['type']): boolean {
  switch (type) {
    case 'string': return typeof value === 'string';
    case 'integer': return Number.isInteger(value);
    case 'number': return typeof value === 'number';
    case 'boolean': return typeof value === 'boolean';
    case 'array': return Array.isArray(value);
    case 'object': return isObject(value);
    default: return true;
  }
}

function unknownField(path: string, key: string, known: string[], out: DecodingProblem[]): void {
  const suggestion = closestName(key, known);
  out.push({ path, goPath: path, kind: 'unknown field', message: `unknown field "${path}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}` });
}

function wrongType(path: string, go: string, value: unknown, expected: string, out: DecodingProblem[]): void {
  out.push({ path, goPath: go, kind: 'wrong type', message: `${path || 'the object'}: must be ${expected}, not ${jsonType(value)}` });
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? `the number ${value}` : `the fraction ${value}`;
  return typeof value === 'object' ? 'an object' : article(typeof value);
}

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
