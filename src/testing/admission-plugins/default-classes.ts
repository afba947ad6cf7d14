import { AdmissionPlugin, isMainResource, MutatingPlugin, PluginRequest } from './admission-plugin';
import { GoObject, isNil, isObject, objectAt } from '../defaulting/go-values';

/**
 * plugin/pkg/admission/storage/storageclass/setdefault: a new PersistentVolumeClaim without a
 * storage class (neither `spec.storageClassName` nor the beta annotation) gets the default
 * StorageClass among the tester's manifests (annotated `storageclass.kubernetes.io/is-default-class`
 * or its beta form; the newest, then by name), if there is one.
 */
export const DEFAULT_STORAGE_CLASS: MutatingPlugin = {
  name: AdmissionPlugin.DEFAULT_STORAGE_CLASS,
  resources: ['/persistentvolumeclaims'],
  admit(request: PluginRequest) {
    if (request.operation !== 'CREATE' || !isMainResource(request)) return;
    const pvc = request.object;
    const annotations = isObject(pvc.metadata?.annotations) ? pvc.metadata.annotations : {};
    if (!isNil(pvc.spec?.storageClassName) || 'volume.beta.kubernetes.io/storage-class' in annotations) return;
    const chosen = newest(request.objectsOf('storage.k8s.io/StorageClass').filter((sc) => isDefault(sc, 'storageclass.kubernetes.io/is-default-class')
      || isDefault(sc, 'storageclass.beta.kubernetes.io/is-default-class')));
    if (chosen) objectAt(pvc, 'spec').storageClassName = chosen.metadata.name;
  },
};

/**
 * plugin/pkg/admission/network/defaultingressclass: a new Ingress without `spec.ingressClassName`
 * or the `kubernetes.io/ingress.class` annotation gets the default IngressClass among the tester's
 * manifests (annotated `ingressclass.kubernetes.io/is-default-class: "true"`), if there is one.
 */
export const DEFAULT_INGRESS_CLASS: MutatingPlugin = {
  name: AdmissionPlugin.DEFAULT_INGRESS_CLASS,
  resources: ['networking.k8s.io/ingresses'],
  admit(request: PluginRequest) {
    if (request.operation !== 'CREATE' || !isMainResource(request)) return;
    const ingress = request.object;
    if (!isNil(ingress.spec?.ingressClassName)) return;
    if (isObject(ingress.metadata?.annotations) && 'kubernetes.io/ingress.class' in ingress.metadata.annotations) return;
    const chosen = newest(request.objectsOf('networking.k8s.io/IngressClass').filter((c) => isDefault(c, 'ingressclass.kubernetes.io/is-default-class')));
    if (chosen) objectAt(ingress, 'spec').ingressClassName = chosen.metadata.name;
  },
};

/**
 * plugin/pkg/admission/storage/storageobjectinuseprotection: new PersistentVolumes and
 * PersistentVolumeClaims get the protection finalizer that keeps them while in use.
 */
export const STORAGE_OBJECT_IN_USE_PROTECTION: MutatingPlugin = {
  name: AdmissionPlugin.STORAGE_OBJECT_IN_USE_PROTECTION,
  resources: ['/persistentvolumes', '/persistentvolumeclaims'],
  admit(request: PluginRequest) {
    if (request.operation !== 'CREATE' || !isMainResource(request)) return;
    const finalizer = request.resource === 'persistentvolumes' ? 'kubernetes.io/pv-protection' : 'kubernetes.io/pvc-protection';
    const metadata = objectAt(request.object, 'metadata');
    const finalizers: string[] = Array.isArray(metadata.finalizers) ? metadata.finalizers : [];
    if (!finalizers.includes(finalizer)) metadata.finalizers = [...finalizers, finalizer];
  },
};

/** plugin/pkg/admission/nodetaint: new Nodes get the `node.kubernetes.io/not-ready:NoSchedule` taint. */
export const TAINT_NODES_BY_CONDITION: MutatingPlugin = {
  name: AdmissionPlugin.TAINT_NODES_BY_CONDITION,
  resources: ['/nodes'],
  admit(request: PluginRequest) {
    if (request.operation !== 'CREATE' || !isMainResource(request)) return;
    const spec = objectAt(request.object, 'spec');
    const taints: GoObject[] = Array.isArray(spec.taints) ? spec.taints : [];
    // Taint.MatchTaint: the same key and effect.
    if (!taints.some((t) => t?.key === 'node.kubernetes.io/not-ready' && t?.effect === 'NoSchedule')) {
      spec.taints = [...taints, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }];
    }
  },
};

function isDefault(o: GoObject, annotation: string): boolean {
  return isObject(o.metadata?.annotations) && o.metadata.annotations[annotation] === 'true';
}

/** The newest by creation time, then the first by name (objects without a time count as the oldest). */
function newest(candidates: GoObject[]): GoObject | undefined {
  const time = (o: GoObject) => (typeof o.metadata?.creationTimestamp === 'string' ? Date.parse(o.metadata.creationTimestamp) : 0);
  return [...candidates].sort((a, b) => time(b) - time(a) || String(a.metadata?.name).localeCompare(String(b.metadata?.name)))[0];
}
