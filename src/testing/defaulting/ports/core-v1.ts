import { formatGoQuantity, parseGoQuantity, roundUpGoQuantity } from '../../../schemas/quantity';
import { DefaultingContext, DefaultingFunctions } from '../defaulting-function';
import { GoObject, isNil, isObject, isZeroValue, len, objectAt } from '../go-values';
import { imageTag } from '../image-reference';

/**
 * The hand-written defaulters of core/v1 (k8s.io/kubernetes pkg/apis/core/v1/defaults.go), ported.
 * Each entry names the Go functions it follows with the hashes of the code versions it implements.
 */
export const CORE_V1: DefaultingFunctions = {
  'core/v1.SetDefaults_ResourceList': {
    go: { 'core/v1.SetDefaults_ResourceList': ['55be9a1da4dd'] },
    run(resources: GoObject) {
      // Values are rounded up to milli units ("to maintain API compatibility").
      for (const key of Object.keys(resources)) {
        const q = typeof resources[key] === 'string' ? parseGoQuantity(resources[key]) : undefined;
        if (q) resources[key] = formatGoQuantity(roundUpGoQuantity(q, -3));
      }
    },
  },
  'core/v1.SetDefaults_ReplicationController': {
    // 4fcf (1.28-1.32) defaulted replicas to 1 here; from 1.33 (0cad) that is declarative (+default=1).
    go: { 'core/v1.SetDefaults_ReplicationController': ['4fcf', '0cad5a6edb38'] },
    run(rc: GoObject, context) {
      if (context.minor <= 32 && isNil(objectAt(rc, 'spec').replicas)) rc.spec.replicas = 1;
      const labels = isObject(rc.spec?.template) ? rc.spec.template.metadata?.labels : undefined;
      if (!isNil(labels)) {
        if (len(rc.spec.selector) === 0) rc.spec.selector = { ...labels };
        const metadata = objectAt(rc, 'metadata');
        if (len(metadata.labels) === 0) metadata.labels = { ...labels };
      }
    },
  },
  'core/v1.SetDefaults_Volume': {
    // fe92 (1.28-1.30) has no image volumes; 260c (1.31) is 4039 with another pointer helper.
    go: { 'core/v1.SetDefaults_Volume': ['fe92', '260c', '403978a1dc4f'] },
    run(volume: GoObject, context) {
      // ptr.AllPtrFieldsNil(&obj.VolumeSource): every field of a volume but its name is a source.
      if (Object.keys(volume).every((k) => k === 'name' || isNil(volume[k]))) volume.emptyDir = {};
      if (context.gate('ImageVolume') && isObject(volume.image) && isZeroValue(volume.image.pullPolicy)) {
        volume.image.pullPolicy = pullPolicyFor(volume.image.reference);
      }
    },
  },
  'core/v1.SetDefaults_Container': {
    go: { 'core/v1.SetDefaults_Container': ['16d7b5a5c720'] },
    run: defaultContainer,
  },
  'core/v1.SetDefaults_EphemeralContainer': {
    go: { 'core/v1.SetDefaults_EphemeralContainer': ['e15798737534'], 'core/v1.SetDefaults_Container': ['16d7b5a5c720'] },
    run: defaultContainer,
  },
  'core/v1.SetDefaults_Service': {
    // c258 (1.28): externalTrafficPolicy for NodePort and LoadBalancer only, no ipMode; 34e3
    // (1.29-1.31) and eefc (1.32-1.34): ipMode under the LoadBalancerIPMode gate; 54d0 (1.35-).
    go: { 'core/v1.SetDefaults_Service': ['c258', '34e3', 'eefc', '54d007fbfe54'] },
    run(service: GoObject, context) {
      const spec = objectAt(service, 'spec');
      if (isZeroValue(spec.sessionAffinity)) spec.sessionAffinity = 'None';
      if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
      if (spec.sessionAffinity === 'ClientIP' && isNil(spec.sessionAffinityConfig?.clientIP?.timeoutSeconds)) {
        // v1.DefaultClientIPServiceAffinitySeconds: three hours.
        spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
      }
      if (isZeroValue(spec.type)) spec.type = 'ClusterIP';
      for (const port of Array.isArray(spec.ports) ? spec.ports : []) {
        if (isZeroValue(port.protocol)) port.protocol = 'TCP';
        if (port.targetPort === 0 || port.targetPort === '' || isNil(port.targetPort)) port.targetPort = port.port ?? 0;
      }
      // service.ExternallyAccessible: LoadBalancer, NodePort, or ClusterIP with external IPs.
      const externallyAccessible = spec.type === 'LoadBalancer' || spec.type === 'NodePort'
        || (context.minor >= 29 && spec.type === 'ClusterIP' && len(spec.externalIPs) > 0);
      if (externallyAccessible && isZeroValue(spec.externalTrafficPolicy)) spec.externalTrafficPolicy = 'Cluster';
      if (isNil(spec.internalTrafficPolicy) && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type)) spec.internalTrafficPolicy = 'Cluster';
      if (spec.type === 'LoadBalancer') {
        if (isNil(spec.allocateLoadBalancerNodePorts)) spec.allocateLoadBalancerNodePorts = true;
        const ipMode = context.minor >= 35 || (context.minor >= 29 && context.gate('LoadBalancerIPMode'));
        for (const ingress of ipMode && Array.isArray(service.status?.loadBalancer?.ingress) ? service.status.loadBalancer.ingress : []) {
          if (!isZeroValue(ingress.ip) && isNil(ingress.ipMode)) ingress.ipMode = 'VIP';
        }
      }
    },
  },
  'core/v1.SetDefaults_Pod': {
    // 0b18 (1.28-1.31) and 7cb1 (1.32) default resize policies under InPlacePodVerticalScaling;
    // 7cb1 and 7291 (1.33-1.36) pod-level requests under PodLevelResources; 214d (1.37) makes a
    // negative termination grace period 1 and defaults probes' HTTP protocol under H2CContainerProbe.
    go: {
      'core/v1.SetDefaults_Pod': ['0b18', '7cb1', '7291', '214dfc967f0b'],
      'core/v1.defaultHostNetworkPorts': ['8541806ca4bd'],
      // Helpers that releases before 1.37 do not have ('-').
      'core/v1.defaultHTTPGetProtocol': ['-', '314aa69885c2'],
      'core/v1.defaultHTTPProbeProtocol': ['-', '4685ed985bd5'],
      'core/v1.defaultHTTPProbeProtocolEphemeral': ['-', '825644370512'],
    },
    run(pod: GoObject, context) {
      const spec = objectAt(pod, 'spec');
      if (context.minor >= 37 && typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0) spec.terminationGracePeriodSeconds = 1;
      if (context.minor <= 32 && context.gate('InPlacePodVerticalScaling')) {
        for (const container of list(spec.containers)) {
          const requests = container.resources?.requests;
          if (isNil(requests)) continue;
          const policies: GoObject[] = Array.isArray(container.resizePolicy) ? container.resizePolicy : [];
          for (const name of ['cpu', 'memory']) {
            if (name in requests && !policies.some((p) => p?.resourceName === name)) policies.push({ resourceName: name, restartPolicy: 'NotRequired' });
          }
          if (policies.length > 0) container.resizePolicy = policies;
        }
      }
      // Requests default to limits on Pods (not on pod templates).
      for (const container of [...list(spec.containers), ...list(spec.initContainers)]) {
        const resources = objectAt(container, 'resources');
        if (!isNil(resources.limits)) {
          const requests = objectAt(resources, 'requests');
          for (const key of Object.keys(resources.limits)) if (!(key in requests)) requests[key] = resources.limits[key];
        }
      }
      if (context.gate('PodLevelResources') && !context.gate('PodLevelResourcesFixDefaulting') && !isNil(spec.resources)) {
        throw new Error('PolicyTester does not default pod-level resources (spec.resources) for this Kubernetes version');
      }
      if (isNil(spec.enableServiceLinks)) spec.enableServiceLinks = true;
      if (spec.hostNetwork === true) {
        for (const container of [...list(spec.containers), ...list(spec.initContainers)]) {
          for (const port of list(container.ports)) if (isZeroValue(port.hostPort)) port.hostPort = port.containerPort ?? 0;
        }
      }
      if (context.minor >= 37 && context.gate('H2CContainerProbe')) {
        for (const container of [...list(spec.containers), ...list(spec.initContainers), ...list(spec.ephemeralContainers)]) {
          for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe]) defaultHTTPGetProtocol(probe?.httpGet);
          defaultHTTPGetProtocol(container.lifecycle?.postStart?.httpGet);
          defaultHTTPGetProtocol(container.lifecycle?.preStop?.httpGet);
        }
      }
    },
  },
  'core/v1.SetDefaults_PodStatus': {
    go: { 'core/v1.SetDefaults_PodStatus': ['29d3839633e4'] },
    run(status: GoObject) {
      // The singular PodIP and the PodIPs list kept in sync; PodIP wins.
      const hasIP = len(status.podIP) > 0;
      const hasIPs = len(status.podIPs) > 0;
      if (hasIP && (!hasIPs || status.podIPs[0].ip !== status.podIP)) status.podIPs = [{ ip: status.podIP }];
      else if (!hasIP && hasIPs) status.podIP = status.podIPs[0].ip;
    },
  },
  'core/v1.SetDefaults_PodSpec': {
    // 19cf (1.28-1.30) defaults host ports of host-network templates under a deprecated gate;
    // 9297 (1.31-1.36) synced serviceAccount with serviceAccountName in conversion, not here (the
    // same result); 8a56 (1.37).
    go: { 'core/v1.SetDefaults_PodSpec': ['19cf', '9297', '8a56e2dc403c'], 'core/v1.defaultHostNetworkPorts': ['8541806ca4bd'] },
    run(spec: GoObject, context) {
      if (context.minor <= 30 && context.gate('DefaultHostNetworkHostPortsInPodTemplates') && spec.hostNetwork === true) {
        for (const container of [...list(spec.containers), ...list(spec.initContainers)]) {
          for (const port of list(container.ports)) if (isZeroValue(port.hostPort)) port.hostPort = port.containerPort ?? 0;
        }
      }
      if (len(spec.serviceAccountName) === 0) spec.serviceAccountName = spec.serviceAccount ?? '';
      spec.serviceAccount = spec.serviceAccountName;
      if (isZeroValue(spec.dnsPolicy)) spec.dnsPolicy = 'ClusterFirst';
      if (isZeroValue(spec.restartPolicy)) spec.restartPolicy = 'Always';
      if (isNil(spec.securityContext)) spec.securityContext = {};
      if (isNil(spec.terminationGracePeriodSeconds)) spec.terminationGracePeriodSeconds = 30;
      if (isZeroValue(spec.schedulerName)) spec.schedulerName = 'default-scheduler';
    },
  },
  'core/v1.SetDefaults_Probe': {
    go: { 'core/v1.SetDefaults_Probe': ['c84e87f5326b'] },
    run(probe: GoObject) {
      if (isZeroValue(probe.timeoutSeconds)) probe.timeoutSeconds = 1;
      if (isZeroValue(probe.periodSeconds)) probe.periodSeconds = 10;
      if (isZeroValue(probe.successThreshold)) probe.successThreshold = 1;
      if (isZeroValue(probe.failureThreshold)) probe.failureThreshold = 3;
    },
  },
  // The default modes of volume sources: 0644 (420).
  'core/v1.SetDefaults_SecretVolumeSource': defaultMode('SetDefaults_SecretVolumeSource', '45e04a920fb0'),
  'core/v1.SetDefaults_ConfigMapVolumeSource': defaultMode('SetDefaults_ConfigMapVolumeSource', 'dfca71ea6660'),
  'core/v1.SetDefaults_DownwardAPIVolumeSource': defaultMode('SetDefaults_DownwardAPIVolumeSource', '23fa8d87d84a'),
  'core/v1.SetDefaults_ProjectedVolumeSource': defaultMode('SetDefaults_ProjectedVolumeSource', '1d525f88dfeb'),
  'core/v1.SetDefaults_Secret': {
    go: { 'core/v1.SetDefaults_Secret': ['2fe58e29d131'] },
    run(secret: GoObject) {
      if (isZeroValue(secret.type)) secret.type = 'Opaque';
    },
  },
  'core/v1.SetDefaults_ServiceAccountTokenProjection': {
    go: { 'core/v1.SetDefaults_ServiceAccountTokenProjection': ['860d4da9e99f'] },
    run(projection: GoObject) {
      if (isNil(projection.expirationSeconds)) projection.expirationSeconds = 3600;
    },
  },
  'core/v1.SetDefaults_PersistentVolume': {
    go: { 'core/v1.SetDefaults_PersistentVolume': ['ff55a3b8a619'] },
    run(pv: GoObject) {
      const status = objectAt(pv, 'status');
      if (isZeroValue(status.phase)) status.phase = 'Pending';
      const spec = objectAt(pv, 'spec');
      if (isZeroValue(spec.persistentVolumeReclaimPolicy)) spec.persistentVolumeReclaimPolicy = 'Retain';
      if (isNil(spec.volumeMode)) spec.volumeMode = 'Filesystem';
    },
  },
  'core/v1.SetDefaults_PersistentVolumeClaim': {
    go: { 'core/v1.SetDefaults_PersistentVolumeClaim': ['8b8c48560ad0'] },
    run(pvc: GoObject) {
      const status = objectAt(pvc, 'status');
      if (isZeroValue(status.phase)) status.phase = 'Pending';
    },
  },
  'core/v1.SetDefaults_PersistentVolumeClaimSpec': {
    go: { 'core/v1.SetDefaults_PersistentVolumeClaimSpec': ['dacb30ac918a'] },
    run(spec: GoObject) {
      if (isNil(spec.volumeMode)) spec.volumeMode = 'Filesystem';
    },
  },
  'core/v1.SetDefaults_Endpoints': {
    go: { 'core/v1.SetDefaults_Endpoints': ['082fefa1802d'] },
    run(endpoints: GoObject) {
      for (const subset of list(endpoints.subsets)) for (const port of list(subset.ports)) if (isZeroValue(port.protocol)) port.protocol = 'TCP';
    },
  },
  'core/v1.SetDefaults_HTTPGetAction': {
    go: { 'core/v1.SetDefaults_HTTPGetAction': ['5e457c5c8a4a'] },
    run(action: GoObject) {
      if (isZeroValue(action.path)) action.path = '/';
      if (isZeroValue(action.scheme)) action.scheme = 'HTTP';
    },
  },
  'core/v1.SetDefaults_Namespace': {
    go: { 'core/v1.SetDefaults_Namespace': ['2d7b50b97ae9'] },
    run(namespace: GoObject) {
      const name = namespace.metadata?.name;
      if (len(name) > 0) objectAt(namespace.metadata, 'labels')['kubernetes.io/metadata.name'] = name;
    },
  },
  'core/v1.SetDefaults_NamespaceStatus': {
    go: { 'core/v1.SetDefaults_NamespaceStatus': ['76c440895ed8'] },
    run(status: GoObject) {
      if (isZeroValue(status.phase)) status.phase = 'Active';
    },
  },
  'core/v1.SetDefaults_NodeStatus': {
    go: { 'core/v1.SetDefaults_NodeStatus': ['c18f87435694'] },
    run(status: GoObject) {
      if (isNil(status.allocatable) && !isNil(status.capacity)) status.allocatable = { ...status.capacity };
    },
  },
  'core/v1.SetDefaults_ObjectFieldSelector': {
    go: { 'core/v1.SetDefaults_ObjectFieldSelector': ['a74f49f35d71'] },
    run(selector: GoObject) {
      if (isZeroValue(selector.apiVersion)) selector.apiVersion = 'v1';
    },
  },
  'core/v1.SetDefaults_LimitRangeItem': {
    go: { 'core/v1.SetDefaults_LimitRangeItem': ['81014cb15603'] },
    run(item: GoObject) {
      if (item.type !== 'Container') return;
      const defaults = objectAt(item, 'default');
      const defaultRequest = objectAt(item, 'defaultRequest');
      // The default limit from the max; the default request from the default limit, else the min.
      for (const [key, value] of Object.entries(item.max ?? {})) if (!(key in defaults)) defaults[key] = value;
      for (const [key, value] of Object.entries(defaults)) if (!(key in defaultRequest)) defaultRequest[key] = value;
      for (const [key, value] of Object.entries(item.min ?? {})) if (!(key in defaultRequest)) defaultRequest[key] = value;
    },
  },
  'core/v1.SetDefaults_ConfigMap': {
    go: { 'core/v1.SetDefaults_ConfigMap': ['768b492cc8e4'] },
    run(configMap: GoObject) {
      // An empty map, which encoding drops again (omitempty): no visible effect.
      if (isNil(configMap.data)) configMap.data = {};
    },
  },
  // 1.28-1.30 defaulted these sources by hand; later releases declare the same defaults (+default).
  'core/v1.SetDefaults_AzureDiskVolumeSource': {
    go: { 'core/v1.SetDefaults_AzureDiskVolumeSource': ['958d'] },
    run(source: GoObject) {
      if (isNil(source.cachingMode)) source.cachingMode = 'ReadWrite';
      if (isNil(source.kind)) source.kind = 'Shared';
      if (isNil(source.fsType)) source.fsType = 'ext4';
      if (isNil(source.readOnly)) source.readOnly = false;
    },
  },
  ...Object.fromEntries(['SetDefaults_ISCSIVolumeSource:2839', 'SetDefaults_ISCSIPersistentVolumeSource:de05'].map((entry) => {
    const [fn, hash] = entry.split(':');
    return [`core/v1.${fn}`, { go: { [`core/v1.${fn}`]: [hash] }, run: (source: GoObject) => { if (isZeroValue(source.iscsiInterface)) source.iscsiInterface = 'default'; } }];
  })),
  ...Object.fromEntries(['SetDefaults_RBDVolumeSource:a443', 'SetDefaults_RBDPersistentVolumeSource:e40e'].map((entry) => {
    const [fn, hash] = entry.split(':');
    return [`core/v1.${fn}`, {
      go: { [`core/v1.${fn}`]: [hash] },
      run(source: GoObject) {
        if (isZeroValue(source.pool)) source.pool = 'rbd';
        if (isZeroValue(source.user)) source.user = 'admin';
        if (isZeroValue(source.keyring)) source.keyring = '/etc/ceph/keyring';
      },
    }];
  })),
  ...Object.fromEntries(['SetDefaults_ScaleIOVolumeSource:1ba5', 'SetDefaults_ScaleIOPersistentVolumeSource:7908'].map((entry) => {
    const [fn, hash] = entry.split(':');
    return [`core/v1.${fn}`, {
      go: { [`core/v1.${fn}`]: [hash] },
      run(source: GoObject) {
        if (isZeroValue(source.storageMode)) source.storageMode = 'ThinProvisioned';
        if (isZeroValue(source.fsType)) source.fsType = 'xfs';
      },
    }];
  })),
  'core/v1.SetDefaults_HostPathVolumeSource': {
    go: { 'core/v1.SetDefaults_HostPathVolumeSource': ['d6c18a15afd9'] },
    run(source: GoObject) {
      if (isNil(source.type)) source.type = '';
    },
  },
};

function defaultContainer(container: GoObject, _context: DefaultingContext): void {
  if (isZeroValue(container.imagePullPolicy)) container.imagePullPolicy = pullPolicyFor(container.image);
  if (isZeroValue(container.terminationMessagePath)) container.terminationMessagePath = '/dev/termination-log';
  if (isZeroValue(container.terminationMessagePolicy)) container.terminationMessagePolicy = 'File';
}

/** Always for the `latest` tag (given, or implied by no tag and no digest), else IfNotPresent. */
function pullPolicyFor(image: unknown): string {
  return imageTag(typeof image === 'string' ? image : '') === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultMode(fn: string, hash: string): DefaultingFunctions[string] {
  return {
    go: { [`core/v1.${fn}`]: [hash] },
    run(source: GoObject) {
      if (isNil(source.defaultMode)) source.defaultMode = 0o644;
    },
  };
}

function defaultHTTPGetProtocol(action: unknown): void {
  if (isObject(action) && isNil(action.protocol)) action.protocol = 'HTTP/1.1';
}

function list(value: unknown): GoObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}
