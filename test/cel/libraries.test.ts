import { compileProgram } from '../../src/cel/checker';
import { CelAuthorizer } from '../../src/cel/libraries/authz';
import { ExpressionField } from '../../src/shared/expression-field';

/** Evaluates an expression in the variables environment of the newest version (for the library implementations). */
function evaluate(expression: string, context: Record<string, unknown> = {}): unknown {
  const compiled = compileProgram(expression, { field: ExpressionField.VARIABLE, hasParams: true, variables: [], minor: 36 });
  if (!compiled.program) throw new Error(compiled.errors.join('\n'));
  return compiled.program(context);
}

function expectTrue(expression: string, context?: Record<string, unknown>): void {
  expect([expression, evaluate(expression, context)]).toEqual([expression, true]);
}

describe('Kubernetes CEL library implementations (for evaluation)', () => {
  test('standard conversions the engine lacks', () => {
    for (const e of ["int(timestamp('2009-02-13T23:31:30Z')) == 1234567890", "string(timestamp('2009-02-13T23:31:30.5Z')) == '2009-02-13T23:31:30.500Z'",
      "string(duration('1m30s')) == '90s'", 'int(42u) == 42']) expectTrue(e);
    expect(() => evaluate('int(18446744073709551615u)')).toThrow(/overflow/);
  });

  test('lists', () => {
    for (const e of ['[1, 2, 2].isSorted()', '![2, 1].isSorted()', '[1, 2, 3].sum() == 6', '[1.5, 0.5].sum() == 2.0', '[3, 1, 2].min() == 1',
      "['b', 'c', 'a'].max() == 'c'", '[1, 2, 1].indexOf(1) == 0', '[1, 2, 1].lastIndexOf(1) == 2', '[1].indexOf(5) == -1']) expectTrue(e);
    expect(() => evaluate('[].min()')).toThrow(/empty list/);
  });

  test('regex (RE2)', () => {
    for (const e of ["'abc123'.find('[0-9]+') == '123'", "'abc'.find('x') == ''", "'a1b22c333'.findAll('[0-9]+') == ['1', '22', '333']",
      "'a1b22c333'.findAll('[0-9]+', 2) == ['1', '22']", "matches('ABC', '(?i)^abc$')", "'ABC'.matches('(?i)^abc$')",
      "'é'.matches('^\\\\p{L}$')", "'ab'.matches('b')", "!'ab'.matches('^b')"]) expectTrue(e);
    expect(() => evaluate("'a'.matches(object.re)", { object: { re: '(a)\\1' } })).toThrow(/invalid escape sequence/);
    expect(() => evaluate("'a'.find(object.re)", { object: { re: '(?=a)' } })).toThrow(/invalid or unsupported Perl syntax/);
  });

  test('urls', () => {
    for (const e of ["url('https://user@example.com:8443/a%20b?x=1&x=2').getScheme() == 'https'",
      "url('https://example.com:8443/p').getHost() == 'example.com:8443'", "url('https://[::1]:80/').getHostname() == '::1'",
      "url('https://example.com:8443/p').getPort() == '8443'", "url('https://e.com/a%20b').getEscapedPath() == '/a%20b'",
      "url('https://e.com/?x=1&x=2').getQuery() == {'x': ['1', '2']}", "url('/path?a=b').getQuery()['a'] == ['b']",
      "isURL('https://e.com') && isURL('/p') && !isURL('not a url')"]) expectTrue(e);
  });

  test('strings', () => {
    for (const e of ["'ÀbC'.lowerAscii() == 'Àbc'", "'àbc'.upperAscii() == 'àBC'", "'héllo'.charAt(1) == 'é'", "'aaa'.replace('a', 'b') == 'bbb'", "'aaa'.replace('a', 'b', 1) == 'baa'",
      "'%s is %d years and %.2f%%'.format(['x', 3, 1.5]) == 'x is 3 years and 1.50%'", "'%x %X %o %b'.format([255, 255, 8, 5]) == 'ff FF 10 101'",
      "'%e'.format([1234.5]) == '1.234500e+03'", "'%s'.format([[1, 2]]) == '[1, 2]'", "strings.quote('a\"b\\n') == '\"a\\\\\"b\\\\n\"'"]) expectTrue(e);
  });

  test('quantity', () => {
    for (const e of ["quantity('200M') == quantity('0.2G')", "quantity('1Gi').isGreaterThan(quantity('1G'))", "quantity('500m').isLessThan(quantity('1'))",
      "quantity('1.5').isInteger() == false", "quantity('2k').asInteger() == 2000", "quantity('1Ki').asApproximateFloat() == 1024.0",
      "sign(quantity('-1')) == -1", "quantity('1').add(quantity('500m')) == quantity('1.5')", "sign(quantity('1').sub(1)) == 0",
      "quantity('1M').compareTo(quantity('1Mi')) == -1", "isQuantity('1e3') && !isQuantity('1.2.3')"]) expectTrue(e);
    expect(() => evaluate("quantity('1.5').asInteger()")).toThrow(/cannot convert/);
  });

  test('ip and cidr', () => {
    for (const e of ["ip('10.0.0.1').family() == 4", "ip('::1').isLoopback()", "ip('0.0.0.0').isUnspecified()", "ip('224.0.0.1').isLinkLocalMulticast()",
      "ip('169.254.1.1').isLinkLocalUnicast()", "ip('8.8.8.8').isGlobalUnicast()", "string(ip('2001:0db8:0:0:0:0:0:1')) == '2001:db8::1'",
      "ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1')", "!isIP('::ffff:1.2.3.4') && !isIP('010.0.0.1') && !isIP('fe80::1%eth0')",
      "cidr('10.0.0.0/8').containsIP('10.255.0.1')", "!cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))", "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')",
      "cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8')", "cidr('10.1.2.3/8').ip() == ip('10.1.2.3')", "cidr('::/0').prefixLength() == 0",
      "string(cidr('2001:db8::/32')) == '2001:db8::/32'", "!isCIDR('10.0.0.0/33')"]) expectTrue(e);
  });

  test('semver', () => {
    for (const e of ["semver('1.2.3').minor() == 2", "semver('v1.2', true) == semver('1.2.0')", "semver('1.0.0-alpha').isLessThan(semver('1.0.0'))",
      "semver('1.0.0-alpha.2').isLessThan(semver('1.0.0-alpha.10'))", "semver('1.10.0').compareTo(semver('1.9.9')) == 1",
      "!isSemver('1.2') && isSemver('1.2', true) && !isSemver('01.2.3')"]) expectTrue(e);
  });

  test('named formats', () => {
    for (const e of ["!format.dns1123Label().validate('my-name').hasValue()", "format.dns1123Label().validate('My_Name').value().size() > 0",
      "format.named('qualifiedName').value().validate('a/b').hasValue() == false", "!format.named('nope').hasValue()",
      "!format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()", "format.date().validate('2024-13-01').hasValue()"]) expectTrue(e);
  });

  test('optional types', () => {
    for (const e of ['[?optional.of(1), ?optional.none(), 2] == [1, 2]', "{?'a': optional.of(1), ?'b': optional.none()} == {'a': 1}",
      "!optional.ofNonZeroValue('').hasValue() && optional.ofNonZeroValue(1).value() == 1", '!optional.ofNonZeroValue([]).hasValue()',
      'optional.of(2).optMap(x, x * 2).value() == 4', '!optional.none().optMap(x, x).hasValue()',
      "optional.of({'a': 1}).optFlatMap(m, m.?a).value() == 1", 'optional.of(1) == optional.of(1) && optional.none() != optional.of(1)',
      'object.?spec.?replicas.orValue(3) == 3']) expectTrue(e, { object: {} });
    const patch = compileProgram('[JSONPatch{op: "add", path: "/a", ?value: optional.none()}]', { field: ExpressionField.JSON_PATCH, hasParams: false, variables: [], minor: 36 });
    const [first] = patch.program!({}) as Array<Map<string, unknown>>;
    expect([first.get('op'), first.get('path'), first.get('value')]).toEqual(['add', '/a', undefined]);
  });

  test('sets', () => {
    for (const e of ['sets.contains([1, 2, 3], [3, 1])', '!sets.contains([1], [2])', 'sets.equivalent([1, 1, 2], [2, 1])',
      'sets.intersects([1, 2], [2, 3])', '!sets.intersects([1], [])']) expectTrue(e);
  });

  test('two-variable comprehensions', () => {
    for (const e of ['[10, 20].all(i, v, v == (i + 1) * 10)', "{'a': 1, 'b': 2}.exists(k, v, k == 'b' && v == 2)", '[1, 2, 1].existsOne(i, v, v == 2)',
      '[1, 2, 3].transformList(i, v, v > 1, v * i) == [2, 6]', "{'a': 1}.transformMap(k, v, v * 10) == {'a': 10}",
      "['x', 'y'].transformMapEntry(i, v, {v: i}) == {'x': 0, 'y': 1}"]) expectTrue(e);
    expect(() => evaluate("['x', 'x'].transformMapEntry(i, v, {v: i})")).toThrow(/already exists/);
  });

  test('lists extension', () => {
    for (const e of ['[1, 2, 3, 4].slice(1, 3) == [2, 3]', '[[1], [2, 3]].flatten() == [1, 2, 3]', '[dyn([1]), dyn([[2]])].flatten(2) == [1, 2]',
      '[1, 2, 1].distinct() == [1, 2]', '[1, 2].reverse() == [2, 1]', "['b', 'a'].sort() == ['a', 'b']", "['bb', 'a'].sortBy(s, s.size()) == ['a', 'bb']",
      'lists.range(3) == [0, 1, 2]']) expectTrue(e);
    expect(() => evaluate('[1].slice(0, 2)')).toThrow(/list is length 1/);
  });

  test('authz, with an authorizer that decides', () => {
    const authorizer = new CelAuthorizer((a) => ({ decision: a.resource === 'pods' && a.verb === 'get' ? 'allow' : 'deny', reason: `checked ${a.resource}` }),
      'alice', { group: 'apps', resource: 'deployments' });
    const context = { authorizer };
    const compiled = compileProgram(
      "authorizer.group('').resource('pods').namespace('a').check('get').allowed() && !authorizer.requestResource.check('delete').allowed() && authorizer.requestResource.check('get').reason() == 'checked deployments'",
      { field: ExpressionField.VALIDATION, hasParams: false, variables: [], minor: 36 });
    expect(compiled.errors).toEqual([]);
    expect(compiled.program!(context)).toBe(true);
  });

  test('mutation literals evaluate to objects', () => {
    const compiled = compileProgram('[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("a/b~c"), value: "x"}]',
      { field: ExpressionField.JSON_PATCH, hasParams: false, variables: [], minor: 36 });
    const [patch] = compiled.program!({}) as Array<Map<string, unknown>>;
    expect(patch.get('path')).toBe('/metadata/labels/a~1b~0c');
    const apply = compileProgram('Object{metadata: Object.metadata{labels: {"a": "b"}}}',
      { field: ExpressionField.APPLY_CONFIGURATION, hasParams: false, variables: [], minor: 36 });
    expect(apply.program!({})).toEqual({ metadata: { labels: { a: 'b' } } });
  });
});
