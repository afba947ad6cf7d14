// Which requests a policy or binding applies to, as the apiserver's matcher decides it
// (k8s.io/apiserver pkg/admission/plugin/policy/matching): rules, exclude rules, scope, resource
// names, namespace and object selectors. Pure functions over wire-format objects; each says why
// criteria do not select a request, so that a tester can explain it.
import type { MatchResources, NamedRuleWithOperations } from '../wire/admissionregistration';
import type { LabelSelector } from '../wire/meta';

/** The attributes of a request that matching looks at. */
export interface RequestAttributes {
  readonly operation: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subResource: string;
  readonly name: string;
  readonly namespace: string;
  readonly namespaced: boolean;
  readonly isNamespaceObject: boolean;
  readonly objectLabels?: { [key: string]: string };
  readonly oldObjectLabels?: { [key: string]: string };
  readonly namespaceLabels: { [key: string]: string };
}

/** The criterion that kept match criteria from selecting a request (the values of the public MatchMiss). */
export type MissKind =
  | 'Operation' | 'Resource' | 'Scope' | 'ResourceName' | 'NamespaceSelector' | 'ObjectSelector' | 'Excluded';

/** Why match criteria do not select a request: the criterion, its field path (under `at`) and a sentence. */
export interface Mismatch {
  readonly miss: MissKind;
  readonly field: string;
  readonly reason: string;
}

/**
 * Why a rule does not match (undefined when it does), with how far the request got through the
 * rule's checks, to pick the nearest of several rules. The checks run resource first (group,
 * version, resource), then operation, scope and names: a rule for the request's resource is the
 * one its author meant, whatever else it fails. With `matchPolicy: Equivalent`, a rule for the
 * same group and resource at another version also matches (the apiserver converts the object to
 * the rule's version; the tester presents it unconverted).
 */
export function ruleMismatch(
  rule: NamedRuleWithOperations, a: RequestAttributes, matchPolicy: string, at: string,
): (Mismatch & { readonly progress: number }) | undefined {
  const listed = (values: readonly string[] | undefined, value: string) => (values ?? []).some((v) => v === '*' || v === value);
  const list = (values: readonly string[] | undefined) => `[${(values ?? []).map((v) => (v === '' ? '""' : v)).join(', ')}]`;
  const miss = (progress: number, kind: MissKind, field: string, reason: string) => ({ miss: kind, field: `${at}.${field}`, reason, progress });
  if (!listed(rule.apiGroups, a.group)) {
    return miss(0, 'Resource', 'apiGroups', `API group ${JSON.stringify(a.group)} of ${describeResource(a)} is not in ${at}.apiGroups ${list(rule.apiGroups)}`);
  }
  if (matchPolicy !== 'Equivalent' && !listed(rule.apiVersions, a.version)) {
    return miss(1, 'Resource', 'apiVersions',
      `version ${a.version} of ${describeResource(a)} is not in ${at}.apiVersions ${list(rule.apiVersions)} (matchPolicy Exact)`);
  }
  if (!(rule.resources ?? []).some((r) => resourceMatches(r, a.resource, a.subResource))) {
    return miss(2, 'Resource', 'resources', `${describeResource(a)} is not in ${at}.resources ${list(rule.resources)}`);
  }
  if (!listed(rule.operations, a.operation)) {
    return miss(3, 'Operation', 'operations', `operation ${a.operation} is not in ${at}.operations ${list(rule.operations)}`);
  }
  const scope = rule.scope ?? '*';
  if ((scope === 'Cluster' && a.namespaced) || (scope === 'Namespaced' && !a.namespaced)) {
    return miss(4, 'Scope', 'scope', `${describeResource(a)} is ${a.namespaced ? 'namespaced' : 'cluster-scoped'}, and ${at}.scope is ${scope}`);
  }
  const names = rule.resourceNames ?? [];
  if (names.length > 0 && !names.includes(a.name)) {
    return miss(5, 'ResourceName', 'resourceNames', `name ${JSON.stringify(a.name)} is not in ${at}.resourceNames ${list(names)}`);
  }
  return undefined;
}

export function ruleMatches(rule: NamedRuleWithOperations, a: RequestAttributes, matchPolicy: string): boolean {
  return ruleMismatch(rule, a, matchPolicy, '') === undefined;
}

/** `apps/deployments/scale`, `pods` (the core group has no prefix). */
function describeResource(a: RequestAttributes): string {
  const resource = `${a.group ? `${a.group}/` : ''}${a.resource}${a.subResource ? `/${a.subResource}` : ''}`;
  return `resource ${resource}`;
}

/**
 * As the apiserver's rule matcher splits them: `r` is r without subresource, `*` every resource
 * without subresource, `r/s` one subresource, and a `*` subresource matches any subresource and
 * none (`r/*` is r and all its subresources, `*\/*` everything).
 */
function resourceMatches(pattern: string, resource: string, subResource: string): boolean {
  const slash = pattern.indexOf('/');
  const res = slash < 0 ? pattern : pattern.slice(0, slash);
  const sub = slash < 0 ? '' : pattern.slice(slash + 1);
  return (res === '*' || res === resource) && (sub === '*' || sub === subResource);
}

/**
 * The first requirement of a label selector that `labels` fail (undefined when they match): its
 * field under the selector and a sentence naming the label and its value.
 */
export function selectorMismatch(
  selector: LabelSelector | undefined, labels: { readonly [key: string]: string } | undefined,
): { readonly field: string; readonly reason: string } | undefined {
  const l = labels ?? {};
  const label = (key: string) => (Object.prototype.hasOwnProperty.call(l, key) ? `label ${key} is ${JSON.stringify(l[key])}` : `label ${key} is absent`);
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) {
    if (l[key] !== value) return { field: `matchLabels.${key}`, reason: `requires ${key}=${value}; ${label(key)}` };
  }
  for (const [i, e] of (selector?.matchExpressions ?? []).entries()) {
    const present = Object.prototype.hasOwnProperty.call(l, e.key);
    const values = e.values ?? [];
    let holds: boolean;
    switch (e.operator) {
      case 'In': holds = present && values.includes(l[e.key]); break;
      case 'NotIn': holds = !(present && values.includes(l[e.key])); break;
      case 'Exists': holds = present; break;
      case 'DoesNotExist': holds = !present; break;
      default: holds = false;
    }
    if (!holds) {
      const requirement = `${e.key} ${e.operator}${values.length > 0 ? ` [${values.join(', ')}]` : ''}`;
      return { field: `matchExpressions[${i}]`, reason: `requires ${requirement}; ${label(e.key)}` };
    }
  }
  return undefined;
}

export function selectorMatches(selector: LabelSelector | undefined, labels: { readonly [key: string]: string } | undefined): boolean {
  return selectorMismatch(selector, labels) === undefined;
}

/**
 * Why match criteria do not select a request (undefined when they do). The apiserver checks the
 * namespace selector, the object selector, the exclude rules, then the rules; any failing check
 * is a true reason, and the one reported is the most telling: the rules first (what the policy is
 * for), then the exclusions, then the selectors. Cluster-scoped objects are not filtered by the
 * namespace selector, except Namespaces, which are matched by their own labels. The object
 * selector matches when either the object or the old object matches.
 * @param at the field path of `match` (`spec.matchConstraints`)
 * @param requireRules on bindings, empty resourceRules match everything the policy matches
 */
export function matchResourcesMismatch(match: MatchResources, a: RequestAttributes, requireRules: boolean, at: string): Mismatch | undefined {
  const matchPolicy = match.matchPolicy ?? 'Equivalent';
  const rules = match.resourceRules ?? [];
  if (rules.length === 0 && requireRules) {
    return { miss: 'Resource', field: `${at}.resourceRules`, reason: `${at}.resourceRules is empty: the policy matches nothing` };
  }
  const misses = rules.map((r, i) => ruleMismatch(r, a, matchPolicy, `${at}.resourceRules[${i}]`));
  if (rules.length > 0 && misses.every((m) => m !== undefined)) {
    // The rule the request got furthest through (the first of equals) says the most.
    const nearest = misses.reduce((best, m) => (m!.progress > best!.progress ? m : best));
    return { miss: nearest!.miss, field: nearest!.field, reason: nearest!.reason };
  }
  const excluded = (match.excludeResourceRules ?? []).findIndex((r) => ruleMatches(r, a, matchPolicy));
  if (excluded >= 0) {
    return { miss: 'Excluded', field: `${at}.excludeResourceRules[${excluded}]`, reason: `the request is excluded by ${at}.excludeResourceRules[${excluded}]` };
  }
  const namespaceLabels = a.isNamespaceObject ? a.objectLabels ?? a.oldObjectLabels : a.namespaceLabels;
  if (a.namespaced || a.isNamespaceObject) {
    const miss = selectorMismatch(match.namespaceSelector, namespaceLabels);
    if (miss) {
      const whose = a.isNamespaceObject ? `the Namespace '${a.name}'` : `namespace '${a.namespace}'`;
      return { miss: 'NamespaceSelector', field: `${at}.namespaceSelector.${miss.field}`, reason: `${at}.namespaceSelector ${miss.reason} on ${whose}` };
    }
  }
  return objectSelectorMismatch(match.objectSelector, a, `${at}.objectSelector`);
}

export function matchResourcesMatch(match: MatchResources, a: RequestAttributes, requireRules: boolean): boolean {
  return matchResourcesMismatch(match, a, requireRules, '') === undefined;
}

/** The object or the old object must match; with neither (CONNECT), only an empty selector matches. */
function objectSelectorMismatch(selector: LabelSelector | undefined, a: RequestAttributes, at: string): Mismatch | undefined {
  const empty = !selector || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0);
  if (empty) return undefined;
  const candidates = [a.objectLabels, a.oldObjectLabels].filter((labels) => labels !== undefined);
  if (candidates.some((labels) => selectorMatches(selector, labels))) return undefined;
  if (candidates.length === 0) return { miss: 'ObjectSelector', field: at, reason: `${at} is set and the request has no object to match it` };
  const miss = selectorMismatch(selector, candidates[0]);
  return { miss: 'ObjectSelector', field: `${at}.${miss!.field}`, reason: `${at} ${miss!.reason} on the ${a.objectLabels ? 'object' : 'old object'}` };
}
