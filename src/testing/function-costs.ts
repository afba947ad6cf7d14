// What cel-go's runtime cost tracker charges for a function call, by function name: cel-go's own
// size-based overloads (interpreter/runtimecost.go), the ext lists' trackers (ext/lists.go) and the
// Kubernetes library's CallCost (k8s.io/apiserver/pkg/cel/library/cost.go). A name not listed
// costs 1. `values` are the receiver (for a method) followed by the arguments.
import { NamedFormat } from '../cel/libraries/named-formats';

/**
 * The size cel-go's cost tracker sees: code points of strings (String.Size counts runes), length of
 * bytes and lists, entries of maps; 1 otherwise.
 */
export function celSize(value: unknown): number {
  if (typeof value === 'string') return codePoints(value);
  if (Array.isArray(value) || value instanceof Uint8Array) return value.length;
  if (value instanceof Map || value instanceof Set) return value.size;
  if (value && typeof value === 'object') {
    const optional = value as { hasValue?: () => boolean; value?: () => unknown };
    if (typeof optional.hasValue === 'function') return optional.hasValue() ? celSize(optional.value!()) : 1;
    if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null) return Object.keys(value).length;
  }
  return 1;
}

const SURROGATE = /[\uD800-\uDBFF]/;

/** A string's code points: its UTF-16 length less one per surrogate pair. */
function codePoints(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++, n++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
  }
  return n;
}

type CallCost = (values: readonly unknown[], result: unknown) => number;

const STRING_TRAVERSAL = 0.1;
const REGEX_LENGTH = 0.25;
const LIST_CREATE = 10;
const CALL = 1;

const tenth = (size: number): number => Math.ceil(size * STRING_TRAVERSAL);
const ofFirst = (factor: number): CallCost => (values) => Math.ceil(celSize(values[0]) * factor * STRING_TRAVERSAL);
const ofLast: CallCost = (values) => tenth(celSize(values[values.length - 1]));

/** A regex match: (1 + length of the string) by a quarter of the regex length. */
function regexCost(text: unknown, regexLength: number): number {
  return tenth(1 + celSize(text)) * Math.ceil(regexLength * REGEX_LENGTH);
}

/** The Kubernetes library's traversalCost: a tenth per character, every element and entry visited. */
function traversalCost(value: unknown): number {
  if (typeof value === 'string' || value instanceof Uint8Array) return Math.floor(value.length * STRING_TRAVERSAL);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + traversalCost(item), 0);
  if (value instanceof Map) return [...value].reduce((sum: number, [k, v]) => sum + traversalCost(k) + traversalCost(v), 0);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value).reduce((sum: number, [k, v]) => sum + traversalCost(k) + traversalCost(v), 0);
  }
  return 1;
}

/** The ext lists' trackAllocatingListCall: the size by a factor, plus the call and the list it allocates. */
const allocating = (factor: number, size: number): number => Math.floor(size * factor) + CALL + LIST_CREATE;

function selfCompare(list: unknown): number {
  const items = Array.isArray(list) ? list : [];
  const factor = items.length > 0 && (typeof items[0] === 'string' || items[0] instanceof Uint8Array) ? 2 + STRING_TRAVERSAL : 2;
  return allocating(factor, items.length * items.length);
}

/** The regex sizes of the named formats (library/format.go's MaxRegexSize). */
const FORMAT_REGEX_SIZE: { readonly [name: string]: number } = {
  dns1123Label: 30,
  dns1123Subdomain: 60,
  dns1035Label: 30,
  qualifiedName: 60,
  dns1123LabelPrefix: 30,
  dns1123SubdomainPrefix: 60,
  dns1035LabelPrefix: 30,
  labelValue: 40,
  uri: 1103,
  uuid: 70,
  byte: 84,
  date: 71,
  datetime: 71,
};

/** A label or field selector: parsed (a tenth per character) into requirements (a struct and a list each, per two characters). */
function selectorCost(selector: unknown): number {
  const length = celSize(selector);
  return LIST_CREATE + tenth(length) + Math.ceil(Math.ceil(length * 0.5) * (LIST_CREATE + 40));
}

const COSTS: { readonly [name: string]: CallCost } = {
  // cel-go
  startsWith: ofLast,
  endsWith: ofLast,
  format: ofFirst(1),
  quote: ofLast,
  string: (values) => (values[0] instanceof Uint8Array ? tenth(celSize(values[0])) : CALL),
  bytes: (values) => (typeof values[0] === 'string' ? tenth(celSize(values[0])) : CALL),
  matches: (values) => regexCost(values[0], celSize(values[1])),
  contains: (values) => (typeof values[0] === 'string' ? tenth(celSize(values[0])) * tenth(celSize(values[1])) : CALL),
  // ext lists
  slice: (_, result) => allocating(1, celSize(result)),
  range: (_, result) => allocating(1, celSize(result)),
  reverse: (values, result) => (Array.isArray(values[0]) ? allocating(1, celSize(result)) : CALL),
  flatten: (values) => allocating(values.length > 1 ? Number(values[1]) : 1, celSize(values[0])),
  distinct: (values) => selfCompare(values[0]),
  sort: (values) => selfCompare(values[0]),
  // Kubernetes
  check: () => 350_000,
  fieldSelector: (values) => selectorCost(values[1]),
  labelSelector: (values) => selectorCost(values[1]),
  isSorted: (values) => traversalCost(values[0]),
  sum: (values) => traversalCost(values[0]),
  max: (values) => traversalCost(values[0]),
  min: (values) => traversalCost(values[0]),
  indexOf: (values) => traversalCost(values[0]),
  lastIndexOf: (values) => traversalCost(values[0]),
  includes: (values) => traversalCost(values[0]),
  url: ofFirst(1),
  lowerAscii: ofFirst(1),
  upperAscii: ofFirst(1),
  substring: ofFirst(1),
  trim: ofFirst(1),
  escapeKey: ofLast,
  replace: ofFirst(2),
  split: ofFirst(2),
  join: (_, result) => Math.ceil(celSize(result) * 2 * STRING_TRAVERSAL),
  find: (values) => regexCost(values[0], celSize(values[1])),
  findAll: (values) => regexCost(values[0], celSize(values[1])),
  cidr: ofFirst(1),
  isIP: ofFirst(1),
  isCIDR: ofFirst(1),
  ip: (values) => (typeof values[0] === 'string' ? tenth(celSize(values[0])) : CALL),
  isCanonical: (values) => Math.ceil(celSize(values[values.length - 1]) * 2 * STRING_TRAVERSAL),
  // A CIDR value is not a sizer (size 1): twice a tenth of 1, plus a string argument's parse.
  containsIP: (values) => 1 + (typeof values[1] === 'string' ? tenth(celSize(values[1])) : 0),
  containsCIDR: (values) => 3 + (typeof values[1] === 'string' ? tenth(celSize(values[1])) : 0),
  quantity: ofFirst(1),
  isQuantity: ofFirst(1),
  semver: ofFirst(1),
  isSemver: ofFirst(1),
  validate: (values) => {
    const format = values[0];
    return format instanceof NamedFormat ? regexCost(values[1], FORMAT_REGEX_SIZE[format.name] ?? 0) : CALL;
  },
};

export const RegisteredFunctionCosts = {
  /** Whether the cost of `name` depends on its arguments or result. */
  bySize(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(COSTS, name) && name !== 'check';
  },
  cost(name: string, values: readonly unknown[], result: unknown): number {
    const cost = Object.prototype.hasOwnProperty.call(COSTS, name) ? COSTS[name] : undefined;
    return cost ? cost(values, result) : CALL;
  },
};
