/**
 * Values by a schema's type, for generated objects: every position of an object with the schema it
 * is decoded with, a value a schema decodes, and, for the types whose decoding is their own
 * (quantities, times, micro-times, JSON schemas or booleans), values it takes and values it refuses.
 */
import { BuiltinSchemas, OpenApiSchema } from '../../../src/schemas/builtin-schemas';

export interface Position {
  readonly path: Array<string | number>;
  readonly value: unknown;
  readonly schema: OpenApiSchema;
  /** The definition the schema names, before it is resolved (Quantity, Time, … say more than their schemas). */
  readonly ref?: string;
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const EXTENSIONS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
/** Values for the types whose decoding is their own: what it takes, and what it refuses. */
export const SPECIAL: { readonly [ref: string]: { readonly decodes: readonly unknown[]; readonly refused: readonly unknown[] } } = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    decodes: ['1', '0.5', '100m', '1Gi', '1e3', '+1k', '.5', '1.', 'E', ' 2 ', 2, 0.25, 1e21],
    refused: ['1ki', 'seven', '1e', '1.2.3', '', '1Gix', '5 Mi', '--1', '1M5', '1Gi\n', '\t1'],
  },
  [`${META}.Time`]: {
    decodes: ['2026-01-02T15:04:05Z', '2026-01-02T15:04:05+02:00', '2026-01-02T15:04:05.5Z', '2024-02-29T00:00:00Z'],
    refused: ['yesterday', '', '2026-01-02', '2026-13-02T15:04:05Z', '2026-02-30T00:00:00Z', '2026-01-02t15:04:05z', '2026-01-02T24:00:00Z', '2026-01-02 15:04:05Z', 7],
  },
  [`${META}.MicroTime`]: {
    decodes: ['2026-01-02T15:04:05.000000Z', '2026-01-02T15:04:05.123456+01:00'],
    refused: ['2026-01-02T15:04:05Z', '2026-01-02T15:04:05.5Z', '2026-01-02T15:04:05.1234567Z', 'now'],
  },
  [`${EXTENSIONS}.JSONSchemaPropsOrBool`]: { decodes: [true, false, { type: 'string' }], refused: ['yes', 5, [{ type: 'string' }]] },
  // OrArray ignores what is neither an object nor an array.
  [`${EXTENSIONS}.JSONSchemaPropsOrArray`]: { decodes: [{ type: 'string' }, [{ type: 'string' }], true, 'x', 5], refused: [[5], ['x']] },
};

/** Every value of `object` with the schema it is decoded with (objects without a schema are not entered). */
export function positions(value: unknown, schema: OpenApiSchema, schemas: BuiltinSchemas, path: Array<string | number> = []): Position[] {
  const resolved = schemas.resolve(schema);
  const out: Position[] = [{ path, value, schema: resolved, ref: schema.$ref }];
  if (typeof resolved.additionalProperties === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, item] of Object.entries(value)) out.push(...positions(item, resolved.additionalProperties, schemas, [...path, key]));
  }
  if (resolved['x-kubernetes-preserve-unknown-fields']) return out;
  if (Array.isArray(value) && resolved.items) {
    value.forEach((item, i) => out.push(...positions(item, resolved.items!, schemas, [...path, i])));
  } else if (value && typeof value === 'object' && resolved.properties) {
    for (const [key, item] of Object.entries(value)) {
      const field = resolved.properties[key];
      if (field) out.push(...positions(item, field, schemas, [...path, key]));
    }
  }
  return out;
}

/** A value the schema decodes: what a field of it could be set to. */
export function sampleValue(given: OpenApiSchema, schemas: BuiltinSchemas): unknown {
  const schema = schemas.resolve(given);
  if (schema['x-kubernetes-int-or-string'] || schema.format === 'int-or-string') return '50%';
  if (schema.oneOf) return sampleValue(schema.oneOf[schema.oneOf.length - 1], schemas);
  switch (schema.type) {
    case 'string': return schema.format === 'date-time' ? '2026-01-01T00:00:00Z' : schema.format === 'byte' ? 'eA==' : 'x';
    case 'integer': return 1;
    case 'number': return 0.5;
    case 'boolean': return true;
    case 'array': return [];
    default: return {};
  }
}
