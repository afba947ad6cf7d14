// Applies a mutation's result to an object: JSON patches as the apiserver applies them
// (json-patch.ts), apply configurations with structured merge over the object's schema
// (structured-merge.ts), or, for kinds without a known schema, a merge that follows it where it can.
import { applyJsonPatch, JsonPatchTestFailed } from './json-patch';
import { structuredMerge } from './structured-merge';
import { setDataKey } from '../cel/data-keys';
import { OBJECT_TYPE_NAME, objectLiteralTypeName } from '../cel/struct-literals';
import { BuiltinSchemas, OpenApiSchema } from '../schemas/builtin-schemas';

/** The schema of the object being mutated: a built-in kind's definition, or a custom resource's root. */
export interface ObjectSchema {
  readonly root: OpenApiSchema;
  readonly schemas: BuiltinSchemas;
}

/**
 * Applies one mutation result; throws with the apiserver's message when it does not apply. An apply
 * configuration is merged by the object's schema when there is one; otherwise maps recursively,
 * lists of objects that all have a `name` by that key (Kubernetes' usual list-map key, e.g.
 * containers, env, volumes), other lists replaced.
 */
export function applyMutation(object: unknown, patchType: string, result: unknown, schema?: ObjectSchema): unknown {
  if (patchType === 'JSONPatch') {
    try {
      return applyJsonPatch(object, Array.isArray(result) ? result : []);
    } catch (e) {
      // A failed test operation leaves the object as it was, without an error.
      if (e instanceof JsonPatchTestFailed) return object;
      throw new Error(`JSON Patch: ${(e as Error).message}`);
    }
  }
  const mismatches = typeNameMismatches(result, [OBJECT_TYPE_NAME]);
  if (mismatches.length > 0) throw new Error(`type mismatch: ${mismatches.join('\n')}`);
  return schema ? structuredMerge(object, result, schema.root, schema.schemas) : merge(object, result);
}

/**
 * The apiserver's check that every `Object.a.b{...}` literal of an apply configuration is named by
 * its field path from `Object` (dynamic/objects.go typeCheck, run before the merge: smd.go
 * "type mismatch: %w"); maps and lists in between add no name.
 */
function typeNameMismatches(value: unknown, path: readonly string[]): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => typeNameMismatches(item, path));
  const name = objectLiteralTypeName(value);
  if (name === undefined) return [];
  const expected = path.join('.');
  const own = name === expected ? [] : [`unexpected type name ${JSON.stringify(name)}, expected ${JSON.stringify(expected)}, which matches field name path from root Object type`];
  return [...own, ...Object.entries(value as object).flatMap(([k, v]) => typeNameMismatches(v, [...path, k]))];
}

function isObject(v: unknown): v is { [key: string]: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function merge(target: unknown, patch: unknown): unknown {
  if (isObject(target) && isObject(patch)) {
    const out: { [key: string]: unknown } = { ...target };
    for (const [k, v] of Object.entries(patch)) setDataKey(out, k, Object.prototype.hasOwnProperty.call(target, k) ? merge(target[k], v) : v);
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
