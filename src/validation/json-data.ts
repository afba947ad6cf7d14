/**
 * The first place where `value` is not JSON data, walked without recursion: a value JSON cannot
 * hold (a bigint, a function, a symbol, NaN, a Date or another class instance), a cycle, or
 * nesting deeper than `maxDepth` (the top-level object or array counts as one level, as in Go's
 * encoding/json, whose limit of 10,000 the apiserver applies to request bodies).
 */
export interface JsonDataOptions {
  readonly maxDepth: number;
  /** Objects that are not plain (class instances, cdk8s tokens) are passed over instead of refused. */
  readonly skipNonPlain?: boolean;
}

export interface JsonDataProblem {
  /** The path in the value, `spec.validations[0].message` style; '' for the value itself. */
  readonly path: string;
  /** The same path, as keys and indices. */
  readonly segments: ReadonlyArray<string | number>;
  readonly message: string;
}

export const MAX_JSON_DEPTH = 10_000;

/**
 * The largest request body the apiserver reads: 3 MiB (measured on the 1.37 apiserver: 3,145,729
 * bytes of JSON are answered `413 Request entity too large: limit is 3145728`, 3,145,728 are read).
 */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

const DEEP_PATH_SHOWN = 4;

function describeNonJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${value} is not a JSON number`;
    case 'object':
      return undefined;
    default:
      return `a ${typeof value} is not JSON data`;
  }
}

/** An object JSON could have produced: a list, or an object with Object's prototype (or none). */
export function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

export function jsonDataProblem(value: unknown, options: JsonDataOptions): JsonDataProblem | undefined {
  return inspectJson(value, options).problem;
}

/** What `jsonDataProblem` finds, and the size of the compact JSON encoding of what it walked, in bytes. */
export function inspectJson(value: unknown, options: JsonDataOptions): { problem?: JsonDataProblem; bytes: number } {
  let bytes = 0;
  const scalarBytes = (v: unknown) => {
    if (typeof v === 'string') bytes += Buffer.byteLength(JSON.stringify(v));
    else if (typeof v === 'number' || typeof v === 'boolean') bytes += String(v).length;
    else if (v === null || v === undefined) bytes += 4;
  };
  const path: Array<string | number> = [];
  const at = () => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i > 0 ? '.' : ''}${k}`)).join('');
  const problemAt = (message: string): JsonDataProblem => ({ path: at(), segments: [...path], message });
  // Too deep: named by where the deep value starts, not by its 10,000 indices.
  const tooDeepAt = (message: string): JsonDataProblem => {
    path.length = Math.min(path.length, DEEP_PATH_SHOWN);
    return problemAt(message);
  };
  const ancestors = new Set<object>();
  // Frames: an object being visited, with its entries and the next one to visit.
  const stack: Array<{ node: object; entries: Array<[string | number, unknown]>; next: number }> = [];
  const enter = (v: unknown): JsonDataProblem | undefined => {
    const nonJson = describeNonJson(v);
    if (nonJson) return problemAt(nonJson);
    if (typeof v !== 'object' || v === null) {
      scalarBytes(v);
      return undefined;
    }
    if (!isPlain(v)) {
      if (options.skipNonPlain) return undefined;
      return problemAt(`a ${v.constructor?.name ?? 'non-plain object'} is not JSON data (give plain objects, lists, strings, numbers, booleans and null)`);
    }
    if (ancestors.has(v)) return problemAt('a cycle (the value contains itself), which JSON cannot hold');
    if (stack.length >= options.maxDepth) {
      return tooDeepAt(`nested deeper than ${options.maxDepth.toLocaleString('en-US')} levels`);
    }
    ancestors.add(v);
    const entries: Array<[string | number, unknown]> = Array.isArray(v)
      ? Array.from(v, (item, i): [number, unknown] => [i, item]) // holes too, which JSON writes as null
      : Object.entries(v).filter(([, item]) => item !== undefined);
    bytes += 2 + Math.max(0, entries.length - 1);
    if (!Array.isArray(v)) for (const [key] of entries) bytes += Buffer.byteLength(JSON.stringify(key)) + 1;
    stack.push({ node: v, entries, next: 0 });
    return undefined;
  };
  const first = enter(value);
  if (first) return { problem: first, bytes };
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.next > 0) path.pop();
    if (frame.next === frame.entries.length) {
      stack.pop();
      ancestors.delete(frame.node);
      continue;
    }
    const [key, item] = frame.entries[frame.next++];
    path.push(key);
    const problem = enter(item);
    if (problem) return { problem, bytes };
  }
  return { bytes };
}
