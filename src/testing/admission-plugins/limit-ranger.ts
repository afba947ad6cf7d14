import { AdmissionPlugin, isMainResource, MutatingPlugin, PluginRequest } from './admission-plugin';
import { GoObject, isObject, objectAt } from '../defaulting/go-values';

/**
 * plugin/pkg/admission/limitranger (PodMutateLimitFunc), on Pod creation: for each LimitRange of
 * the Pod's namespace among the tester's manifests (as stored: defaulted), the default limits and
 * requests of its Container items on every container and init container that lacks them, with the
 * `kubernetes.io/limit-ranger` annotation saying what was set. (Its minimum and maximum checks,
 * which refuse requests, are not modelled.)
 */
export const LIMIT_RANGER: MutatingPlugin = {
  name: AdmissionPlugin.LIMIT_RANGER,
  resources: ['/pods'],
  admit(request: PluginRequest) {
    if (request.operation !== 'CREATE' || !isMainResource(request)) return;
    if (request.oldObject && !isNilish(request.oldObject.metadata?.deletionTimestamp)) return;
    const ranges = request.objectsOf('/LimitRange').filter((lr) => (lr.metadata?.namespace ?? '') === request.namespace);
    for (const range of ranges) {
      const defaults = { requests: {} as GoObject, limits: {} as GoObject };
      for (const item of Array.isArray(range.spec?.limits) ? range.spec.limits : []) {
        if (item?.type !== 'Container') continue;
        Object.assign(defaults.requests, item.defaultRequest ?? {});
        Object.assign(defaults.limits, item.default ?? {});
      }
      mergePodResources(request.object, defaults);
    }
  },
};

function mergePodResources(pod: GoObject, defaults: { requests: GoObject; limits: GoObject }): void {
  const notes: string[] = [];
  const spec = objectAt(pod, 'spec');
  for (const [key, prefix] of [['containers', 'container'], ['initContainers', 'init container']] as const) {
    for (const container of Array.isArray(spec[key]) ? spec[key] : []) {
      if (!isObject(container)) continue;
      const resources = objectAt(container, 'resources');
      const limits = objectAt(resources, 'limits');
      const requests = objectAt(resources, 'requests');
      const setLimits = Object.keys(defaults.limits).filter((k) => !(k in limits));
      const setRequests = Object.keys(defaults.requests).filter((k) => !(k in requests));
      for (const k of setLimits) limits[k] = defaults.limits[k];
      for (const k of setRequests) requests[k] = defaults.requests[k];
      if (setRequests.length > 0) notes.push(`${setRequests.sort().join(', ')} request for ${prefix} ${container.name ?? ''}`);
      if (setLimits.length > 0) notes.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${container.name ?? ''}`);
    }
  }
  if (notes.length > 0) objectAt(objectAt(pod, 'metadata'), 'annotations')['kubernetes.io/limit-ranger'] = `LimitRanger plugin set: ${notes.join('; ')}`;
}

function isNilish(value: unknown): boolean {
  return value === undefined || value === null;
}
