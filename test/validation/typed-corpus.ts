/**
 * A corpus of realistic admission policies, written for the tests of typed CEL: none of them may
 * get a type warning (a false warning would teach users to ignore them). The shapes are the usual
 * ones: pod security, images and registries, labels and annotations, replicas and resources,
 * networking, RBAC, and custom resources (dynamic). Pod-spec policies are written once and applied
 * to every workload kind, at the path its pod spec has.
 */

export interface Workload {
  readonly group: string;
  readonly resource: string;
  /** Where the pod spec is, from `object`. */
  readonly podSpec: string;
  /** Where the pod template's metadata is (the object's own for pods). */
  readonly podMeta: string;
}

export const WORKLOADS: readonly Workload[] = [
  { group: '', resource: 'pods', podSpec: 'object.spec', podMeta: 'object.metadata' },
  { group: 'apps', resource: 'deployments', podSpec: 'object.spec.template.spec', podMeta: 'object.spec.template.metadata' },
  { group: 'apps', resource: 'statefulsets', podSpec: 'object.spec.template.spec', podMeta: 'object.spec.template.metadata' },
  { group: 'apps', resource: 'daemonsets', podSpec: 'object.spec.template.spec', podMeta: 'object.spec.template.metadata' },
  { group: 'apps', resource: 'replicasets', podSpec: 'object.spec.template.spec', podMeta: 'object.spec.template.metadata' },
  { group: 'batch', resource: 'jobs', podSpec: 'object.spec.template.spec', podMeta: 'object.spec.template.metadata' },
  { group: 'batch', resource: 'cronjobs', podSpec: 'object.spec.jobTemplate.spec.template.spec', podMeta: 'object.spec.jobTemplate.spec.template.metadata' },
];

/** Validations over a pod spec `S` and pod metadata `M`. */
export const POD_SPEC_POLICIES: ReadonlyArray<[string, string]> = [
  ['no-privileged', 'S.containers.all(c, !has(c.securityContext) || !has(c.securityContext.privileged) || !c.securityContext.privileged)'],
  ['no-privilege-escalation', 'S.containers.all(c, has(c.securityContext) && has(c.securityContext.allowPrivilegeEscalation) && !c.securityContext.allowPrivilegeEscalation)'],
  ['run-as-non-root', '(has(S.securityContext) && has(S.securityContext.runAsNonRoot) && S.securityContext.runAsNonRoot) || S.containers.all(c, has(c.securityContext) && c.securityContext.?runAsNonRoot.orValue(false))'],
  ['no-root-uid', 'S.containers.all(c, !has(c.securityContext) || c.securityContext.?runAsUser.orValue(1000) != 0)'],
  ['no-host-namespaces', '!S.?hostNetwork.orValue(false) && !S.?hostPID.orValue(false) && !S.?hostIPC.orValue(false)'],
  ['no-host-path', '!has(S.volumes) || S.volumes.all(v, !has(v.hostPath))'],
  ['no-host-ports', 'S.containers.all(c, !has(c.ports) || c.ports.all(p, !has(p.hostPort) || p.hostPort == 0))'],
  ['drop-all-capabilities', "S.containers.all(c, has(c.securityContext) && has(c.securityContext.capabilities) && has(c.securityContext.capabilities.drop) && 'ALL' in c.securityContext.capabilities.drop)"],
  ['allowed-capabilities', "S.containers.all(c, !has(c.securityContext) || !has(c.securityContext.capabilities) || !has(c.securityContext.capabilities.add) || c.securityContext.capabilities.add.all(a, a in ['NET_BIND_SERVICE']))"],
  ['read-only-root-fs', 'S.containers.all(c, c.?securityContext.?readOnlyRootFilesystem.orValue(false))'],
  ['seccomp-runtime-default', "has(S.securityContext) && has(S.securityContext.seccompProfile) && S.securityContext.seccompProfile.type in ['RuntimeDefault', 'Localhost']"],
  ['apparmor', "!has(S.securityContext) || !has(S.securityContext.appArmorProfile) || S.securityContext.appArmorProfile.type != 'Unconfined'"],
  ['no-proc-mount', "S.containers.all(c, !has(c.securityContext) || c.securityContext.?procMount.orValue('Default') == 'Default')"],
  ['sysctls', "!has(S.securityContext) || !has(S.securityContext.sysctls) || S.securityContext.sysctls.all(s, s.name.startsWith('net.ipv4.ip_local_port_range'))"],
  ['selinux', '!has(S.securityContext) || !has(S.securityContext.seLinuxOptions) || !has(S.securityContext.seLinuxOptions.user)'],
  ['volume-types', '!has(S.volumes) || S.volumes.all(v, has(v.configMap) || has(v.secret) || has(v.emptyDir) || has(v.persistentVolumeClaim) || has(v.projected) || has(v.downwardAPI) || has(v.csi) || has(v.ephemeral))'],
  ['trusted-registry', "S.containers.all(c, c.image.startsWith('registry.example.com/'))"],
  ['init-containers-registry', "!has(S.initContainers) || S.initContainers.all(c, c.image.startsWith('registry.example.com/'))"],
  ['no-latest-tag', "S.containers.all(c, c.image.contains(':') && !c.image.endsWith(':latest'))"],
  ['image-digest', "S.containers.all(c, c.image.matches('^[^@]+@sha256:[a-f0-9]{64}$'))"],
  ['pull-policy', "S.containers.all(c, c.?imagePullPolicy.orValue('IfNotPresent') == 'Always')"],
  ['limits-set', "S.containers.all(c, has(c.resources) && has(c.resources.limits) && 'cpu' in c.resources.limits && 'memory' in c.resources.limits)"],
  ['requests-set', "S.containers.all(c, has(c.resources) && has(c.resources.requests) && 'memory' in c.resources.requests)"],
  ['memory-limit-max', "S.containers.all(c, !has(c.resources) || !has(c.resources.limits) || !('memory' in c.resources.limits) || quantity(string(c.resources.limits.memory)).compareTo(quantity('4Gi')) <= 0)"],
  ['cpu-request-max', "S.containers.all(c, !has(c.resources.requests) || !('cpu' in c.resources.requests) || quantity(string(c.resources.requests.cpu)).isLessThan(quantity('8')))"],
  ['probes', 'S.containers.all(c, has(c.readinessProbe) && has(c.livenessProbe))'],
  ['probe-ports', "S.containers.all(c, !has(c.readinessProbe) || !has(c.readinessProbe.httpGet) || type(c.readinessProbe.httpGet.port) == int || c.readinessProbe.httpGet.port != '')"],
  ['no-service-account-token', '!S.?automountServiceAccountToken.orValue(true) || S.?serviceAccountName.orValue("default") != "default"'],
  ['env-no-secrets-inline', "S.containers.all(c, !has(c.env) || c.env.all(e, !e.name.contains('PASSWORD') || has(e.valueFrom)))"],
  ['env-from-configmaps', 'S.containers.all(c, !has(c.envFrom) || c.envFrom.all(e, has(e.configMapRef) || has(e.secretRef)))'],
  ['termination-grace', '!has(S.terminationGracePeriodSeconds) || S.terminationGracePeriodSeconds <= 120'],
  ['priority-class', "!has(S.priorityClassName) || S.priorityClassName in ['low', 'default', 'high']"],
  ['node-selector', "has(S.nodeSelector) && 'kubernetes.io/os' in S.nodeSelector"],
  ['tolerations', "!has(S.tolerations) || S.tolerations.all(t, t.?key.orValue('') != 'node-role.kubernetes.io/control-plane')"],
  ['dns-policy', "S.?dnsPolicy.orValue('ClusterFirst') != 'None' || has(S.dnsConfig)"],
  ['pod-app-label', "has(M.labels) && 'app.kubernetes.io/name' in M.labels"],
  ['pod-team-annotation', "has(M.annotations) && M.annotations.exists(k, k.startsWith('team.example.com/'))"],
  ['container-names', "S.containers.all(c, c.name.matches('^[a-z][a-z0-9-]*$'))"],
  ['container-ports-named', 'S.containers.all(c, !has(c.ports) || c.ports.all(p, has(p.name) && p.containerPort > 1024))'],
  ['ephemeral-storage', "S.containers.all(c, !has(c.resources.limits) || !('ephemeral-storage' in c.resources.limits) || quantity(string(c.resources.limits['ephemeral-storage'])).isLessThan(quantity('10Gi')))"],
];

/** Policies of other kinds: [name, group, version, resource, expression]. */
const OTHER_POLICIES: ReadonlyArray<[string, string, string, string, string]> = [
  ['replica-limit', 'apps', 'v1', 'deployments', 'object.spec.replicas <= 50'],
  ['min-replicas', 'apps', 'v1', 'deployments', '!has(object.spec.replicas) || object.spec.replicas >= 2'],
  ['rolling-update', 'apps', 'v1', 'deployments', "!has(object.spec.strategy) || object.spec.?strategy.?type.orValue('RollingUpdate') == 'RollingUpdate'"],
  ['max-surge', 'apps', 'v1', 'deployments', "!has(object.spec.strategy.rollingUpdate) || !has(object.spec.strategy.rollingUpdate.maxSurge) || object.spec.strategy.rollingUpdate.maxSurge != '100%'"],
  ['selector-matches', 'apps', 'v1', 'deployments', 'object.spec.selector.matchLabels.all(k, k in object.spec.template.metadata.labels && object.spec.template.metadata.labels[k] == object.spec.selector.matchLabels[k])'],
  ['scale-down-only-by-half', 'apps', 'v1', 'deployments', 'oldObject == null || !has(oldObject.spec.replicas) || object.spec.replicas * 2 >= oldObject.spec.replicas'],
  ['statefulset-service', 'apps', 'v1', 'statefulsets', "has(object.spec.serviceName) && object.spec.serviceName != ''"],
  ['statefulset-pvc-size', 'apps', 'v1', 'statefulsets', "!has(object.spec.volumeClaimTemplates) || object.spec.volumeClaimTemplates.all(t, quantity(string(t.spec.resources.requests.storage)).isLessThan(quantity('100Gi')))"],
  ['daemonset-update', 'apps', 'v1', 'daemonsets', "object.spec.?updateStrategy.?type.orValue('RollingUpdate') == 'RollingUpdate'"],
  ['job-backoff', 'batch', 'v1', 'jobs', '!has(object.spec.backoffLimit) || object.spec.backoffLimit <= 6'],
  ['job-ttl', 'batch', 'v1', 'jobs', 'has(object.spec.ttlSecondsAfterFinished)'],
  ['cronjob-schedule', 'batch', 'v1', 'cronjobs', "!object.spec.schedule.startsWith('* ')"],
  ['cronjob-concurrency', 'batch', 'v1', 'cronjobs', "object.spec.?concurrencyPolicy.orValue('Allow') != 'Allow'"],
  ['hpa-max', 'autoscaling', 'v2', 'horizontalpodautoscalers', 'object.spec.maxReplicas <= 100 && object.spec.?minReplicas.orValue(1) >= 1'],
  ['hpa-metrics', 'autoscaling', 'v2', 'horizontalpodautoscalers', "!has(object.spec.metrics) || object.spec.metrics.all(m, m.type != 'External')"],
  ['pdb-min-available', 'policy', 'v1', 'poddisruptionbudgets', 'has(object.spec.minAvailable) || has(object.spec.maxUnavailable)'],
  ['service-no-nodeport', '', 'v1', 'services', "object.spec.?type.orValue('ClusterIP') != 'NodePort'"],
  ['service-no-loadbalancer', '', 'v1', 'services', "object.spec.?type.orValue('ClusterIP') != 'LoadBalancer' || (has(object.metadata.annotations) && 'service.beta.kubernetes.io/internal' in object.metadata.annotations)"],
  ['service-no-external-ips', '', 'v1', 'services', '!has(object.spec.externalIPs) || size(object.spec.externalIPs) == 0'],
  ['service-ports', '', 'v1', 'services', "!has(object.spec.ports) || object.spec.ports.all(p, p.port >= 1024 || p.?protocol.orValue('TCP') == 'TCP')"],
  ['service-target-port', '', 'v1', 'services', "!has(object.spec.ports) || object.spec.ports.all(p, !has(p.targetPort) || type(p.targetPort) == int || p.targetPort != '')"],
  ['ingress-tls', 'networking.k8s.io', 'v1', 'ingresses', 'has(object.spec.tls) && object.spec.tls.all(t, has(t.secretName))'],
  ['ingress-hosts', 'networking.k8s.io', 'v1', 'ingresses', "!has(object.spec.rules) || object.spec.rules.all(r, has(r.host) && r.host.endsWith('.example.com'))"],
  ['ingress-class', 'networking.k8s.io', 'v1', 'ingresses', "has(object.spec.ingressClassName) && object.spec.ingressClassName in ['nginx', 'internal']"],
  ['ingress-backend-ports', 'networking.k8s.io', 'v1', 'ingresses', '!has(object.spec.rules) || object.spec.rules.all(r, !has(r.http) || r.http.paths.all(p, !has(p.backend.service) || has(p.backend.service.port)))'],
  ['netpol-no-allow-all', 'networking.k8s.io', 'v1', 'networkpolicies', '!has(object.spec.ingress) || object.spec.ingress.all(i, has(i.from) && size(i.from) > 0)'],
  ['netpol-policy-types', 'networking.k8s.io', 'v1', 'networkpolicies', "has(object.spec.policyTypes) && 'Ingress' in object.spec.policyTypes"],
  ['netpol-cidrs', 'networking.k8s.io', 'v1', 'networkpolicies', "!has(object.spec.egress) || object.spec.egress.all(e, !has(e.to) || e.to.all(t, !has(t.ipBlock) || t.ipBlock.cidr != '0.0.0.0/0'))"],
  ['role-no-wildcards', 'rbac.authorization.k8s.io', 'v1', 'roles', "!has(object.rules) || object.rules.all(r, !('*' in r.verbs) && (!has(r.resources) || !('*' in r.resources)))"],
  ['clusterrole-no-escalate', 'rbac.authorization.k8s.io', 'v1', 'clusterroles', "!has(object.rules) || object.rules.all(r, !r.verbs.exists(v, v in ['escalate', 'bind', 'impersonate']))"],
  ['clusterrole-no-secrets', 'rbac.authorization.k8s.io', 'v1', 'clusterroles', "!has(object.rules) || object.rules.all(r, !has(r.resources) || !('secrets' in r.resources) || r.verbs.all(v, v != 'list'))"],
  ['rolebinding-no-cluster-admin', 'rbac.authorization.k8s.io', 'v1', 'rolebindings', "object.roleRef.name != 'cluster-admin'"],
  ['clusterrolebinding-subjects', 'rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', "!has(object.subjects) || object.subjects.all(s, s.kind != 'Group' || s.name != 'system:authenticated')"],
  ['rolebinding-sa-namespace', 'rbac.authorization.k8s.io', 'v1', 'rolebindings', "!has(object.subjects) || object.subjects.all(s, s.kind != 'ServiceAccount' || s.?namespace.orValue(object.metadata.namespace) == object.metadata.namespace)"],
  ['configmap-size', '', 'v1', 'configmaps', '!has(object.data) || object.data.all(k, size(object.data[k]) < 262144)'],
  ['configmap-immutable', '', 'v1', 'configmaps', "object.?immutable.orValue(false) || object.metadata.namespace != 'production'"],
  ['secret-type', '', 'v1', 'secrets', "object.?type.orValue('Opaque') != 'kubernetes.io/service-account-token'"],
  ['secret-keys', '', 'v1', 'secrets', "!has(object.data) || object.data.all(k, k.matches('^[A-Za-z0-9._-]+$'))"],
  ['namespace-owner', '', 'v1', 'namespaces', "has(object.metadata.labels) && 'owner' in object.metadata.labels"],
  ['namespace-name', '', 'v1', 'namespaces', "!object.metadata.name.startsWith('kube-') || request.userInfo.username.startsWith('system:')"],
  ['pvc-storage-class', '', 'v1', 'persistentvolumeclaims', "has(object.spec.storageClassName) && object.spec.storageClassName != 'local-path'"],
  ['pvc-size', '', 'v1', 'persistentvolumeclaims', "quantity(string(object.spec.resources.requests.storage)).compareTo(quantity('500Gi')) <= 0"],
  ['pvc-access-modes', '', 'v1', 'persistentvolumeclaims', "!has(object.spec.accessModes) || !('ReadWriteMany' in object.spec.accessModes)"],
  ['limitrange-defaults', '', 'v1', 'limitranges', "object.spec.limits.all(l, l.type != 'Container' || has(l.default))"],
  ['quota-hard', '', 'v1', 'resourcequotas', "has(object.spec.hard) && 'limits.memory' in object.spec.hard"],
  ['storageclass-reclaim', 'storage.k8s.io', 'v1', 'storageclasses', "object.?reclaimPolicy.orValue('Delete') == 'Retain'"],
  ['storageclass-expansion', 'storage.k8s.io', 'v1', 'storageclasses', 'object.?allowVolumeExpansion.orValue(false) == true'],
  ['priorityclass-value', 'scheduling.k8s.io', 'v1', 'priorityclasses', 'object.value < 1000000000'],
  ['webhook-timeouts', 'admissionregistration.k8s.io', 'v1', 'validatingwebhookconfigurations', "object.webhooks.all(w, w.?timeoutSeconds.orValue(10) <= 10 && w.?failurePolicy.orValue('Fail') == 'Fail')"],
  ['webhook-namespace-selector', 'admissionregistration.k8s.io', 'v1', 'mutatingwebhookconfigurations', "object.webhooks.all(w, has(w.namespaceSelector) && has(w.namespaceSelector.matchExpressions) && w.namespaceSelector.matchExpressions.exists(e, e.key == 'kubernetes.io/metadata.name' && e.operator == 'NotIn'))"],
  ['crd-scope', 'apiextensions.k8s.io', 'v1', 'customresourcedefinitions', "object.spec.scope == 'Namespaced' || object.spec.group.endsWith('.example.com')"],
  ['crd-versions', 'apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'object.spec.versions.exists(v, v.storage) && object.spec.versions.all(v, has(v.schema) && has(v.schema.openAPIV3Schema))'],
  ['csr-signer', 'certificates.k8s.io', 'v1', 'certificatesigningrequests', "object.spec.signerName != 'kubernetes.io/kube-apiserver-client' || request.userInfo.groups.exists(g, g == 'system:masters')"],
  ['event-reason', 'events.k8s.io', 'v1', 'events', '!has(object.reason) || size(object.reason) < 128'],
  ['lease-holder', 'coordination.k8s.io', 'v1', 'leases', "!has(object.spec.holderIdentity) || object.spec.holderIdentity != ''"],
  ['endpointslice-ports', 'discovery.k8s.io', 'v1', 'endpointslices', '!has(object.ports) || object.ports.all(p, !has(p.port) || p.port > 0)'],
  ['ingressclass-default', 'networking.k8s.io', 'v1', 'ingressclasses', "!has(object.metadata.annotations) || object.metadata.annotations[?'ingressclass.kubernetes.io/is-default-class'].orValue('false') != 'true'"],
  ['runtimeclass-handler', 'node.k8s.io', 'v1', 'runtimeclasses', "object.handler in ['runc', 'gvisor']"],
  ['custom-resource', 'example.com', 'v1', 'widgets', "object.spec.size <= 10 && object.metadata.name.startsWith('w-')"],
  ['custom-resource-labels', 'stable.example.com', 'v1', 'crontabs', 'has(object.spec.cronSpec) && object.spec.replicas <= 3'],
];

export interface CorpusPolicy {
  readonly name: string;
  readonly manifest: unknown;
}

/** A ValidatingAdmissionPolicy for CREATE and UPDATE of `resources` in each group, with `rest` of its spec. */
export function validatingPolicy(
  name: string, version: string, resources: ReadonlyArray<{ group: string; resource: string }>, rest: object,
): unknown {
  const groups = [...new Set(resources.map((r) => r.group))];
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: groups.map((g) => ({
          apiGroups: [g],
          apiVersions: [version],
          operations: ['CREATE', 'UPDATE'],
          resources: resources.filter((r) => r.group === g).map((r) => r.resource),
        })),
      },
      ...rest,
    },
  };
}

function policyManifest(name: string, group: string, version: string, resource: string, expression: string): unknown {
  return validatingPolicy(name, version, [{ group, resource }], {
    validations: [{ expression, messageExpression: `'${name}: ' + object.metadata.name + ' is not allowed'` }],
  });
}

export function corpusPolicies(): CorpusPolicy[] {
  const out: CorpusPolicy[] = [];
  for (const [policy, template] of POD_SPEC_POLICIES) {
    for (const w of WORKLOADS) {
      const expression = template.replace(/\bS\./g, `${w.podSpec}.`).replace(/\bM\./g, `${w.podMeta}.`);
      const name = `${policy}-${w.resource}`;
      out.push({ name, manifest: policyManifest(name, w.group, 'v1', w.resource, expression) });
    }
  }
  for (const [name, group, version, resource, expression] of OTHER_POLICIES) {
    out.push({ name, manifest: policyManifest(name, group, version, resource, expression) });
  }
  return out;
}
