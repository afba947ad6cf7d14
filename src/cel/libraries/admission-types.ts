import { CelEnvironment } from '../engine';

/**
 * The typed admission variables (k8s.io/apiserver/pkg/admission/plugin/cel): `request` is a
 * `kubernetes.AdmissionRequest` (without uid, object and oldObject), `namespaceObject` a
 * `kubernetes.Namespace` with the fields CreateNamespaceObject copies. Any other field is a
 * compile error (`undefined field 'uid'`).
 */
export const REQUEST_TYPE = 'kubernetes.AdmissionRequest';
export const NAMESPACE_TYPE = 'kubernetes.Namespace';

export function installAdmissionTypes(env: CelEnvironment): void {
  env.registerType('kubernetes.GroupVersionKind', { fields: { group: 'string', version: 'string', kind: 'string' } });
  env.registerType('kubernetes.GroupVersionResource', { fields: { group: 'string', version: 'string', resource: 'string' } });
  env.registerType('kubernetes.UserInfo', {
    fields: { username: 'string', uid: 'string', groups: 'list<string>', extra: 'map<string, list<string>>' },
  });
  env.registerType(REQUEST_TYPE, {
    fields: {
      kind: 'kubernetes.GroupVersionKind',
      resource: 'kubernetes.GroupVersionResource',
      subResource: 'string',
      requestKind: 'kubernetes.GroupVersionKind',
      requestResource: 'kubernetes.GroupVersionResource',
      requestSubResource: 'string',
      name: 'string',
      namespace: 'string',
      operation: 'string',
      userInfo: 'kubernetes.UserInfo',
      dryRun: 'bool',
      options: 'dyn',
    },
  });
  env.registerType('kubernetes.Namespace.metadata', {
    fields: {
      name: 'string',
      generateName: 'string',
      namespace: 'string',
      labels: 'map<string, string>',
      annotations: 'map<string, string>',
      UID: 'string',
      creationTimestamp: 'google.protobuf.Timestamp',
      deletionGracePeriodSeconds: 'int',
      deletionTimestamp: 'google.protobuf.Timestamp',
      generation: 'int',
      resourceVersion: 'string',
      finalizers: 'list<string>',
    },
  });
  env.registerType('kubernetes.Namespace.spec', { fields: { finalizers: 'list<string>' } });
  env.registerType('kubernetes.Namespace.status.conditions', {
    fields: { status: 'string', type: 'string', lastTransitionTime: 'google.protobuf.Timestamp', message: 'string', reason: 'string' },
  });
  env.registerType('kubernetes.Namespace.status', {
    fields: { conditions: 'list<kubernetes.Namespace.status.conditions>', phase: 'string' },
  });
  env.registerType(NAMESPACE_TYPE, {
    fields: { metadata: 'kubernetes.Namespace.metadata', spec: 'kubernetes.Namespace.spec', status: 'kubernetes.Namespace.status' },
  });
}
