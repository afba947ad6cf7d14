import { GoField, GoTypes } from './go-types';
import { formatGoQuantity, parseGoQuantity } from './quantity';

/**
 * What a request object is after the apiserver decodes it into its Go type and encodes it again
 * (encoding/json, and runtime.DefaultUnstructuredConverter.ToUnstructured, which admission
 * policies see, lay out the same): optional empty fields are dropped (omitempty, omitzero),
 * required ones and non-pointer structs are written even when the request left them out (with
 * their zero value, or null for a nil slice, map or pointer), and the types with an encoding of
 * their own are written canonically: quantities (`1000m` is `1`), times in UTC to the second,
 * base64 bytes. The value is assumed to decode (PolicyTester checks that first).
 *
 * Types are the Go-type strings of schemas/go-types.json: a basic type, `bytes`, `*T`, `[]T`,
 * `map[K]V`, `any`, or an OpenAPI definition name.
 */
export function goRoundTrip(value: unknown, definition: string, types: GoTypes): unknown {
  return encode(value, definition, types);
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const APIEXTENSIONS = ['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1', 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1'];

/** The types with a MarshalJSON of their own, and what it writes for a decoded value. */
const OPAQUE: { readonly [definition: string]: (value: unknown, types: GoTypes) => unknown } = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': (v) => {
    const q = parseGoQuantity(typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '0');
    return q ? formatGoQuantity(q) : v;
  },
  [`${META}.Time`]: (v) => (typeof v === 'string' ? utcTime(v, false) : null),
  [`${META}.MicroTime`]: (v) => (typeof v === 'string' ? utcTime(v, true) : null),
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': (v) => (typeof v === 'string' || typeof v === 'number' ? v : 0),
  'io.k8s.apimachinery.pkg.runtime.RawExtension': (v) => v ?? null,
  [`${META}.FieldsV1`]: (v) => v ?? null,
  ...Object.fromEntries(APIEXTENSIONS.flatMap((group) => [
    [`${group}.JSON`, (v: unknown) => v ?? null],
    [`${group}.JSONSchemaPropsOrBool`, (v: unknown, types: GoTypes) => (isObject(v) ? encode(v, `${group}.JSONSchemaProps`, types) : v === true)],
    [`${group}.JSONSchemaPropsOrArray`, (v: unknown, types: GoTypes) => (Array.isArray(v)
      ? v.map((item) => encode(item, `${group}.JSONSchemaProps`, types))
      : isObject(v) ? encode(v, `${group}.JSONSchemaProps`, types) : null)],
    [`${group}.JSONSchemaPropsOrStringArray`, (v: unknown, types: GoTypes) => (Array.isArray(v)
      ? v : isObject(v) ? encode(v, `${group}.JSONSchemaProps`, types) : null)],
  ])),
};

const INTEGER_TYPES = new Set(['int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64']);

function encode(value: unknown, type: string, types: GoTypes): unknown {
  if (type.startsWith('*')) return value === undefined || value === null ? null : encode(value, type.slice(1), types);
  if (type.startsWith('[]')) {
    if (!Array.isArray(value)) return null;
    const element = type.slice(2);
    return value.map((item) => encode(item, element, types));
  }
  if (type.startsWith('map[')) {
    if (!isObject(value)) return null;
    const element = type.slice(mapKeyEnd(type) + 1);
    const out: { [key: string]: unknown } = {};
    for (const key of Object.keys(value)) setKey(out, key, encode(value[key], element, types));
    return out;
  }
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : '';
    case 'bool':
      return value === true;
    case 'any':
      return value ?? null;
    case 'bytes':
      return typeof value === 'string' ? Buffer.from(value.replace(/[\r\n]/g, ''), 'base64').toString('base64') : null;
  }
  if (INTEGER_TYPES.has(type)) return typeof value === 'number' ? value : 0;
  const opaque = Object.prototype.hasOwnProperty.call(OPAQUE, type) ? OPAQUE[type] : undefined;
  if (opaque) return opaque(value, types);
  const fields = types.struct(type);
  if (!fields) throw new Error(`Kubernetes ${types.release}: no Go type ${type}`);
  return encodeStruct(isObject(value) ? value : {}, fields, types);
}

function encodeStruct(value: { readonly [key: string]: unknown }, fields: readonly GoField[], types: GoTypes): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  for (const [json, flags, type] of fields) {
    if (flags.includes('i')) {
      Object.assign(out, encode(value, type, types));
      continue;
    }
    const raw = Object.prototype.hasOwnProperty.call(value, json) ? value[json] : undefined;
    // A pointer is nil when the request has nothing there; a non-nil pointer is never empty, even
    // when what it points at encodes as null (apiextensions' JSONSchemaPropsOrArray of a number).
    const nil = type.startsWith('*') && (raw === undefined || raw === null);
    const v = nil ? null : encode(raw, type, types);
    if (flags.includes('e') && (type.startsWith('*') ? nil : isEmpty(v, type))) continue;
    if (flags.includes('z') && isZero(v, type, types)) continue;
    setKey(out, json, v);
  }
  return out;
}

/** encoding/json's isEmptyValue, by the field's Go type, on the encoded value: structs are never empty. */
function isEmpty(v: unknown, type: string): boolean {
  if (type.startsWith('*') || type === 'any') return v === null;
  if (type.startsWith('[]')) return v === null || (Array.isArray(v) && v.length === 0);
  if (type === 'bytes') return v === null || v === '';
  if (type.startsWith('map[')) return v === null || (isObject(v) && Object.keys(v).length === 0);
  if (isStructType(type)) return false;
  return v === '' || v === false || v === 0;
}

/** omitzero: the Go zero value (nil, not empty, for slices and maps; IsZero for times and quantities). */
function isZero(v: unknown, type: string, types: GoTypes): boolean {
  if (v === null) return true;
  if (type.startsWith('*') || type.startsWith('[]') || type.startsWith('map[')) return false;
  if (!isStructType(type)) return v === false || v === 0 || v === '';
  if (type === 'io.k8s.apimachinery.pkg.api.resource.Quantity' || type === 'io.k8s.apimachinery.pkg.util.intstr.IntOrString') return v === '0' || v === 0;
  return JSON.stringify(v) === JSON.stringify(encode(undefined, type, types));
}

function isStructType(type: string): boolean {
  return type.startsWith('io.');
}

/** The index of the `]` that closes a `map[K]V` type's key. */
function mapKeyEnd(type: string): number {
  let depth = 0;
  for (let i = 3; i < type.length; i++) {
    if (type[i] === '[') depth++;
    else if (type[i] === ']' && --depth === 0) return i;
  }
  throw new Error(`malformed Go map type ${type}`);
}

/**
 * metav1.Time and MicroTime as MarshalJSON writes them: in UTC, RFC 3339 to the second (Time) or
 * the microsecond (MicroTime); the text was checked by strict decoding.
 */
function utcTime(text: string, micro: boolean): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|([+-])(\d{2}):(\d{2}))$/.exec(text);
  if (!m) return text;
  const offset = m[8] === 'Z' ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  const utc = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]) - offset, Number(m[6])));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const date = `${pad(utc.getUTCFullYear(), 4)}-${pad(utc.getUTCMonth() + 1)}-${pad(utc.getUTCDate())}`;
  const time = `${pad(utc.getUTCHours())}:${pad(utc.getUTCMinutes())}:${pad(utc.getUTCSeconds())}`;
  const fraction = micro ? `.${(m[7] ?? '').padEnd(6, '0').slice(0, 6)}` : '';
  return `${date}T${time}${fraction}Z`;
}

function setKey(out: { [key: string]: unknown }, key: string, v: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  else out[key] = v;
}

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
