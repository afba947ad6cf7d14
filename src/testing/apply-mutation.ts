// Applies a mutation's result to an object: JSON patches with cdk8s's JSON Patch implementation
// (fast-json-patch), apply configurations with a merge that follows server-side apply where it can
// without schemas.
import { JsonPatch } from 'cdk8s';
import { deepCopy } from './deep-copy';

/**
 * Applies one mutation result. An apply configuration is merged: maps recursively, lists of
 * objects that all have a `name` by that key (Kubernetes' usual list-map key, e.g. containers,
 * env, volumes), other lists replaced. Server-side apply uses each field's schema instead, so
 * lists keyed otherwise (ports by containerPort) and atomic maps merge differently there.
 */
export function applyMutation(object: unknown, patchType: string, result: unknown): unknown {
  if (patchType === 'JSONPatch') {
    let doc = deepCopy(object);
    for (const patch of Array.isArray(result) ? result : []) {
      checkApplies(doc, patch);
      doc = JsonPatch.apply(doc, toOperation(patch));
    }
    return doc;
  }
  return merge(object, result);
}

/**
 * RFC 6902 is strict where fast-json-patch is lenient: the target of remove, replace and test,
 * the source of move and copy, and the parent of every added value must exist (a `replace` of a
 * missing key fails on the apiserver, it does not add it).
 */
function checkApplies(doc: unknown, patch: any): void {
  const { op, path, from } = patch ?? {};
  const missing = (p: string) => new Error(`${op} operation does not apply: doc is missing path: ${JSON.stringify(p)}`);
  if (['remove', 'replace', 'test'].includes(op) && !exists(doc, path)) throw missing(path);
  if (['move', 'copy'].includes(op) && !exists(doc, from)) throw missing(from);
  if (['add', 'move', 'copy'].includes(op) && !exists(doc, parentOf(path))) throw missing(path);
}

function tokens(pointer: string): string[] {
  if (typeof pointer !== 'string' || (pointer !== '' && !pointer.startsWith('/'))) throw new Error(`invalid JSON pointer ${JSON.stringify(pointer)}`);
  return pointer === '' ? [] : pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(pointer: string): string {
  return typeof pointer === 'string' ? pointer.slice(0, Math.max(0, pointer.lastIndexOf('/'))) : pointer;
}

function exists(doc: unknown, pointer: string): boolean {
  let current: any = doc;
  for (const token of tokens(pointer)) {
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(token) || Number(token) >= current.length) return false;
      current = current[Number(token)];
    } else if (current !== null && typeof current === 'object' && Object.prototype.hasOwnProperty.call(current, token)) {
      current = current[token];
    } else {
      return false;
    }
  }
  return true;
}

function toOperation(patch: any): JsonPatch {
  const { op, path, from, value } = patch ?? {};
  switch (op) {
    case 'add': return JsonPatch.add(path, value);
    case 'remove': return JsonPatch.remove(path);
    case 'replace': return JsonPatch.replace(path, value);
    case 'move': return JsonPatch.move(from, path);
    case 'copy': return JsonPatch.copy(from, path);
    case 'test': return JsonPatch.test(path, value);
    default: throw new Error(`JSONPatch op ${JSON.stringify(op)} is not one of add, remove, replace, move, copy, test`);
  }
}

function isObject(v: unknown): v is { [key: string]: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function merge(target: unknown, patch: unknown): unknown {
  if (isObject(target) && isObject(patch)) {
    const out: { [key: string]: unknown } = { ...target };
    for (const [k, v] of Object.entries(patch)) out[k] = k in target ? merge(target[k], v) : v;
    return out;
  }
  if (Array.isArray(target) && Array.isArray(patch) && [...target, ...patch].every((i) => isObject(i) && typeof i.name === 'string')) {
    const out = [...target] as Array<{ [key: string]: unknown }>;
    for (const item of patch as Array<{ [key: string]: unknown }>) {
      const at = out.findIndex((t) => t.name === item.name);
      if (at >= 0) out[at] = merge(out[at], item) as { [key: string]: unknown };
      else out.push(item);
    }
    return out;
  }
  return patch;
}
