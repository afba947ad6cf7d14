import { GroupVersionKind } from '../resource-table';
import { GoObject, isObject, objectAt } from './go-values';

/**
 * What the apiserver's conversions do to an object beyond copying fields: a request object is
 * converted from its version to the internal one when it is decoded, and back to its version for
 * the admission policies and webhooks (k8s.io/kubernetes pkg/apis/<group>/<version>/conversion.go).
 * For most kinds the two conversions give back what went in; these do not.
 */
export function afterConversions(object: GoObject, gvk: GroupVersionKind): GoObject {
  CONVERSIONS[`${gvk.group}/${gvk.version}/${gvk.kind}`]?.(object);
  return object;
}

const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

const CONVERSIONS: { readonly [groupVersionKind: string]: (object: GoObject) => void } = {
  // core/v1 Convert_v1_Secret_To_core_Secret: stringData overwrites data; the internal type has no stringData.
  '/v1/Secret': (secret) => {
    if (isObject(secret.stringData)) {
      const data = objectAt(secret, 'data');
      for (const [key, value] of Object.entries(secret.stringData)) data[key] = Buffer.from(String(value), 'utf8').toString('base64');
    }
    delete secret.stringData;
  },
  // apps/v1 Convert_v1_DaemonSet_To_apps_DaemonSet and back: the template generation lives in an
  // annotation in apps/v1 (absent: 0), which the conversion back always writes.
  // The internal rolling update's maxUnavailable and maxSurge are not pointers: given, the update is written with zeros.
  'apps/v1/DaemonSet': (daemonSet) => {
    const annotations = objectAt(objectAt(daemonSet, 'metadata'), 'annotations');
    const given = annotations[TEMPLATE_GENERATION];
    annotations[TEMPLATE_GENERATION] = String(typeof given === 'string' && /^[+-]?\d+$/.test(given) ? BigInt(given) : 0n);
    const rollingUpdate = daemonSet.spec?.updateStrategy?.rollingUpdate;
    if (isObject(rollingUpdate)) {
      rollingUpdate.maxUnavailable ??= 0;
      rollingUpdate.maxSurge ??= 0;
    }
  },
  // autoscaling/v1 Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler: an
  // autoscaler without metrics targets 80% CPU (autoscaling.DefaultCPUUtilization), which the
  // conversion back writes as targetCPUUtilizationPercentage. (Metrics kept in the
  // autoscaling.alpha.kubernetes.io/metrics annotation are not modelled.)
  'autoscaling/v1/HorizontalPodAutoscaler': (hpa) => {
    const spec = objectAt(hpa, 'spec');
    const annotations = isObject(hpa.metadata?.annotations) ? hpa.metadata.annotations : {};
    if ((spec.targetCPUUtilizationPercentage ?? null) === null && !('autoscaling.alpha.kubernetes.io/metrics' in annotations)) spec.targetCPUUtilizationPercentage = 80;
  },
  // apps/v1 Convert_apps_StatefulSetSpec_To_v1_StatefulSetSpec: claim templates say what they are.
  'apps/v1/StatefulSet': (statefulSet) => {
    for (const template of Array.isArray(statefulSet.spec?.volumeClaimTemplates) ? statefulSet.spec.volumeClaimTemplates : []) {
      if (!isObject(template)) continue;
      template.apiVersion = 'v1';
      template.kind = 'PersistentVolumeClaim';
    }
  },
};

/** The DaemonSet template generation annotation's name. */
export const DAEMONSET_TEMPLATE_GENERATION = TEMPLATE_GENERATION;
