/**
 * Go's nil and zero values as they look in a request object that went through the Go types
 * (src/schemas/go-json.ts): what the ported defaulters test before they set a default.
 */

/** A nil pointer, slice or map: absent or null. */
export function isNil(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

/** A scalar's zero value, or nil: what `x == ""`, `x == 0` and `!x` test in Go. */
export function isZeroValue(value: unknown): boolean {
  return isNil(value) || value === '' || value === 0 || value === false;
}

/** Go's len() of a slice, map or string (0 for nil). */
export function len(value: unknown): number {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length;
  return 0;
}

/** A JSON object (a Go struct or map). */
export type GoObject = { [key: string]: any };

export function isObject(value: unknown): value is GoObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object at `key` of `parent`, created empty when nil (Go's `if x == nil { x = &T{} }` or `make(map...)`). */
export function objectAt(parent: GoObject, key: string): GoObject {
  if (!isObject(parent[key])) parent[key] = {};
  return parent[key];
}

/**
 * A deep copy of JSON data. (Not structuredClone: its objects come from Node's own realm, and a
 * test runner's sandbox, jest's, would not recognize them as plain objects.)
 */
export function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(deepCopy) as unknown as T;
  if (!isObject(value)) return value;
  const out: GoObject = {};
  for (const key of Object.keys(value)) {
    const v = deepCopy(value[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out as T;
}
