import { randomInt, randomUUID } from 'crypto';
import { canonicalJson } from './canonical-json';
import { parseGoQuantity } from '../schemas/quantity';
import { DAEMONSET_TEMPLATE_GENERATION } from './defaulting/conversion';
import { GoObject, isNil, isObject, len, objectAt } from './defaulting/go-values';
import { dropDisabledPodSpecFields } from './disabled-fields';
import { GroupVersionKind } from './resource-table';

/**
 * What the apiserver's registry does to an object between the mutating and the validating
 * admission phases (k8s.io/apiserver pkg/registry/generic/registry/store.go, Store.create and
 * Store.Update): the system fields (rest.FillObjectMetaSystemFields: a new UID and the creation
 * time; rest.BeforeUpdate: both kept from the stored object, the generation too), a name for
 * `generateName`, and the kind's strategy, PrepareForCreate or PrepareForUpdate
 * (k8s.io/kubernetes pkg/registry/<group>/<resource>/strategy.go): status reset or kept, the
 * generation started or bumped, and what some kinds add (a Pod's phase and QoS class, a
 * Namespace's finalizer, a Job's generated selector).
 *
 * Not modelled: dropping the fields of disabled alpha features; dual-stack clusters (a Service's
 * IP families are IPv4's, its cluster IP and node ports placeholders).
 */
export interface StrategyContext {
  readonly gate: (name: string) => boolean;
  readonly now: Date;
}

/** The object validating admission sees on CREATE (`object` is changed in place). */
export function prepareForCreate(object: GoObject, gvk: GroupVersionKind, context: StrategyContext): GoObject {
  const out = object;
  const metadata = objectAt(out, 'metadata');
  metadata.creationTimestamp = timeText(context.now);
  metadata.uid = randomUUID();
  if (len(metadata.generateName) > 0 && len(metadata.name) === 0) metadata.name = generatedName(metadata.generateName);
  delete metadata.deletionTimestamp;
  delete metadata.deletionGracePeriodSeconds;
  const kind = `${gvk.group}/${gvk.kind}`;
  if (STATUS_RESET.has(kind)) out.status = {};
  if (GENERATION_STARTED.has(kind) || (kind === 'autoscaling/HorizontalPodAutoscaler' && context.gate('HPAGeneration'))) metadata.generation = 1;
  const podSpecPath = POD_SPECS[kind];
  if (podSpecPath) dropDisabledPodSpecFields(podSpecPath.reduce<any>((v, k) => (isObject(v) ? v[k] : undefined), out), context.gate);
  CREATE_SPECIFICS[kind]?.(out, context);
  return out;
}

/** Where the kinds with a pod spec or pod template keep it. */
const POD_SPECS: { readonly [kind: string]: readonly string[] } = {
  '/Pod': ['spec'],
  '/PodTemplate': ['template', 'spec'],
  '/ReplicationController': ['spec', 'template', 'spec'],
  'apps/Deployment': ['spec', 'template', 'spec'],
  'apps/ReplicaSet': ['spec', 'template', 'spec'],
  'apps/StatefulSet': ['spec', 'template', 'spec'],
  'apps/DaemonSet': ['spec', 'template', 'spec'],
  'batch/Job': ['spec', 'template', 'spec'],
  'batch/CronJob': ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

/** The object validating admission sees on UPDATE, given the stored one (`object` is changed in place). */
export function prepareForUpdate(object: GoObject, old: GoObject, gvk: GroupVersionKind): GoObject {
  const out = object;
  const metadata = objectAt(out, 'metadata');
  const oldMetadata = isObject(old.metadata) ? old.metadata : {};
  if (len(metadata.uid) === 0 && !isNil(oldMetadata.uid)) metadata.uid = oldMetadata.uid;
  if (!isNil(oldMetadata.creationTimestamp)) metadata.creationTimestamp = oldMetadata.creationTimestamp;
  if (isNil(oldMetadata.deletionTimestamp)) delete metadata.deletionTimestamp;
  else metadata.deletionTimestamp = oldMetadata.deletionTimestamp;
  setOrDelete(metadata, 'generation', oldMetadata.generation);
  const kind = `${gvk.group}/${gvk.kind}`;
  if (STATUS_RESET.has(kind) || kind === '/Pod') setOrDelete(out, 'status', old.status);
  // Most strategies bump the generation when the spec changed (DeepEqual of the old and new spec).
  if ((GENERATION_STARTED.has(kind) || kind === '/Pod') && canonicalJson(out.spec) !== canonicalJson(old.spec)) {
    metadata.generation = (typeof oldMetadata.generation === 'number' ? oldMetadata.generation : 0) + 1;
  }
  return out;
}

/** The kinds whose PrepareForCreate sets an empty status (1.37). */
const STATUS_RESET = new Set([
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy', 'apps/DaemonSet', 'apps/Deployment', 'apps/ReplicaSet', 'apps/StatefulSet',
  'autoscaling/HorizontalPodAutoscaler', 'batch/CronJob', 'batch/Job', 'certificates.k8s.io/CertificateSigningRequest',
  '/PersistentVolumeClaim', '/ReplicationController', '/ResourceQuota', '/Service', 'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration', 'networking.k8s.io/Ingress', 'policy/PodDisruptionBudget',
  'resource.k8s.io/DeviceTaintRule', 'resource.k8s.io/ResourceClaim', 'storage.k8s.io/VolumeAttachment', 'storage.k8s.io/CSINode',
]);

/** The kinds whose PrepareForCreate sets `metadata.generation` to 1 (1.37). */
const GENERATION_STARTED = new Set([
  'admissionregistration.k8s.io/MutatingAdmissionPolicy', 'admissionregistration.k8s.io/MutatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration', 'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding', 'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'apps/DaemonSet', 'apps/Deployment', 'apps/ReplicaSet', 'apps/StatefulSet', 'batch/CronJob', 'batch/Job', '/PodTemplate',
  '/ReplicationController', 'discovery.k8s.io/EndpointSlice', 'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration', 'networking.k8s.io/Ingress', 'networking.k8s.io/IngressClass',
  'networking.k8s.io/NetworkPolicy', 'policy/PodDisruptionBudget', 'apiextensions.k8s.io/CustomResourceDefinition', 'resource.k8s.io/DeviceClass', 'resource.k8s.io/DeviceTaintRule',
  'resource.k8s.io/ResourceSlice', 'scheduling.k8s.io/PriorityClass',
]);

const CREATE_SPECIFICS: { readonly [kind: string]: (object: GoObject, context: StrategyContext) => void } = {
  // pkg/registry/core/pod/strategy.go: podStrategy.PrepareForCreate.
  '/Pod': (pod, context) => {
    objectAt(pod, 'metadata').generation = 1;
    pod.status = { phase: 'Pending' };
    const spec = isObject(pod.spec) ? pod.spec : {};
    if (len(spec.schedulingGates) > 0) {
      pod.status.conditions = [{
        type: 'PodScheduled',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: timeText(context.now),
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
      }];
    }
    pod.status.qosClass = podQOS(spec, context);
  },
  // pkg/registry/apps/daemonset/strategy.go: the template generation starts at 1 (in apps/v1, an annotation: ./defaulting/conversion.ts).
  'apps/DaemonSet': (daemonSet) => {
    const annotations = objectAt(objectAt(daemonSet, 'metadata'), 'annotations');
    if (!(BigInt(annotations[DAEMONSET_TEMPLATE_GENERATION] ?? '0') >= 1n)) annotations[DAEMONSET_TEMPLATE_GENERATION] = '1';
  },
  // pkg/registry/batch/job/strategy.go: spec.scheduling needs WorkloadWithJob; generateSelector, unless the selector is manual.
  'batch/Job': (job, context) => {
    const spec = objectAt(job, 'spec');
    if (!context.gate('WorkloadWithJob')) delete spec.scheduling;
    if (spec.manualSelector === true) return;
    const uid = job.metadata.uid;
    const name = job.metadata.name ?? '';
    const labels = objectAt(objectAt(objectAt(spec, 'template'), 'metadata'), 'labels');
    // SetDefaults_Job gave a Job without labels its template's labels: the same Go map, which the
    // labels added here then change too (as long as no mutation re-decoded the object since).
    const metadataLabels = job.metadata.labels;
    const aliased = isObject(metadataLabels) && JSON.stringify(metadataLabels) === JSON.stringify(labels);
    const generated: { [key: string]: string } = {
      'batch.kubernetes.io/controller-uid': uid, 'controller-uid': uid, 'batch.kubernetes.io/job-name': name, 'job-name': name,
    };
    for (const [key, value] of Object.entries(generated)) if (!(key in labels)) labels[key] = value;
    if (aliased) job.metadata.labels = { ...labels };
    const matchLabels = objectAt(objectAt(spec, 'selector'), 'matchLabels');
    if (!('batch.kubernetes.io/controller-uid' in matchLabels)) matchLabels['batch.kubernetes.io/controller-uid'] = uid;
  },
  // pkg/registry/core/service/storage (REST.beginCreate, Allocators.allocateCreate): on a
  // single-stack IPv4 cluster, the IP family policy and families, a cluster IP and node ports.
  // The addresses and ports are placeholders: a cluster allocates its own.
  '/Service': (service) => {
    const spec = objectAt(service, 'spec');
    if (spec.type === 'ExternalName') return;
    const headlessWithoutSelector = spec.clusterIP === 'None' && len(spec.selector) === 0;
    if (isNil(spec.ipFamilyPolicy)) spec.ipFamilyPolicy = headlessWithoutSelector ? 'RequireDualStack' : 'SingleStack';
    if (len(spec.ipFamilies) === 0) spec.ipFamilies = ['IPv4'];
    if (len(spec.clusterIP) === 0) spec.clusterIP = len(spec.clusterIPs) > 0 ? spec.clusterIPs[0] : PLACEHOLDER_CLUSTER_IP;
    if (len(spec.clusterIPs) === 0) spec.clusterIPs = [spec.clusterIP];
    const needsNodePorts = spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
    let next = PLACEHOLDER_NODE_PORT;
    for (const port of needsNodePorts && Array.isArray(spec.ports) ? spec.ports : []) if (isObject(port) && !port.nodePort) port.nodePort = next++;
    if (spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local' && !spec.healthCheckNodePort) spec.healthCheckNodePort = next;
  },
  // pkg/registry/core/namespace/strategy.go: phase Active and the kubernetes finalizer.
  '/Namespace': (namespace) => {
    namespace.status = { phase: 'Active' };
    const spec = objectAt(namespace, 'spec');
    const finalizers: string[] = Array.isArray(spec.finalizers) ? spec.finalizers : [];
    if (!finalizers.includes('kubernetes')) spec.finalizers = [...finalizers, 'kubernetes'];
  },
  // pkg/registry/core/node/strategy.go dropDisabledFields: no config source on create.
  '/Node': (node, context) => {
    if (isObject(node.spec)) delete node.spec.configSource;
    if (isObject(node.status)) delete node.status.config;
    if (!context.gate('InPlacePodVerticalScalingSchedulerPreemption') && isObject(node.spec)) delete node.spec.podPreemptionPolicy;
  },
  // pkg/registry/core/serviceaccount/strategy.go cleanSecretReferences: a secret reference keeps its name only.
  '/ServiceAccount': (account) => {
    if (!Array.isArray(account.secrets)) return;
    account.secrets = account.secrets.map((s: unknown) => (isObject(s) && len(s.name) > 0 ? { name: s.name } : {}));
  },
  // pkg/registry/coordination/lease/strategy.go: the leader election fields need CoordinatedLeaderElection.
  'coordination.k8s.io/Lease': (lease, context) => {
    if (!context.gate('CoordinatedLeaderElection') && isObject(lease.spec)) {
      delete lease.spec.strategy;
      delete lease.spec.preferredHolder;
    }
  },
  // pkg/registry/core/persistentvolumeclaim/strategy.go: a dataSource of another kind than a
  // claim or snapshot is dropped (EnforceDataSourceBackwardsCompatibility), then dataSource and
  // dataSourceRef are made to agree (NormalizeDataSources).
  '/PersistentVolumeClaim': (pvc, context) => {
    const spec = objectAt(pvc, 'spec');
    // pkg/api/persistentvolumeclaim DropDisabledFields.
    if (!context.gate('VolumeAttributesClass')) delete spec.volumeAttributesClassName;
    if (!context.gate('CrossNamespaceVolumeDataSource') && len(spec.dataSourceRef?.namespace) !== 0) delete spec.dataSourceRef;
    const source = spec.dataSource;
    if (isNil(spec.dataSourceRef) && isObject(source)) {
      const group = source.apiGroup ?? '';
      const claim = source.kind === 'PersistentVolumeClaim' && group === '';
      const snapshot = source.kind === 'VolumeSnapshot' && group === 'snapshot.storage.k8s.io';
      if (!claim && !snapshot) delete spec.dataSource;
    }
    const reference = (from: GoObject) => ({ kind: from.kind, name: from.name, ...(isNil(from.apiGroup) ? {} : { apiGroup: from.apiGroup }) });
    const fromRef = isObject(spec.dataSourceRef) && isNil(spec.dataSource) && len(spec.dataSourceRef.namespace) === 0;
    if (isObject(spec.dataSource) && isNil(spec.dataSourceRef)) {
      spec.dataSourceRef = reference(spec.dataSource);
    } else if (fromRef) {
      spec.dataSource = reference(spec.dataSourceRef);
    }
  },
  // pkg/api/job DropDisabledFields: spec.scheduling needs WorkloadWithJob.
  'batch/CronJob': (cronJob, context) => {
    if (!context.gate('WorkloadWithJob') && isObject(cronJob.spec?.jobTemplate?.spec)) delete cronJob.spec.jobTemplate.spec.scheduling;
  },
  // pkg/registry/core/persistentvolume/strategy.go: Pending, since now.
  '/PersistentVolume': (pv, context) => {
    pv.status = { phase: 'Pending', lastPhaseTransitionTime: timeText(context.now) };
  },
  // pkg/registry/core/limitrange/strategy.go: a LimitRange without a name gets a UUID.
  '/LimitRange': (limitRange) => {
    if (len(limitRange.metadata.name) === 0) limitRange.metadata.name = randomUUID();
  },
};

/** What PolicyTester allocates where a cluster would: an address of the default service range, the first node port. */
const PLACEHOLDER_CLUSTER_IP = '10.96.0.1';
const PLACEHOLDER_NODE_PORT = 30000;

/**
 * pkg/apis/core/helper/qos ComputePodQOS: BestEffort without CPU and memory requests and limits,
 * Guaranteed when every container's CPU and memory requests equal its limits, else Burstable.
 */
function podQOS(spec: GoObject, context: StrategyContext): string {
  if (context.gate('PodLevelResources') && isObject(spec.resources) && (len(spec.resources.requests) > 0 || len(spec.resources.limits) > 0)) {
    return requirementsQOS(spec.resources);
  }
  let podQos = '';
  for (const container of [...list(spec.initContainers), ...list(spec.containers)]) {
    const qos = requirementsQOS(isObject(container.resources) ? container.resources : {});
    if (qos === 'Burstable') return qos;
    if (podQos === '') podQos = qos;
    else if (podQos !== qos) return 'Burstable';
  }
  return podQos || 'BestEffort';
}

function requirementsQOS(resources: GoObject): string {
  if (len(resources.requests) === 0 && len(resources.limits) === 0) return 'BestEffort';
  let qos = '';
  for (const name of ['cpu', 'memory']) {
    const request = quantityValue(resources.requests?.[name]);
    const limit = quantityValue(resources.limits?.[name]);
    const resourceQos = request !== limit ? 'Burstable' : request === '0' ? 'BestEffort' : 'Guaranteed';
    if (resourceQos === 'Burstable') return resourceQos;
    if (qos === '') qos = resourceQos;
    else if (qos !== resourceQos) return 'Burstable';
  }
  return qos;
}

/** A quantity's exact value as comparable text (a missing quantity is zero). */
function quantityValue(text: unknown): string {
  const q = typeof text === 'string' ? parseGoQuantity(text) : undefined;
  if (!q || q.mantissa === 0n) return '0';
  let { mantissa, exponent } = q;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  return `${mantissa}e${exponent}`;
}

/** names.SimpleNameGenerator: the prefix and five random characters from a set without vowels and look-alikes. */
function generatedName(prefix: string): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += alphabet[randomInt(alphabet.length)];
  // MaxGeneratedNameLength: 63 - 5; a longer prefix is cut.
  return prefix.slice(0, 58) + suffix;
}

/** metav1.Time as it is written: RFC 3339 in UTC, to the second. */
export function timeText(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function setOrDelete(o: GoObject, key: string, value: unknown): void {
  if (value === undefined) delete o[key];
  else o[key] = value;
}

function list(value: unknown): GoObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}
