/**
 * URL parsing the way Go's `net/url.Parse` does it.
 *
 * The API server validates webhook `clientConfig.url` with Go's `url.Parse`,
 * which differs from WHATWG `new URL()`: `https:///path` has an empty host in
 * Go, `https:h` is an opaque URL, hosts are not normalised, and so on. This
 * module follows Go's algorithm step by step so synth-time checks accept and
 * reject what the API server accepts and rejects.
 *
 * Like Go, the parser works on the UTF-8 bytes of the input: internally every
 * string is a "byte string" (one char per byte, codes 0-255), converted back to
 * ordinary text on the way out.
 *
 * Internal module: not exported from the package index.
 */

/** A URL as Go's `net/url.Parse` returns it (the fields the webhook rules need). */
export interface GoUrl {
  /** Lowercased scheme, '' when there is none. */
  scheme: string;
  /** Encoded opaque data (`scheme:opaque` URLs whose rest does not start with '/'). */
  opaque: string;
  /** The raw (still escaped) userinfo before the last '@', when there is one. */
  user?: string;
  /** Host or host:port, unescaped as Go does (`[::1]:443`, `example.com`). */
  host: string;
  /** The decoded path (Go's `URL.Path`). */
  path: string;
  /** The encoded query, without '?'. */
  rawQuery: string;
  /** True when the URL ends in a bare '?'. */
  forceQuery: boolean;
  /** The decoded fragment, without '#'. */
  fragment: string;
}

/** Why Go's `url.Parse` rejects a URL: the reason only, without Go's `parse "<url>": ` prefix. */
export interface GoUrlError {
  error: string;
}

/** Whether a `parseGoUrl` result is an error. */
export function isGoUrlError(result: GoUrl | GoUrlError): result is GoUrlError {
  return 'error' in result;
}

/**
 * Parses a URL as Go's `url.Parse(raw)` does. Returns the URL, or the reason
 * Go would give for rejecting it. Never throws.
 */
export function parseGoUrl(raw: string): GoUrl | GoUrlError {
  try {
    return toText(parseBytes(toByteString(raw)));
  } catch (e) {
    if (e instanceof UrlParseFailure) {
      return { error: fromByteString(e.reason) };
    }
    throw e;
  }
}

/**
 * The host of a URL without its port and without IPv6 brackets, as Go's
 * `URL.Hostname()` returns it.
 */
export function hostname(u: GoUrl): string {
  let host = u.host;
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && validOptionalPort(host.slice(colon))) {
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) {
    host = host.slice(1, -1);
  }
  return host;
}

/** Signals a parse error inside this module; always caught by `parseGoUrl`. */
class UrlParseFailure extends Error {
  constructor(public readonly reason: string) {
    super(reason);
  }
}

function fail(reason: string): never {
  throw new UrlParseFailure(reason);
}

/** Sections of a URL, as far as unescaping treats them differently. */
type Section = 'host' | 'zone' | 'other';

const PRINTABLE_RE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
/** ASCII characters other than letters and digits that Go lets appear unescaped in a host. */
const HOST_PUNCTUATION = '-_.~!$&\'()*+,;=:[]<>"';
const USERINFO_PUNCTUATION = '-._:~!$&\'()*+,;=%@';

const encoder = new TextEncoder();
/** Non-fatal: invalid UTF-8 (e.g. from `%ff`) decodes to U+FFFD. */
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Go's `Parse`: cut off the fragment, parse the rest, then unescape the fragment. */
function parseBytes(raw: string): GoUrl {
  const hash = raw.indexOf('#');
  const url = parseWithoutFragment(hash < 0 ? raw : raw.slice(0, hash));
  if (hash >= 0) {
    url.fragment = unescape(raw.slice(hash + 1), 'other');
  }
  return url;
}

/** Go's `parse(rawURL, viaRequest=false)`. */
function parseWithoutFragment(raw: string): GoUrl {
  if (hasControlChar(raw)) {
    fail('net/url: invalid control character in URL');
  }
  const url: GoUrl = { scheme: '', opaque: '', host: '', path: '', rawQuery: '', forceQuery: false, fragment: '' };
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
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }

  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      // Rootless paths (RFC 3986) are opaque.
      url.opaque = rest;
      return url;
    }
    // RFC 3986 §3.3: in a relative-path reference the first segment cannot contain ':'.
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) {
      fail('first path segment in URL cannot contain colon');
    }
  }

  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    parseAuthority(authority, url);
  }

  url.path = unescape(rest, 'other');
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
function parseAuthority(authority: string, url: GoUrl): void {
  const at = authority.lastIndexOf('@');
  url.host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) {
    return;
  }
  const userinfo = authority.slice(0, at);
  if (![...userinfo].every((c) => isAsciiLetter(c) || isAsciiDigit(c) || USERINFO_PUNCTUATION.includes(c))) {
    fail('net/url: invalid userinfo');
  }
  // Go unescapes the username and the password separately; only the errors matter here.
  const colon = userinfo.indexOf(':');
  if (colon < 0) {
    unescape(userinfo, 'other');
  } else {
    unescape(userinfo.slice(0, colon), 'other');
    unescape(userinfo.slice(colon + 1), 'other');
  }
  url.user = userinfo;
}

/**
 * Go's `parseHost` (1.24.8+/1.25.2+, with the CVE-2025-47912 check that only
 * IPv6 addresses may be bracketed).
 */
function parseHost(host: string): string {
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
    const port = unescape(colonPort, 'host');
    const literal = host.slice(1, close);
    // "%25" starts the zone, which may use (almost) any escape.
    const zone = literal.indexOf('%25');
    const address = zone < 0
      ? unescape(literal, 'host')
      : unescape(literal.slice(0, zone), 'host') + unescape(literal.slice(zone), 'zone');
    checkIpv6Literal(address);
    return `[${address}]${port}`;
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0) {
    const colonPort = host.slice(colon);
    if (!validOptionalPort(colonPort)) {
      fail(`invalid port ${quote(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

/** Go's `validOptionalPort`: '' or ':' followed by digits only. */
function validOptionalPort(port: string): boolean {
  if (port === '') {
    return true;
  }
  return port[0] === ':' && [...port.slice(1)].every(isAsciiDigit);
}

/**
 * Go's `unescape`: checks every '%' is followed by two hex digits (and, in
 * hosts, which bytes may appear at all), then decodes the escapes.
 */
function unescape(s: string, section: Section): string {
  let escapes = 0;
  for (let i = 0; i < s.length;) {
    const c = s[i];
    if (c === '%') {
      escapes++;
      if (i + 2 >= s.length || !isHexDigit(s[i + 1]) || !isHexDigit(s[i + 2])) {
        fail(`invalid URL escape ${quote(s.slice(i, i + 3))}`);
      }
      const escape = s.slice(i, i + 3);
      const value = parseInt(s.slice(i + 1, i + 3), 16);
      // RFC 3986 §3.2.2: hosts may only escape non-ASCII bytes; RFC 6874 adds "%25".
      if (section === 'host' && value < 0x80 && escape !== '%25') {
        fail(`invalid URL escape ${quote(escape)}`);
      }
      // Zones may escape only what could appear unescaped in a host, and spaces.
      if (section === 'zone' && escape !== '%25' && value !== 0x20 && !isHostByte(value)) {
        fail(`invalid URL escape ${quote(escape)}`);
      }
      i += 3;
    } else {
      if (section !== 'other' && c.charCodeAt(0) < 0x80 && !isHostByte(c.charCodeAt(0))) {
        fail(`invalid character ${quote(c)} in host name`);
      }
      i++;
    }
  }
  if (escapes === 0) {
    return s;
  }
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_, digits: string) => String.fromCharCode(parseInt(digits, 16)));
}

/** Whether Go's `shouldEscape(b, encodeHost)` is false: the byte may appear as is in a host. */
function isHostByte(b: number): boolean {
  if (b >= 0x80) {
    return false;
  }
  const c = String.fromCharCode(b);
  return isAsciiLetter(c) || isAsciiDigit(c) || HOST_PUNCTUATION.includes(c);
}

/**
 * The check Go applies to a bracketed host: `netip.ParseAddr` must accept it,
 * and it must not be an IPv4 address.
 */
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

/** Text to a byte string: one char per UTF-8 byte. */
function toByteString(text: string): string {
  if (isAscii(text)) {
    return text;
  }
  let out = '';
  for (const b of encoder.encode(text)) {
    out += String.fromCharCode(b);
  }
  return out;
}

/** A byte string back to text; invalid UTF-8 becomes U+FFFD. */
function fromByteString(bytes: string): string {
  if (isAscii(bytes)) {
    return bytes;
  }
  const buf = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    buf[i] = bytes.charCodeAt(i);
  }
  return decoder.decode(buf);
}

function toText(url: GoUrl): GoUrl {
  const text: GoUrl = {
    scheme: url.scheme,
    opaque: fromByteString(url.opaque),
    host: fromByteString(url.host),
    path: fromByteString(url.path),
    rawQuery: fromByteString(url.rawQuery),
    forceQuery: url.forceQuery,
    fragment: fromByteString(url.fragment),
  };
  if (url.user !== undefined) {
    text.user = fromByteString(url.user);
  }
  return text;
}
