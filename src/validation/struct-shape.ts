// How a struct of the public API is checked for keys it does not declare (see src/struct-keys.ts).
import { isPlain, jsonDataProblem } from './json-data';
import { closestName } from '../shared/closest-name';

/** Deeper than any struct of the API, and shallow enough for the recursive code that renders props. */
const MAX_PROPS_DEPTH = 1_000;

/** Props hold JSON data, besides class instances (Mutation, Duration, KubernetesVersion) and cdk8s tokens. */
function checkJsonData(where: string, value: unknown): void {
  const problem = jsonDataProblem(value, { maxDepth: MAX_PROPS_DEPTH, skipNonPlain: true });
  if (problem) throw new Error(`${where}: ${problem.path || 'the value'}: ${problem.message}`);
}

/**
 * What a property holds, as far as the check reads it: `s` a string (enums included), `s[]` a list
 * of strings, `n` a number, `b` a boolean, `m` a map of strings (labels), `x` anything (a class
 * instance, an object of the user's, a version given as a string or a KubernetesVersion).
 */
export type ValueKind = 's' | 's[]' | 'n' | 'b' | 'm' | 'x';

/** A struct as the check sees it: its properties, what each holds, which hold structs or lists of them, and which are required. */
export interface StructShape {
  readonly name: string;
  readonly keys: readonly string[];
  /** The properties TypeScript requires, which JavaScript (and jsii's other languages, through a dict or map) can leave out. */
  readonly required: readonly string[];
  readonly kinds: { readonly [key: string]: ValueKind };
  readonly nested: { readonly [key: string]: StructShape | readonly [StructShape] };
}

/**
 * A shape from `key:kind` entries (`name:s`, `values:s[]`; no kind is `x`) and the struct-valued
 * keys; a key ending in `!` (`expression!:s`, `'resourceRules!': [RESOURCE_RULE]`) is required.
 */
export function struct(name: string, entries: readonly string[], nested: StructShape['nested'] = {}): StructShape {
  const kinds: { [key: string]: ValueKind } = {};
  const required: string[] = [];
  const keyOf = (marked: string) => {
    const key = marked.endsWith('!') ? marked.slice(0, -1) : marked;
    if (key !== marked) required.push(key);
    return key;
  };
  for (const entry of entries) {
    const [key, kind] = entry.split(':');
    kinds[keyOf(key)] = (kind ?? 'x') as ValueKind;
  }
  const nestedByKey = Object.fromEntries(Object.entries(nested).map(([key, shape]) => [keyOf(key), shape]));
  return { name, keys: [...Object.keys(kinds), ...Object.keys(nestedByKey)], required, kinds, nested: nestedByKey };
}

export function extend(name: string, base: StructShape, entries: readonly string[], nested: StructShape['nested'] = {}): StructShape {
  const mark = (key: string) => (base.required.includes(key) ? `${key}!` : key);
  const inherited = Object.entries(base.kinds).map(([key, kind]) => `${mark(key)}:${kind}`);
  const inheritedNested = Object.fromEntries(Object.entries(base.nested).map(([key, shape]) => [mark(key), shape]));
  return struct(name, [...inherited, ...entries], { ...inheritedNested, ...nested });
}

function isPlainObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && isPlain(value);
}

/** How `checkStructKeys` reads a value. */
export interface StructCheckOptions {
  /** Where the value sits in a larger one (`[1]` for the second of several rules), for messages. */
  readonly path?: string;
  /** Whether to refuse what is not JSON data (cycles, bigints, functions, deep nesting). Default true. */
  readonly jsonData?: boolean;
}

/**
 * Throws when `value`, or a struct in it, has a key its struct does not declare: `where: unknown
 * property validations[0].mesage: Validation has no "mesage"; did you mean "message"? ...`, lacks
 * a required one (`where: missing required property validationActions: ...`), or holds what is
 * not JSON data. Values that are not plain objects (a class instance, a token) are not looked
 * into; `undefined` is refused only for a shape with required keys.
 */
export function checkStructKeys(where: string, value: unknown, shape: StructShape, options: StructCheckOptions = {}): void {
  if (options.jsonData !== false) checkJsonData(options.path ? `${where} ${options.path}` : where, value);
  if ((value === undefined || value === null) && shape.required.length > 0) {
    const what = options.path ? `${options.path}: ` : '';
    throw new Error(`${where}: ${what}a ${shape.name} is required, with ${shape.required.join(', ')}; got ${shown(value)}`);
  }
  checkKeys(where, value, shape, options.path ?? '');
}

function checkKeys(where: string, value: unknown, shape: StructShape, path: string): void {
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    const at = path ? `${path}.${key}` : key;
    if (!shape.keys.includes(key)) {
      const suggestion = closestName(key, shape.keys);
      const hint = suggestion ? `did you mean "${suggestion}"? ` : '';
      throw new Error(`${where}: unknown property ${at}: ${shape.name} has no "${key}"; ${hint}its properties are ${[...shape.keys].sort().join(', ')}`);
    }
    const item = value[key];
    if (item === undefined) continue;
    const nested = shape.nested[key];
    if (nested === undefined) {
      const wrong = wrongKind(item, shape.kinds[key]);
      if (wrong) throw new Error(`${where}: ${at} must be ${wrong}, got ${shown(item)}`);
    } else if (Array.isArray(nested)) {
      if (!Array.isArray(item)) throw new Error(`${where}: ${at} must be a list of ${nested[0].name}, got ${shown(item)}`);
      item.forEach((element, i) => checkStruct(where, element, nested[0], `${at}[${i}]`));
    } else {
      checkStruct(where, item, nested as StructShape, at);
    }
  }
  // After the unknown keys: a misspelled required key is reported as the misspelling it is.
  for (const key of shape.required) {
    if (value[key] !== undefined && value[key] !== null) continue;
    const at = path ? `${path}.${key}` : key;
    const holds = shape.nested[key] ?? shape.kinds[key];
    throw new Error(`${where}: missing required property ${at}: ${shape.name} needs "${key}"${describeKind(holds)}, ${value[key] === null ? 'got null' : 'none was given'}`);
  }
}

function checkStruct(where: string, value: unknown, shape: StructShape, at: string): void {
  if (!isPlainObject(value)) throw new Error(`${where}: ${at} must be a ${shape.name} (an object with ${shape.keys.join(', ')}), got ${shown(value)}`);
  checkKeys(where, value, shape, at);
}

const isStringList = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** What `value` should have been, when it is not of `kind`. */
function wrongKind(value: unknown, kind: ValueKind): string | undefined {
  switch (kind) {
    case 's': return typeof value === 'string' ? undefined : 'a string';
    case 's[]': return isStringList(value) ? undefined : 'a list of strings';
    case 'n': return typeof value === 'number' ? undefined : 'a number';
    case 'b': return typeof value === 'boolean' ? undefined : 'true or false';
    case 'm': return isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string') ? undefined : 'a map of strings';
    default: return undefined;
  }
}

/** What a property holds, for the message about a missing one. */
function describeKind(holds: ValueKind | StructShape | readonly [StructShape]): string {
  if (Array.isArray(holds)) return ` (a list of ${holds[0].name})`;
  if (typeof holds === 'object') return ` (a ${(holds as StructShape).name})`;
  const words: { [kind in ValueKind]?: string } = { 's': 'a string', 's[]': 'a list of strings', 'n': 'a number', 'b': 'true or false', 'm': 'a map of strings' };
  return words[holds as ValueKind] ? ` (${words[holds as ValueKind]})` : '';
}

function shown(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return isPlainObject(value) ? 'an object' : `a ${value.constructor?.name ?? 'non-plain object'}`;
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)})`;
  return `a ${typeof value} (${String(value)})`;
}
