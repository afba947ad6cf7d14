// How a struct of the public API is checked for keys it does not declare (see src/struct-keys.ts).
import { closestName } from './shape';

/** A struct as the key check sees it: its properties, and which of them hold structs or lists of them. */
export interface StructShape {
  readonly name: string;
  readonly keys: readonly string[];
  readonly nested: { readonly [key: string]: StructShape | readonly [StructShape] };
}

export function struct(name: string, keys: readonly string[], nested: StructShape['nested'] = {}): StructShape {
  return { name, keys: [...keys, ...Object.keys(nested)], nested };
}

export function extend(name: string, base: StructShape, keys: readonly string[], nested: StructShape['nested'] = {}): StructShape {
  return struct(name, [...base.keys.filter((k) => !(k in base.nested)), ...keys], { ...base.nested, ...nested });
}

function isPlainObject(value: unknown): value is { [key: string]: unknown } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Throws when `value`, or a struct in it, has a key its struct does not declare: `where: unknown
 * property validations[0].mesage: a Validation has no "mesage"; did you mean "message"? ...`.
 * Values that are not plain objects (a class instance, a token) are not looked into.
 */
export function checkStructKeys(where: string, value: unknown, shape: StructShape, path = ''): void {
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    const at = path ? `${path}.${key}` : key;
    if (!shape.keys.includes(key)) {
      const suggestion = closestName(key, shape.keys);
      const hint = suggestion ? `did you mean "${suggestion}"? ` : '';
      throw new Error(`${where}: unknown property ${at}: ${shape.name} has no "${key}"; ${hint}its properties are ${[...shape.keys].sort().join(', ')}`);
    }
    const nested = shape.nested[key];
    const item = value[key];
    if (nested === undefined || item === undefined) continue;
    if (Array.isArray(nested)) {
      if (Array.isArray(item)) item.forEach((element, i) => checkStructKeys(where, element, nested[0], `${at}[${i}]`));
    } else {
      checkStructKeys(where, item, nested as StructShape, at);
    }
  }
}
