import { BuiltinSchemas, OpenApiSchema } from './builtin-schemas';
import { CustomResourceKind } from './custom-resources';

/**
 * CEL object types for a resource's schema, to type-check `object`, `oldObject` and `params`.
 *
 * The types describe the values an admission expression sees at run time, which is the object as
 * unstructured JSON (k8s.io/apiserver's CEL filter converts it with the default unstructured
 * converter): a schema's properties become the fields of a message type, so that selecting a
 * field the schema does not have is a type error, while every value keeps its JSON type. Where
 * that differs from the apiserver's own type checker (common.SchemaDeclType, run by
 * kube-controller-manager's policy status controller), this follows the run time, since a warning
 * must mean the expression is wrong:
 *
 * | schema | here | apiserver's type checker |
 * |---|---|---|
 * | `format: date-time` (metav1.Time) | string | timestamp (at run time a string: `timestamp > timestamp('…')` fails) |
 * | `format: byte` | string (base64 text) | bytes |
 * | no `type` (resource.Quantity, apiextensions JSON) | dyn | not exposed: `resources.limits` is an undefined field |
 * | an object schema without properties (RawExtension, FieldsV1: any JSON) | dyn | an empty message |
 * | a definition that refers to itself | followed at every depth | cut below the first repetition |
 * | a custom resource's root and embedded resources | apiVersion, kind and the full ObjectMeta added | (the schema served by discovery; not compared) |
 * | a custom resource's `number` | dyn (integral values decode as ints) | double |
 *
 * Int-or-string and preserve-unknown-fields are dyn in both. Lists are `list<T>`, maps
 * `map<string, T>`. Message types are named after their definition (`io.k8s.api.apps.v1.DeploymentSpec`),
 * inline object schemas after the path to them (`<definition>.<field>`).
 */
export interface CelObjectTypes {
  /** The type of the resource itself: a message type, or `dyn`. */
  readonly root: string;
  /** Every message type the root reaches: its name and its fields' type names. */
  readonly types: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

const cache = new Map<string, CelObjectTypes>();
const CACHE_LIMIT = 2_000;

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** How one schema tree is converted: built-in definitions, or a custom resource's inline schema. */
interface Conversion {
  readonly schemas: BuiltinSchemas;
  readonly types: Map<string, Record<string, string>>;
  /**
   * A custom resource is JSON decoded as it was sent: an integral `number` is an int there, so
   * `number` is dyn; a built-in's float64 field is always a double.
   */
  readonly customResource: boolean;
}

/** The CEL types of a built-in definition (`io.k8s.api.apps.v1.Deployment`) of a target minor. */
export function builtinObjectTypes(schemas: BuiltinSchemas, definition: string): CelObjectTypes {
  return cached(`${schemas.minor}|${definition}`, () => {
    const conversion: Conversion = { schemas, types: new Map(), customResource: false };
    return { root: celType({ $ref: definition }, typeNameOf(definition), conversion), types: conversion.types };
  });
}

/**
 * The CEL types of a custom resource, from its CRD's schema: as the object is at run time, with
 * `apiVersion`, `kind` and the full ObjectMeta at its root (the apiserver serves them whatever the
 * schema says) and at every `x-kubernetes-embedded-resource`.
 */
export function customResourceObjectTypes(schemas: BuiltinSchemas, kind: CustomResourceKind): CelObjectTypes {
  return cached(`${schemas.minor}|${kind.key}`, () => {
    const conversion: Conversion = { schemas, types: new Map(), customResource: true };
    const rootName = typeNameOf(`${kind.group}.${kind.version}.${kind.kind}`);
    return { root: celType({ ...kind.schema, 'x-kubernetes-embedded-resource': true }, rootName, conversion), types: conversion.types };
  });
}

function cached(key: string, make: () => CelObjectTypes): CelObjectTypes {
  let found = cache.get(key);
  if (!found) {
    found = make();
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, found);
  }
  return found;
}

/**
 * A definition's name as a CEL type name: the engine's operator declarations do not parse a type
 * name with `-` (`io.k8s.apiextensions-apiserver...`), so it becomes `_`.
 */
function typeNameOf(definition: string): string {
  return definition.replace(/[^A-Za-z0-9_.]/g, '_');
}

/** The type name of a schema, registering the message types it needs. */
function celType(given: OpenApiSchema, name: string, conversion: Conversion): string {
  const typeName = given.$ref === undefined ? name : typeNameOf(given.$ref);
  const schema = given.$ref === undefined ? given : conversion.schemas.resolve(given);
  if (schema['x-kubernetes-preserve-unknown-fields'] || schema['x-kubernetes-int-or-string'] || schema.format === 'int-or-string') return 'dyn';
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
      return 'int';
    case 'number':
      return conversion.customResource ? 'dyn' : 'double';
    case 'boolean':
      return 'bool';
    case 'array':
      return schema.items ? `list<${celType(schema.items, `${typeName}.@idx`, conversion)}>` : 'list<dyn>';
    case 'object':
      return objectType(schema, typeName, conversion);
    default:
      return 'dyn';
  }
}

function objectType(schema: OpenApiSchema, typeName: string, conversion: Conversion): string {
  const additional = schema.additionalProperties;
  const embedded = conversion.customResource && schema['x-kubernetes-embedded-resource'] === true;
  if (schema.properties === undefined && !embedded) {
    if (additional === undefined || additional === false) return 'dyn';
    return additional === true ? 'map<string, dyn>' : `map<string, ${celType(additional, `${typeName}.@elem`, conversion)}>`;
  }
  // Properties with additionalProperties too: some keys are not fields, so nothing can be refused.
  if (additional !== undefined && additional !== false) return 'dyn';
  const { types } = conversion;
  if (!types.has(typeName)) {
    const fields: Record<string, string> = {};
    types.set(typeName, fields); // before the fields, for recursive schemas (JSONSchemaProps)
    for (const [field, property] of Object.entries(schema.properties ?? {})) {
      fields[field] = celType(property, `${typeName}.${field}`, conversion);
    }
    if (embedded) {
      fields.apiVersion = 'string';
      fields.kind = 'string';
      fields.metadata = celType({ $ref: OBJECT_META }, OBJECT_META, conversion);
    }
  }
  return typeName;
}
