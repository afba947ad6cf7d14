import { X509Certificate } from 'crypto';

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;
const ANY_PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----/g;

/**
 * The certificate authority the apiserver trusts when it calls the webhooks of a configuration.
 * One CA source per configuration: a literal PEM bundle, or cert-manager's CA injector (which then
 * owns `caBundle`, so the manifest leaves it out).
 */
export class CaBundle {
  /**
   * PEM-encoded CA certificates, checked to be certificates (no keys, not already base64) and
   * base64-encoded once into every webhook's `clientConfig.caBundle`.
   */
  public static fromPem(pem: string): CaBundle {
    return new CaBundle(encodePemBundle(pem), undefined);
  }

  /**
   * cert-manager's CA injector copies the CA of this Certificate into every webhook
   * (annotation `cert-manager.io/inject-ca-from: <namespace>/<name>`). The manifest has no caBundle.
   */
  public static fromCertManagerCertificate(name: string, namespace: string): CaBundle {
    return new CaBundle(undefined, { key: 'cert-manager.io/inject-ca-from', value: `${required('namespace', namespace)}/${required('name', name)}` });
  }

  /**
   * cert-manager's CA injector copies `ca.crt` of this Secret into every webhook (annotation
   * `cert-manager.io/inject-ca-from-secret`). The Secret needs the annotation
   * `cert-manager.io/allow-direct-injection: "true"`. The manifest has no caBundle.
   */
  public static fromCertManagerSecret(name: string, namespace: string): CaBundle {
    return new CaBundle(undefined, { key: 'cert-manager.io/inject-ca-from-secret', value: `${required('namespace', namespace)}/${required('name', name)}` });
  }

  private constructor(
    /** @internal */ public readonly _caBundle: string | undefined,
    /** @internal */ public readonly _annotation: { readonly key: string; readonly value: string } | undefined,
  ) {}
}

function required(what: string, value: string): string {
  if (!value || value.includes('/')) throw new Error(`CaBundle: invalid cert-manager reference: ${what} ${JSON.stringify(value)} must be a non-empty name without '/'`);
  return value;
}

/** Checks a PEM bundle and returns it base64-encoded, on one line, as the API expects `caBundle`. */
export function encodePemBundle(pem: string): string {
  const text = (pem ?? '').trim();
  if (!text.includes('-----BEGIN')) {
    const decoded = Buffer.from(text, 'base64').toString('utf-8');
    if (decoded.includes('-----BEGIN CERTIFICATE-----')) {
      throw new Error('CaBundle.fromPem: the CA bundle is already base64-encoded: pass the PEM text (-----BEGIN CERTIFICATE----- ...); it is encoded once for the manifest');
    }
    throw new Error('CaBundle.fromPem: the CA bundle is not PEM: expected one or more -----BEGIN CERTIFICATE----- blocks (convert DER with `openssl x509 -inform der`)');
  }
  for (const [, label] of text.matchAll(ANY_PEM_BLOCK)) {
    if (label !== 'CERTIFICATE') {
      throw new Error(`CaBundle.fromPem: the CA bundle contains a ${label} block: only CA certificates belong in caBundle${label.includes('PRIVATE') ? ' (never put private keys in manifests)' : ''}`);
    }
  }
  const blocks = text.match(CERTIFICATE_BLOCK) ?? [];
  const rest = text.replace(CERTIFICATE_BLOCK, '').trim();
  if (blocks.length === 0 || rest !== '') {
    throw new Error('CaBundle.fromPem: the CA bundle has text outside its -----BEGIN CERTIFICATE----- / -----END CERTIFICATE----- blocks, or an unterminated block');
  }
  blocks.forEach((block, i) => {
    try {
      new X509Certificate(block);
    } catch (e) {
      throw new Error(`CaBundle.fromPem: certificate ${i + 1} of the CA bundle is not a valid X.509 certificate: ${(e as Error).message}`);
    }
  });
  return Buffer.from(`${blocks.join('\n')}\n`, 'utf-8').toString('base64');
}
