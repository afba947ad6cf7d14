import { deepCopy, isObject } from './go-values';
import { OpenApiSchema } from '../../schemas/builtin-schemas';

/**
 * A custom resource defaulted by its CRD's structural schema, as the apiserver does on decoding
 * and after each mutation (k8s.io/apiextensions-apiserver pkg/apiserver/schema/defaulting,
 * algorithm.go Default): a property that is absent, or null where the schema is not nullable, gets
 * a copy of its `default`, top-down; list items and map values that are null where their schema is
 * not nullable get their schema's default. Returns a defaulted copy.
 */
export function structuralDefaults(object: unknown, schema: OpenApiSchema): unknown {
  const copy = deepCopy(object);
  applyDefaults(copy, schema);
  return copy;
}

function applyDefaults(value: unknown, schema: OpenApiSchema | undefined): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    const items = schema.items;
    value.forEach((item, i) => {
      if (isNonNullableNull(item, items) && items?.default !== undefined) value[i] = deepCopy(items.default);
      applyDefaults(value[i], items);
    });
    return;
  }
  if (!isObject(value)) return;
  const properties = schema.properties ?? {};
  for (const [key, property] of Object.entries(properties)) {
    if (property.default === undefined) continue;
    if (!(key in value) || isNonNullableNull(value[key], property)) value[key] = deepCopy(property.default);
  }
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const key of Object.keys(value)) {
    const property = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
    if (property) {
      applyDefaults(value[key], property);
    } else if (additional) {
      if (isNonNullableNull(value[key], additional) && additional.default !== undefined) value[key] = deepCopy(additional.default);
      applyDefaults(value[key], additional);
    }
  }
}

function isNonNullableNull(value: unknown, schema: OpenApiSchema | undefined): boolean {
  return value === null && schema !== undefined && schema.nullable !== true;
}
