import { BuiltinSchemas, OpenApiSchema } from './builtin-schemas';
import { isQuantity } from './quantity';
import { closestName } from '../validation/shape';

/** A field the apiserver's strict decoding of a built-in object rejects. */
export interface DecodingProblem {
  /** The field path as the apiserver writes it: `spec.template.spec.containers[0].imagePullPolicyy`. */
  readonly path: string;
  readonly kind: 'unknown field' | 'wrong type' | 'invalid quantity' | 'invalid base64';
  readonly message: string;
}

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * What the apiserver's decoding of `value` as the built-in definition `definition` rejects with
 * `fieldValidation=Strict` (kubectl's default): unknown fields, and values of the wrong JSON type.
 * `null` is "not set" anywhere, as in Go's decoding. Objects without properties (RawExtension,
 * FieldsV1: any JSON value, not only objects) and schemas that preserve unknown fields take any JSON.
 */
export function decodingProblems(value: unknown, definition: string, schemas: BuiltinSchemas): DecodingProblem[] {
  const out: DecodingProblem[] = [];
  walk(value, { $ref: definition }, '', schemas, out);
  return out;
}

function walk(value: unknown, given: OpenApiSchema, path: string, schemas: BuiltinSchemas, out: DecodingProblem[]): void {
  if (value === null || value === undefined) return;
  // A Quantity decodes from the text of a string or a number, and nothing else (UnmarshalJSON).
  if (given.$ref === QUANTITY) {
    const text = typeof value === 'string' ? value : typeof value === 'number' ? JSON.stringify(value) : undefined;
    if (text === undefined || !isQuantity(text)) {
      out.push({ path, kind: 'invalid quantity', message: `${path}: must be a quantity such as 500m, 2 or 1Gi, not ${jsonType(value)}${typeof value === 'string' ? ` ${JSON.stringify(value)}` : ''}` });
    }
    return;
  }
  const schema = schemas.resolve(given);
  if (schema['x-kubernetes-preserve-unknown-fields']) return;
  if (schema['x-kubernetes-int-or-string'] || schema.format === 'int-or-string') {
    // IntOrString holds an int32.
    if (!(typeof value === 'string' || isInt32(value))) wrongType(path, value, 'a 32-bit integer or a string', out);
    return;
  }
  if (schema.oneOf) {
    if (!schema.oneOf.some((alternative) => matchesType(value, schemas.resolve(alternative).type))) {
      wrongType(path, value, schema.oneOf.map((a) => article(schemas.resolve(a).type ?? 'value')).join(' or '), out);
    }
    return;
  }
  // Bytes ([]byte in Go): base64 text, or a JSON array of bytes, which Go's decoding takes too.
  if (schema.type === 'string' && schema.format === 'byte') {
    if (typeof value === 'string') {
      if (!isBase64(value)) out.push({ path, kind: 'invalid base64', message: `${path}: must be base64-encoded (standard alphabet, padded), not ${JSON.stringify(value.slice(0, 40))}` });
    } else if (!Array.isArray(value) || !value.every((b) => b === null || (Number.isInteger(b) && b >= 0 && b <= 255))) {
      wrongType(path, value, 'a base64 string', out);
    }
    return;
  }
  switch (schema.type) {
    case 'object':
      return walkObject(value, schema, path, schemas, out);
    case 'array':
      if (!Array.isArray(value)) return wrongType(path, value, 'an array', out);
      if (schema.items) value.forEach((item, i) => walk(item, schema.items!, `${path}[${i}]`, schemas, out));
      return;
    case 'integer':
      if (!Number.isInteger(value)) return wrongType(path, value, 'an integer', out);
      if (schema.format === 'int32' && !isInt32(value)) wrongType(path, value, 'a 32-bit integer', out);
      return;
    case undefined:
      return;
    default:
      if (!matchesType(value, schema.type)) wrongType(path, value, article(schema.type), out);
  }
}

function walkObject(value: unknown, schema: OpenApiSchema, path: string, schemas: BuiltinSchemas, out: DecodingProblem[]): void {
  const properties = schema.properties;
  const values = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  // An object schema without properties or values is a type that keeps its raw JSON (RawExtension,
  // FieldsV1): it decodes from any JSON value, not only objects.
  if (!properties && !values) return;
  if (!isObject(value)) return wrongType(path, value, 'an object', out);
  for (const [key, item] of Object.entries(value)) {
    const child = path ? `${path}.${key}` : key;
    if (properties) {
      const field = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
      if (field) walk(item, field, child, schemas, out);
      else unknownField(child, key, Object.keys(properties), out);
    } else if (values) {
      walk(item, values, child, schemas, out);
    }
  }
}

/** Go's base64.StdEncoding: padded, standard alphabet; carriage returns and newlines are skipped. */
function isBase64(text: string): boolean {
  const stripped = text.replace(/[\r\n]/g, '');
  return stripped.length % 4 === 0 && /^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(stripped);
}

function isInt32(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= INT32_MIN && (value as number) <= INT32_MAX;
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
  out.push({ path, kind: 'unknown field', message: `unknown field "${path}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}` });
}

function wrongType(path: string, value: unknown, expected: string, out: DecodingProblem[]): void {
  out.push({ path, kind: 'wrong type', message: `${path || 'the object'}: must be ${expected}, not ${jsonType(value)}` });
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
