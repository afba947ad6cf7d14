// JSON Patch as the apiserver applies a mutating policy's JSONPatch: with evanphx/json-patch v4,
// whose semantics differ from RFC 6902 in ways a policy author meets (a `replace` of a missing key
// adds it, a failing `test` leaves the object unchanged without an error, negative array indices
// count from the end, a path is split at every `/` even without a leading one), and whose error
// texts the apiserver returns. No npm library implements these semantics, so they are written here.
import { setDataKey } from '../cel/data-keys';

/** A failed `test` operation: the apiserver leaves the object as it was, and reports nothing. */
export class JsonPatchTestFailed extends Error {}

type Container = { [key: string]: unknown } | unknown[];

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

function decodeKey(key: string): string {
  return key.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Go's strconv.Atoi, with its error text. */
function atoi(key: string): number {
  if (!/^[+-]?\d+$/.test(key)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  const n = Number(key);
  if (!Number.isSafeInteger(n)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(key)}: value out of range`);
  return n;
}

function invalidIndex(idx: number): Error {
  return new Error(`Unable to access invalid index: ${idx}: ${INVALID_INDEX}`);
}

/** The container of a path's last token, and that token; undefined when an intermediate is missing or a scalar. */
function findObject(doc: Container, path: string): { container: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let current: Container = doc;
  for (const part of split.slice(1, -1)) {
    const next = get(current, decodeKey(part), true);
    if (!isContainer(next)) return undefined;
    current = next;
  }
  return { container: current, key: decodeKey(split[split.length - 1]) };
}

/** A map's value (undefined when absent, which is not an error), or an array's element. */
function get(c: Container, key: string, lenient = false): unknown {
  if (!Array.isArray(c)) return Object.prototype.hasOwnProperty.call(c, key) ? c[key] : undefined;
  let idx: number;
  try {
    idx = atoi(key);
  } catch (e) {
    if (lenient) return undefined;
    throw e;
  }
  if (idx < 0) {
    if (idx < -c.length) {
      if (lenient) return undefined;
      throw invalidIndex(idx);
    }
    idx += c.length;
  }
  if (idx >= c.length) {
    if (lenient) return undefined;
    throw invalidIndex(idx);
  }
  return c[idx];
}

function has(c: Container, key: string): boolean {
  return Array.isArray(c) ? false : Object.prototype.hasOwnProperty.call(c, key);
}

function add(c: Container, key: string, value: unknown): void {
  if (!Array.isArray(c)) return setDataKey(c, key, value);
  if (key === '-') {
    c.push(value);
    return;
  }
  let idx: number;
  try {
    idx = atoi(key);
  } catch (e) {
    throw new Error(`value was not a proper array index: '${key}': ${(e as Error).message}`);
  }
  const size = c.length + 1;
  if (idx >= size) throw invalidIndex(idx);
  if (idx < 0) {
    if (idx < -size) throw invalidIndex(idx);
    idx += size;
  }
  c.splice(idx, 0, value);
}

function remove(c: Container, key: string): void {
  if (!Array.isArray(c)) {
    if (!has(c, key)) throw new Error(`Unable to remove nonexistent key: ${key}: ${MISSING}`);
    delete c[key];
    return;
  }
  let idx = atoi(key);
  if (idx >= c.length) throw invalidIndex(idx);
  if (idx < 0) {
    if (idx < -c.length) throw invalidIndex(idx);
    idx += c.length;
  }
  c.splice(idx, 1);
}

function set(c: Container, key: string, value: unknown): void {
  if (!Array.isArray(c)) return setDataKey(c, key, value);
  let idx = atoi(key);
  if (idx < 0) {
    if (idx < -c.length) throw invalidIndex(idx);
    idx += c.length;
  }
  c[idx] = value;
}

function copyOf(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isContainer(a) || isContainer(b)) {
    if (!isContainer(a) || !isContainer(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => has(b, k) && deepEqual((a as any)[k], (b as any)[k]));
  }
  return a === b;
}

interface Operation {
  readonly op?: unknown;
  readonly path?: unknown;
  readonly from?: unknown;
  readonly value?: unknown;
}

function applyOne(root: { doc: unknown }, operation: Operation): void {
  const { op } = operation;
  const path = String(operation.path ?? '');
  const from = String(operation.from ?? '');
  const value = operation.value === undefined ? null : copyOf(operation.value);
  const doc = root.doc as Container;
  switch (op) {
    case 'add': {
      const at = findObject(doc, path);
      if (!at) throw new Error(`add operation does not apply: doc is missing path: "${path}": ${MISSING}`);
      try {
        add(at.container, at.key, value);
      } catch (e) {
        throw new Error(`error in add for path: '${path}': ${(e as Error).message}`);
      }
      return;
    }
    case 'remove': {
      const at = findObject(doc, path);
      if (!at) throw new Error(`remove operation does not apply: doc is missing path: "${path}": ${MISSING}`);
      try {
        remove(at.container, at.key);
      } catch (e) {
        throw new Error(`error in remove for path: '${path}': ${(e as Error).message}`);
      }
      return;
    }
    case 'replace': {
      if (path === '') {
        if (!isContainer(value)) throw new Error('replace operation value must be object or array: <nil>');
        root.doc = value;
        return;
      }
      const at = findObject(doc, path);
      if (!at) throw new Error(`replace operation does not apply: doc is missing path: ${path}: ${MISSING}`);
      try {
        get(at.container, at.key);
      } catch {
        throw new Error(`replace operation does not apply: doc is missing key: ${path}: ${MISSING}`);
      }
      set(at.container, at.key, value);
      return;
    }
    case 'move': {
      const source = findObject(doc, from);
      if (!source) throw new Error(`move operation does not apply: doc is missing from path: ${from}: ${MISSING}`);
      let moved: unknown;
      try {
        moved = get(source.container, source.key);
        remove(source.container, source.key);
      } catch (e) {
        throw new Error(`error in move for path: '${source.key}': ${(e as Error).message}`);
      }
      const target = findObject(doc, path);
      if (!target) throw new Error(`move operation does not apply: doc is missing destination path: ${path}: ${MISSING}`);
      try {
        add(target.container, target.key, moved === undefined ? null : moved);
      } catch (e) {
        throw new Error(`error in move for path: '${path}': ${(e as Error).message}`);
      }
      return;
    }
    case 'copy': {
      const source = findObject(doc, from);
      if (!source) throw new Error(`copy operation does not apply: doc is missing from path: ${from}: ${MISSING}`);
      let copied: unknown;
      try {
        copied = get(source.container, source.key);
      } catch (e) {
        throw new Error(`error in copy for from: '${from}': ${(e as Error).message}`);
      }
      const target = findObject(doc, path);
      if (!target) throw new Error(`copy operation does not apply: doc is missing destination path: ${path}: ${MISSING}`);
      try {
        add(target.container, target.key, copyOf(copied));
      } catch (e) {
        throw new Error(`error while adding value during copy: ${(e as Error).message}`);
      }
      return;
    }
    case 'test': {
      if (path === '') {
        if (!deepEqual(doc, operation.value)) throw new JsonPatchTestFailed(`testing value ${path} failed: test failed`);
        return;
      }
      const at = findObject(doc, path);
      if (!at) throw new Error(`test operation does not apply: is missing path: ${path}: ${MISSING}`);
      let actual: unknown;
      try {
        actual = get(at.container, at.key);
      } catch (e) {
        throw new Error(`error in test for path: '${path}': ${(e as Error).message}`);
      }
      const expected = operation.value;
      if (actual === undefined ? expected !== undefined : !deepEqual(actual, expected)) {
        throw new JsonPatchTestFailed(`testing value ${path} failed: test failed`);
      }
      return;
    }
    default:
      throw new Error(`Unexpected kind: ${String(op ?? '')}`);
  }
}

/**
 * Applies a patch to a copy of `object` and returns it. Throws with the apiserver's text when an
 * operation does not apply, and `JsonPatchTestFailed` when a `test` fails.
 */
export function applyJsonPatch(object: unknown, operations: readonly unknown[]): unknown {
  const root = { doc: copyOf(object) };
  for (const operation of operations) applyOne(root, (operation ?? {}) as Operation);
  return root.doc;
}
