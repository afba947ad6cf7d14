/**
 * Generated CEL expressions for the CEL suite, from the apiserver's own declarations (the oracle's
 * `--cel-functions` dump): a call of every overload of every function with arguments of the
 * declared types, the same with one argument of a wrong type, calls nested in calls, macros and
 * literals from a grammar, and the same expressions cut short (syntax errors, with positions).
 */
import * as fc from 'fast-check';
import { CelOverload } from '../../oracle/cel-functions';

export interface GeneratedExpression {
  readonly expression: string;
  /** The type the apiserver declares for the result, when the expression is a call; else `dyn`. */
  readonly result: string;
  /** How it was made: `call`, `wrong-argument`, `nested`, `grammar`, `cut`. */
  readonly origin: string;
}

/** Values of each type an expression can start from (cel-go's type spellings). */
const VALUES: Record<string, readonly string[]> = {
  'int': ['1', '-7', '0', '42', 'size(object.metadata.name)'],
  'uint': ['1u', '0u', '7u'],
  'double': ['1.5', '-2.0', '0.0'],
  'string': ["'abc'", "'a,b,c'", "'1.2.3'", "'https://example.com/a?b=c'", "'10.0.0.1'", "'10.0.0.0/8'", "'100m'", "'2024-01-01T00:00:00Z'", "'%s and %d'", 'object.metadata.name', 'request.userInfo.username'],
  'bool': ['true', 'false', 'has(object.metadata.labels)'],
  'bytes': ["b'abc'", "b'\\x00\\xff'"],
  'null_type': ['null'],
  'dyn': ['object', 'object.spec', 'object.metadata.labels', 'params.data', 'oldObject', 'request.userInfo'],
  'google.protobuf.Duration': ["duration('1m')", "duration('-1.5h')"],
  'google.protobuf.Timestamp': ["timestamp('2024-01-01T00:00:00Z')"],
  'list(string)': ["['a', 'b']", 'request.userInfo.groups', '[]'],
  'list(int)': ['[1, 2, 3]', '[3, 1]'],
  'list(uint)': ['[1u, 2u]'],
  'list(double)': ['[1.5, 0.5]'],
  'list(bool)': ['[true, false]'],
  'list(bytes)': ["[b'a']"],
  'list(dyn)': ['object.spec.containers', "[1, 'a']"],
  'list(google.protobuf.Duration)': ["[duration('1s'), duration('2s')]"],
  'list(google.protobuf.Timestamp)': ["[timestamp('2024-01-01T00:00:00Z')]"],
  'list(list(int))': ['[[1], [2, 3]]'],
  'map(string, list(string))': ["{'a': ['b']}"],
  'map(string, int)': ["{'a': 1, 'b': 2}"],
  'map(string, string)': ["{'a': 'b'}", 'object.metadata.annotations'],
  'optional_type(int)': ['optional.of(1)', 'optional.none()'],
  'optional_type(string)': ["optional.of('a')", 'object.?metadata.?name'],
  'type(int)': ['int'],
  'kubernetes.authorization.Authorizer': ['authorizer'],
  'kubernetes.authorization.GroupCheck': ["authorizer.group('apps')"],
  'kubernetes.authorization.ResourceCheck': ["authorizer.group('apps').resource('deployments')", 'authorizer.serviceAccount(\'ns\', \'sa\').group(\'\').resource(\'pods\')'],
  'kubernetes.authorization.PathCheck': ["authorizer.path('/healthz')"],
  'kubernetes.authorization.Decision': ["authorizer.path('/healthz').check('get')"],
  'kubernetes.Quantity': ["quantity('100m')", "quantity('1Gi')"],
  'kubernetes.URL': ["url('https://example.com:8443/a/b?c=d')"],
  'kubernetes.Semver': ["semver('1.2.3')"],
  'kubernetes.NamedFormat': ['format.dns1123Label()', "format.named('uuid').value()"],
  'net.IP': ["ip('10.0.0.1')", "ip('::1')"],
  'net.CIDR': ["cidr('10.0.0.0/8')", "cidr('fd00::/64')"],
};

const CONCRETE = Object.keys(VALUES);

/** A declared type with its type parameters bound: `<T>` to a concrete type the generator can make. */
function bind(type: string, bindings: Map<string, string>, pick: (n: number) => number): string {
  return type.replace(/<([A-Z])>/g, (_, name: string) => {
    if (!bindings.has(name)) {
      const scalar = ['int', 'string', 'double', 'bool', 'uint'];
      bindings.set(name, scalar[pick(scalar.length)]);
    }
    return bindings.get(name)!;
  });
}

function valueOf(type: string, pick: (n: number) => number): string {
  const pool = VALUES[type];
  if (pool) return pool[pick(pool.length)];
  const list = /^list\((.*)\)$/.exec(type);
  if (list) return `[${valueOf(list[1], pick)}]`;
  const map = /^map\((\w+), (.*)\)$/.exec(type);
  if (map) return `{${valueOf(map[1], pick)}: ${valueOf(map[2], pick)}}`;
  const optional = /^optional_type\((.*)\)$/.exec(type);
  if (optional) return `optional.of(${valueOf(optional[1], pick)})`;
  const typeOf = /^type\((.*)\)$/.exec(type);
  if (typeOf) return `type(${valueOf(typeOf[1], pick)})`;
  return VALUES.dyn[pick(VALUES.dyn.length)];
}

/** Functions that are not written as calls, or are internal to cel-go. */
const SKIPPED = new Set(['@not_strictly_false', '__not_strictly_false__', '@sortByAssociatedKeys', 'cel.@mapInsert', '_in_', '_?._']);

export function render(o: CelOverload, args: readonly string[]): string | undefined {
  const f = o.function;
  if (SKIPPED.has(f)) return undefined;
  if (f === '!_') return `!${args[0]}`;
  if (f === '-_') return `-${args[0]}`;
  if (f === '_[_]') return `${args[0]}[${args[1]}]`;
  if (f === '_[?_]') return `${args[0]}[?${args[1]}]`;
  if (f === '_?_:_') return `(${args[0]} ? ${args[1]} : ${args[2]})`;
  if (f === '@in') return `(${args[0]} in ${args[1]})`;
  const binary = /^_(\W+)_$/.exec(f);
  if (binary) return `(${args[0]} ${binary[1]} ${args[1]})`;
  if (o.member) return `${args[0]}.${f}(${args.slice(1).join(', ')})`;
  return `${f}(${args.join(', ')})`;
}

/** Hand-written shapes the declarations do not give: macros, literals, selection, optionals, oddities. */
export const GRAMMAR: readonly string[] = [
  '[1, 2].all(x, x > 0)', "object.metadata.labels.exists(k, k == 'a')", '[1, 2].map(x, x * 2)', '[1, 2].map(x, x > 1, x)',
  '[1, 2].filter(x, x > 1)', '[1].exists_one(x, x == 1)', 'cel.bind(x, 1, x + 1)', '[1, 2].all(i, v, v > i)',
  '[1, 2].exists(i, v, v == i)', "{'a': 1}.all(k, v, v > 0)", '[1, 2].transformList(i, v, v * 2)', "{'a': 1}.transformMap(k, v, v + 1)",
  "{'a': 1}.transformMapEntry(k, v, {k: v})", '[1, 2].sortBy(x, -x)', 'has(object.metadata)', 'has(object.spec.replicas)',
  'has(object)', 'has(1)', 'object.?spec.?replicas.orValue(1)', 'object.?metadata.name', 'object.spec.replicas > 3',
  "object.metadata.name.startsWith('a') && object.metadata.name.endsWith('z')", "'\\u00e9' == 'é'", "r'\\d+' != ''", "b'\\377'",
  '0x1F == 31', '1e400', '9223372036854775807', '9223372036854775808', '-9223372036854775808', '18446744073709551615u',
  '18446744073709551616u', "'a' + 1", '1 + 1u', '1 == 1u', '1 < 1.5', '1u < 2', "1 == 'a'", '[1, 2] + [3]', "{'a': 1}['a']",
  "{'a': 1}.a", '{1: 2, 1: 3}', "[1, 'a'][0]", 'null == null', 'dyn(1) + 1', 'int(1.9)', 'uint(-1)', 'double("nan")',
  "string(b'abc')", "bytes('abc')", "duration('1s') + duration('1s')", "timestamp('2024-01-01T00:00:00Z') - duration('1h')",
  "timestamp('2024-01-01T00:00:00Z').getFullYear('UTC')", "'abc'.size()", 'size([1, 2])', 'type(1) == int', 'type(object) == map',
  "object.kind == 'Pod' ? 1 : 'a'", 'true ? 1 : 2', '!true', '--1', '!!false', "'abc'[0]", 'request.operation', 'request.kind.group',
  'request.resource.resource', 'request.namespace', 'request.dryRun', 'request.options', 'request.uid', 'request.name',
  'request.userInfo.extra', 'request.requestKind', 'request.requestResource', 'request.subResource', 'request.foo',
  'namespaceObject.metadata.name', 'namespaceObject.spec', 'namespaceObject.status.phase', 'params.spec', 'oldObject.metadata',
  'authorizer.requestResource.check("get").allowed()', 'authorizer.requestResource.namespace("a").check("get").reason()',
  'variables', 'variables.v', 'undefinedName', 'object.__proto__', 'Object{}', 'Object.spec{}', 'JSONPatch{op: "add"}',
  '[JSONPatch{op: "add", path: "/a", value: 1}]', 'jsonpatch.escapeKey("a/b")', 'x.y.z', 'a.b(c)', '(1', '[1, 2', "'unterminated",
  '1 +', '&& true', 'in', 'true || false && true', "'%d'.format([1])", "'%s'.format(['a', 'b'])", 'lists.range(3)',
  "['a', 'b'].join(',')", "'a,b'.split(',')", "'abc'.substring(1, 2)", "'abc'.charAt(5)", "'  a '.trim()", "'abc'.reverse()",
  "strings.quote('a')", "'abc'.indexOf('b', 1)", "'abc'.lastIndexOf('c')", "'ABC'.lowerAscii()", "'abc'.upperAscii()",
  "'a-b'.replace('-', '_', 1)", "'abc'.matches('^a')", "'abc'.matches('[')", "'abc'.find('b')", "'abc'.findAll('[a-c]', 2)",
  "quantity('1') == quantity('1000m')", "quantity('1Ki').isGreaterThan(quantity('1k'))", "quantity('x')", "isQuantity('1e3')",
  "url('not a url')", "isURL('https://a')", "ip('1.2.3.4').family()", "ip('::ffff:1.2.3.4')", "cidr('1.2.3.4/32').ip()",
  "cidr('10.0.0.0/8').containsIP('10.1.2.3')", "cidr('10.0.0.0/8').containsCIDR(cidr('10.1.0.0/16'))", "ip.isCanonical('::1')",
  "semver('1.2.3').isGreaterThan(semver('1.2.0'))", "semver('v1.2.3', true)", "isSemver('1.2')", "format.dns1123Label().validate('a_b')",
  "format.named('nope')", 'sets.contains([1], [1])', 'sets.equivalent([1], [1u])', '[3, 1, 2].sort()', '[1, 2].slice(0, 1)',
  '[[1], [2]].flatten()', '[1, 1].distinct()', '[1, 2].reverse()', '[1, 2].first()', '[].last()', '[1, 2].isSorted()', '[1, 2].sum()',
  '[1, 2].min()', "[duration('1s')].max()", '[1u].sum()', '[1.5].isSorted()', 'optional.of(1).value()', 'optional.none().hasValue()',
  'optional.ofNonZeroValue(0)', '[optional.of(1), optional.none()].unwrapOpt()', 'optional.of(1).or(optional.of(2))', 'optional.of(1).orValue(2)',
  'optional.of(1).optMap(x, x + 1)', 'optional.of(1).optFlatMap(x, optional.of(x))', '1.orValue(2)', "{?'a': optional.of(1)}", '[?optional.none()]',
  "authorizer.group('apps').resource('deployments').subresource('scale').name('x').check('update').errored()",
  "authorizer.group('').resource('pods').fieldSelector('a=b').labelSelector('c=d').check('list').allowed()",
  "authorizer.serviceAccount('default', 'sa').path('/x').check('get').error()", 'math.abs(-1)', 'math.greatest(1, 2)', "base64.encode(b'a')",
  "'abc'.isEmpty()", "quantity('1').sign()", "sign(quantity('1'))", '[1].last()', '[1].first()', "int(duration('1s'))", '1 / 0', '1 % 0', "'a' < 'b'", "b'a' < b'b'", 'timestamp(0)', "duration('1s').getMilliseconds()",
  // null is assignable to messages, opaque values, optionals, durations and timestamps (cel-go's legacy rule), not to the others.
  'namespaceObject == null', 'null != request.userInfo', "duration('1m') == null", 'null == timestamp(0)', 'optional.none() != null',
  "quantity('1') == null", "authorizer.group('apps') != null", "'a' == null", '[1] != null', "{'a': 1} == null", 'int == null',
  // Runs of one unary operator collapse in pairs; mixed runs are syntax errors; a ternary's middle is an `||` expression.
  '!!1 == 1', "--'a' == 'a'", '!!!1', '--9223372036854775808 > 0', '---9223372036854775808 < 0', '---1 < 0', '-- -1 < 0',
  '!-1', '!!-1', '!-1.0', '!-x', '!-(1)', '!--1', '-!true', '--!true', '-!-1', '- - !true', '!(!1) == 1', '!!(1) == 1',
  '--1u == 1u', 'true ? true ? true : false : false', 'true ? (true ? true : false) : false', 'true ? 1', "1 && 'a' || 2 && 3",
  'int.name', 'type(1).name', 'list.x',
];

const repeat = (s: string, n: number) => Array(n).fill(s).join('');

/** The parser's limits, on both sides of each: nesting (250), size (100,000 code points), and none on entries. */
export const LIMITS: readonly string[] = [
  `${Array(250).fill('1').join(' + ')} > 0`, `${Array(251).fill('1').join(' + ')} > 0`,
  `${repeat('int(', 249)}1${repeat(')', 249)} > 0`, `${repeat('int(', 250)}1${repeat(')', 250)} > 0`,
  `${repeat('[', 249)}1${repeat(']', 249)} != []`, `${repeat('[', 250)}1${repeat(']', 250)} != []`,
  `object${repeat('.a', 249)} == 1`, `object${repeat('.a', 250)} == 1`,
  `${repeat('(', 200)}true${repeat(')', 200)}`, `${repeat('(', 300)}true${repeat(')', 300)}`,
  Array(1000).fill('true').join(' && '), Array(1000).fill('false').join(' || '),
  Array(30000).fill('true').join('&&'), Array(20000).fill('false').join(' || '), `${repeat('!', 99_990)}true`, `${repeat('-', 99_990)}1 > 0`,
  `${Array(249).fill('false ? false : ').join('')}true`, `${Array(250).fill('false ? false : ').join('')}true`,
  `size([${Array(20000).fill('1').join(',')}]) > 0`, `size({${Array.from({ length: 1500 }, (_, i) => `${i}: 1`).join(', ')}}) > 0`,
  `'${'x'.repeat(99_990)}' != ''`, `'${'x'.repeat(100_001)}' != ''`,
];

/** Expressions built from the declarations: at least `count` of them, reproducible from `seed`. */
export function generateExpressions(overloads: readonly CelOverload[], count: number, seed: number): GeneratedExpression[] {
  const usable = overloads.filter((o) => !SKIPPED.has(o.function));
  const byResult = new Map<string, CelOverload[]>();
  for (const o of usable) {
    const key = /[<]/.test(o.result) ? 'generic' : o.result;
    byResult.set(key, [...(byResult.get(key) ?? []), o]);
  }
  const out: GeneratedExpression[] = [];
  const seen = new Set<string>();
  const add = (e: GeneratedExpression | undefined) => {
    if (!e || seen.has(e.expression)) return;
    seen.add(e.expression);
    out.push(e);
  };
  // Every overload once with the declared argument types, and once with a wrong one; the grammar once.
  const first = makePicker(seed);
  for (const o of usable) add(call(o, first, byResult, 'call', 1));
  for (const o of usable) if (o.args.length > 0) add(call(o, first, byResult, 'wrong-argument', 0));
  for (const g of GRAMMAR) add({ expression: g, result: 'dyn', origin: 'grammar' });
  for (const l of LIMITS) add({ expression: l, result: 'bool', origin: 'limit' });
  // Then random ones: nested calls, wrong arguments, and cut-short copies of both.
  let round = 0;
  while (out.length < count && round < 100_000) {
    round++;
    const pick = makePicker(seed * 7919 + round);
    const o = usable[pick(usable.length)];
    const kind = pick(10);
    const made = kind < 5 ? call(o, pick, byResult, 'nested', 2) : kind < 8 ? call(o, pick, byResult, 'wrong-argument', 1) : undefined;
    if (made) {add(made);} else {
      const source = out[pick(out.length)].expression;
      if (source.length > 2) add({ expression: source.slice(0, 1 + pick(source.length - 1)), result: 'dyn', origin: 'cut' });
    }
  }
  return out;
}

type Picker = (n: number) => number;

function call(o: CelOverload, pick: Picker, byResult: Map<string, CelOverload[]>, origin: string, depth: number): GeneratedExpression | undefined {
  const bindings = new Map<string, string>();
  const types = o.args.map((t) => bind(t, bindings, pick));
  const wrong = origin === 'wrong-argument' ? pick(types.length) : -1;
  const args = types.map((t, i) => {
    if (i === wrong) {
      const others = CONCRETE.filter((c) => c !== t && c !== 'dyn');
      return valueOf(others[pick(others.length)], pick);
    }
    const nested = depth > 0 && byResult.get(t);
    if (!nested || pick(3) !== 0) return valueOf(t, pick);
    return call(nested[pick(nested.length)], pick, byResult, 'call', depth - 1)?.expression ?? valueOf(t, pick);
  });
  const expression = render(o, args);
  return expression === undefined ? undefined : { expression, result: bind(o.result, bindings, pick), origin };
}

/** A deterministic source of choices, from fast-check's generator so that runs reproduce from a seed. */
function makePicker(seed: number): (n: number) => number {
  const values = fc.sample(fc.array(fc.nat(), { minLength: 256, maxLength: 256 }), { seed, numRuns: 1 })[0];
  let i = 0;
  return (n: number) => (n <= 0 ? 0 : values[i++ % values.length] % n);
}
