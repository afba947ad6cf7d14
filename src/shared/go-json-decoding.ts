/**
 * What Go's encoding/json (through sigs.k8s.io/json, which the apiserver decodes request bodies
 * with) makes of the JSON scalars that need care: numbers decoded into integer fields, null, and
 * base64 text decoded into []byte. The manifest validator (validation/shape.ts) and the strict
 * decoding of built-in objects (schemas/strict-decoding.ts) both follow these rules.
 *
 * Values are JavaScript values parsed from the manifest: a number's JSON text is the one
 * `JSON.stringify` writes, which is what kubectl sends.
 *
 * Internal module: not exported from the package index.
 */

const INT_RANGES = {
  32: { min: -(2n ** 31n), max: 2n ** 31n - 1n },
  64: { min: -(2n ** 63n), max: 2n ** 63n - 1n },
} as const;

/**
 * How a JSON value decodes into a Go int32 or int64: `integer` when it does; otherwise why not
 * (Go reports all three as `cannot unmarshal ... into Go struct field ... of type int32`).
 */
export type GoIntegerDecoding = 'integer' | 'not a number' | 'fraction' | 'out of range';

/**
 * encoding/json `(*decodeState).literalStore` for a number into an int field: the text must parse
 * with `strconv.ParseInt(text, 10, 64)` (no fraction, no exponent) and the value must not
 * overflow the field (`reflect.Value.OverflowInt`). A JavaScript number whose JSON text has an
 * exponent is at least 1e21, beyond int64, so the exponent case is `out of range`.
 */
export function decodeGoInteger(value: unknown, bits: 32 | 64): GoIntegerDecoding {
  if (typeof value !== 'number') return 'not a number';
  if (!Number.isInteger(value)) return 'fraction';
  const n = BigInt(value);
  return n < INT_RANGES[bits].min || n > INT_RANGES[bits].max ? 'out of range' : 'integer';
}

/**
 * JSON null, or a key that is not there: encoding/json decodes null into any Go type without an
 * error ("unmarshaling a JSON null into any other Go type has no effect on the value"), so a struct
 * field given as null keeps its zero value, which the wire format calls not set.
 */
export function isJsonNull(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

/** The kinds of Go value whose zero values differ, as far as JSON decoding goes. */
export type GoValueKind = 'string' | 'bool' | 'integer' | 'struct' | 'map' | 'slice' | 'raw';

/**
 * What a slice element or a map value given as JSON null decodes to (encoding/json `(*decodeState).array`
 * and `object` decode each element into a fresh zero value, which null leaves as it is): the zero
 * value of the element's type (`""`, `false`, `0`, an empty struct), and nil (null) for a map, a
 * slice or raw JSON.
 */
export function goNullElement(kind: GoValueKind): unknown {
  switch (kind) {
    case 'string': return '';
    case 'bool': return false;
    case 'integer': return 0;
    case 'struct': return {};
    case 'map':
    case 'slice':
    case 'raw': return null;
  }
}

/**
 * Whether base64 text decodes into a Go []byte: encoding/json `(*decodeState).literalStore` uses
 * `base64.StdEncoding.Decode` (standard alphabet, padded), which skips carriage returns and newlines.
 */
export function isGoBase64(text: string): boolean {
  const stripped = text.replace(/[\r\n]/g, '');
  return stripped.length % 4 === 0 && /^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(stripped);
}
