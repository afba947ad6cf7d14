import { randomInt } from 'crypto';
import { AdmissionPlugin, missingObject, MutatingPlugin, PluginRequest } from './admission-plugin';
import { GoObject, isNil, isObject, len, objectAt } from '../defaulting/go-values';

const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * plugin/pkg/admission/serviceaccount (Plugin.Admit), on Pod creation: the `default`
 * ServiceAccount when none is named, the projected API token volume (`kube-api-access-<random>`)
 * mounted read-only in every container and init container (unless the Pod or its ServiceAccount
 * turns automounting off, or a container already mounts that path), and the account's image pull
 * secrets when the Pod has none. The `default` ServiceAccount is taken to exist in every
 * namespace (a controller creates it); another must be among the tester's manifests.
 */
export const SERVICE_ACCOUNT: MutatingPlugin = {
  name: AdmissionPlugin.SERVICE_ACCOUNT,
  resources: ['/pods'],
  admit(request: PluginRequest) {
    if (request.operation !== 'CREATE') return;
    if (request.subResource !== '' && request.subResource !== 'ephemeralcontainers') return;
    const pod = request.object;
    // Mirror pods are not mutated.
    if (isObject(pod.metadata?.annotations) && 'kubernetes.io/config.mirror' in pod.metadata.annotations) return;
    const spec = objectAt(pod, 'spec');
    if (len(spec.serviceAccountName) === 0) {
      spec.serviceAccountName = 'default';
      spec.serviceAccount = 'default';
    }
    const account = request.objectsOf('/ServiceAccount')
      .find((sa) => sa.metadata?.name === spec.serviceAccountName && (sa.metadata?.namespace ?? '') === request.namespace)
      ?? (spec.serviceAccountName === 'default' ? {} : undefined);
    if (!account) {
      throw missingObject(`the Pod's ServiceAccount '${spec.serviceAccountName}' is not among the tester's manifests in namespace '${request.namespace}'`,
        AdmissionPlugin.SERVICE_ACCOUNT, 'Add the ServiceAccount to the manifests');
    }
    const automount = !isNil(spec.automountServiceAccountToken) ? spec.automountServiceAccountToken : account.automountServiceAccountToken ?? true;
    if (automount === true) mountToken(spec);
    if (len(spec.imagePullSecrets) === 0 && len(account.imagePullSecrets) > 0) {
      spec.imagePullSecrets = (account.imagePullSecrets as GoObject[]).map((s) => ({ name: s?.name ?? '' }));
    }
  },
};

function mountToken(spec: GoObject): void {
  const volumes: GoObject[] = Array.isArray(spec.volumes) ? spec.volumes : [];
  const existing = volumes.find((v) => typeof v?.name === 'string' && v.name.startsWith('kube-api-access-'));
  const volumeName = existing?.name ?? `kube-api-access-${randomSuffix()}`;
  let needed = false;
  for (const key of ['initContainers', 'containers']) {
    for (const container of Array.isArray(spec[key]) ? spec[key] : []) {
      const mounts: GoObject[] = Array.isArray(container.volumeMounts) ? container.volumeMounts : [];
      if (mounts.some((m) => m?.mountPath === TOKEN_MOUNT_PATH)) continue;
      container.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
      needed = true;
    }
  }
  if (!existing && needed) spec.volumes = [...volumes, { name: volumeName, projected: tokenVolumeSource() }];
}

/** serviceaccount.TokenVolumeSource: the token (3607 s), the cluster's CA and the namespace. */
function tokenVolumeSource(): GoObject {
  return {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
    defaultMode: 0o644,
  };
}

/** names.SimpleNameGenerator's five characters. */
function randomSuffix(): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (let i = 0; i < 5; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}
