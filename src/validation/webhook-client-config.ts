import { FieldViolation, invalid, required, warning } from './field-errors';
import { FieldPath } from './field-path';
import { isGoBase64 } from '../shared/go-json-decoding';
import { isDns1123Subdomain } from '../shared/name-formats';
import { goUrlErrorText, hostname, isGoUrlError, parseGoUrl, userinfoString } from '../shared/net-url';
import type { ServiceReference, WebhookClientConfig } from '../wire/admissionregistration';

const URL_FORM = '; desired format: https://host[/path]';

/**
 * Where the apiserver sends admission reviews, exactly one of `url` and `service` (k8s.io/kubernetes
 * pkg/apis/admissionregistration/validation/validation.go: validateValidatingWebhook; k8s.io/apiserver pkg/util/webhook/validation.go: ValidateWebhookURL, ValidateWebhookService).
 */
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

/**
 * The URL rules of k8s.io/apiserver `ValidateWebhookURL`, with Go's `net/url` parsing (where
 * `https:///x` has no host, unlike a browser's URL parser). A host with a port but no name
 * (`https://:443/`) passes the apiserver, which only asks for a non-empty host; no request can
 * reach it, so it is a warning.
 */
export function validateUrl(raw: string, path: FieldPath): FieldViolation[] {
  const u = parseGoUrl(raw);
  if (isGoUrlError(u)) {
    return [required(path, `url must be a valid URL: ${goUrlErrorText(u)}${URL_FORM}`)];
  }
  const out: FieldViolation[] = [];
  if (u.scheme !== 'https') out.push(invalid(path, u.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (u.host === '') out.push(invalid(path, u.host, `host must be specified${URL_FORM}`));
  else if (hostname(u) === '') out.push(warning(path, `the host ${JSON.stringify(u.host)} has a port but no name: the apiserver accepts it, but cannot call the webhook; give a host name${URL_FORM}`));
  if (u.user !== undefined) out.push(invalid(path, userinfoString(u.user), 'user information is not permitted in the URL'));
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

/**
 * Validates the `path` of a webhook `clientConfig.service`. Mirrors the path
 * rules of apiserver `webhook.ValidateWebhookService`
 * (k8s.io/apiserver/pkg/util/webhook), including its quirk of skipping the
 * first character even when it is not a '/'.
 */
export function validateWebhookServicePath(path: string): string[] {
  if (path === '' || path === '/') {
    return [];
  }
  if (path === '//') {
    return ['segment[0] may not be empty'];
  }

  const errs: string[] = [];
  if (!path.startsWith('/')) {
    errs.push("must start with a '/'");
  }
  let toCheck = path.slice(1);
  if (toCheck.endsWith('/')) {
    toCheck = toCheck.slice(0, -1);
  }
  toCheck.split('/').forEach((segment, i) => {
    if (segment.length === 0) {
      errs.push(`segment[${i}] may not be empty`);
      return;
    }
    for (const failure of isDns1123Subdomain(segment)) {
      errs.push(`segment[${i}]: ${failure}`);
    }
  });
  return errs;
}
