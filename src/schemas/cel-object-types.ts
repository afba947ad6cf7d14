import { BuiltinSchemas, OpenApiSchema } from './builtin-schemas';

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
 * | a reserved word (`namespace`) | the field as named | escaped (`__namespace__`): `metadata.namespace` is undefined |
 *
 * Int-or-string, raw JSON (an object schema with neither properties nor additionalProperties:
 * RawExtension, FieldsV1) and preserve-unknown-fields are dyn, in both. Lists are `list<T>`, maps
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

/** The CEL types of a built-in definition (`io.k8s.api.apps.v1.Deployment`) of a target minor. */
export function builtinObjectTypes(schemas: BuiltinSchemas, definition: string): CelObjectTypes {
  const key = `${schemas.minor}|${definition}`;
  let found = cache.get(key);
  if (!found) {
    const types = new Map<string, Record<string, string>>();
    const root = celType({ $ref: definition }, typeNameOf(definition), schemas, types);
    found = { root, types };
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

/** The type name of a schema, registering the message types it needs in `types`. */
function celType(given: OpenApiSchema, name: string, schemas: BuiltinSchemas, types: Map<string, Record<string, string>>): string {
  const typeName = given.$ref === undefined ? name : typeNameOf(given.$ref);
  const schema = schemas.resolve(given);
  if (schema['x-kubernetes-preserve-unknown-fields'] || schema['x-kubernetes-int-or-string'] || schema.format === 'int-or-string') return 'dyn';
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'array':
      return schema.items ? `list<${celType(schema.items, `${typeName}.@idx`, schemas, types)}>` : 'list<dyn>';
    case 'object':
      return objectType(schema, typeName, schemas, types);
    default:
      return 'dyn';
  }
}

function objectType(schema: OpenApiSchema, typeName: string, schemas: BuiltinSchemas, types: Map<string, Record<string, string>>): string {
  const additional = schema.additionalProperties;
  if (schema.properties === undefined) {
    if (additional === undefined || additional === false) return 'dyn';
    return additional === true ? 'map<string, dyn>' : `map<string, ${celType(additional, `${typeName}.@elem`, schemas, types)}>`;
  }
  // Properties with additionalProperties too: some keys are not fields, so nothing can be refused.
  if (additional !== undefined && additional !== false) return 'dyn';
  if (!types.has(typeName)) {
    const fields: Record<string, string> = {};
    types.set(typeName, fields); // before the fields, for recursive schemas (JSONSchemaProps)
    for (const [field, property] of Object.entries(schema.properties)) {
      fields[field] = celType(property, `${typeName}.${field}`, schemas, types);
    }
  }
  return typeName;
}
