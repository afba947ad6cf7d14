import { CelEnvironment } from '../engine';
import { CelLibrary, registerOpaqueType } from '../library';
import { celError } from './values';
import {
  escapedPath, goUrlErrorText, GoUrl, GoUrlError, hostname, isGoUrlError, parseGoRequestUri, parseGoUrl, port, queryValues, urlString, wellFormedText,
} from '../../shared/net-url';

/**
 * The Kubernetes URLs library (k8s.io/apiserver/pkg/cel/library/urls.go): `url(s)`, `isURL(s)` and
 * the `kubernetes.URL` getters, on Go's net/url (shared/net-url.ts) as the apiserver's are.
 */
export const URL_TYPE = 'kubernetes.URL';

/**
 * A `kubernetes.URL` value (k8s.io/apiserver/pkg/cel/url.go: URL, a *url.URL). Its strings are
 * Go's, which may hold bytes that are not UTF-8 (`%ff` in a host or a query): a CEL string shows
 * each as U+FFFD, as the apiserver's JSON does.
 */
export class CelUrl {
  /**
   * urls.go `stringToUrl`: the text must pass `url.ParseRequestURI` (an absolute URI or an
   * absolute path), and the value is what `url.Parse` makes of it (the fragment cut off).
   */
  public static parse(text: string): CelUrl | GoUrlError {
    const requestUri = parseGoRequestUri(text);
    if (isGoUrlError(requestUri)) return requestUri;
    const url = parseGoUrl(text);
    return isGoUrlError(url) ? url : new CelUrl(url);
  }

  /** getScheme(): `URL.Scheme`. */
  public readonly scheme: string;
  /** getHost(): `URL.Host`. */
  public readonly host: string;
  /** getHostname(): `URL.Hostname()`. */
  public readonly hostname: string;
  /** getPort(): `URL.Port()`. */
  public readonly port: string;
  /** getEscapedPath(): `URL.EscapedPath()`. */
  public readonly path: string;
  /** The encoded query, without '?' (`URL.RawQuery`). */
  public readonly query: string;
  /** `URL.String()`: what two URLs are compared by (url.go `URL.Equal`). */
  public readonly text: string;

  public constructor(private readonly url: GoUrl) {
    this.scheme = url.scheme;
    this.host = wellFormedText(url.host);
    this.hostname = wellFormedText(hostname(url));
    this.port = port(url);
    this.path = escapedPath(url);
    this.query = url.rawQuery;
    this.text = urlString(url);
  }

  /** getQuery(): `URL.Query()`, url.ParseQuery of the query with malformed pairs dropped. */
  public queryValues(): Map<string, string[]> {
    const values = new Map<string, string[]>();
    for (const [key, list] of queryValues(this.url)) {
      const text = wellFormedText(key);
      values.set(text, [...(values.get(text) ?? []), ...list.map(wellFormedText)]);
    }
    return values;
  }
}

export const URLS: CelLibrary = {
  name: 'urls',
  install(env: CelEnvironment) {
    const U = URL_TYPE;
    registerOpaqueType(env, U, CelUrl);
    env.registerFunction(`url(string): ${U}`, (s: string) => {
      const u = CelUrl.parse(s);
      if (!(u instanceof CelUrl)) throw celError(`URL parse error during conversion from string: ${goUrlErrorText(u)}`);
      return u;
    });
    // urls.go `isURL`: whether url.ParseRequestURI accepts the text.
    env.registerFunction('isURL(string): bool', (s: string) => !isGoUrlError(parseGoRequestUri(s)));
    env.registerOperator(`${U} == ${U}`, (a: CelUrl, b: CelUrl) => a.text === b.text);
    env.registerFunction(`${U}.getScheme(): string`, (u: CelUrl) => u.scheme);
    env.registerFunction(`${U}.getHost(): string`, (u: CelUrl) => u.host);
    env.registerFunction(`${U}.getHostname(): string`, (u: CelUrl) => u.hostname);
    env.registerFunction(`${U}.getPort(): string`, (u: CelUrl) => u.port);
    env.registerFunction(`${U}.getEscapedPath(): string`, (u: CelUrl) => u.path);
    env.registerFunction(`${U}.getQuery(): map<string, list<string>>`, (u: CelUrl) => u.queryValues());
  },
};
