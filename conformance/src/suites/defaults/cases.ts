/**
 * The defaults suite's cases: minimal objects of the kinds policies match, as a user writes them
 * (nothing the apiserver defaults is given), and partial ones: each minimal object with up to three
 * fragments of what users add (ports, probes, volumes of each source, resources in every quantity
 * spelling, images with and without tags, tolerations, a ServiceAccount, a PriorityClass, a
 * RuntimeClass, Service types, workload strategies, ...). Generated from a seed; each fragment is a
 * change the apiserver's validation accepts, so that the request reaches admission.
 */
import { BuiltinSchemas, OpenApiSchema } from '../../../../src/schemas/builtin-schemas';
import { positions, sampleValue, SPECIAL } from '../../generators/schema-values';
import { seededRandom } from '../../generators/seeded-random';

export interface DefaultsCase {
  readonly name: string;
  /** The object as sent: without namespace (the suite sets it) and without the suite's name. */
  readonly object: any;
  /** Whether the kind is namespaced. */
  readonly namespaced: boolean;
}

/** Where a kind keeps a pod spec, for the pod fragments. */
type PodSpecPath = readonly string[];

interface KindBase {
  readonly object: any;
  readonly namespaced: boolean;
  readonly podSpec?: PodSpecPath;
  /** Fragments of this kind's own (beside the pod ones). */
  readonly fragments?: ReadonlyArray<(o: any) => void>;
}

const labels = { app: 'web' };
const container = () => ({ name: 'app', image: 'nginx' });
const podSpec = () => ({ containers: [container()] });
const template = () => ({ metadata: { labels: { ...labels } }, spec: podSpec() });

const KINDS: readonly KindBase[] = [
  {
    object: { apiVersion: 'v1', kind: 'Pod', spec: podSpec() },
    namespaced: true,
    podSpec: ['spec'],
    fragments: [
      (o) => { o.spec.restartPolicy = 'OnFailure'; },
      (o) => { o.spec.containers[0].resources = { limits: { cpu: '500m', memory: '128Mi' } }; },
      (o) => { o.spec.terminationGracePeriodSeconds = 0; },
    ],
  },
  {
    object: { apiVersion: 'apps/v1', kind: 'Deployment', spec: { selector: { matchLabels: { ...labels } }, template: template() } },
    namespaced: true,
    podSpec: ['spec', 'template', 'spec'],
    fragments: [
      (o) => { o.spec.strategy = { type: 'Recreate' }; },
      (o) => { o.spec.replicas = 0; },
      (o) => { o.spec.strategy = { rollingUpdate: { maxSurge: 1 } }; },
      (o) => { o.spec.paused = true; },
    ],
  },
  {
    object: { apiVersion: 'apps/v1', kind: 'StatefulSet', spec: { selector: { matchLabels: { ...labels } }, template: template() } },
    namespaced: true,
    podSpec: ['spec', 'template', 'spec'],
    fragments: [
      (o) => { o.spec.updateStrategy = { type: 'OnDelete' }; },
      (o) => { o.spec.podManagementPolicy = 'Parallel'; },
      (o) => { o.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }]; },
      (o) => { o.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete' }; },
    ],
  },
  {
    object: { apiVersion: 'apps/v1', kind: 'DaemonSet', spec: { selector: { matchLabels: { ...labels } }, template: template() } },
    namespaced: true,
    podSpec: ['spec', 'template', 'spec'],
    fragments: [
      (o) => { o.spec.updateStrategy = { type: 'OnDelete' }; },
      (o) => { o.spec.updateStrategy = { rollingUpdate: { maxUnavailable: '10%' } }; },
    ],
  },
  { object: { apiVersion: 'apps/v1', kind: 'ReplicaSet', spec: { selector: { matchLabels: { ...labels } }, template: template() } }, namespaced: true, podSpec: ['spec', 'template', 'spec'] },
  {
    object: { apiVersion: 'batch/v1', kind: 'Job', spec: { template: { spec: { ...podSpec(), restartPolicy: 'Never' } } } },
    namespaced: true,
    podSpec: ['spec', 'template', 'spec'],
    fragments: [
      (o) => { o.spec.completions = 3; },
      (o) => { o.spec.parallelism = 2; },
      (o) => { o.spec.completionMode = 'Indexed'; o.spec.completions = 2; o.spec.backoffLimitPerIndex = 1; },
      (o) => { o.spec.podFailurePolicy = { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] }; },
      (o) => { o.spec.template.metadata = { labels: { team: 'a' } }; },
      (o) => { o.metadata = { ...o.metadata, labels: { own: 'yes' } }; o.spec.template.metadata = { labels: { team: 'a' } }; },
    ],
  },
  {
    object: { apiVersion: 'batch/v1', kind: 'CronJob', spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { ...podSpec(), restartPolicy: 'OnFailure' } } } } } },
    namespaced: true,
    podSpec: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
    fragments: [
      (o) => { o.spec.concurrencyPolicy = 'Forbid'; },
      (o) => { o.spec.suspend = true; },
    ],
  },
  { object: { apiVersion: 'v1', kind: 'ReplicationController', spec: { template: template() } }, namespaced: true, podSpec: ['spec', 'template', 'spec'] },
  { object: { apiVersion: 'v1', kind: 'PodTemplate', template: template() }, namespaced: true, podSpec: ['template', 'spec'] },
  {
    object: { apiVersion: 'v1', kind: 'Service', spec: { selector: { ...labels }, ports: [{ port: 80 }] } },
    namespaced: true,
    fragments: [
      (o) => { o.spec.type = 'NodePort'; },
      (o) => { o.spec.type = 'LoadBalancer'; },
      (o) => { o.spec.clusterIP = 'None'; },
      (o) => { o.spec.sessionAffinity = 'ClientIP'; },
      (o) => { o.spec.ports = [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }]; },
      (o) => { o.spec.externalIPs = ['192.0.2.10']; },
    ],
  },
  { object: { apiVersion: 'v1', kind: 'Service', spec: { type: 'ExternalName', externalName: 'db.example.com' } }, namespaced: true },
  { object: { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } }, namespaced: true, fragments: [(o) => { delete o.data; }, (o) => { o.binaryData = { b: 'aGk=' }; }] },
  { object: { apiVersion: 'v1', kind: 'Secret', stringData: { password: 'x' } }, namespaced: true, fragments: [(o) => { o.type = 'kubernetes.io/basic-auth'; o.stringData = { username: 'u' }; }, (o) => { o.data = { key: 'dmFsdWU=' }; }] },
  { object: { apiVersion: 'v1', kind: 'ServiceAccount' }, namespaced: true, fragments: [(o) => { o.automountServiceAccountToken = false; }] },
  {
    object: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
    namespaced: true,
    fragments: [
      (o) => { o.spec.storageClassName = 'manual'; },
      (o) => { o.spec.resources.requests.storage = '0.5Gi'; },
      (o) => { o.spec.volumeMode = 'Block'; },
    ],
  },
  {
    object: { apiVersion: 'v1', kind: 'PersistentVolume', spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } },
    namespaced: false,
    fragments: [
      (o) => { o.spec.persistentVolumeReclaimPolicy = 'Delete'; },
    ],
  },
  { object: { apiVersion: 'v1', kind: 'Namespace' }, namespaced: false },
  { object: { apiVersion: 'v1', kind: 'Node' }, namespaced: false, fragments: [(o) => { o.spec = { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] }; }] },
  {
    object: { apiVersion: 'v1', kind: 'LimitRange', spec: { limits: [{ type: 'Container', max: { cpu: '2' } }] } },
    namespaced: true,
    fragments: [
      (o) => { o.spec.limits = [{ type: 'Container', min: { memory: '16Mi' }, default: { memory: '256Mi' } }]; },
    ],
  },
  { object: { apiVersion: 'v1', kind: 'ResourceQuota', spec: { hard: { 'pods': '10', 'requests.cpu': '1000m' } } }, namespaced: true },
  { object: { apiVersion: 'v1', kind: 'Endpoints', subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] }, namespaced: true },
  { object: { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }], ports: [{ port: 80 }] }, namespaced: true },
  {
    object: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } } },
    namespaced: true,
    fragments: [
      (o) => { o.spec.ingressClassName = 'other'; },
      (o) => { o.metadata = { ...o.metadata, annotations: { 'kubernetes.io/ingress.class': 'legacy' } }; },
    ],
  },
  { object: { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', spec: { controller: 'example.com/ingress', parameters: { kind: 'Params', name: 'p' } } }, namespaced: false },
  {
    object: { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', spec: { podSelector: {} } },
    namespaced: true,
    fragments: [
      (o) => { o.spec.egress = [{ ports: [{ port: 53 }] }]; },
      (o) => { o.spec.ingress = [{ ports: [{ port: 80 }, { port: 'http', protocol: 'UDP' }] }]; },
    ],
  },
  { object: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', spec: { minAvailable: 1, selector: { matchLabels: { ...labels } } } }, namespaced: true },
  { object: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }, namespaced: true },
  { object: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'builder', namespace: 'x' }, { kind: 'Group', name: 'devs' }] }, namespaced: true },
  { object: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] }, namespaced: false },
  { object: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'Group', name: 'devs' }] }, namespaced: false },
  { object: { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', provisioner: 'example.com/disk' }, namespaced: false },
  { object: { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', spec: {} }, namespaced: false },
  { object: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', value: 10 }, namespaced: false },
  { object: { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5 } }, namespaced: true },
  {
    object: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5 } },
    namespaced: true,
    fragments: [
      (o) => { o.spec.behavior = { scaleDown: { stabilizationWindowSeconds: 60 } }; },
    ],
  },
  { object: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec: { holderIdentity: 'a' } }, namespaced: true },
  { object: { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', handler: 'runc' }, namespaced: false },
  {
    object: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'NAME', kind: 'Thing' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] },
    },
    namespaced: false,
  },
  // Not the admission policies and bindings: the apiserver sends no admission request for them to
  // policies or webhooks, so there is nothing to compare (PolicyTester exempts them too).
];

/** Changes to a pod spec that users make, each valid on its own and with the others. */
const POD_FRAGMENTS: ReadonlyArray<(spec: any) => void> = [
  (s) => { s.containers[0].ports = [{ containerPort: 8080 }]; },
  (s) => { s.containers[0].ports = [{ name: 'http', containerPort: 8080 }, { containerPort: 53, protocol: 'UDP' }]; },
  (s) => { s.hostNetwork = true; s.containers[0].ports = [{ containerPort: 9100 }]; },
  (s) => { s.containers[0].image = 'nginx:1.27'; },
  (s) => { s.containers[0].image = 'nginx:latest'; },
  (s) => { s.containers[0].image = 'registry.example.com:5000/team/app'; },
  (s) => { s.containers[0].image = 'nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'; },
  (s) => { s.containers[0].imagePullPolicy = 'Never'; },
  (s) => { s.containers[0].livenessProbe = { httpGet: { port: 8080 } }; },
  (s) => { s.containers[0].readinessProbe = { tcpSocket: { port: 8080 }, periodSeconds: 5 }; },
  (s) => { s.containers[0].startupProbe = { exec: { command: ['true'] }, failureThreshold: 30 }; },
  (s) => { s.containers[0].livenessProbe = { grpc: { port: 9000 } }; },
  (s) => { s.containers[0].lifecycle = { preStop: { httpGet: { port: 8080, path: '/stop' } } }; },
  (s) => { s.containers[0].env = [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'A', value: 'b' }]; },
  (s) => { s.containers[0].resources = { requests: { cpu: '0.5', memory: '1.5Gi' } }; },
  (s) => { s.containers[0].resources = { limits: { cpu: '1000m', memory: '2e9' } }; },
  (s) => { s.containers[0].resources = { requests: { cpu: '0.0001', memory: '100M' }, limits: { cpu: '1', memory: '1Gi' } }; },
  (s) => { s.containers[0].resources = { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '250m', memory: '64Mi' } }; },
  (s) => { s.volumes = [{ name: 'scratch' }]; s.containers[0].volumeMounts = [{ name: 'scratch', mountPath: '/scratch' }]; },
  (s) => { s.volumes = [{ name: 'cfg', configMap: { name: 'cfg' } }, { name: 'sec', secret: { secretName: 's', items: [{ key: 'k', path: 'p' }] } }]; },
  (s) => { s.volumes = [{ name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } }]; },
  (s) => { s.volumes = [{ name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token', audience: 'vault' } }] } }]; },
  (s) => { s.volumes = [{ name: 'host', hostPath: { path: '/var/log' } }, { name: 'data', persistentVolumeClaim: { claimName: 'data' } }]; },
  (s) => { s.volumes = [{ name: 'eph', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } }]; },
  (s) => { s.initContainers = [{ name: 'init', image: 'busybox:1.36', command: ['true'] }]; },
  (s) => { s.initContainers = [{ name: 'sidecar', image: 'envoy', restartPolicy: 'Always' }]; },
  (s) => { s.tolerations = [{ key: 'dedicated', operator: 'Exists' }]; },
  (s) => { s.tolerations = [{ operator: 'Exists' }]; },
  (s) => { s.tolerations = [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }]; },
  (s) => { s.serviceAccountName = 'builder'; },
  (s) => { s.automountServiceAccountToken = false; },
  (s) => { s.priorityClassName = 'system-cluster-critical'; },
  (s) => { s.priorityClassName = 'batch-low'; },
  (s) => { s.runtimeClassName = 'sandboxed'; },
  (s) => { s.schedulingGates = [{ name: 'example.com/wait' }]; },
  (s) => { s.securityContext = { runAsNonRoot: true, runAsUser: 1000 }; },
  (s) => { s.dnsPolicy = 'Default'; },
  (s) => { s.enableServiceLinks = false; },
  (s) => { s.nodeSelector = { disk: 'ssd' }; },
  (s) => { s.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }]; },
];

/** The minimal object of every kind, then `count` partial ones. */
export function defaultsCases(count: number, seed: number): DefaultsCase[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const out: DefaultsCase[] = KINDS.map((k, i) => ({ name: `minimal ${k.object.apiVersion} ${k.object.kind} #${i}`, object: copy(k.object), namespaced: k.namespaced }));
  for (let i = 0; i < count; i++) {
    const base = pick(KINDS);
    const object = copy(base.object);
    const applied: string[] = [];
    const n = 1 + Math.floor(random() * 3);
    for (let j = 0; j < n; j++) {
      const own = base.fragments ?? [];
      const usePod = base.podSpec !== undefined && (own.length === 0 || random() < 0.7);
      if (usePod) {
        const f = Math.floor(random() * POD_FRAGMENTS.length);
        POD_FRAGMENTS[f](at(object, base.podSpec!));
        applied.push(`pod#${f}`);
      } else if (own.length > 0) {
        const f = Math.floor(random() * own.length);
        own[f](object);
        applied.push(`own#${f}`);
      }
    }
    out.push({ name: `partial ${base.object.apiVersion} ${base.object.kind} (${[...new Set(applied)].join(', ') || 'none'}) #${i}`, object, namespaced: base.namespaced });
  }
  return out;
}

function at(o: any, path: PodSpecPath): any {
  return path.reduce((v, k) => v[k], o);
}

function copy<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}

/**
 * Variants drawn by type: a case with one to three fields it lacks set to values of their schema's
 * type, the empty and zero ones first among them (`''`, `0`, `false`, `[]`, `{}`, `null`, which
 * encoding drops or keeps by the Go type and which defaulters treat as unset), and the special
 * values quantities, times and int-or-strings decode. Many are refused by validation (not counted);
 * the others reach admission with fields no fragment above sets.
 */
export function typedVariants(cases: readonly DefaultsCase[], count: number, seed: number, schemas: BuiltinSchemas): DefaultsCase[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const out: DefaultsCase[] = [];
  for (let i = 0; i < count * 4 && out.length < count; i++) {
    const base = pick(cases);
    const kind = schemas.kind(base.object.apiVersion, base.object.kind);
    if (!kind) continue;
    const object = copy(base.object);
    const set: string[] = [];
    for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
      const open = positions(object, kind.schema, schemas).filter((p) => p.value && typeof p.value === 'object' && !Array.isArray(p.value)
        && p.schema.properties && !(p.path.length === 1 && p.path[0] === 'metadata'));
      if (open.length === 0) break;
      const p = pick(open);
      const missing = Object.keys(p.schema.properties!).filter((k) => !(k in (p.value as object)) && !['apiVersion', 'kind', 'status'].includes(k));
      if (missing.length === 0) continue;
      const key = pick(missing);
      const value = pick(valuesOf(p.schema.properties![key], schemas));
      (p.value as any)[key] = value;
      set.push(`${[...p.path, key].join('.')}=${JSON.stringify(value)?.slice(0, 40)}`);
    }
    if (set.length === 0) continue;
    out.push({ name: `typed ${base.object.apiVersion} ${base.object.kind} (${set.join(', ')}) #${i}`, object, namespaced: base.namespaced });
  }
  return out;
}

/** Values of a schema's type: empty and zero values first, then a sample. */
function valuesOf(given: OpenApiSchema, schemas: BuiltinSchemas): unknown[] {
  const special = given.$ref ? SPECIAL[given.$ref] : undefined;
  if (special) return [null, ...special.decodes];
  const schema = schemas.resolve(given);
  if (schema['x-kubernetes-int-or-string']) return [null, 0, 1, '', '25%', 'http'];
  switch (schema.type) {
    case 'string': return [null, '', 'x', ...(schema.enum ?? []).slice(0, 3)];
    case 'integer': return [null, 0, 1, 3];
    case 'number': return [null, 0, 0.5];
    case 'boolean': return [null, false, true];
    case 'array': return [null, [], [sampleValue(schema.items ?? {}, schemas)]];
    default: return [null, {}, sampleValue(schema, schemas)];
  }
}
