import { FieldViolation, invalid, required, warning } from './field-errors';
import { FieldPath } from './field-path';
import { validateWebhookServicePath } from './formats';
import { hostname, isGoUrlError, parseGoUrl } from './go-url';
import type { ServiceReference, WebhookClientConfig } from '../wire/admissionregistration';

const URL_FORM = '; desired format: https://host[/path]';

/** W10-W12: where the apiserver sends admission reviews, exactly one of `url` and `service`. */
export function validateClientConfig(config: WebhookClientConfig | undefined, path: FieldPath): FieldViolation[] {
  const c = config ?? {};
  const hasUrl = c.url !== undefined;
  const hasService = c.service !== undefined;
  const out = c.caBundle !== undefined && !isGoBase64(c.caBundle)
    ? [invalid(path.child('caBundle'), c.caBundle, 'illegal base64 data: caBundle holds the PEM bundle base64-encoded (CaBundle.fromPem encodes it)')]
    : [];
  if (hasUrl === hasService) return [...out, required(path, 'exactly one of url or service is required')];
  return [...out, ...(hasUrl ? validateUrl(c.url!, path.child('url')) : validateService(c.service!, path.child('service')))];
}

/** What Go's JSON decoding accepts for a []byte: standard base64 with padding, line breaks ignored. */
function isGoBase64(value: string): boolean {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value.replace(/[\r\n]/g, ''));
}

/**
 * The URL rules of k8s.io/apiserver `ValidateWebhookURL`, with Go's `net/url` parsing (where
 * `https:///x` has no host, unlike a browser's URL parser). A host with a port but no name
 * (`https://:443/`) passes the apiserver, which only asks for a non-empty host; no request can
 * reach it, so it is a warning.
 */
export function validateUrl(raw: string, path: FieldPath): FieldViolation[] {
  const u = parseGoUrl(raw);
  if (isGoUrlError(u)) {
    return [required(path, `url must be a valid URL: parse ${JSON.stringify(raw)}: ${u.error}${URL_FORM}`)];
  }
  const out: FieldViolation[] = [];
  if (u.scheme !== 'https') out.push(invalid(path, u.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (u.host === '') out.push(invalid(path, u.host, `host must be specified${URL_FORM}`));
  else if (hostname(u) === '') out.push(warning(path, `the host ${JSON.stringify(u.host)} has a port but no name: the apiserver accepts it, but cannot call the webhook; give a host name${URL_FORM}`));
  if (u.user !== undefined) out.push(invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') out.push(invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery !== '') out.push(invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return out;
}

/**
 * The apiserver swaps name and namespace when it reports a missing one (kubernetes#141353);
 * this reports each at its own path.
 */
function validateService(service: ServiceReference, path: FieldPath): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (!service.name) out.push(required(path.child('name'), 'service name is required'));
  if (!service.namespace) out.push(required(path.child('namespace'), 'service namespace is required'));
  if (service.port !== undefined && (service.port < 1 || service.port > 65535)) {
    out.push(invalid(path.child('port'), service.port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  if (service.path !== undefined) {
    for (const detail of validateWebhookServicePath(service.path)) {
      out.push(invalid(path.child('path'), service.path, detail));
    }
  }
  return out;
}
