import { AdmissionPlugin, MutatingPlugin, PluginRequest } from './admission-plugin';
import { DEFAULT_INGRESS_CLASS, DEFAULT_STORAGE_CLASS, STORAGE_OBJECT_IN_USE_PROTECTION, TAINT_NODES_BY_CONDITION } from './default-classes';
import { LIMIT_RANGER } from './limit-ranger';
import { DEFAULT_TOLERATION_SECONDS, PRIORITY, RUNTIME_CLASS } from './pod-scheduling';
import { SERVICE_ACCOUNT } from './service-account';

/**
 * The mutating admission plugins a 1.37 kube-apiserver enables by default that change objects, in
 * the order it runs them (pkg/kubeapiserver/options/plugins.go: AllOrderedPlugins, filtered by
 * DefaultOffAdmissionPlugins). The others it enables by default only validate (NamespaceLifecycle,
 * PodSecurity, ResourceQuota, the certificate plugins, PersistentVolumeClaimResize, ...), act on
 * subresources PolicyTester does not see change (PodTopologyLabels on pods/binding), or need an
 * alpha feature gate (PodGroupProtection); they are not modelled.
 */
export const DEFAULT_MUTATING_PLUGINS: readonly MutatingPlugin[] = [
  LIMIT_RANGER,
  SERVICE_ACCOUNT,
  TAINT_NODES_BY_CONDITION,
  PRIORITY,
  DEFAULT_TOLERATION_SECONDS,
  DEFAULT_STORAGE_CLASS,
  STORAGE_OBJECT_IN_USE_PROTECTION,
  RUNTIME_CLASS,
  DEFAULT_INGRESS_CLASS,
];

/** The resources some plugin acts on. */
const PLUGIN_RESOURCES: ReadonlySet<string> = new Set(DEFAULT_MUTATING_PLUGINS.flatMap((p) => p.resources));

/** Whether some plugin acts on requests for this resource. */
export function pluginsActOn(group: string, resource: string): boolean {
  return PLUGIN_RESOURCES.has(`${group}/${resource}`);
}

/** Runs the enabled plugins, in order, on the request's object. */
export function runMutatingPlugins(request: PluginRequest, disabled: ReadonlySet<AdmissionPlugin>): void {
  for (const plugin of DEFAULT_MUTATING_PLUGINS) {
    if (!disabled.has(plugin.name) && plugin.resources.includes(`${request.group}/${request.resource}`)) plugin.admit(request);
  }
}
