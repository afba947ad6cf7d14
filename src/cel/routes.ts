import { CelEnvironment, CelNode, engine } from './engine';
import { dayOfYear, ZonedFields, zonedFields } from './libraries/time-zones';
import { celError } from './libraries/values';
import { CelLibrary } from './library';
import { re2 } from './re2';

/**
 * Engine built-ins whose behaviour differs from cel-go's and which the engine does not let us
 * override: `<string>.matches(re)` uses JavaScript's RegExp (no `(?i)`, lookaheads accepted),
 * `lowerAscii()` / `upperAscii()` also change non-ASCII letters, a timestamp's getters with a time
 * zone read JavaScript's zone names, offsets and errors (libraries/time-zones.ts), and
 * `substring`, `indexOf` and `lastIndexOf` with an offset fail where cel-go answers and with other
 * texts. Before type-checking, each such member call is routed (as the node's alternate) to an
 * overload with cel-go's semantics under an internal name; errors print the user's name again
 * (errors.ts), and writing an internal name in an expression is an undeclared reference
 * (literal-checks.ts).
 */
/** cel-go's timestamp getters with a time zone, by the fields of the timestamp in that zone. */
const ZONED_GETTERS: { readonly [getter: string]: (f: ZonedFields, instant: Date) => number } = {
  getFullYear: (f) => f.year,
  getMonth: (f) => f.month - 1,
  getDate: (f) => f.day,
  getDayOfMonth: (f) => f.day - 1,
  getDayOfWeek: (f) => f.weekday,
  getDayOfYear: dayOfYear,
  getHours: (f) => f.hours,
  getMinutes: (f) => f.minutes,
  getSeconds: (f) => f.seconds,
  getMilliseconds: (_, instant) => instant.getUTCMilliseconds(),
};

const ROUTED: ReadonlyArray<{ readonly user: string; readonly arity: number }> = [
  { user: 'matches', arity: 1 },
  { user: 'lowerAscii', arity: 0 },
  { user: 'upperAscii', arity: 0 },
  { user: 'substring', arity: 1 },
  { user: 'substring', arity: 2 },
  { user: 'indexOf', arity: 2 },
  { user: 'lastIndexOf', arity: 2 },
  ...Object.keys(ZONED_GETTERS).map((user) => ({ user, arity: 1 })),
];

const internalName = (user: string): string => (user === 'matches' ? '__re2_matches' : `__cel_${user}`);
const ROUTES: ReadonlyMap<string, string> = new Map(ROUTED.map((r) => [`${r.user}/${r.arity}`, internalName(r.user)]));
const PRESENCE_TEST = '__cel_has';

export const INTERNAL_NAMES: ReadonlyMap<string, string> = new Map([
  ...ROUTED.map((r): [string, string] => [internalName(r.user), r.user]),
  [PRESENCE_TEST, 'has'],
]);

export function routeToCelSemantics(node: CelNode): void {
  if (node.op === 'call') {
    routePresenceTest(node);
    return;
  }
  if (node.op !== 'rcall') return;
  const route = ROUTES.get(`${node.args[0] as string}/${(node.args[2] as CelNode[]).length}`);
  if (route) node.setMeta('alternate', node.clone(engine.OPERATORS.rcall, [route, node.args[1], node.args[2]]));
}

/**
 * `has(e.f)` of any operand: the engine's macro takes only a chain of field selections on a
 * variable (`has(a.b.c)`) and refuses `has(object.spec.containers[0].image)`, which cel-go
 * accepts (the argument must be a field selection; its operand may be anything). Such a test is
 * routed to an overload that tests the field on the operand's value.
 */
function routePresenceTest(node: CelNode): void {
  const [name, args] = node.args as [string, CelNode[]];
  if (name !== 'has' || args.length !== 1 || args[0].op !== '.') return;
  let operand = args[0].args[0] as CelNode;
  while (operand.op === '.') operand = operand.args[0] as CelNode;
  if (operand.op === 'id') return;
  const [target, field] = args[0].args as [CelNode, string];
  node.setMeta('alternate', node.clone(engine.OPERATORS.call, [PRESENCE_TEST, [target, node.clone(engine.OPERATORS.value, field)]]));
}

/** has() on a value: a map's key or an object's field is present (a field set to null is present). */
function hasField(target: unknown, field: string): boolean {
  if (target instanceof Map) return target.has(field);
  if (typeof target === 'object' && target !== null && !Array.isArray(target) && !(target instanceof Uint8Array)) {
    return Object.prototype.hasOwnProperty.call(target, field);
  }
  throw celError('invalid type for field selection.');
}

/** The user's name for an internal one in an engine message. */
export function userNames(message: string): string {
  return message.replace(/__(re2_matches|cel_[A-Za-z]+)/g, (m) => INTERNAL_NAMES.get(m) ?? m);
}

export const ROUTED_BUILTINS: CelLibrary = {
  name: 'routedBuiltins',
  install(env: CelEnvironment) {
    env.registerFunction('string.__re2_matches(string): bool', (s: string, pattern: string) => re2(pattern).matcher(s).find());
    env.registerFunction('string.__cel_lowerAscii(): string', (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase()));
    env.registerFunction('string.__cel_upperAscii(): string', (s: string) => s.replace(/[a-z]+/g, (m) => m.toUpperCase()));
    env.registerFunction('string.__cel_substring(int): string', substring);
    env.registerFunction('string.__cel_substring(int, int): string', substringRange);
    env.registerFunction('string.__cel_indexOf(string, int): int', indexOfOffset);
    env.registerFunction('string.__cel_lastIndexOf(string, int): int', lastIndexOfOffset);
    env.registerFunction(`${PRESENCE_TEST}(dyn, string): bool`, hasField);
    for (const [getter, read] of Object.entries(ZONED_GETTERS)) {
      env.registerFunction(`google.protobuf.Timestamp.${internalName(getter)}(string): int`,
        (instant: Date, zone: string) => BigInt(read(zonedFields(instant, zone), instant)));
    }
  },
};

// cel-go's strings extension (ext/strings.go substr, substrRange, indexOfOffset,
// lastIndexOfOffset), on code points, with its error texts.

function substring(s: string, start: bigint): string {
  const runes = [...s];
  if (start < 0n || start > BigInt(runes.length)) throw celError(`index out of range: ${start}`);
  return runes.slice(Number(start)).join('');
}

function substringRange(s: string, start: bigint, end: bigint): string {
  const runes = [...s];
  const length = BigInt(runes.length);
  if (start > end) throw celError(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || start > length) throw celError(`index out of range: ${start}`);
  if (end < 0n || end > length) throw celError(`index out of range: ${end}`);
  return runes.slice(Number(start), Number(end)).join('');
}

/**
 * What indexOf and lastIndexOf with an offset share: a negative offset fails, an empty search
 * matches at the offset (clamped to the end), an offset past the end finds nothing; otherwise the
 * string's and the search's code points to scan.
 */
function searchFrom(s: string, search: string, offset: bigint): bigint | { runes: string[]; sub: string[] } {
  if (offset < 0n) throw celError(`index out of range: ${offset}`);
  const runes = [...s];
  if (search === '') return offset > BigInt(runes.length) ? BigInt(runes.length) : offset;
  if (offset >= BigInt(runes.length)) return -1n;
  return { runes, sub: [...search] };
}

const matchesAt = (runes: string[], sub: string[], i: number): boolean => sub.every((r, j) => runes[i + j] === r);

function indexOfOffset(s: string, search: string, offset: bigint): bigint {
  const scan = searchFrom(s, search, offset);
  if (typeof scan === 'bigint') return scan;
  for (let i = Number(offset); i < scan.runes.length - (scan.sub.length - 1); i++) if (matchesAt(scan.runes, scan.sub, i)) return BigInt(i);
  return -1n;
}

function lastIndexOfOffset(s: string, search: string, offset: bigint): bigint {
  const scan = searchFrom(s, search, offset);
  if (typeof scan === 'bigint') return scan;
  for (let i = Math.min(Number(offset), scan.runes.length - scan.sub.length); i >= 0; i--) if (matchesAt(scan.runes, scan.sub, i)) return BigInt(i);
  return -1n;
}
