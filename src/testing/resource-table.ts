// The built-in kinds whose resource PolicyTester infers from an object's apiVersion and kind.
// Custom resources need `resource` in the request (their plural cannot be guessed reliably).

interface BuiltInResource {
  readonly resource: string;
  readonly namespaced: boolean;
}

/** `<group>/<Kind>` (core group: `/<Kind>`) → resource. Versions do not change the resource name. */
const BUILT_IN: { readonly [groupKind: string]: BuiltInResource } = {
  '/Pod': { resource: 'pods', namespaced: true },
  '/Service': { resource: 'services', namespaced: true },
  '/ConfigMap': { resource: 'configmaps', namespaced: true },
  '/Secret': { resource: 'secrets', namespaced: true },
  '/ServiceAccount': { resource: 'serviceaccounts', namespaced: true },
  '/PersistentVolumeClaim': { resource: 'persistentvolumeclaims', namespaced: true },
  '/Endpoints': { resource: 'endpoints', namespaced: true },
  '/Event': { resource: 'events', namespaced: true },
  '/LimitRange': { resource: 'limitranges', namespaced: true },
  '/ResourceQuota': { resource: 'resourcequotas', namespaced: true },
  '/ReplicationController': { resource: 'replicationcontrollers', namespaced: true },
  '/Namespace': { resource: 'namespaces', namespaced: false },
  '/Node': { resource: 'nodes', namespaced: false },
  '/PersistentVolume': { resource: 'persistentvolumes', namespaced: false },
  'apps/Deployment': { resource: 'deployments', namespaced: true },
  'apps/StatefulSet': { resource: 'statefulsets', namespaced: true },
  'apps/DaemonSet': { resource: 'daemonsets', namespaced: true },
  'apps/ReplicaSet': { resource: 'replicasets', namespaced: true },
  'batch/Job': { resource: 'jobs', namespaced: true },
  'batch/CronJob': { resource: 'cronjobs', namespaced: true },
  'autoscaling/HorizontalPodAutoscaler': { resource: 'horizontalpodautoscalers', namespaced: true },
  'policy/PodDisruptionBudget': { resource: 'poddisruptionbudgets', namespaced: true },
  'networking.k8s.io/Ingress': { resource: 'ingresses', namespaced: true },
  'networking.k8s.io/NetworkPolicy': { resource: 'networkpolicies', namespaced: true },
  'networking.k8s.io/IngressClass': { resource: 'ingressclasses', namespaced: false },
  'rbac.authorization.k8s.io/Role': { resource: 'roles', namespaced: true },
  'rbac.authorization.k8s.io/RoleBinding': { resource: 'rolebindings', namespaced: true },
  'rbac.authorization.k8s.io/ClusterRole': { resource: 'clusterroles', namespaced: false },
  'rbac.authorization.k8s.io/ClusterRoleBinding': { resource: 'clusterrolebindings', namespaced: false },
  'coordination.k8s.io/Lease': { resource: 'leases', namespaced: true },
  'storage.k8s.io/StorageClass': { resource: 'storageclasses', namespaced: false },
  'scheduling.k8s.io/PriorityClass': { resource: 'priorityclasses', namespaced: false },
  'apiextensions.k8s.io/CustomResourceDefinition': { resource: 'customresourcedefinitions', namespaced: false },
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': { resource: 'validatingadmissionpolicies', namespaced: false },
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': { resource: 'validatingadmissionpolicybindings', namespaced: false },
  'admissionregistration.k8s.io/MutatingAdmissionPolicy': { resource: 'mutatingadmissionpolicies', namespaced: false },
  'admissionregistration.k8s.io/MutatingAdmissionPolicyBinding': { resource: 'mutatingadmissionpolicybindings', namespaced: false },
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': { resource: 'validatingwebhookconfigurations', namespaced: false },
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': { resource: 'mutatingwebhookconfigurations', namespaced: false },
};

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export function groupVersionKind(object: unknown): GroupVersionKind | undefined {
  const o = object as { apiVersion?: unknown; kind?: unknown } | undefined;
  if (!o || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string') return undefined;
  const slash = o.apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: o.apiVersion, kind: o.kind }
    : { group: o.apiVersion.slice(0, slash), version: o.apiVersion.slice(slash + 1), kind: o.kind };
}

export function builtInResource(gvk: GroupVersionKind): BuiltInResource | undefined {
  return BUILT_IN[`${gvk.group}/${gvk.kind}`];
}

