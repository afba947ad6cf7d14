import { check, expectAccepted, expectRejected, headline } from './helpers';
import { isGoDuration, isRfc3339 } from '../../src/cel/literal-checks';

describe('checks after type-checking', () => {
  describe('regex literals follow RE2', () => {
    test.each(["'a'.matches('(?=a)')", "'aa'.matches('(a)\\\\1')", "'a'.matches('a**')", "'a'.matches('[a')", "matches('[a', 'a')"])('%s is rejected', (expression) => {
      expect(headline(expression)).toMatch(/ERROR: <input>:1:\d+: invalid matches argument$/);
    });

    test.each(["'A'.matches('(?i)a')", "'é'.matches('^\\\\p{L}+$')", "'a'.matches('(?P<n>a)')", "'x'.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')"])('%s is accepted', (expression) => {
      expectAccepted(expression);
    });

    test('the error is at the literal', () => {
      expect(headline("'abc'.matches('(?=a)')")).toBe('compilation failed: ERROR: <input>:1:15: invalid matches argument');
    });

    test('patterns that are not literals are checked when evaluated', () => {
      expectAccepted('object.a.matches(object.b)');
    });
  });

  test('duration and timestamp literals', () => {
    expectAccepted("duration('1h30m') > duration('90s') && duration('-1.5ms') < duration('0')");
    expectAccepted("timestamp('2024-01-01T00:00:00Z') < timestamp('2024-02-29T12:00:00.5+01:00')");
    expectRejected("duration('1 hour') > duration('1s')", 'ERROR: <input>:1:10: invalid duration argument');
    expectRejected("timestamp('2023-02-29T00:00:00Z') == timestamp(0)", 'ERROR: <input>:1:11: invalid timestamp argument');
    expect(isGoDuration('1h2m3s4ms5us6ns')).toBe(true);
    expect(isGoDuration('1d')).toBe(false);
    expect(isRfc3339('2024-01-01T24:00:00Z')).toBe(false);
    expect(isRfc3339('2024-01-01t10:00:00-07:00')).toBe(true);
  });

  describe('homogeneous aggregate literals', () => {
    test('mixed lists and maps are rejected at the first odd element', () => {
      expect(headline("[1, 'a'].size() > 0")).toBe("compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'");
      expectRejected("{'a': 1, 'b': 'x'}.size() > 0", "expected type 'int' but found 'string'");
      expectRejected("{'a': 1, 2: 1}.size() > 0", "expected type 'string' but found 'int'");
      expectRejected('[1, dyn(2)].size() > 0', "expected type 'int' but found 'dyn'");
    });

    test('dyn() makes them uniform, and format() arguments are exempt', () => {
      expectAccepted("[dyn(1), dyn('a')].size() == 2");
      expectAccepted("'%s: %d'.format(['a', 1]) == 'a: 1'");
      expectAccepted("'%s'.format([[1, 'a']]) != ''");
      expectAccepted('[[1], []].size() == 2');
      expectAccepted('[?optional.of(1), 2].size() == 2');
      expectRejected("[?optional.of('a'), 2].size() == 2", "expected type 'string' but found 'int'");
    });
  });

  test('what the engine has but Kubernetes does not', () => {
    expect(headline('cel.bind(x, 1, x == 1)')).toBe("compilation failed: ERROR: <input>:1:1: undeclared reference to 'cel' (in container '')");
    expectRejected("b'a'.hex() == '61'", "found no matching overload for 'hex' applied to 'bytes.()'");
    expectRejected('[sets].size() == 1', "undeclared reference to 'sets'");
    expectAccepted("b'a'.size() == 1");
    expectRejected("'a'.__re2_matches('a')", "undeclared reference to '__re2_matches'");
  });
});

// cel-go plans programs with OptOptimize: a type conversion of a constant runs when the program is
// made, and its error rejects the expression on create (seen with the real apiserver, conformance/).
describe('constant folding of type conversions', () => {
  test.each([
    ["bool('x')", 'program instantiation failed'],
    ["int('1.2.3') == 1", 'program instantiation failed'],
    ["double('100m') > 1.0", 'program instantiation failed'],
    ["int(string(duration('-1.5h'))) == 1", 'program instantiation failed'],
    ["[uint('x')].size() == 1", 'program instantiation failed'],
  ])('rejects %s', (expression, detail) => {
    expect(check(expression)).toEqual([expect.stringContaining(detail)]);
  });

  test.each([
    "int('7') == 7", "bool('true')", "duration('0') == duration('0s')", 'int(object.x) == 1', "quantity('x') == quantity('1')",
    "dyn('x') == 'x'", "[int('1')].size() == 1",
  ])('accepts %s (a valid constant, or a value known only at run time)', (expression) => {
    expectAccepted(expression);
  });
});

test('a field of a primitive value is a type error, at the dot, as cel-go reports it', () => {
  expectRejected("duration('1s').seconds == 1", "ERROR: <input>:1:15: type 'duration' does not support field selection");
  expectRejected('7u.x == 1', "ERROR: <input>:1:3: type 'uint' does not support field selection");
  expectAccepted("object.a.b == 1 && {'a': 1}.a == 1");
});

test('int literals fit in 64 bits, counting the sign as cel-go does', () => {
  expectAccepted('-9223372036854775808 < 9223372036854775807');
  expectRejected('9223372036854775808 > 1', 'ERROR: <input>:1:1: invalid int literal');
  expectRejected('-(9223372036854775808) < 1', 'invalid int literal');
});

test('errors at the positions cel-go reports: an undeclared member function at its "(", a non-bool operand of && at the operand', () => {
  expectRejected("'abc'.isEmpty()", "ERROR: <input>:1:14: undeclared reference to 'isEmpty'");
  expectRejected("(url('https://e') && true)", "ERROR: <input>:1:5: expected type 'bool' but found 'kubernetes.URL'");
});

// cel-go's parser limits, as the apiserver applies them (measured with the real apiserver, conformance/).
describe('parser limits', () => {
  const rep = (s: string, n: number) => Array(n).fill(s).join('');

  test('nesting: 250 levels pass, 251 do not; chains of && and || count as balanced trees', () => {
    expectAccepted(`${Array(250).fill('1').join(' + ')} > 0`);
    expectRejected(`${Array(251).fill('1').join(' + ')} > 0`, 'ERROR: <input>:-1:0: max recursion depth exceeded');
    expectAccepted(`${rep('int(', 249)}1${rep(')', 249)} > 0`);
    expectRejected(`${rep('int(', 250)}1${rep(')', 250)} > 0`, 'ERROR: <input>:-1:0: expression recursion limit exceeded: 250');
    expectAccepted(Array(1000).fill('true').join(' && '));
  });

  test('size: 100,000 code points; no limit on list or map entries or call arguments', () => {
    expectRejected(`'${'x'.repeat(100_001)}' != ''`, 'ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100009, limit 100000');
    expectAccepted(`size([${Array(20000).fill('1').join(',')}]) > 0`);
    expectAccepted(`size({${Array.from({ length: 1500 }, (_, i) => `${i}: 1`).join(', ')}}) > 0`);
  });
});

test('errors of the conditional operator and of indexing are at "?" and "[", where cel-go reports them', () => {
  expectRejected("object.kind == 'Pod' ? 1 : 'a'", 'ERROR: <input>:1:22:');
  expectRejected('(int ? 1 : 2) == 1', 'ERROR: <input>:1:6:');
  expectRejected("['a', 'b'][1u] == 'a'", 'ERROR: <input>:1:11:');
});

describe('null comparisons, with cel-go\'s legacy nullable types', () => {
  test.each([
    'namespaceObject == null', 'null != namespaceObject.metadata', 'request.userInfo != null', "duration('1m') == null",
    "null == timestamp('2024-01-01T00:00:00Z')", 'optional.of(1) != null', "quantity('1') == null", "url('https://a') != null",
    "ip('1.2.3.4') == null", "authorizer.group('apps') != null", "authorizer.path('/x').check('get') == null",
  ])('%s compiles, as on the apiserver', (expression) => {
    expectAccepted(expression);
  });

  test.each(["'a' == null", '1 != null', '[1] == null', 'int == null', 'null != true'])('%s does not: primitives and lists are not nullable', (expression) => {
    expect(check(expression).join('\n')).toContain('found no matching overload');
  });
});
