import { FieldViolation, invalid } from './field-errors';
import { FieldPath } from './field-path';
import { ViolationSeverity } from './violation';
import { closestName } from '../shared/closest-name';
import { decodeGoInteger, goNullElement, GoValueKind, isJsonNull } from '../shared/go-json-decoding';
import { ADMISSION_TYPES } from '../wire/admissionregistration-schema';
import { META_TYPES } from '../wire/meta';
import type { FieldType, TypeSchema } from '../wire/schema-types';

const TYPES: { readonly [name: string]: TypeSchema } = { ...ADMISSION_TYPES, ...META_TYPES };

/** The result of checking a JSON value against a wire type. */
export interface ShapeResult {
  /** Unknown fields and wrong JSON types. */
  readonly violations: FieldViolation[];
  /**
   * The input with every offending value removed, so rules can rely on the wire types: the input
   * itself where nothing was removed, otherwise a copy of what had to change (the input is never modified).
   */
  readonly value: unknown;
}

/**
 * Checks `value` against the wire type `typeName` as the apiserver's strict decoding would:
 * unknown fields and wrong JSON types are errors; `null` means "not set" for a field, and the
 * zero value for a list entry or map value, as in Go's decoding.
 * Required fields are left to the rules of each kind, which report them with the apiserver's messages.
 */
export function checkShape(value: unknown, typeName: string, path: FieldPath): ShapeResult {
  const violations: FieldViolation[] = [];
  const sanitized = walk(value, { kind: 'object', ref: typeName }, path, violations);
  return { violations, value: sanitized };
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function walk(value: unknown, type: FieldType, path: FieldPath, out: FieldViolation[]): unknown {
  switch (type.kind) {
    case 'json':
      return value;
    case 'string':
      return expect(typeof value === 'string', value, 'string', path, out);
    case 'boolean':
      return expect(typeof value === 'boolean', value, 'boolean', path, out);
    case 'integer':
      return walkInteger(value, type.format, path, out);
    case 'stringMap':
      return walkStringMap(value, path, out);
    case 'array':
      return walkArray(value, type.items, path, out);
    case 'object':
      return walkObject(value, type.ref, path, out);
  }
}

/** The Go kind of a wire type, for what a null list entry or map value decodes to. */
function goKind(type: FieldType): GoValueKind {
  switch (type.kind) {
    case 'string': return 'string';
    case 'boolean': return 'bool';
    case 'integer': return 'integer';
    case 'object': return 'struct';
    case 'stringMap': return 'map';
    case 'array': return 'slice';
    case 'json': return 'raw';
  }
}

function expect(ok: boolean, value: unknown, expected: string, path: FieldPath, out: FieldViolation[]): unknown {
  if (ok) return value;
  out.push(invalid(path, value, `must be of type ${expected}, not ${jsonType(value)}`));
  return undefined;
}

function walkInteger(value: unknown, format: 'int32' | 'int64', path: FieldPath, out: FieldViolation[]): unknown {
  switch (decodeGoInteger(value, format === 'int32' ? 32 : 64)) {
    case 'integer':
      return value;
    case 'not a number':
      return expect(false, value, 'integer', path, out);
    case 'fraction':
      out.push(invalid(path, value, 'must be of type integer, not a fraction'));
      return undefined;
    case 'out of range':
      out.push(invalid(path, value, `must fit in a ${format === 'int32' ? 32 : 64}-bit integer`));
      return undefined;
  }
}

function walkStringMap(value: unknown, path: FieldPath, out: FieldViolation[]): unknown {
  if (!isPlainObject(value)) return expect(false, value, 'object', path, out);
  let result: { [key: string]: unknown } | undefined;
  for (const [key, item] of Object.entries(value)) {
    const checked = isJsonNull(item) ? goNullElement('string') : expect(typeof item === 'string', item, 'string', path.key(key), out);
    if (checked !== item) result ??= copyUntil(value, key);
    else if (result) result[key] = checked;
  }
  return result ?? value;
}

function walkArray(value: unknown, items: FieldType, path: FieldPath, out: FieldViolation[]): unknown {
  if (!Array.isArray(value)) return expect(false, value, 'array', path, out);
  let result: unknown[] | undefined;
  value.forEach((item, i) => {
    const element = isJsonNull(item) ? goNullElement(goKind(items)) : item;
    const checked = element === null ? element : walk(element, items, path.index(i), out);
    if (checked !== item) result ??= value.slice(0, i);
    // Keep positions stable so indices in later messages match the input.
    if (result) result.push(checked);
  });
  return result ?? value;
}

function walkObject(value: unknown, typeName: string, path: FieldPath, out: FieldViolation[]): unknown {
  if (!isPlainObject(value)) return expect(false, value, 'object', path, out);
  const schema = TYPES[typeName];
  let result: { [key: string]: unknown } | undefined;
  for (const [key, item] of Object.entries(value)) {
    const field = Object.prototype.hasOwnProperty.call(schema, key) ? schema[key] : undefined;
    let checked: unknown;
    if (!field) {
      out.push(unknownField(path.child(key), key, typeName, Object.keys(schema)));
    } else if (!isJsonNull(item)) {
      checked = walk(item, field.type, path.child(key), out);
    }
    if (checked !== item) result ??= copyUntil(value, key);
    if (result && checked !== undefined) result[key] = checked;
  }
  return result ?? value;
}

/**
 * A copy of the entries of `value` before `key`. The walk copies an object or a list only from its
 * first offending value on, so a valid manifest is checked without being copied.
 */
function copyUntil<T>(value: { [key: string]: T }, key: string): { [key: string]: T } {
  const copy: { [key: string]: T } = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === key) break;
    copy[k] = v;
  }
  return copy;
}

function isPlainObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownField(path: FieldPath, key: string, typeName: string, known: string[]): FieldViolation {
  const suggestion = closestName(key, known);
  const hint = suggestion ? `did you mean "${suggestion}"? ` : '';
  return {
    path,
    message: `unknown field "${path}": ${typeName} has no field "${key}" (strict field validation rejects it); ${hint}known fields: ${[...known].sort().join(', ')}`,
    severity: ViolationSeverity.ERROR,
  };
}
