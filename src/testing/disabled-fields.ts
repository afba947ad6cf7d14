import { isObject } from './defaulting/go-values';

/**
 * The pod fields of features that are off by default: on create the apiserver drops them from
 * a Pod and from every pod template (k8s.io/kubernetes pkg/api/pod/util.go, dropDisabledFields,
 * DropDisabledPodFields and DropDisabledTemplateFields, as of 1.37). A path's `*` is each item of a
 * list; `C` is each container, init container and ephemeral container.
 */
const POD_SPEC_RULES: ReadonlyArray<{ readonly gate: string; readonly paths: readonly string[] }> = [
  { gate: 'UserNamespacesSupport', paths: ['hostUsers'] },
  { gate: 'SupplementalGroupsPolicy', paths: ['securityContext.supplementalGroupsPolicy'] },
  { gate: 'PodLevelResources', paths: ['resources'] },
  { gate: 'ProcMountType', paths: ['C.securityContext.procMount'] },
  { gate: 'NodeInclusionPolicyInPodTopologySpread', paths: ['topologySpreadConstraints.*.nodeTaintsPolicy', 'topologySpreadConstraints.*.nodeAffinityPolicy'] },
  { gate: 'MatchLabelKeysInPodTopologySpread', paths: ['topologySpreadConstraints.*.matchLabelKeys'] },
  {
    gate: 'MatchLabelKeysInPodAffinity',
    paths: ['podAffinity', 'podAntiAffinity'].flatMap((a) => ['matchLabelKeys', 'mismatchLabelKeys'].flatMap((k) => [
      `affinity.${a}.requiredDuringSchedulingIgnoredDuringExecution.*.${k}`,
      `affinity.${a}.preferredDuringSchedulingIgnoredDuringExecution.*.podAffinityTerm.${k}`,
    ])),
  },
  { gate: 'DynamicResourceAllocation', paths: ['resourceClaims'] },
  { gate: 'ClusterTrustBundleProjection', paths: ['volumes.*.projected.sources.*.clusterTrustBundle'] },
  { gate: 'PodCertificateRequest', paths: ['volumes.*.projected.sources.*.podCertificate'] },
  {
    gate: 'AtomicWriteVolumeUserFields',
    paths: [
      'volumes.*.secret.defaultUser', 'volumes.*.configMap.defaultUser', 'volumes.*.downwardAPI.defaultUser', 'volumes.*.projected.defaultUser',
      'volumes.*.secret.items.*.user', 'volumes.*.configMap.items.*.user', 'volumes.*.downwardAPI.items.*.user',
      'volumes.*.projected.sources.*.serviceAccountToken.user', 'volumes.*.projected.sources.*.clusterTrustBundle.user',
      'volumes.*.projected.sources.*.secret.items.*.user', 'volumes.*.projected.sources.*.configMap.items.*.user',
      'volumes.*.projected.sources.*.downwardAPI.items.*.user',
    ],
  },
  { gate: 'GenericWorkload', paths: ['schedulingGroup'] },
  { gate: 'EvictionRequestAPI', paths: ['evictionResponders'] },
  { gate: 'GRPCContainerProbeTLS', paths: ['livenessProbe', 'readinessProbe', 'startupProbe'].map((p) => `C.${p}.grpc.mode`) },
  { gate: 'ContainerRestartRules', paths: ['containers.*.restartPolicy', 'C.restartPolicyRules', 'ephemeralContainers.*.restartPolicy'] },
  { gate: 'RecursiveReadOnlyMounts', paths: ['C.volumeMounts.*.recursiveReadOnly'] },
  { gate: 'EmptyDirVolumeMode', paths: ['volumes.*.emptyDir.mode'] },
  { gate: 'VolumeBindMountOptions', paths: ['C.volumeMounts.*.bindMountOptions'] },
  { gate: 'HostnameOverride', paths: ['hostnameOverride'] },
  { gate: 'EnvFiles', paths: ['C.env.*.valueFrom.fileKeyRef'] },
  { gate: 'SELinuxChangePolicy', paths: ['securityContext.seLinuxChangePolicy'] },
  { gate: 'ContainerStopSignals', paths: ['C.lifecycle.stopSignal'] },
  { gate: 'H2CContainerProbe', paths: ['livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle.postStart', 'lifecycle.preStop'].map((p) => `C.${p}.httpGet.protocol`) },
  { gate: 'InPlacePodVerticalScaling', paths: ['C.resizePolicy'] },
];

/** The rules with their paths split and containers expanded, once. */
const EXPANDED = POD_SPEC_RULES.map((rule) => ({ gate: rule.gate, paths: rule.paths.flatMap(expand) }));

/** Drops, in place, the fields of disabled features from a pod spec being created. */
export function dropDisabledPodSpecFields(spec: unknown, gate: (name: string) => boolean): void {
  if (!isObject(spec)) return;
  for (const rule of EXPANDED) {
    if (gate(rule.gate)) continue;
    for (const path of rule.paths) drop(spec, path);
  }
  // An init container's restartPolicy Always (a sidecar) is kept; others go with ContainerRestartRules.
  if (!gate('ContainerRestartRules')) {
    for (const c of Array.isArray(spec.initContainers) ? spec.initContainers : []) if (isObject(c) && c.restartPolicy !== 'Always') delete c.restartPolicy;
  }
}

function expand(path: string): string[][] {
  const segments = path.split('.');
  if (segments[0] !== 'C') return [segments];
  return ['containers', 'initContainers', 'ephemeralContainers'].map((c) => [c, '*', ...segments.slice(1)]);
}

function drop(node: unknown, path: readonly string[]): void {
  if (path.length === 0) return;
  const [head, ...rest] = path;
  if (head === '*') {
    if (Array.isArray(node)) for (const item of node) drop(item, rest);
    return;
  }
  if (!isObject(node)) return;
  if (rest.length === 0) delete node[head];
  else drop(node[head], rest);
}
