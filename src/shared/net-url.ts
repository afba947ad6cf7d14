/**
 * Go's `net/url` (Go 1.26), ported function by function: `url.Parse` and `url.ParseRequestURI`,
 * and the methods read of a parsed URL (`Hostname`, `Port`, `EscapedPath`, `String`, `Query`).
 *
 * The apiserver parses webhook `clientConfig.url` with `url.Parse`
 * (k8s.io/apiserver/pkg/util/webhook/validation.go: ValidateWebhookURL), and the CEL `url()` and
 * `isURL()` functions with `url.ParseRequestURI` then `url.Parse`
 * (k8s.io/apiserver/pkg/cel/library/urls.go: stringToUrl, isURL). Go's parsing differs from
 * WHATWG `new URL()`: `https:///path` has an empty host, `https:h` is an opaque URL, hosts are
 * not normalised, and so on.
 *
 * Like Go, the parser works on the UTF-8 bytes of the input: internally every string is a "byte
 * string" (one char per byte, codes 0-255), converted back to text on the way out. A byte that is
 * not part of valid UTF-8 (from escapes such as `%ff`) becomes a lone surrogate U+DC80-U+DCFF, as
 * Python's "surrogateescape" does, so that escaping the text again gives Go's bytes back;
 * `wellFormedText` shows such a string as Go's JSON encoding does, with U+FFFD.
 *
 * Internal module: not exported from the package index.
 */

/** A URL as Go's `url.URL` holds it, its strings as text. */
export interface GoUrl {
  /** Lowercased scheme, '' when there is none. */
  scheme: string;
  /** Encoded opaque data (`scheme:opaque` URLs whose rest does not start with '/'). */
  opaque: string;
  /** The user information before the last '@' of the authority, when there is one. */
  user?: GoUserinfo;
  /** Host or host:port, unescaped as Go does (`[::1]:443`, `example.com`). */
  host: string;
  /** The decoded path (Go's `URL.Path`). */
  path: string;
  /** The path as written when escaping `path` again would not give it back (Go's `URL.RawPath`). */
  rawPath: string;
  /** The URL has a scheme and an empty authority (`https:/x`), which `String()` leaves out (Go's `OmitHost`). */
  omitHost: boolean;
  /** True when the URL ends in a bare '?'. */
  forceQuery: boolean;
  /** The encoded query, without '?'. */
  rawQuery: string;
  /** The decoded fragment, without '#'. */
  fragment: string;
  /** The fragment as written, on the same terms as `rawPath` (Go's `URL.RawFragment`). */
  rawFragment: string;
}

/** Go's `url.Userinfo`: the unescaped user name, and the password when one is set. */
export interface GoUserinfo {
  username: string;
  password?: string;
}

/** Why Go's parsing rejects a URL: its `url.Error` (`Op` is always "parse"). */
export interface GoUrlError {
  /** The reason (`url.Error.Err`), e.g. `invalid port ":x" after host`. */
  error: string;
  /** The text the error names (`url.Error.URL`): `url.Parse` names the URL without its fragment, unless the fragment is what is wrong. */
  url: string;
}

/** Whether a parse result is an error. */
export function isGoUrlError(result: GoUrl | GoUrlError): result is GoUrlError {
  return 'error' in result;
}

/** Go's `(*url.Error).Error()`: `parse "<url>": <reason>`, the URL quoted as `%q` does. */
export function goUrlErrorText(e: GoUrlError): string {
  return `parse ${fromByteString(quote(toByteString(e.url)))}: ${e.error}`;
}

/**
 * Go's `url.Parse(raw)`: the fragment cut off at the first '#', the rest parsed as any URL
 * reference (relative ones included). Returns the URL or Go's error. Never throws.
 */
export function parseGoUrl(raw: string): GoUrl | GoUrlError {
  const bytes = toByteString(raw);
  const hash = bytes.indexOf('#');
  const beforeFragment = hash < 0 ? bytes : bytes.slice(0, hash);
  const url = parseStep(() => parse(beforeFragment, false), beforeFragment);
  if (isGoUrlError(url) || hash < 0) return url;
  const fragment = parseStep(() => setFragment(url, bytes.slice(hash + 1)), bytes);
  return isGoUrlError(fragment) ? fragment : url;
}

/**
 * Go's `url.ParseRequestURI(raw)`: the URL as an HTTP request line carries it, an absolute URI or
 * an absolute path, with no fragment ('#' is part of the path or the query). Never throws.
 */
export function parseGoRequestUri(raw: string): GoUrl | GoUrlError {
  const bytes = toByteString(raw);
  return parseStep(() => parse(bytes, true), bytes);
}

/** Go's `URL.Hostname()`: the host without a valid port and without IPv6 brackets. */
export function hostname(u: GoUrl): string {
  return splitHostPort(u.host)[0];
}

/** Go's `URL.Port()`: the port of the host without its colon, '' when it has no valid one. */
export function port(u: GoUrl): string {
  return splitHostPort(u.host)[1];
}

/** Go's `URL.EscapedPath()`: `rawPath` when it is a valid escaping of the path, otherwise the path escaped. */
export function escapedPath(u: GoUrl): string {
  return escapedForm(u.path, u.rawPath, 'path');
}

/** Go's `Userinfo.String()`: `username[:password]`, each escaped. */
export function userinfoString(user: GoUserinfo): string {
  const username = fromByteString(escape(toByteString(user.username), 'userPassword'));
  return user.password === undefined ? username : `${username}:${fromByteString(escape(toByteString(user.password), 'userPassword'))}`;
}

/** Go's `URL.String()`: the URL reassembled, what two CEL URLs are compared by. */
export function urlString(u: GoUrl): string {
  let out = u.scheme === '' ? '' : `${u.scheme}:`;
  if (u.opaque !== '') {
    out += u.opaque;
  } else {
    if ((u.scheme !== '' || u.host !== '' || u.user !== undefined) && !(u.omitHost && u.host === '' && u.user === undefined)) {
      if (u.host !== '' || u.path !== '' || u.user !== undefined) out += '//';
      if (u.user !== undefined) out += `${userinfoString(u.user)}@`;
      if (u.host !== '') out += fromByteString(escape(toByteString(u.host), 'host'));
    }
    const path = escapedPath(u);
    if (path !== '' && path[0] !== '/' && u.host !== '') out += '/';
    // RFC 3986 §4.2: a first segment with a colon would read as a scheme.
    if (out === '' && path.split('/')[0].includes(':')) out += './';
    out += path;
  }
  if (u.forceQuery || u.rawQuery !== '') out += `?${u.rawQuery}`;
  if (u.fragment !== '') out += `#${escapedFragment(u)}`;
  return out;
}

/** Go's `url.defaultMaxParams`: `ParseQuery` refuses a query of more parameters (GODEBUG urlmaxqueryparams). */
const MAX_QUERY_PARAMS = 10_000;

/**
 * Go's `URL.Query()`: `url.ParseQuery(RawQuery)` with its error dropped. Pairs split at '&' and
 * then at the first '='; a pair with a ';', or whose key or value does not unescape, is skipped;
 * '+' is a space. A query of more than 10,000 parameters gives no values at all.
 */
export function queryValues(u: GoUrl): Map<string, string[]> {
  const values = new Map<string, string[]>();
  const query = toByteString(u.rawQuery);
  if (query.split('&').length > MAX_QUERY_PARAMS) return values;
  for (const pair of query.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const key = attempt(() => unescape(eq < 0 ? pair : pair.slice(0, eq), 'queryComponent'));
    const value = attempt(() => unescape(eq < 0 ? '' : pair.slice(eq + 1), 'queryComponent'));
    if (key instanceof UrlParseFailure || value instanceof UrlParseFailure) continue;
    const text = fromByteString(key);
    const list = values.get(text);
    if (list) list.push(fromByteString(value));
    else values.set(text, [fromByteString(value)]);
  }
  return values;
}

/** Go's `splitHostPort` (net/url): a valid `:digits` port split off, then brackets removed. */
function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let digits = '';
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && validOptionalPort(host.slice(colon))) {
    digits = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, digits];
}

/** Signals a parse error inside this module; always caught by `attempt`. */
class UrlParseFailure extends Error {
  constructor(public readonly reason: string) {
    super(reason);
  }
}

function fail(reason: string): never {
  throw new UrlParseFailure(reason);
}

/** Runs one of Go's parsing steps on a byte string: the URL, or Go's `url.Error` naming `input`. */
function parseStep(step: () => GoUrl, input: string): GoUrl | GoUrlError {
  const url = attempt(step);
  return url instanceof UrlParseFailure ? { error: fromByteString(url.reason), url: fromByteString(input) } : url;
}

/** Runs `step`: its result, or the failure where Go returns an error. */
function attempt<T>(step: () => T): T | UrlParseFailure {
  try {
    return step();
  } catch (e) {
    if (e instanceof UrlParseFailure) return e;
    throw e;
  }
}

/** Go's encoding modes (net/url encoding_table.go): which section of a URL is escaped or unescaped. */
type Encoding = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

const PRINTABLE_RE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
/** What `validUserinfo` allows besides ASCII letters and digits. */
const USERINFO_PUNCTUATION = '-._:~!$&\'()*+,;=%@';
/** The sub-delims (and ':', '@', '[', ']', '%') that `validEncoded` lets through whatever the mode. */
const VALID_ENCODED_PUNCTUATION = '!$&\'()*+,;=:@[]%';

const encoder = new TextEncoder();

/**
 * Go's `parse(rawURL, viaRequest)` on a byte string (url.go), with what Go 1.26 adds: the
 * `urlstrictcolons` check in parseHost, the default for a module of Go 1.26 or later (the
 * apiserver that conformance/ builds refuses `https://h:1:2/`).
 */
function parse(raw: string, viaRequest: boolean): GoUrl {
  if (hasControlChar(raw)) fail('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) fail('empty url');
  const url: GoUrl = {
    scheme: '', opaque: '', host: '', path: '', rawPath: '', omitHost: false, forceQuery: false, rawQuery: '', fragment: '', rawFragment: '',
  };
  if (raw === '*') {
    url.path = '*';
    return url;
  }

  const [scheme, afterScheme] = getScheme(raw);
  url.scheme = scheme.toLowerCase();
  let rest = afterScheme;

  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    url.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = fromByteString(rest.slice(q + 1));
      rest = rest.slice(0, q);
    }
  }

  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      // Rootless paths (RFC 3986) are opaque.
      url.opaque = fromByteString(rest);
      return url;
    }
    if (viaRequest) fail('invalid URI for request');
    // RFC 3986 §3.3: in a relative-path reference the first segment cannot contain ':'.
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) {
      fail('first path segment in URL cannot contain colon');
    }
  }

  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    parseAuthority(url, authority);
  } else if (url.scheme !== '' && rest.startsWith('/')) {
    url.omitHost = true;
  }

  setPath(url, rest);
  return url;
}

/**
 * Go's `getScheme`: `[a-zA-Z][a-zA-Z0-9+.-]*` up to the first ':'. Any other
 * character before a ':' means there is no scheme.
 */
function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (isAsciiLetter(c)) {
      continue;
    }
    if (isAsciiDigit(c) || c === '+' || c === '-' || c === '.') {
      if (i === 0) {
        return ['', raw];
      }
      continue;
    }
    if (c === ':') {
      if (i === 0) {
        fail('missing protocol scheme');
      }
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

/** Go's `parseAuthority`: `[userinfo@]host`, split at the last '@'. */
function parseAuthority(url: GoUrl, authority: string): void {
  const at = authority.lastIndexOf('@');
  url.host = fromByteString(parseHost(url.scheme, at < 0 ? authority : authority.slice(at + 1)));
  if (at < 0) {
    return;
  }
  const userinfo = authority.slice(0, at);
  if (![...userinfo].every((c) => isAsciiLetter(c) || isAsciiDigit(c) || USERINFO_PUNCTUATION.includes(c))) {
    fail('net/url: invalid userinfo');
  }
  const colon = userinfo.indexOf(':');
  url.user = colon < 0
    ? { username: fromByteString(unescape(userinfo, 'userPassword')) }
    : {
      username: fromByteString(unescape(userinfo.slice(0, colon), 'userPassword')),
      password: fromByteString(unescape(userinfo.slice(colon + 1), 'userPassword')),
    };
}

/**
 * Go's `parseHost` (with the check of Go 1.24.8+/1.25.2+, CVE-2025-47912, that only IPv6
 * addresses may be bracketed, and Go 1.26's `urlstrictcolons`: for http and https the first colon
 * of an unbracketed host starts the port, for other schemes the last).
 */
function parseHost(scheme: string, host: string): string {
  const open = host.lastIndexOf('[');
  if (open > 0) {
    fail('invalid IP-literal');
  }
  if (open === 0) {
    // An IP-literal (RFC 3986, RFC 6874): "[fe80::1]", "[fe80::1%25en0]", "[fe80::1]:80".
    const close = host.lastIndexOf(']');
    if (close < 0) {
      fail("missing ']' in host");
    }
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) {
      fail(`invalid port ${quote(colonPort)} after host`);
    }
    const unescapedPort = unescape(colonPort, 'host');
    const literal = host.slice(1, close);
    // "%25" starts the zone, which may use (almost) any escape.
    const zone = literal.indexOf('%25');
    const address = zone < 0
      ? unescape(literal, 'host')
      : unescape(literal.slice(0, zone), 'host') + unescape(literal.slice(zone), 'zone');
    checkIpv6Literal(address);
    return `[${address}]${unescapedPort}`;
  }
  const first = host.indexOf(':');
  if (first >= 0) {
    const last = host.lastIndexOf(':');
    const colonPort = host.slice(scheme === 'http' || scheme === 'https' ? first : last);
    if (!validOptionalPort(colonPort)) {
      fail(`invalid port ${quote(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

/** Go's `setPath`: `Path` unescaped, `RawPath` kept when escaping `Path` would not give `p` back. */
function setPath(url: GoUrl, p: string): void {
  const path = unescape(p, 'path');
  url.path = fromByteString(path);
  url.rawPath = escape(path, 'path') === p ? '' : fromByteString(p);
}

/** Go's `setFragment`, on the same terms as `setPath`. */
function setFragment(url: GoUrl, f: string): GoUrl {
  const fragment = unescape(f, 'fragment');
  url.fragment = fromByteString(fragment);
  url.rawFragment = escape(fragment, 'fragment') === f ? '' : fromByteString(f);
  return url;
}

/** Go's `URL.EscapedFragment()`, as `escapedPath`. */
function escapedFragment(u: GoUrl): string {
  return escapedForm(u.fragment, u.rawFragment, 'fragment');
}

/** `EscapedPath` and `EscapedFragment`: the raw form when it is a valid escaping of the decoded one, else the decoded form escaped. */
function escapedForm(decoded: string, raw: string, mode: 'path' | 'fragment'): string {
  const decodedBytes = toByteString(decoded);
  if (raw !== '') {
    const rawBytes = toByteString(raw);
    if (validEncoded(rawBytes, mode) && attempt(() => unescape(rawBytes, mode)) === decodedBytes) return raw;
  }
  if (mode === 'path' && decoded === '*') return '*'; // Go: "don't escape" (golang.org/issue/11202)
  return fromByteString(escape(decodedBytes, mode));
}

/** Go's `validOptionalPort`: '' or ':' followed by digits only. */
function validOptionalPort(colonPort: string): boolean {
  if (colonPort === '') {
    return true;
  }
  return colonPort[0] === ':' && [...colonPort.slice(1)].every(isAsciiDigit);
}

/**
 * Go's `unescape`: checks every '%' is followed by two hex digits (and, in hosts, which bytes may
 * appear at all), then decodes the escapes, and in a query component '+' as a space.
 */
function unescape(s: string, mode: Encoding): string {
  let escapes = 0;
  let hasPlus = false;
  for (let i = 0; i < s.length;) {
    const c = s[i];
    if (c === '%') {
      escapes++;
      if (i + 2 >= s.length || !isHexDigit(s[i + 1]) || !isHexDigit(s[i + 2])) {
        fail(`invalid URL escape ${quote(s.slice(i, i + 3))}`);
      }
      const escape3 = s.slice(i, i + 3);
      const value = parseInt(s.slice(i + 1, i + 3), 16);
      // RFC 3986 §3.2.2: hosts may only escape non-ASCII bytes; RFC 6874 adds "%25".
      if (mode === 'host' && value < 0x80 && escape3 !== '%25') {
        fail(`invalid URL escape ${quote(escape3)}`);
      }
      // Zones may escape only what could appear unescaped in a host, and spaces.
      if (mode === 'zone' && escape3 !== '%25' && value !== 0x20 && shouldEscape(value, 'host')) {
        fail(`invalid URL escape ${quote(escape3)}`);
      }
      i += 3;
    } else {
      if (c === '+') {
        hasPlus = mode === 'queryComponent';
      } else if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && shouldEscape(c.charCodeAt(0), mode)) {
        fail(`invalid character ${quote(c)} in host name`);
      }
      i++;
    }
  }
  if (escapes === 0 && !hasPlus) {
    return s;
  }
  const plus = mode === 'queryComponent' ? ' ' : '+';
  return s.replace(/%([0-9A-Fa-f]{2})|\+/g, (_match, digits: string | undefined) => (digits === undefined ? plus : String.fromCharCode(parseInt(digits, 16))));
}

/** Go's `escape`: every byte `shouldEscape` names as `%XX` (upper-case hex), a space in a query component as '+'. */
function escape(s: string, mode: Encoding): string {
  let out = '';
  let changed = false;
  for (let i = 0; i < s.length; i++) {
    const b = s.charCodeAt(i);
    if (!shouldEscape(b, mode)) {
      out += s[i];
    } else {
      changed = true;
      out += b === 0x20 && mode === 'queryComponent' ? '+' : `%${hex(b, 2).toUpperCase()}`;
    }
  }
  return changed ? out : s;
}

/** Go's `shouldEscape(c, mode)` (net/url gen_encoding_table.go, RFC 3986 §2 and §3). */
function shouldEscape(b: number, mode: Encoding): boolean {
  const c = String.fromCharCode(b);
  if (isAsciiLetter(c) || isAsciiDigit(c)) return false;
  if ((mode === 'host' || mode === 'zone') && '!$&\'()*+,;=:[]<>"'.includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    switch (mode) {
      case 'path': return c === '?';
      case 'pathSegment': return '/;,?'.includes(c);
      case 'userPassword': return '@/?:'.includes(c);
      case 'queryComponent': return true;
      case 'fragment': return false;
      default: break;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(c)) return false;
  return true;
}

/** Go's `validEncoded`: nothing in `s` would be escaped in `mode`, sub-delims, '[', ']' and escapes aside. */
function validEncoded(s: string, mode: Encoding): boolean {
  for (let i = 0; i < s.length; i++) {
    if (!VALID_ENCODED_PUNCTUATION.includes(s[i]) && shouldEscape(s.charCodeAt(i), mode)) return false;
  }
  return true;
}

function checkIpv6Literal(address: string): void {
  for (const c of address) {
    if (c === '.') {
      const problem = ipv4Problem(address, 0, address.length);
      if (problem) {
        fail(addrError(address, problem));
      }
      fail('invalid IP-literal');
    }
    if (c === ':') {
      const problem = ipv6Problem(address);
      if (problem) {
        fail(addrError(address, problem));
      }
      return;
    }
    if (c === '%') {
      fail(addrError(address, { msg: 'missing IPv6 address' }));
    }
  }
  fail(addrError(address, { msg: 'unable to parse IP' }));
}

/** A `netip.parseAddrError`: what is wrong, and the rest of the input where it went wrong. */
interface AddrProblem {
  readonly msg: string;
  readonly at?: string;
}

function addrError(input: string, problem: AddrProblem): string {
  const at = problem.at ? ` (at ${quote(problem.at)})` : '';
  return `invalid host: ParseAddr(${quote(input)}): ${problem.msg}${at}`;
}

/** netip's `parseIPv4Fields` on `input[start:end]`: four decimal octets without leading zeros. */
function ipv4Problem(input: string, start: number, end: number): AddrProblem | undefined {
  const s = input.slice(start, end);
  let value = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (isAsciiDigit(c)) {
      if (digits === 1 && value === 0) {
        return { msg: 'IPv4 field has octet with leading zero' };
      }
      value = value * 10 + Number(c);
      digits++;
      if (value > 255) {
        return { msg: 'IPv4 field has value >255' };
      }
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') {
        return { msg: 'IPv4 field must have at least one digit', at: s.slice(i) };
      }
      if (dots === 3) {
        return { msg: 'IPv4 address too long' };
      }
      dots++;
      value = 0;
      digits = 0;
    } else {
      return { msg: 'unexpected character', at: s.slice(i) };
    }
  }
  if (dots < 3) {
    return { msg: 'IPv4 address too short' };
  }
  return undefined;
}

/** netip's `parseIPv6`: up to eight hex groups, one optional '::', an optional trailing IPv4 and zone. */
function ipv6Problem(input: string): AddrProblem | undefined {
  let s = input;
  let zoneLength = -1;
  const percent = s.indexOf('%');
  if (percent >= 0) {
    if (percent === s.length - 1) {
      return { msg: 'zone must be a non-empty string' };
    }
    zoneLength = s.length - percent - 1;
    s = s.slice(0, percent);
  }

  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') {
      return undefined;
    }
  }

  let filled = 0; // bytes of the 16-byte address parsed so far
  while (filled < 16) {
    let off = 0;
    while (off < s.length && isHexDigit(s[off])) {
      if (off > 3) {
        return { msg: 'each group must have 4 or less digits', at: s };
      }
      off++;
    }
    if (off === 0) {
      return { msg: 'each colon-separated field must have at least one digit', at: s };
    }

    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && filled !== 12) {
        return { msg: 'embedded IPv4 address must replace the final 2 fields of the address', at: s };
      }
      if (filled + 4 > 16) {
        return { msg: 'too many hex fields to fit an embedded IPv4 at the end of the address', at: s };
      }
      const end = zoneLength >= 0 ? input.length - zoneLength - 1 : input.length;
      const problem = ipv4Problem(input, end - s.length, end);
      if (problem) {
        return problem;
      }
      s = '';
      filled += 4;
      break;
    }

    filled += 2;
    s = s.slice(off);
    if (s === '') {
      break;
    }
    if (s[0] !== ':') {
      return { msg: 'unexpected character, want colon', at: s };
    }
    if (s.length === 1) {
      return { msg: 'colon must be followed by more characters', at: s };
    }
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) {
        return { msg: 'multiple :: in address', at: s };
      }
      ellipsis = filled;
      s = s.slice(1);
      if (s === '') {
        break;
      }
    }
  }

  if (s !== '') {
    return { msg: 'trailing garbage after address', at: s };
  }
  if (filled < 16) {
    if (ellipsis < 0) {
      return { msg: 'address string too short' };
    }
  } else if (ellipsis >= 0) {
    return { msg: 'the :: must expand to at least one field of zeros' };
  }
  return undefined;
}

/**
 * Go's `strconv.Quote` of a byte string: printable UTF-8 is kept, other
 * runes become `\uXXXX`-style escapes and invalid bytes `\xNN`.
 */
function quote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length;) {
    const b = s.charCodeAt(i);
    const [rune, width] = b < 0x80 ? [b, 1] : decodeRune(s, i);
    if (rune < 0) {
      out += `\\x${hex(b, 2)}`;
    } else if (rune < 0x80) {
      out += quoteAscii(rune);
    } else if (PRINTABLE_RE.test(String.fromCodePoint(rune))) {
      out += s.slice(i, i + width);
    } else {
      out += rune < 0x10000 ? `\\u${hex(rune, 4)}` : `\\U${hex(rune, 8)}`;
    }
    i += width;
  }
  return `${out}"`;
}

const ASCII_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

function quoteAscii(code: number): string {
  const c = String.fromCharCode(code);
  const escaped = ASCII_ESCAPES[c];
  if (escaped !== undefined) {
    return escaped;
  }
  if (code < 0x20 || code === 0x7f) {
    return `\\x${hex(code, 2)}`;
  }
  return c;
}

/**
 * Decodes the UTF-8 sequence starting at `s[i]` (a byte ≥ 0x80). Returns the
 * rune and its width, or `[-1, 1]` for an invalid byte.
 */
function decodeRune(s: string, i: number): [number, number] {
  const b0 = s.charCodeAt(i);
  const cont = (j: number, lo = 0x80, hi = 0xbf): number => {
    const b = i + j < s.length ? s.charCodeAt(i + j) : -1;
    return b >= lo && b <= hi ? b - 0x80 : -1;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const c1 = cont(1);
    return c1 < 0 ? [-1, 1] : [(b0 - 0xc0) * 0x40 + c1, 2];
  }
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const c1 = cont(1, b0 === 0xe0 ? 0xa0 : 0x80, b0 === 0xed ? 0x9f : 0xbf);
    const c2 = cont(2);
    return c1 < 0 || c2 < 0 ? [-1, 1] : [(b0 - 0xe0) * 0x1000 + c1 * 0x40 + c2, 3];
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const c1 = cont(1, b0 === 0xf0 ? 0x90 : 0x80, b0 === 0xf4 ? 0x8f : 0xbf);
    const c2 = cont(2);
    const c3 = cont(3);
    return c1 < 0 || c2 < 0 || c3 < 0 ? [-1, 1] : [(b0 - 0xf0) * 0x40000 + c1 * 0x1000 + c2 * 0x40 + c3, 4];
  }
  return [-1, 1];
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

function isAsciiLetter(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

function isAsciiDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function isHexDigit(c: string): boolean {
  return isAsciiDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/** Go's `stringContainsCTLByte`: any byte below ' ', or DEL. */
function hasControlChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const b = s.charCodeAt(i);
    if (b < 0x20 || b === 0x7f) {
      return true;
    }
  }
  return false;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) {
      return false;
    }
  }
  return true;
}

/** Text to a byte string: one char per UTF-8 byte, a lone surrogate U+DC80-U+DCFF the byte it stands for. */
function toByteString(text: string): string {
  if (isAscii(text)) {
    return text;
  }
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xdc80 && cp <= 0xdcff) {
      out += String.fromCharCode(cp - 0xdc00);
    } else {
      for (const b of encoder.encode(ch)) out += String.fromCharCode(b);
    }
  }
  return out;
}

/** A byte string back to text; a byte that is not part of valid UTF-8 becomes U+DC80-U+DCFF. */
function fromByteString(bytes: string): string {
  if (isAscii(bytes)) {
    return bytes;
  }
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes.charCodeAt(i);
    const [rune, width] = b < 0x80 ? [b, 1] : decodeRune(bytes, i);
    out += rune < 0 ? String.fromCharCode(0xdc00 + b) : String.fromCodePoint(rune);
    i += width;
  }
  return out;
}

/** Text as Go's encoding/json writes a string that is not UTF-8: each byte of this module's U+DC80-U+DCFF as U+FFFD. */
export function wellFormedText(text: string): string {
  return text.replace(/(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g, '\uFFFD');
}
