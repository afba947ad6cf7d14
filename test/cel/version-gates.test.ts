import { expectAccepted, check } from './helpers';
import { engine } from '../../src/cel/engine';
import { FEATURES, FeatureName, firstTarget, isAvailable, newExpressionsMinor } from '../../src/cel/version-gates';

/** Expressions that use each library or option; each must compile from the feature's first target on. */
const USES: Partial<Record<FeatureName, readonly string[]>> = {
  routedBuiltins: ["'a'.matches('a') && 'A'.lowerAscii() == 'a' && 'a'.upperAscii() == 'A'"],
  standardAdditions: ["int(timestamp('2009-02-13T23:31:30Z')) == 1234567890", "string(timestamp('2009-02-13T23:31:30Z')) == '2009-02-13T23:31:30Z'",
    "string(duration('90s')) == '90s'", 'int(42u) == 42', "duration(duration('1s')) == duration('1s')"],
  kubernetesLists: ['[1, 2].isSorted()', '[1, 2].sum() == 3', '[1.5].min() == 1.5', "['a'].max() == 'a'", '[1, 2].indexOf(2) == 1', '[1, 1].lastIndexOf(1) == 1'],
  regex: ["matches('abc', '^a')", "'abc'.find('b+') == 'b'", "'a1b2'.findAll('[0-9]').size() == 2", "'a1b2'.findAll('[0-9]', 1) == ['1']"],
  urls: ["url('https://e.com:1/p').getScheme() + url('https://e.com:1/p').getHostname() + url('https://e.com:1/p').getPort() + url('https://e.com/p').getEscapedPath() != ''", "url('https://example.com:8443/p?q=1').getHost() == 'example.com:8443'", "isURL('/path')", "url('/p').getQuery().size() == 0"],
  stringsV0: ["'ab'.charAt(1) == 'b'", "'aaa'.replace('a', 'b', 2) == 'bba'", "'a,b'.split(',').size() == 2", "'  a '.trim() == 'a'", "['a', 'b'].join('-') == 'a-b'"],
  authz: ["authorizer.path('/').check('get').error() == ''", "authorizer.path('/healthz').check('get').allowed()", "authorizer.group('apps').resource('deployments').namespace('a').name('b').check('delete').reason() == ''",
    "authorizer.serviceAccount('ns', 'sa').group('').resource('pods').subresource('exec').check('create').errored()"],
  quantity: ["quantity('1').isInteger() && quantity('1').asApproximateFloat() == 1.0 && sign(quantity('1')) == 1", "quantity('1').sub(quantity('1')).isLessThan(quantity('1')) && quantity('1').compareTo(quantity('2')) == -1", "quantity('1Gi').isGreaterThan(quantity('1G'))", "isQuantity('500m')", "quantity('1').add(1).asInteger() == 2"],
  optionalTypes: ['[1].first().hasValue() && [1].last().hasValue() && size([optional.of(1)].unwrapOpt()) == size(optional.unwrap([optional.none()])) + 1', 'optional.of(1).optFlatMap(v, optional.of(v)).hasValue()', 'object.?spec.?replicas.orValue(1) == 1', 'optional.of(1).hasValue()', "object.spec[?'x'].hasValue()",
    '[?object.?x].size() == 0', "{?'a': object.?x}.size() == 0", 'optional.ofNonZeroValue(1).optMap(v, v + 1).hasValue()'],
  crossTypeNumericComparisons: ['1 < 2.0', '2u >= 1'],
  sets: ['sets.contains([1, 2], [1])', "sets.equivalent(['a'], ['a'])", 'sets.intersects([1], [2])'],
  stringsV2: ["'%s has %d'.format(['a', 1]) == 'a has 1'", "strings.quote('a\"b') == 'x'"],
  ip: ["ip('::').isUnspecified() || ip('::1').isLoopback() || ip('ff02::1').isLinkLocalMulticast() || ip('8.8.8.8').isGlobalUnicast()", "ip('10.0.0.1').family() == 4", "isIP('::1')", "ip.isCanonical('2001:db8::1')", "ip('fe80::1').isLinkLocalUnicast()", "string(ip('10.0.0.1')) == '10.0.0.1'"],
  cidr: ["cidr('10.0.0.0/8').containsCIDR(cidr('10.0.0.0/16')) && cidr('10.0.0.0/8').ip() == ip('10.0.0.0') && string(cidr('10.0.0.0/8')) != ''", "cidr('10.0.0.0/8').containsIP('10.1.2.3')", "isCIDR('10.0.0.0/8')", "cidr('10.0.0.0/8').prefixLength() == 8", "cidr('10.1.0.0/8').masked() == cidr('10.0.0.0/8')"],
  namedFormats: ["[format.dns1123Subdomain(), format.dns1035Label(), format.qualifiedName(), format.dns1123LabelPrefix(), format.dns1123SubdomainPrefix(), format.dns1035LabelPrefix(), format.labelValue(), format.uri(), format.uuid(), format.byte(), format.date(), format.datetime()].all(f, !f.validate('a').hasValue() || true)", "!format.dns1123Label().validate('a-b').hasValue()", "format.named('uuid').hasValue()"],
  authzSelectors: ["authorizer.group('').resource('pods').fieldSelector('spec.nodeName=a').labelSelector('a=b').check('list').allowed()"],
  twoVarComprehensions: ['[1, 2].all(i, v, v > i)', "{'a': 1}.exists(k, v, k == 'a' && v == 1)", '[1].existsOne(i, v, v == 1)',
    '[1, 2].transformList(i, v, v * 2) == [2, 4]', "{'a': 1}.transformMap(k, v, v + 1) == {'a': 2}", "[1].transformMapEntry(i, v, {string(v): i}) == {'1': 0}"],
  semver: ["semver('1.2.3').minor() + semver('1.2.3').patch() == 5 && semver('2.0.0').isGreaterThan(semver('1.0.0')) && semver('1.0.0').compareTo(semver('1.0.0')) == 0", "semver('1.2.3').major() == 1", "isSemver('v1.2', true)", "semver('1.2.3').isLessThan(semver('1.10.0'))"],
  extListsV3: ['[3, 1].sort() == [1, 3]', 'lists.range(2) == [0, 1]', '[1, 2, 3].slice(0, 2) == [1, 2]', '[[1], [2]].flatten() == [1, 2]',
    '[1, 1].distinct() == [1]', '[1, 2].reverse() == [2, 1]', '[2, 1].sortBy(x, x) == [1, 2]'],
};

function target(minor: number): string {
  return `1.${minor}`;
}

describe('version gates (new expressions compile against the previous minor)', () => {
  test('a library introduced in 1.X is usable by new expressions from target 1.(X+1)', () => {
    expect(newExpressionsMinor(31)).toBe(30);
    expect(isAvailable('ip', 30)).toBe(false);
    expect(isAvailable('ip', 31)).toBe(true);
    expect(firstTarget('semver')).toBe(34);
  });

  test('every function of every library is used under test', () => {
    const missingByFeature: Record<string, string[]> = {};
    for (const [name, feature] of Object.entries(FEATURES)) {
      if (!('library' in feature)) continue;
      const uses = (USES[name as FeatureName] ?? []).join(' ');
      const env = new engine.Environment({ enableOptionalTypes: true });
      for (const dependency of [FEATURES.ip.library, FEATURES.authz.library]) if (feature.library !== dependency) dependency.install(env);
      const before = new Set((env as any).getDefinitions().functions.map((f: { signature: string }) => f.signature));
      feature.library.install(env);
      const added: string[] = (env as any).getDefinitions().functions
        .filter((f: { signature: string; name: string }) => !before.has(f.signature) && f.name !== 'type' && !f.name.startsWith('__'))
        .map((f: { name: string }) => f.name);
      const missing = [...new Set(added)].filter((fn) => !uses.includes(`${fn}(`));
      if (missing.length > 0) missingByFeature[name] = missing;
    }
    expect(missingByFeature).toEqual({});
  });

  describe.each(Object.entries(USES) as Array<[FeatureName, readonly string[]]>)('%s', (feature, uses) => {
    const first = Math.max(firstTarget(feature), 28);
    test.each(uses)(`%s compiles from ${target(first)}`, (expression) => {
      expectAccepted(expression, { version: target(first) });
      expectAccepted(expression, { version: '1.36' });
    });
    if (first > 28) {
      test.each(uses)(`%s is rejected on ${target(first - 1)}`, (expression) => {
        expect(check(expression, { version: target(first - 1) })).toHaveLength(1);
      });
    }
  });

  test('below its version, a function is an undeclared reference, as in cel-go', () => {
    expect(check("quantity('1').isInteger()", { version: '1.28' })[0]).toContain("ERROR: <input>:1:9: undeclared reference to 'quantity' (in container '')");
    expect(check("ip('::1').family() == 6", { version: '1.30' })[0]).toContain("undeclared reference to 'ip' (in container '')");
    expect(check('[1].sort() == [1]', { version: '1.34' })[0]).toContain("ERROR: <input>:1:9: undeclared reference to 'sort' (in container '')");
    expect(check('sets.contains([1], [1])', { version: '1.29' })[0]).toContain("undeclared reference to 'sets' (in container '')");
    expect(check("'%d'.format([1]) == '1'", { version: '1.29' })[0]).toContain("undeclared reference to 'format' (in container '')");
    expect(check('1 < 2.0', { version: '1.28' })[0]).toContain("ERROR: <input>:1:3: found no matching overload for '_<_' applied to '(int, double)'");
    expect(check('object.?spec == null', { version: '1.28' })[0]).toContain('Syntax error');
  });

  test('literal validators run from 1.30 targets (introduced in 1.29); before, the constant is folded when the program is made', () => {
    expect(check("duration('1x') > duration('1s')", { version: '1.29' })).toEqual([
      "program instantiation failed: type conversion error from 'string' to 'google.protobuf.Duration'",
    ]);
    expect(check("duration('1x') > duration('1s')", { version: '1.30' })[0]).toContain('ERROR: <input>:1:10: invalid duration argument');
  });
});
