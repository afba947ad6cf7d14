/**
 * Built-in objects of the kinds policies usually match, beside the recorded ones, as bases of the
 * objects suite: each valid, and with the field types decoding has cases for (quantities,
 * int-or-string, int64, maps, lists of objects, times and micro-times, empty structs,
 * apiextensions' either-or types, free-form JSON).
 */
import { ObjectCase } from './cases';

const labels = { 'app.kubernetes.io/name': 'web' };
const podSpec = {
  serviceAccountName: 'default',
  containers: [{
    name: 'web',
    image: 'registry.example.com/web:1.2.3',
    ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
    env: [{ name: 'MODE', value: 'production' }, { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: 1, memory: '256Mi' } },
    readinessProbe: { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 5 },
    securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  }],
  tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
};
const template = { metadata: { labels }, spec: podSpec };

const OBJECTS: any[] = [
  { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: labels, ports: [{ name: 'http', port: 80, targetPort: 'http' }], type: 'ClusterIP' } },
  { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token' }, type: 'Opaque', data: { token: 'c2VjcmV0' }, stringData: { user: 'admin' } },
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' }, automountServiceAccountToken: false },
  { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } } },
  { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'quota' }, spec: { hard: { 'requests.cpu': '4', 'limits.memory': '8Gi', 'pods': 20 } } },
  { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits' }, spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, max: { memory: '1Gi' } }] } },
  { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { serviceName: 'db', replicas: 3, selector: { matchLabels: labels }, template, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } },
  { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: { matchLabels: labels }, template, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } } } },
  { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'migrate' }, spec: { backoffLimit: 2, ttlSecondsAfterFinished: 600, template: { spec: { ...podSpec, restartPolicy: 'Never' } } } },
  { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'report' }, spec: { schedule: '0 3 * * *', concurrencyPolicy: 'Forbid', jobTemplate: { spec: { template: { spec: { ...podSpec, restartPolicy: 'OnFailure' } } } } } },
  { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web', annotations: { 'example.com/tls': 'true' } }, spec: { ingressClassName: 'nginx', rules: [{ host: 'shop.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] } },
  { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'web' }, spec: { podSelector: { matchLabels: labels }, policyTypes: ['Ingress'], ingress: [{ from: [{ namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['shop'] }] } }], ports: [{ protocol: 'TCP', port: 8080 }] }] } },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'reader' }, subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }], roleRef: { kind: 'Role', name: 'reader', apiGroup: 'rbac.authorization.k8s.io' } },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'viewer' }, rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] },
  { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }] } },
  { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: '50%', selector: { matchLabels: labels } } },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'critical' }, value: 100000, globalDefault: false, description: 'critical workloads' },
  { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'example.com/ssd', parameters: { type: 'ssd' }, reclaimPolicy: 'Delete', allowVolumeExpansion: true },
  { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'leader' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: '2026-01-02T15:04:05.000000Z', renewTime: '2026-01-02T15:05:05.123456Z' } },
  {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: 'web.1' },
    eventTime: '2026-01-02T15:04:05.000000Z',
    reportingController: 'example.com/controller',
    reportingInstance: 'controller-1',
    action: 'Scale',
    reason: 'Scaled',
    type: 'Normal',
    note: 'scaled to 3',
    regarding: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'default' },
  },
  { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'batch', creationTimestamp: '2026-01-02T15:04:05Z' }, spec: { ...podSpec, activeDeadlineSeconds: 3600, terminationGracePeriodSeconds: 30 } },
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
      scope: 'Namespaced',
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', additionalProperties: { type: 'string' }, properties: {} },
              tags: { type: 'array', items: { type: 'string' } },
              status: { type: 'object', additionalProperties: true },
            },
          },
        },
      }],
    },
  },
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      scope: 'Namespaced',
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true, 'default': { size: 1 } } } } },
      }],
    },
  },
];

export function baseObjects(): ObjectCase[] {
  return OBJECTS.map((object) => ({ name: `base ${object.apiVersion} ${object.kind}`, object }));
}
