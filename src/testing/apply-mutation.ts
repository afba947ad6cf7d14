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
    const ops = (Array.isArray(result) ? result : []).map(toOperation);
    return JsonPatch.apply(deepCopy(object), ...ops);
  }
  return merge(object, result);
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
