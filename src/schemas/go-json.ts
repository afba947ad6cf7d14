import { GoTypes } from './go-types';
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

/**
 * One field of a struct (`status` of a Deployment) as its Go type encodes it: what changed in an
 * object whose other fields are already encoded. Undefined when the struct has no such field.
 */
export function goRoundTripField(value: unknown, definition: string, field: string, types: GoTypes): unknown {
  const found = fieldsOf(definition, types).find((f) => f.json === field);
  return found ? encode(value, found.type, types) : undefined;
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

/** A Go type string, parsed once: what kind of value it is, and what it holds. */
type ParsedType =
  | { readonly kind: 'pointer' | 'slice' | 'map'; readonly element: string }
  | { readonly kind: 'string' | 'bool' | 'number' | 'any' | 'bytes' }
  | { readonly kind: 'opaque'; readonly write: (value: unknown, types: GoTypes) => unknown }
  | { readonly kind: 'struct'; readonly name: string };

const parsedTypes = new Map<string, ParsedType>();

function parse(type: string): ParsedType {
  let parsed = parsedTypes.get(type);
  if (!parsed) {
    if (type.startsWith('*')) parsed = { kind: 'pointer', element: type.slice(1) };
    else if (type.startsWith('[]')) parsed = { kind: 'slice', element: type.slice(2) };
    else if (type.startsWith('map[')) parsed = { kind: 'map', element: type.slice(mapKeyEnd(type) + 1) };
    else if (type === 'string' || type === 'bool' || type === 'any' || type === 'bytes') parsed = { kind: type };
    else if (INTEGER_TYPES.has(type)) parsed = { kind: 'number' };
    else if (Object.prototype.hasOwnProperty.call(OPAQUE, type)) parsed = { kind: 'opaque', write: OPAQUE[type] };
    else parsed = { kind: 'struct', name: type };
    parsedTypes.set(type, parsed);
  }
  return parsed;
}

/** A struct field with its flags read once. */
interface Field {
  readonly json: string;
  readonly type: string;
  readonly kind: ParsedType['kind'];
  readonly inline: boolean;
  readonly omitempty: boolean;
  readonly omitzero: boolean;
}

const fieldsByTypes = new WeakMap<GoTypes, Map<string, readonly Field[]>>();

function fieldsOf(name: string, types: GoTypes): readonly Field[] {
  let cache = fieldsByTypes.get(types);
  if (!cache) {
    cache = new Map();
    fieldsByTypes.set(types, cache);
  }
  let fields = cache.get(name);
  if (!fields) {
    const raw = types.struct(name);
    if (!raw) throw new Error(`Kubernetes ${types.release}: no Go type ${name}`);
    fields = raw.map(([json, flags, type]) => ({
      json, type, kind: parse(type).kind, inline: flags.includes('i'), omitempty: flags.includes('e'), omitzero: flags.includes('z'),
    }));
    cache.set(name, fields);
  }
  return fields;
}

function encode(value: unknown, type: string, types: GoTypes): unknown {
  const t = parse(type);
  switch (t.kind) {
    case 'pointer':
      return value === undefined || value === null ? null : encode(value, t.element, types);
    case 'slice': {
      if (!Array.isArray(value)) return null;
      const out = new Array(value.length);
      for (let i = 0; i < value.length; i++) out[i] = encode(value[i], t.element, types);
      return out;
    }
    case 'map': {
      if (!isObject(value)) return null;
      const out: { [key: string]: unknown } = {};
      for (const key of Object.keys(value)) setKey(out, key, encode(value[key], t.element, types));
      return out;
    }
    case 'string':
      return typeof value === 'string' ? value : '';
    case 'bool':
      return value === true;
    case 'number':
      return typeof value === 'number' ? value : 0;
    case 'any':
      return value ?? null;
    case 'bytes':
      // Base64 text, or (as the apiserver's decoder also takes) a list of byte values.
      if (typeof value === 'string') return Buffer.from(value.replace(/[\r\n]/g, ''), 'base64').toString('base64');
      return Array.isArray(value) ? Buffer.from(value as number[]).toString('base64') : null;
    case 'opaque':
      return t.write(value, types);
    case 'struct':
      return encodeStruct(isObject(value) ? value : {}, fieldsOf(t.name, types), types);
  }
}

function encodeStruct(value: { readonly [key: string]: unknown }, fields: readonly Field[], types: GoTypes): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  for (const field of fields) {
    if (field.inline) {
      Object.assign(out, encode(value, field.type, types));
      continue;
    }
    const raw = Object.prototype.hasOwnProperty.call(value, field.json) ? value[field.json] : undefined;
    // The common scalar fields without a call (the same as encode() and isEmpty() on them).
    if (field.kind === 'string' && !field.omitzero) {
      const text = typeof raw === 'string' ? raw : '';
      if (!(field.omitempty && text === '')) setKey(out, field.json, text);
      continue;
    }
    // A pointer is nil when the request has nothing there; a non-nil pointer is never empty, even
    // when what it points at encodes as null (apiextensions' JSONSchemaPropsOrArray of a number).
    const pointer = field.kind === 'pointer';
    const nil = pointer && (raw === undefined || raw === null);
    if (nil && field.omitempty) continue;
    const v = nil ? null : encode(raw, field.type, types);
    if (field.omitempty && !pointer && isEmpty(v, field.type)) continue;
    if (field.omitzero && isZero(v, field.type, types)) continue;
    setKey(out, field.json, v);
  }
  return out;
}

/** encoding/json's isEmptyValue, by the field's Go type, on the encoded value: structs are never empty. */
function isEmpty(v: unknown, type: string): boolean {
  switch (parse(type).kind) {
    case 'pointer':
    case 'any':
      return v === null;
    case 'slice':
      return v === null || (Array.isArray(v) && v.length === 0);
    case 'bytes':
      return v === null || v === '';
    case 'map':
      return v === null || (isObject(v) && Object.keys(v).length === 0);
    case 'struct':
    case 'opaque':
      return false;
    default:
      return v === '' || v === false || v === 0;
  }
}

/** omitzero: the Go zero value (nil, not empty, for slices and maps; IsZero for times and quantities). */
function isZero(v: unknown, type: string, types: GoTypes): boolean {
  if (v === null) return true;
  const kind = parse(type).kind;
  if (kind === 'pointer' || kind === 'slice' || kind === 'map') return false;
  if (kind !== 'struct' && kind !== 'opaque') return v === false || v === 0 || v === '';
  if (type === 'io.k8s.apimachinery.pkg.api.resource.Quantity' || type === 'io.k8s.apimachinery.pkg.util.intstr.IntOrString') return v === '0' || v === 0;
  return JSON.stringify(v) === JSON.stringify(encode(undefined, type, types));
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
