// Warnings for webhook configurations the apiserver accepts but that are known to cause outages
// or lock a cluster out (the Kubernetes documentation's "Admission Webhook Good Practices" page,
// https://kubernetes.io/docs/concepts/cluster-administration/admission-webhooks-good-practices/).
import { FieldViolation, warning } from './field-errors';
import { FieldPath } from './field-path';
import { groupResourceText, VIRTUAL_GROUPS, virtualResourcesNamedBy, WEBHOOKS_SKIP_VIRTUAL_FROM } from './virtual-resources';
import { KubernetesVersion } from '../kubernetes-version';
import type { MatchCondition, RuleWithOperations, ValidatingWebhook } from '../wire/admissionregistration';

const MAX_TIMEOUT_FOR_LEASE_SENSITIVE = 5;

interface WebhookView {
  readonly webhook: ValidatingWebhook;
  readonly path: FieldPath;
  readonly rules: readonly RuleWithOperations[];
  readonly version: KubernetesVersion;
}

/** Every lint for one webhook of a configuration. */
export function lintWebhook(webhook: ValidatingWebhook, path: FieldPath, version: KubernetesVersion): FieldViolation[] {
  const view: WebhookView = { webhook, path, rules: (webhook.rules ?? []).filter((r) => r), version };
  return [
    ...noRules(view),
    ...wildcardWithFail(view),
    ...ownPodsUnprotected(view),
    ...leasesWithoutExclusion(view),
    ...nodesWithFail(view),
    ...longTimeoutOnLeaseSensitive(view),
    ...virtualResources(view),
    ...webhookConfigurations(view),
  ];
}

const failsClosed = (w: ValidatingWebhook) => (w.failurePolicy ?? 'Fail') === 'Fail';
const anyGroup = (r: RuleWithOperations) => (r.apiGroups ?? []).includes('*');
const hasGroup = (r: RuleWithOperations, group: string) => anyGroup(r) || (r.apiGroups ?? []).includes(group);
const anyResource = (r: RuleWithOperations) => (r.resources ?? []).some((x) => x === '*' || x === '*/*');
const hasResource = (r: RuleWithOperations, resource: string) =>
  anyResource(r) || (r.resources ?? []).some((x) => x === resource || (typeof x === 'string' && x.startsWith(`${resource}/`)));
const matches = (r: RuleWithOperations, group: string, resource: string) => hasGroup(r, group) && hasResource(r, resource);

function conditionsMention(conditions: readonly MatchCondition[] | undefined, word: string): boolean {
  return (conditions ?? []).some((c) => (c?.expression ?? '').includes(word));
}

/** Whether the namespaceSelector's `kubernetes.io/metadata.name NotIn` requirements exclude all these namespaces. */
function excludesNamespaces(w: ValidatingWebhook, namespaces: string[]): boolean {
  const excluded = (w.namespaceSelector?.matchExpressions ?? [])
    .filter((e) => e?.key === 'kubernetes.io/metadata.name' && e.operator === 'NotIn')
    .flatMap((e) => e.values ?? []);
  return namespaces.every((ns) => excluded.includes(ns));
}

/** A webhook without rules is valid, and never called: nothing reaches it. */
function noRules({ path, rules }: WebhookView): FieldViolation[] {
  if (rules.length > 0) return [];
  return [warning(path.child('rules'), 'the webhook has no rules, so the apiserver never calls it; give it the requests it should receive '
    + '(rules: [AdmissionResource.PODS.rule(Operation.CREATE)], or in YAML apiGroups, apiVersions, resources and operations)')];
}

function wildcardWithFail({ webhook, path, rules }: WebhookView): FieldViolation[] {
  if (!failsClosed(webhook)) return [];
  return rules.flatMap((r, j) => (anyGroup(r) && anyResource(r)
    ? [warning(path.child('rules').index(j),
      'matches every resource of every API group with failurePolicy Fail: while the webhook is unavailable, or slow, writes across the '
      + 'cluster fail (leases, events, nodes, even its own pods). List the groups and resources it needs, or use failurePolicy Ignore')]
    : []));
}

const WORKLOADS: ReadonlyArray<[string, string]> = [
  ['', 'pods'], ['apps', 'deployments'], ['apps', 'replicasets'], ['apps', 'statefulsets'], ['apps', 'daemonsets'],
];

/**
 * A webhook that fails closed on pods or workloads, and whose namespaceSelector neither excludes
 * its own namespace and kube-system nor opts namespaces in by label: while it is down, its own
 * pods (and kube-system's) cannot be created, so it cannot come back.
 */
function ownPodsUnprotected({ webhook, path, rules }: WebhookView): FieldViolation[] {
  const namespace = webhook.clientConfig?.service?.namespace;
  if (!namespace || !failsClosed(webhook) || !rules.some((r) => WORKLOADS.some(([g, res]) => matches(r, g, res)))) return [];
  const selector = webhook.namespaceSelector ?? {};
  const optIn = Object.keys(selector.matchLabels ?? {}).length > 0
    || (selector.matchExpressions ?? []).some((e) => e?.operator === 'In' || e?.operator === 'Exists');
  if (optIn || excludesNamespaces(webhook, [namespace, 'kube-system'])) return [];
  return [warning(path.child('namespaceSelector'),
    `with failurePolicy Fail on pods or workloads, this webhook also receives its own namespace (${namespace}) and kube-system: `
    + 'while it is down, its own pods cannot be created, so it cannot recover, and control-plane add-ons stop rolling out. Exclude them '
    + `(kubernetes.io/metadata.name NotIn [${namespace}, kube-system], the default of Webhook.forService), or use failurePolicy Ignore`)];
}

function leasesWithoutExclusion({ webhook, path, rules }: WebhookView): FieldViolation[] {
  const catchesLeases = rules.some((r) => matches(r, 'coordination.k8s.io', 'leases'));
  if (!catchesLeases || conditionsMention(webhook.matchConditions, 'leases') || excludesNamespaces(webhook, ['kube-system', 'kube-node-lease'])) return [];
  return [warning(path.child('rules'),
    'catches coordination.k8s.io leases: node heartbeats and leader election then wait on the webhook, and even with failurePolicy Ignore '
    + 'a slow webhook makes nodes go NotReady and controllers lose leadership (kubernetes#90217). Exclude them with a matchCondition '
    + '`!(request.resource.group == "coordination.k8s.io" && request.resource.resource == "leases")`')];
}

function nodesWithFail({ webhook, path, rules }: WebhookView): FieldViolation[] {
  if (!failsClosed(webhook) || !rules.some((r) => matches(r, '', 'nodes')) || conditionsMention(webhook.matchConditions, 'nodes')) return [];
  return [warning(path.child('rules'),
    'catches nodes with failurePolicy Fail: nodes are cluster-scoped, so no namespaceSelector exempts them, and while the webhook is '
    + 'down no node can register or update its status. Exclude nodes, or use failurePolicy Ignore')];
}

function longTimeoutOnLeaseSensitive({ webhook, path, rules }: WebhookView): FieldViolation[] {
  const timeout = webhook.timeoutSeconds ?? 10;
  if (timeout <= MAX_TIMEOUT_FOR_LEASE_SENSITIVE) return [];
  const sensitive = rules.some((r) => matches(r, 'coordination.k8s.io', 'leases') || matches(r, '', 'configmaps') || matches(r, '', 'endpoints'));
  if (!sensitive) return [];
  return [warning(path.child('timeoutSeconds'),
    `${timeout}s is longer than lease renewals wait (controller-manager renews with a 5s timeout): requests on leases, configmaps or `
    + `endpoints can time out leader election. Use at most ${MAX_TIMEOUT_FOR_LEASE_SENSITIVE}s`)];
}

/**
 * Rules on the virtual review resources (virtual-resources.ts). Before 1.37 webhooks receive them,
 * and intercepting them can break authentication and authorization cluster-wide. From 1.37 they
 * never reach a webhook: each one a rule names is warned as the apiserver warns on create
 * (k8s.io/kubernetes pkg/apis/admissionregistration/validation/warnings.go: warningsForExcludedRules),
 * and, beyond the apiserver, a group that serves only them listed with every resource (`*`).
 */
function virtualResources({ path, rules, version }: WebhookView): FieldViolation[] {
  if (!version.isAtLeast(WEBHOOKS_SKIP_VIRTUAL_FROM)) {
    return rules.flatMap((r, j) => (r.apiGroups ?? [])
      .filter((g) => VIRTUAL_GROUPS.includes(g))
      .map((g) => warning(path.child('rules').index(j).child('apiGroups'),
        `${g} holds virtual, read-only review resources (TokenReview, SubjectAccessReview): intercepting them can break authentication `
        + `and authorization cluster-wide, and Kubernetes ${WEBHOOKS_SKIP_VIRTUAL_FROM} stops calling webhooks for them. Remove the group`)));
  }
  const skipped = `Kubernetes ${WEBHOOKS_SKIP_VIRTUAL_FROM} and later never send to admission webhooks (feature gate ExcludeAdmissionWebhookVirtualResources)`;
  return rules.flatMap((r, j) => {
    const named = virtualResourcesNamedBy(r).map((gr) => warning(path.child('rules').index(j).child('resources'),
      `${groupResourceText(gr)} is a virtual resource that ${skipped}: this rule has no effect on it; remove it`));
    const everyResource = (r.resources ?? []).some((x) => x === '*' || x === '*/*');
    const groups = everyResource ? (r.apiGroups ?? []).filter((g) => VIRTUAL_GROUPS.includes(g)) : [];
    const wholeGroups = groups.map((g) => warning(path.child('rules').index(j).child('apiGroups'),
      `${g} serves only virtual review resources, which ${skipped}: the group adds nothing to this rule; remove it`));
    return [...named, ...wholeGroups];
  });
}

function webhookConfigurations({ path, rules }: WebhookView): FieldViolation[] {
  const explicit = (r: RuleWithOperations) => (r.apiGroups ?? []).includes('admissionregistration.k8s.io')
    && (r.resources ?? []).some((x) => /^(validating|mutating)webhookconfigurations(\/|$)/.test(x));
  return rules.flatMap((r, j) => (explicit(r)
    ? [warning(path.child('rules').index(j).child('resources'),
      'webhooks are never called for ValidatingWebhookConfiguration and MutatingWebhookConfiguration objects: this rule has no effect')]
    : []));
}
