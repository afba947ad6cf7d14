import * as fc from 'fast-check';
import {
  escapedPath, goUrlErrorText, GoUrl, hostname, isGoUrlError, parseGoRequestUri, parseGoUrl, port, queryValues, urlString,
  userinfoString, wellFormedText,
} from '../../src/shared/net-url';

const EMPTY: GoUrl = {
  scheme: '', opaque: '', host: '', path: '', rawPath: '', omitHost: false, forceQuery: false, rawQuery: '', fragment: '', rawFragment: '',
};

describe('parseGoUrl accepts what Go accepts', () => {
  test.each<[string, Partial<GoUrl>]>([
    ['https://example.com/path', { scheme: 'https', host: 'example.com', path: '/path' }],
    ['https://example.com:8443/x', { scheme: 'https', host: 'example.com:8443', path: '/x' }],
    ['https:///path', { scheme: 'https', host: '', path: '/path' }],
    ['https:/path', { scheme: 'https', path: '/path', omitHost: true }],
    ['https://', { scheme: 'https' }],
    ['https://user:pw@h/', { scheme: 'https', user: { username: 'user', password: 'pw' }, host: 'h', path: '/' }],
    ['https://user@h/', { scheme: 'https', user: { username: 'user' }, host: 'h', path: '/' }],
    ['https://@h/', { scheme: 'https', user: { username: '' }, host: 'h', path: '/' }],
    ['https://a@b:c%40@h/', { scheme: 'https', user: { username: 'a@b', password: 'c@' }, host: 'h', path: '/' }],
    ['https://h/p?q=1', { scheme: 'https', host: 'h', path: '/p', rawQuery: 'q=1' }],
    ['https://h/p?', { scheme: 'https', host: 'h', path: '/p', forceQuery: true }],
    ['https://h/p??', { scheme: 'https', host: 'h', path: '/p', rawQuery: '?' }],
    ['https://h/p?a=%zz', { scheme: 'https', host: 'h', path: '/p', rawQuery: 'a=%zz' }],
    ['https://h/p#frag', { scheme: 'https', host: 'h', path: '/p', fragment: 'frag' }],
    ['https://h/p#', { scheme: 'https', host: 'h', path: '/p' }],
    ['https://h/p#a%20b#c', { scheme: 'https', host: 'h', path: '/p', fragment: 'a b#c', rawFragment: 'a%20b#c' }],
    ['https://h/p?q#f', { scheme: 'https', host: 'h', path: '/p', rawQuery: 'q', fragment: 'f' }],
    // Go only looks for control characters before the '#'.
    ['https://h/#\n', { scheme: 'https', host: 'h', path: '/', fragment: '\n', rawFragment: '\n' }],
    ['HTTPS://h', { scheme: 'https', host: 'h' }],
    ['http://h', { scheme: 'http', host: 'h' }],
    ['a.b+c-d://h', { scheme: 'a.b+c-d', host: 'h' }],
    ['h/path', { path: 'h/path' }],
    ['/abs/path', { path: '/abs/path' }],
    ['//h/p', { host: 'h', path: '/p' }],
    ['///p', { path: '///p' }],
    ['https://[::1]:443/', { scheme: 'https', host: '[::1]:443', path: '/' }],
    ['https://[::1]/', { scheme: 'https', host: '[::1]', path: '/' }],
    ['https://[::]/', { scheme: 'https', host: '[::]', path: '/' }],
    ['https://[1::]/', { scheme: 'https', host: '[1::]', path: '/' }],
    ['https://[2001:db8::8a2e:370:7334]:17000', { scheme: 'https', host: '[2001:db8::8a2e:370:7334]:17000' }],
    ['https://[::ffff:1.2.3.4]/', { scheme: 'https', host: '[::ffff:1.2.3.4]', path: '/' }],
    ['https://[fe80::1%25en0]:8443/', { scheme: 'https', host: '[fe80::1%en0]:8443', path: '/' }],
    // A zone may escape what could appear unescaped in a host, and spaces.
    ['https://[fe80::1%25%41%20b]/', { scheme: 'https', host: '[fe80::1%A b]', path: '/' }],
    ['https://10.0.0.1:443/', { scheme: 'https', host: '10.0.0.1:443', path: '/' }],
    ['https://h:/', { scheme: 'https', host: 'h:', path: '/' }],
    // Without brackets, Go 1.26 (urlstrictcolons) takes the last colon as the port's for schemes other than http and https.
    ['foo://h:1:2/', { scheme: 'foo', host: 'h:1:2', path: '/' }],
    ['https://h<>"!$&\'()*+,;=~_-.x/', { scheme: 'https', host: 'h<>"!$&\'()*+,;=~_-.x', path: '/' }],
    ['https://caf%C3%A9.example/', { scheme: 'https', host: 'café.example', path: '/' }],
    ['https://café.example/', { scheme: 'https', host: 'café.example', path: '/' }],
    ['https://h/a%2Fb', { scheme: 'https', host: 'h', path: '/a/b', rawPath: '/a%2Fb' }],
    ['https://h/caf%C3%A9', { scheme: 'https', host: 'h', path: '/café' }],
    ['https://h/café', { scheme: 'https', host: 'h', path: '/café', rawPath: '/café' }],
    // A byte that is not UTF-8 is kept as U+DC00 plus the byte.
    ['https://h/%ff', { scheme: 'https', host: 'h', path: '/\udcff', rawPath: '/%ff' }],
    ['https://%ff/', { scheme: 'https', host: '\udcff', path: '/' }],
    ['https://h/a b', { scheme: 'https', host: 'h', path: '/a b', rawPath: '/a b' }],
    ['mailto:x@y', { scheme: 'mailto', opaque: 'x@y' }],
    ['https:h', { scheme: 'https', opaque: 'h' }],
    ['https:h?x#y', { scheme: 'https', opaque: 'h', rawQuery: 'x', fragment: 'y' }],
    ['https:', { scheme: 'https' }],
    ['localhost:8080', { scheme: 'localhost', opaque: '8080' }],
    ['', {}],
    ['*', { path: '*' }],
  ])('%j', (raw, fields) => {
    expect(parseGoUrl(raw)).toStrictEqual({ ...EMPTY, ...fields });
  });
});

describe('parseGoUrl rejects what Go rejects', () => {
  test.each([
    ['://h', 'missing protocol scheme'],
    ['https://h:1:2/', 'invalid port ":1:2" after host'],
    ['http://h::/', 'invalid port "::" after host'],
    [':', 'missing protocol scheme'],
    ['https://h:abc/', 'invalid port ":abc" after host'],
    ['https://example.com:abc/x', 'invalid port ":abc" after host'],
    ['https://h:8é/', 'invalid port ":8é" after host'],
    ['https://h:"/', 'invalid port ":\\"" after host'],
    ['https://h/%zz', 'invalid URL escape "%zz"'],
    ['https://h/%4', 'invalid URL escape "%4"'],
    ['https://h/%', 'invalid URL escape "%"'],
    ['https://h/%zé', 'invalid URL escape "%z\\xc3"'],
    ['https://h/p#%zz', 'invalid URL escape "%zz"'],
    ['https://h:abc/#%zz', 'invalid port ":abc" after host'],
    ['https://ex%41mple.com/', 'invalid URL escape "%41"'],
    ['https://exa mple.com', 'invalid character " " in host name'],
    ['https://a{b}/', 'invalid character "{" in host name'],
    ['https://a\\b/', 'invalid character "\\\\" in host name'],
    ['https://a|b/', 'invalid character "|" in host name'],
    ['https://h\n/', 'net/url: invalid control character in URL'],
    ['https://h/\x7f', 'net/url: invalid control character in URL'],
    ['\x00', 'net/url: invalid control character in URL'],
    ['1a:b/x', 'first path segment in URL cannot contain colon'],
    ['cache_object:foo/bar', 'first path segment in URL cannot contain colon'],
    ['a b:c', 'first path segment in URL cannot contain colon'],
    ['https://ü@example.com/', 'net/url: invalid userinfo'],
    ['https://a b@h/', 'net/url: invalid userinfo'],
    ['https://u%zz@h/', 'invalid URL escape "%zz"'],
    ['https://u:p%4@h/', 'invalid URL escape "%4"'],
    ['https://[::1/', "missing ']' in host"],
    ['https://[1.2.3.4]/', 'invalid IP-literal'],
    ['https://[[::1]]:8080/', 'invalid IP-literal'],
    ['https://h[::1]/', 'invalid IP-literal'],
    ['https://[::1]x/', 'invalid port "x" after host'],
    ['https://[::1]:8x/', 'invalid port ":8x" after host'],
    ['https://[v1.x]/', 'invalid host: ParseAddr("v1.x"): unexpected character (at "v1.x")'],
    ['https://[hello]/', 'invalid host: ParseAddr("hello"): unable to parse IP'],
    ['https://[]/', 'invalid host: ParseAddr(""): unable to parse IP'],
    ['https://[%25en0]/', 'invalid host: ParseAddr("%en0"): missing IPv6 address'],
    ['https://[fe80::1%25]/', 'invalid host: ParseAddr("fe80::1%"): zone must be a non-empty string'],
    ['https://[fe80::1%25en%2F]/', 'invalid URL escape "%2F"'],
    ['https://[fe80::1%25en\\]/', 'invalid character "\\\\" in host name'],
    ['https://[1:2:3:4:5:6:7:8:9]/', 'invalid host: ParseAddr("1:2:3:4:5:6:7:8:9"): trailing garbage after address (at "9")'],
    ['https://[1:2:3]/', 'invalid host: ParseAddr("1:2:3"): address string too short'],
    ['https://[1::2::3]/', 'invalid host: ParseAddr("1::2::3"): multiple :: in address (at ":3")'],
    ['https://[12345::1]/', 'invalid host: ParseAddr("12345::1"): each group must have 4 or less digits (at "12345::1")'],
    ['https://[1:2:3:4:5:6:7::8]/', 'invalid host: ParseAddr("1:2:3:4:5:6:7::8"): the :: must expand to at least one field of zeros'],
    ['https://[1:]/', 'invalid host: ParseAddr("1:"): colon must be followed by more characters (at ":")'],
    ['https://[::1.2.3.256]/', 'invalid host: ParseAddr("::1.2.3.256"): IPv4 field has value >255'],
    ['https://[::ffff:01.2.3.4]/', 'invalid host: ParseAddr("::ffff:01.2.3.4"): IPv4 field has octet with leading zero'],
    ['https://[1:2:3:4:1.2.3.4]/', 'invalid host: ParseAddr("1:2:3:4:1.2.3.4"): embedded IPv4 address must replace the final 2 fields of the address (at "1.2.3.4")'],
    ['https://[1::2:3:4:5:6:7:1.2.3.4]/', 'invalid host: ParseAddr("1::2:3:4:5:6:7:1.2.3.4"): too many hex fields to fit an embedded IPv4 at the end of the address (at "1.2.3.4")'],
    ['https://[::1.2.3]/', 'invalid host: ParseAddr("::1.2.3"): IPv4 address too short'],
    ['https://[::1.2.3.4.5]/', 'invalid host: ParseAddr("::1.2.3.4.5"): IPv4 address too long'],
    ['https://[::1..2.3]/', 'invalid host: ParseAddr("::1..2.3"): IPv4 field must have at least one digit (at ".2.3")'],
    ['https://[::1.2.3.x]/', 'invalid host: ParseAddr("::1.2.3.x"): unexpected character (at "x")'],
    ['https://[1.2.3.4%25en0]/', 'invalid host: ParseAddr("1.2.3.4%en0"): unexpected character (at "%en0")'],
    ['https://[1x::]/', 'invalid host: ParseAddr("1x::"): unexpected character, want colon (at "x::")'],
    ['https://[1:x]/', 'invalid host: ParseAddr("1:x"): each colon-separated field must have at least one digit (at "x")'],
    ['https://[fe80::1%25%C3%A9]/', 'invalid URL escape "%C3"'],
    // Reasons quote their input as Go's strconv.Quote does.
    ['https://h:\u00ad/', 'invalid port ":\\u00ad" after host'],
    ['https://h:\u{E0001}/', 'invalid port ":\\U000e0001" after host'],
    ['https://h:\u{1F600}/', 'invalid port ":\u{1F600}" after host'],
    ['https://h:\u2028€/', 'invalid port ":\\u2028€" after host'],
    ['https://h/%z\u{1F600}', 'invalid URL escape "%z\\xf0"'],
    ['https://h/%\u00e9', 'invalid URL escape "%\u00e9"'],
    ['https://h/#%\n', 'invalid URL escape "%\\n"'],
    ['https://h/#%\x7f', 'invalid URL escape "%\\x7f"'],
  ])('%j', (raw, reason) => {
    expect(parseGoUrl(raw)).toEqual({ error: reason, url: expect.any(String) });
  });
});

describe('the url.Error of a rejected URL', () => {
  test.each([
    // url.Parse names the URL without its fragment, unless the fragment is what is wrong.
    [parseGoUrl('https://h:abc/#f'), 'parse "https://h:abc/": invalid port ":abc" after host'],
    [parseGoUrl('https://h/#%zz'), 'parse "https://h/#%zz": invalid URL escape "%zz"'],
    // url.ParseRequestURI takes no fragment: it names the whole text.
    [parseGoRequestUri('https://h:abc/#f'), 'parse "https://h:abc/#f": invalid port ":abc" after host'],
    [parseGoRequestUri(''), 'parse "": empty url'],
    [parseGoRequestUri('example.com/x'), 'parse "example.com/x": invalid URI for request'],
    [parseGoRequestUri('hé'), 'parse "hé": invalid URI for request'],
    [parseGoRequestUri('\u00ad'), 'parse "\\u00ad": invalid URI for request'],
    [parseGoRequestUri('a\tb'), 'parse "a\\tb": net/url: invalid control character in URL'],
  ])('%j', (result, text) => {
    if (!isGoUrlError(result)) throw new Error('expected an error');
    expect(goUrlErrorText(result)).toBe(text);
  });
});

describe('parseGoRequestUri takes absolute URIs and absolute paths only', () => {
  test.each([
    ['https://h/p#f', { scheme: 'https', host: 'h', path: '/p#f', rawPath: '/p#f' }],
    ['https://h/p?q#f', { scheme: 'https', host: 'h', path: '/p', rawQuery: 'q#f' }],
    ['/p', { path: '/p' }],
    ['//h/p', { path: '//h/p' }],
    ['mailto:a@b', { scheme: 'mailto', opaque: 'a@b' }],
    ['*', { path: '*' }],
  ])('%j', (raw, fields) => {
    expect(parseGoRequestUri(raw)).toStrictEqual({ ...EMPTY, ...fields });
  });

  test.each(['', 'h/p', 'p', '#f', '?q', './p'])('rejects %j', (raw) => {
    expect(isGoUrlError(parseGoRequestUri(raw))).toBe(true);
  });
});

/** A URL Go's url.Parse accepts. */
function parsed(raw: string): GoUrl {
  const u = parseGoUrl(raw);
  if (isGoUrlError(u)) throw new Error(`unexpected error ${u.error}`);
  return u;
}

// The values the apiserver's CEL `url()` getters return for these (measured with `oracle --cel-eval`).
describe("the methods of Go's url.URL", () => {
  test.each([
    ['https://[::1]:80/p%20q?a=1&a=2#f', '::1', '80', '/p%20q', 'https://[::1]:80/p%20q?a=1&a=2#f'],
    ['https://h:8080', 'h', '8080', '', 'https://h:8080'],
    ['https://h:', 'h', '', '', 'https://h:'],
    ['https://h/a b', 'h', '', '/a%20b', 'https://h/a%20b'],
    ['https://h/a%2Fb', 'h', '', '/a%2Fb', 'https://h/a%2Fb'],
    ['https://h/é', 'h', '', '/%C3%A9', 'https://h/%C3%A9'],
    ['https://h/%ff', 'h', '', '/%ff', 'https://h/%ff'],
    ['https://h/%FF', 'h', '', '/%FF', 'https://h/%FF'],
    ['https://h/%FF%20', 'h', '', '/%FF%20', 'https://h/%FF%20'],
    ['https://h/%FF ', 'h', '', '/%FF%20', 'https://h/%FF%20'],
    ['https://%FF/', '\udcff', '', '/', 'https://%FF/'],
    ['https://h/a%41', 'h', '', '/a%41', 'https://h/a%41'],
    ['https://é.com/', 'é.com', '', '/', 'https://%C3%A9.com/'],
    ['HTTPS://H/', 'H', '', '/', 'https://H/'],
    ['https:/p', '', '', '/p', 'https:/p'],
    ['https:///p', '', '', '/p', 'https:///p'],
    ['mailto:a@b', '', '', '', 'mailto:a@b'],
    ['https://h/#a b', 'h', '', '/', 'https://h/#a%20b'],
    ['https://h/#a%20b!', 'h', '', '/', 'https://h/#a%20b!'],
    ['https://h?', 'h', '', '', 'https://h?'],
    ['*', '', '', '*', '*'],
    ['a:b', '', '', '', 'a:b'],
    ['/a:b', '', '', '/a:b', '/a:b'],
    ['//h', 'h', '', '', '//h'],
  ])('%j', (raw, host, p, path, text) => {
    const u = parsed(raw);
    expect([hostname(u), port(u), escapedPath(u), urlString(u)]).toEqual([host, p, path, text]);
  });

  test('String() writes the user information escaped', () => {
    const u = parsed('https://a@b:c%40%3a@h/');
    expect(u.user).toEqual({ username: 'a@b', password: 'c@:' });
    expect(userinfoString(u.user!)).toBe('a%40b:c%40%3A');
    expect(urlString(u)).toBe('https://a%40b:c%40%3A@h/');
    expect(userinfoString({ username: 'u' })).toBe('u');
  });

  test.each<[string, Array<[string, string[]]>]>([
    ['a=1&a=2', [['a', ['1', '2']]]],
    ['a=%zz&b=1;c&d=+x+', [['d', [' x ']]]],
    ['x', [['x', ['']]]],
    ['=v&&k=', [['', ['v']], ['k', ['']]]],
    ['k=a=b&%41=%C3%A9', [['k', ['a=b']], ['A', ['é']]]],
    ['', []],
    ['a&'.repeat(10_000), []],
  ])('Query() of %j', (rawQuery, values) => {
    expect([...queryValues({ ...EMPTY, rawQuery })]).toEqual(values);
  });
});

test('wellFormedText shows a byte that is not UTF-8 as U+FFFD, as Go writes it in JSON', () => {
  expect(wellFormedText(parsed('https://h/%ff%C3%A9%e2%82').path)).toBe('/\ufffd\u00e9\ufffd\ufffd');
  expect(wellFormedText('\ud83d\ude00')).toBe('\ud83d\ude00');
});

describe('isGoUrlError', () => {
  test('tells errors from URLs', () => {
    const bad = parseGoUrl('://h');
    const good = parseGoUrl('https://h');
    expect(isGoUrlError(bad)).toBe(true);
    expect(isGoUrlError(good)).toBe(false);
    if (!isGoUrlError(good)) {
      expect(good.host).toBe('h');
    }
  });
});

describe('hostname', () => {
  test.each([
    ['https://example.com/path', 'example.com'],
    ['https://example.com:8443/x', 'example.com'],
    ['https://h:/', 'h'],
    ['https://[::1]:443/', '::1'],
    ['https://[::1]/', '::1'],
    ['https://[fe80::1%25en0]:8443/', 'fe80::1%en0'],
    ['https:///path', ''],
    ['https://:443/', ''],
    ['foo://h:1:2/', 'h:1'],
  ])('%j', (raw, expected) => {
    const u = parseGoUrl(raw);
    if (isGoUrlError(u)) {
      throw new Error(`unexpected error ${u.error}`);
    }
    expect(hostname(u)).toBe(expected);
  });
});

describe('parseGoUrl properties', () => {
  const urlChars = fc.constantFrom(...':/?#[]@%.-_~!$&\'()*+,;= aZ09\n\x7féü'.split(''), '%2', '%25', '%zz', '//', '::', 'https:', 'https://');
  const urlish = fc.array(urlChars, { maxLength: 30 }).map((parts) => parts.join(''));

  test('never throws, and returns either a reason or a well-formed URL', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string(), urlish), (raw) => {
      const u = parseGoUrl(raw);
      if (isGoUrlError(u)) {
        expect(typeof u.error).toBe('string');
        expect(u.error.length).toBeGreaterThan(0);
      } else {
        expect(Object.keys(u).sort()).toEqual(
          (u.user === undefined ? [] : ['user']).concat(Object.keys(EMPTY)).sort(),
        );
        // What String() writes parses again to a URL that String() writes the same.
        const again = parseGoUrl(urlString(u));
        expect(isGoUrlError(again) ? again : urlString(again)).toBe(urlString(u));
        expect(u.scheme).toBe(u.scheme.toLowerCase());
      }
    }), { numRuns: 2000 });
  });

  test('rejects any control character before the fragment', () => {
    const noHash = fc.string({ unit: 'binary', maxLength: 20 }).map((s) => s.replace(/#/g, ''));
    const control = fc.integer({ min: 0, max: 0x20 }).map((n) => String.fromCharCode(n === 0x20 ? 0x7f : n));
    fc.assert(fc.property(noHash, control, fc.string({ unit: 'binary', maxLength: 20 }), (before, c, after) => {
      expect(parseGoUrl(before + c + after)).toEqual({ error: 'net/url: invalid control character in URL', url: expect.any(String) });
    }));
  });

  test('splits https://host[:port]/path into its parts', () => {
    const label = fc.string({ unit: fc.constantFrom(...'abcxyz019-'.split('')), minLength: 1, maxLength: 10 });
    const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
    const ports = fc.option(fc.integer({ min: 0, max: 65535 }).map(String));
    const path = fc.array(fc.string({ unit: fc.constantFrom(...'abc-._~'.split('')), maxLength: 8 }), { maxLength: 4 })
      .map((segments) => segments.map((s) => `/${s}`).join(''));
    fc.assert(fc.property(host, ports, path, (h, p, pth) => {
      const hostPort = p === null ? h : `${h}:${p}`;
      const u = parseGoUrl(`https://${hostPort}${pth}`);
      expect(u).toStrictEqual({ ...EMPTY, scheme: 'https', host: hostPort, path: pth });
      if (!isGoUrlError(u)) {
        expect(hostname(u)).toBe(h);
      }
    }));
  });
});
