// The virtual resources that admission never sees: reviews answered by the apiserver itself and
// never stored, whose interception could break authentication and authorization. Admission
// policies have always skipped them; from 1.37 (feature gate ExcludeAdmissionWebhookVirtualResources,
// beta and on by default in 1.37.2) admission webhooks do too (k8s.io/apiserver
// pkg/admission/plugin/webhook/generic/webhook.go: isExcludedFromAllHooks).
import { KubernetesVersion } from '../kubernetes-version';
import type { RuleWithOperations } from '../wire/admissionregistration';

/** A group and resource, as the apiserver's exclusion list holds them (every version of each). */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** k8s.io/kubernetes pkg/kubeapiserver/admission/exclusion/resources.go: excluded (1.37.2). */
export const VIRTUAL_RESOURCES: readonly GroupResource[] = [
  { group: 'authentication.k8s.io', resource: 'selfsubjectreviews' },
  { group: 'authentication.k8s.io', resource: 'tokenreviews' },
  { group: 'authorization.k8s.io', resource: 'localsubjectaccessreviews' },
  { group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' },
  { group: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews' },
  { group: 'authorization.k8s.io', resource: 'subjectaccessreviews' },
];

/** The groups that serve nothing but virtual resources. */
export const VIRTUAL_GROUPS: readonly string[] = [...new Set(VIRTUAL_RESOURCES.map((r) => r.group))];

/** The first version whose webhooks no longer receive the virtual resources. */
export const WEBHOOKS_SKIP_VIRTUAL_FROM = KubernetesVersion.V1_37;

/** How the apiserver prints a GroupResource (apimachinery schema.GroupResource.String). */
export function groupResourceText(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

/**
 * The virtual resources a rule names explicitly, in the rule's order, each once. A rule with `*` in
 * its groups or resources names none: its intent toward them is ambiguous (k8s.io/kubernetes
 * pkg/apis/admissionregistration/validation/warnings.go: excludedResourcesNamedByRule).
 */
export function virtualResourcesNamedBy(rule: Pick<RuleWithOperations, 'apiGroups' | 'resources'>): GroupResource[] {
  const groups = (rule.apiGroups ?? []).filter((g): g is string => typeof g === 'string');
  const resources = (rule.resources ?? []).filter((r): r is string => typeof r === 'string');
  if (groups.includes('*') || resources.includes('*')) return [];
  const out: GroupResource[] = [];
  for (const group of groups) {
    for (const resource of resources) {
      const found = VIRTUAL_RESOURCES.find((v) => v.group === group && v.resource === resource);
      if (found && !out.includes(found)) out.push(found);
    }
  }
  return out;
}
