import { CelEnvironment } from '../engine';
import { CelLibrary, registerOpaqueType } from '../library';
import { celError } from './values';

/**
 * The Kubernetes URLs library (library/urls.go): `url(s)` (an absolute URI or an absolute path),
 * `isURL(s)` and the `kubernetes.URL` getters.
 */
export const URL_TYPE = 'kubernetes.URL';

export class CelUrl {
  public static parse(text: string): CelUrl | undefined {
    if (text.startsWith('/')) {
      if (/[\s]/.test(text)) return undefined;
      const q = text.indexOf('?');
      return new CelUrl('', '', '', q === -1 ? text : text.slice(0, q), q === -1 ? '' : text.slice(q + 1), '', text);
    }
    const m = /^([A-Za-z][A-Za-z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#.*)?$/.exec(text);
    if (!m || /\s/.test(text)) return undefined;
    const authority = m[2] ?? '';
    const host = authority.includes('@') ? authority.slice(authority.lastIndexOf('@') + 1) : authority;
    const hm = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host);
    if (!hm) return undefined;
    const hostname = hm[1].startsWith('[') ? hm[1].slice(1, -1) : hm[1];
    return new CelUrl(m[1], host, hostname, m[3], m[4] ?? '', hm[2] ?? '', text);
  }

  public constructor(
    public readonly scheme: string,
    public readonly host: string,
    public readonly hostname: string,
    public readonly path: string,
    public readonly query: string,
    public readonly port = '',
    /** The URL as written: what two URLs are compared by (url.go Equal compares their String()). */
    public readonly text = '',
  ) {}

  public queryMap(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    if (!this.query) return out;
    for (const [k, v] of new URLSearchParams(this.query)) out.set(k, [...(out.get(k) ?? []), v]);
    return out;
  }
}

/**
 * Why Go's url.ParseRequestURI refuses a text, for the reasons it gives most (url.go parse): an
 * empty text, a control character, a colon before any scheme, a text that is neither absolute nor
 * a path. Other refusals read "invalid URI for request" too.
 */
function parseRequestUriReason(s: string): string {
  if (s === '') return 'empty url';
  if (/[\x00-\x1f\x7f]/.test(s)) return 'net/url: invalid control character in URL';
  if (s.startsWith(':')) return 'missing protocol scheme';
  return 'invalid URI for request';
}

export const URLS: CelLibrary = {
  name: 'urls',
  install(env: CelEnvironment) {
    const U = URL_TYPE;
    registerOpaqueType(env, U, CelUrl);
    env.registerFunction(`url(string): ${U}`, (s: string) => {
      const u = CelUrl.parse(s);
      if (!u) throw celError(`URL parse error during conversion from string: parse ${JSON.stringify(s)}: ${parseRequestUriReason(s)}`);
      return u;
    });
    env.registerFunction('isURL(string): bool', (s: string) => CelUrl.parse(s) !== undefined);
    env.registerOperator(`${U} == ${U}`, (a: CelUrl, b: CelUrl) => a.text === b.text);
    env.registerFunction(`${U}.getScheme(): string`, (u: CelUrl) => u.scheme);
    env.registerFunction(`${U}.getHost(): string`, (u: CelUrl) => u.host);
    env.registerFunction(`${U}.getHostname(): string`, (u: CelUrl) => u.hostname);
    env.registerFunction(`${U}.getPort(): string`, (u: CelUrl) => u.port);
    env.registerFunction(`${U}.getEscapedPath(): string`, (u: CelUrl) => u.path);
    env.registerFunction(`${U}.getQuery(): map<string, list<string>>`, (u: CelUrl) => u.queryMap());
  },
};
