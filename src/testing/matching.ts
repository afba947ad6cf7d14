// Which requests a policy or binding applies to, as the apiserver's matcher decides it
// (k8s.io/apiserver pkg/admission/plugin/policy/matching): rules, exclude rules, scope, resource
// names, namespace and object selectors. Pure functions over wire-format objects.
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

/**
 * Whether a rule matches. With `matchPolicy: Equivalent`, a rule for the same group and resource
 * at another version also matches (the apiserver converts the object to the rule's version; the
 * tester presents it unconverted).
 */
export function ruleMatches(rule: NamedRuleWithOperations, a: RequestAttributes, matchPolicy: string): boolean {
  const listed = (values: readonly string[] | undefined, value: string) => (values ?? []).some((v) => v === '*' || v === value);
  if (!listed(rule.operations, a.operation)) return false;
  if (!listed(rule.apiGroups, a.group)) return false;
  if (matchPolicy !== 'Equivalent' && !listed(rule.apiVersions, a.version)) return false;
  if (!(rule.resources ?? []).some((r) => resourceMatches(r, a.resource, a.subResource))) return false;
  const scope = rule.scope ?? '*';
  if (scope === 'Cluster' && a.namespaced) return false;
  if (scope === 'Namespaced' && !a.namespaced) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(a.name);
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

export function selectorMatches(selector: LabelSelector | undefined, labels: { readonly [key: string]: string } | undefined): boolean {
  const l = labels ?? {};
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) {
    if (l[key] !== value) return false;
  }
  for (const e of selector?.matchExpressions ?? []) {
    const present = Object.prototype.hasOwnProperty.call(l, e.key);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In': if (!present || !values.includes(l[e.key])) return false; break;
      case 'NotIn': if (present && values.includes(l[e.key])) return false; break;
      case 'Exists': if (!present) return false; break;
      case 'DoesNotExist': if (present) return false; break;
      default: return false;
    }
  }
  return true;
}

/**
 * Whether match criteria select a request. Cluster-scoped objects are not filtered by the
 * namespace selector, except Namespaces, which are matched by their own labels. The object
 * selector matches when either the object or the old object matches.
 * @param requireRules on bindings, empty resourceRules match everything the policy matches
 */
export function matchResourcesMatch(match: MatchResources, a: RequestAttributes, requireRules: boolean): boolean {
  const namespaceLabels = a.isNamespaceObject ? a.objectLabels ?? a.oldObjectLabels : a.namespaceLabels;
  if ((a.namespaced || a.isNamespaceObject) && !selectorMatches(match.namespaceSelector, namespaceLabels)) return false;
  if (!objectSelectorMatches(match.objectSelector, a)) return false;
  const matchPolicy = match.matchPolicy ?? 'Equivalent';
  if ((match.excludeResourceRules ?? []).some((r) => ruleMatches(r, a, matchPolicy))) return false;
  const rules = match.resourceRules ?? [];
  if (rules.length === 0) return !requireRules;
  return rules.some((r) => ruleMatches(r, a, matchPolicy));
}

/** The object or the old object must match; with neither (CONNECT), only an empty selector matches. */
function objectSelectorMatches(selector: LabelSelector | undefined, a: RequestAttributes): boolean {
  const empty = !selector || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0);
  if (empty) return true;
  return [a.objectLabels, a.oldObjectLabels].some((labels) => labels !== undefined && selectorMatches(selector, labels));
}
