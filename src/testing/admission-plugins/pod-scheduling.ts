import { AdmissionPlugin, isMainResource, missingObject, MutatingPlugin, PluginRequest } from './admission-plugin';
import { GoObject, isNil, isObject, len, objectAt } from '../defaulting/go-values';

/** The PriorityClasses every apiserver creates (pkg/apis/scheduling SystemPriorityClasses). */
const SYSTEM_PRIORITY_CLASSES: readonly GoObject[] = [
  { metadata: { name: 'system-node-critical' }, value: 2000001000, preemptionPolicy: 'PreemptLowerPriority' },
  { metadata: { name: 'system-cluster-critical' }, value: 2000000000, preemptionPolicy: 'PreemptLowerPriority' },
];

/**
 * plugin/pkg/admission/priority (Plugin.admitPod): on Pod creation, the priority and preemption
 * policy of the Pod's PriorityClass (among the tester's manifests, or a system one), else of the
 * global default PriorityClass with the lowest value, else 0 and PreemptLowerPriority; on update,
 * the stored Pod's when the request leaves them out.
 */
export const PRIORITY: MutatingPlugin = {
  name: AdmissionPlugin.PRIORITY,
  resources: ['/pods'],
  admit(request: PluginRequest) {
    if (!isMainResource(request)) return;
    const spec = objectAt(request.object, 'spec');
    if (request.operation === 'UPDATE') {
      const old = isObject(request.oldObject?.spec) ? request.oldObject.spec : {};
      if (isNil(spec.priority) && !isNil(old.priority)) spec.priority = old.priority;
      if (isNil(spec.preemptionPolicy) && !isNil(old.preemptionPolicy)) spec.preemptionPolicy = old.preemptionPolicy;
      return;
    }
    if (request.operation !== 'CREATE') return;
    const classes = [...request.objectsOf('scheduling.k8s.io/PriorityClass'), ...SYSTEM_PRIORITY_CLASSES];
    let chosen: GoObject | undefined;
    if (len(spec.priorityClassName) === 0) {
      chosen = classes.filter((c) => c.globalDefault === true).sort((a, b) => a.value - b.value)[0];
      if (!chosen) {
        setPriority(spec, '', 0, 'PreemptLowerPriority');
        return;
      }
    } else {
      chosen = classes.find((c) => c.metadata?.name === spec.priorityClassName);
      if (!chosen) {
        throw missingObject(`no PriorityClass with name ${spec.priorityClassName} was found among the tester's manifests`,
          AdmissionPlugin.PRIORITY, 'Add the PriorityClass to the manifests');
      }
    }
    setPriority(spec, chosen.metadata?.name ?? '', typeof chosen.value === 'number' ? chosen.value : 0, chosen.preemptionPolicy);
  },
};

function setPriority(spec: GoObject, className: string, value: number, preemptionPolicy: unknown): void {
  if (!isNil(spec.priority) && spec.priority !== value) {
    throw new Error(`review: the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name (the apiserver's Priority plugin refuses this Pod)`);
  }
  spec.priorityClassName = className;
  spec.priority = value;
  if (typeof preemptionPolicy === 'string') {
    if (!isNil(spec.preemptionPolicy) && spec.preemptionPolicy !== preemptionPolicy) {
      throw new Error(`review: the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name (the apiserver's Priority plugin refuses this Pod)`);
    }
    spec.preemptionPolicy = preemptionPolicy;
  }
}

/**
 * plugin/pkg/admission/defaulttolerationseconds: Pods that do not tolerate the not-ready and
 * unreachable NoExecute taints get tolerations of them for 300 seconds (CREATE and UPDATE).
 */
export const DEFAULT_TOLERATION_SECONDS: MutatingPlugin = {
  name: AdmissionPlugin.DEFAULT_TOLERATION_SECONDS,
  resources: ['/pods'],
  admit(request: PluginRequest) {
    if (!isMainResource(request) || (request.operation !== 'CREATE' && request.operation !== 'UPDATE')) return;
    const spec = objectAt(request.object, 'spec');
    const tolerations: GoObject[] = Array.isArray(spec.tolerations) ? spec.tolerations : [];
    const tolerates = (key: string) => tolerations.some((t) => (t?.key === key || len(t?.key) === 0) && (t?.effect === 'NoExecute' || len(t?.effect) === 0));
    const added: GoObject[] = [];
    for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
      if (!tolerates(key)) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
    }
    if (added.length > 0) spec.tolerations = [...tolerations, ...added];
  },
};

/**
 * plugin/pkg/admission/runtimeclass (RuntimeClass.Admit): on Pod creation, the overhead and the
 * scheduling constraints (node selector, tolerations merged) of the Pod's RuntimeClass, which
 * must be among the tester's manifests.
 */
export const RUNTIME_CLASS: MutatingPlugin = {
  name: AdmissionPlugin.RUNTIME_CLASS,
  resources: ['/pods'],
  admit(request: PluginRequest) {
    if (request.operation !== 'CREATE' || !isMainResource(request)) return;
    const spec = objectAt(request.object, 'spec');
    if (isNil(spec.runtimeClassName)) return;
    const runtimeClass = request.objectsOf('node.k8s.io/RuntimeClass').find((rc) => rc.metadata?.name === spec.runtimeClassName);
    if (!runtimeClass) {
      throw missingObject(`the Pod's RuntimeClass "${spec.runtimeClassName}" is not among the tester's manifests`,
        AdmissionPlugin.RUNTIME_CLASS, 'Add the RuntimeClass to the manifests');
    }
    const podFixed = runtimeClass.overhead?.podFixed;
    if (!isNil(runtimeClass.overhead)) {
      if (len(spec.overhead) > 0 && JSON.stringify(spec.overhead) !== JSON.stringify(podFixed ?? {})) {
        throw new Error('review: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead (the apiserver\'s RuntimeClass plugin refuses this Pod)');
      }
      spec.overhead = podFixed;
    }
    const scheduling = runtimeClass.scheduling;
    if (isNil(scheduling)) return;
    if (isNil(spec.nodeSelector)) {
      spec.nodeSelector = scheduling.nodeSelector;
    } else {
      for (const [key, value] of Object.entries(scheduling.nodeSelector ?? {})) {
        if (key in spec.nodeSelector && spec.nodeSelector[key] !== value) {
          throw new Error(`review: conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${spec.nodeSelector[key]} (the apiserver's RuntimeClass plugin refuses this Pod)`);
        }
        spec.nodeSelector[key] = value;
      }
    }
    spec.tolerations = mergeTolerations([...(spec.tolerations ?? []), ...(scheduling.tolerations ?? [])]);
  },
};

/** pkg/util/tolerations MergeTolerations: the tolerations, without those another one covers. */
function mergeTolerations(all: GoObject[]): GoObject[] {
  const merged: GoObject[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    if (all.slice(i + 1).some((t2) => JSON.stringify(t2) !== JSON.stringify(t) && isSuperset(t2, t))) return;
    merged.push(t);
  });
  return merged;
}

function isSuperset(ss: GoObject, t: GoObject): boolean {
  if (JSON.stringify(ss) === JSON.stringify(t)) return true;
  if ((t.key ?? '') !== (ss.key ?? '') && ((ss.key ?? '') !== '' || ss.operator !== 'Exists')) return false;
  if ((t.effect ?? '') !== (ss.effect ?? '') && (ss.effect ?? '') !== '') return false;
  if (ss.effect === 'NoExecute' && !isNil(ss.tolerationSeconds) && (isNil(t.tolerationSeconds) || t.tolerationSeconds > ss.tolerationSeconds)) return false;
  if (ss.operator === 'Equal' || len(ss.operator) === 0) return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
  return ss.operator === 'Exists';
}
