import { GoObject } from '../defaulting/go-values';

/**
 * The default mutating admission plugins of the kube-apiserver that change what a policy can
 * observe, as `--disable-admission-plugins` names them; PolicyTester runs them in the apiserver's
 * order (pkg/kubeapiserver/options/plugins.go, AllOrderedPlugins) before the mutating policies.
 */
export enum AdmissionPlugin {
  /** Default container resource requests and limits from the namespace's LimitRanges. */
  LIMIT_RANGER = 'LimitRanger',
  /** A Pod's default ServiceAccount, its API token volume and the account's image pull secrets. */
  SERVICE_ACCOUNT = 'ServiceAccount',
  /** The `node.kubernetes.io/not-ready:NoSchedule` taint on new Nodes. */
  TAINT_NODES_BY_CONDITION = 'TaintNodesByCondition',
  /** A Pod's priority and preemption policy from its PriorityClass (or the global default one). */
  PRIORITY = 'Priority',
  /** The five-minute tolerations of the not-ready and unreachable taints on Pods. */
  DEFAULT_TOLERATION_SECONDS = 'DefaultTolerationSeconds',
  /** The default StorageClass on new PersistentVolumeClaims without one. */
  DEFAULT_STORAGE_CLASS = 'DefaultStorageClass',
  /** The protection finalizers of new PersistentVolumes and PersistentVolumeClaims. */
  STORAGE_OBJECT_IN_USE_PROTECTION = 'StorageObjectInUseProtection',
  /** A Pod's overhead and scheduling constraints from its RuntimeClass. */
  RUNTIME_CLASS = 'RuntimeClass',
  /** The default IngressClass on new Ingresses without one. */
  DEFAULT_INGRESS_CLASS = 'DefaultIngressClass',
}

/** What a plugin sees of a request; it changes `object` in place. */
export interface PluginRequest {
  readonly operation: string;
  readonly group: string;
  readonly resource: string;
  readonly subResource: string;
  readonly namespace: string;
  readonly object: GoObject;
  readonly oldObject?: GoObject;
  /** The tester's manifests of a kind (`group/Kind`, core `/Kind`), defaulted as the apiserver stores them. */
  readonly objectsOf: (groupKind: string) => readonly GoObject[];
}

export interface MutatingPlugin {
  readonly name: AdmissionPlugin;
  /**
   * The resources it acts on (`group/resource`, core `/resource`): it is run for requests of those
   * only (default-plugins.ts), so `admit` need not check the resource again.
   */
  readonly resources: readonly string[];
  /** Changes the request's object in place; throws when the apiserver would refuse the request. */
  admit(request: PluginRequest): void;
}

/** A refusal by a plugin, for a request that needs an object the tester was not given. */
export function missingObject(what: string, plugin: AdmissionPlugin, fix: string): Error {
  return new Error(`review: ${what}; the apiserver's ${plugin} admission plugin refuses such a request. `
    + `${fix}, or turn the plugin off with \`disabledAdmissionPlugins: [AdmissionPlugin.${enumKey(plugin)}]\` if the cluster runs without it`);
}

function enumKey(plugin: AdmissionPlugin): string {
  return Object.entries(AdmissionPlugin).find(([, v]) => v === plugin)![0];
}

/** Whether a request is for the resource proper, not one of its subresources. */
export function isMainResource(request: PluginRequest): boolean {
  return request.subResource === '';
}
