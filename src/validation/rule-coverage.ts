// Whether one admission rule covers another, or can match a request the other matches, as the
// apiserver matches a request against a rule (k8s.io/apiserver pkg/admission/plugin/webhook/predicates/rules/rules.go:
// Matcher.Matches: operation, group, version, resource and subresource, scope; and, for policies,
// resourceNames in k8s.io/apiserver pkg/admission/plugin/policy/matching/matching.go). Both answers
// lean to "maybe": a rule is said to cover another only when every request the other matches is
// matched by it, and two rules are said to be disjoint only when no request can match both.
import type { NamedRuleWithOperations } from '../wire/admissionregistration';

type Rule = Partial<NamedRuleWithOperations>;

const strings = (list: unknown): string[] => (Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : []);

/** `*` in a list matches every value (rules.go: group, version, operation). */
function listCovers(outer: readonly string[], inner: readonly string[]): boolean {
  return outer.includes('*') || (inner.length > 0 && !inner.includes('*') && inner.every((v) => outer.includes(v)));
}

function listsMeet(a: readonly string[], b: readonly string[]): boolean {
  return a.includes('*') || b.includes('*') || a.some((v) => b.includes(v));
}

/** `pods/status` as resource and subresource; `*` alone matches only requests without a subresource (rules.go: splitResource). */
function split(entry: string): [string, string] {
  const slash = entry.indexOf('/');
  return slash === -1 ? [entry, ''] : [entry.slice(0, slash), entry.slice(slash + 1)];
}

const partCovers = (outer: string, inner: string) => outer === '*' || outer === inner;
const partsMeet = (a: string, b: string) => a === '*' || b === '*' || a === b;

function entryCovers(outer: string, inner: string): boolean {
  const [outerResource, outerSub] = split(outer);
  const [innerResource, innerSub] = split(inner);
  return partCovers(outerResource, innerResource) && partCovers(outerSub, innerSub);
}

function resourcesCover(outer: readonly string[], inner: readonly string[]): boolean {
  return inner.length > 0 && inner.every((i) => outer.some((o) => entryCovers(o, i)));
}

function resourcesMeet(a: readonly string[], b: readonly string[]): boolean {
  return a.some((x) => b.some((y) => {
    const [xr, xs] = split(x);
    const [yr, ys] = split(y);
    return partsMeet(xr, yr) && partsMeet(xs, ys);
  }));
}

/** An unset scope and `*` match every request; otherwise only the same scope is known to be covered. */
function scopeCovers(outer: Rule, inner: Rule): boolean {
  const o = outer.scope ?? '*';
  return o === '*' || o === (inner.scope ?? '*');
}

/** No resourceNames matches every name; names cover only names among them. */
function namesCover(outer: Rule, inner: Rule): boolean {
  const o = strings(outer.resourceNames);
  const i = strings(inner.resourceNames);
  return o.length === 0 || (i.length > 0 && i.every((n) => o.includes(n)));
}

function namesMeet(a: Rule, b: Rule): boolean {
  const x = strings(a.resourceNames);
  const y = strings(b.resourceNames);
  return x.length === 0 || y.length === 0 || x.some((n) => y.includes(n));
}

/**
 * Whether every request `inner` matches is matched by `outer`. Versions are compared as lists
 * (an exclusion of `v1` does not cover an inclusion of `*`), so matchPolicy Equivalent, which can
 * only widen what `outer` matches, does not make a cover wrong.
 */
export function ruleCovers(outer: Rule, inner: Rule): boolean {
  return listCovers(strings(outer.operations), strings(inner.operations))
    && listCovers(strings(outer.apiGroups), strings(inner.apiGroups))
    && listCovers(strings(outer.apiVersions), strings(inner.apiVersions))
    && resourcesCover(strings(outer.resources), strings(inner.resources))
    && scopeCovers(outer, inner)
    && namesCover(outer, inner);
}

/**
 * Whether some request could match both rules. Versions and scopes are not compared: with
 * matchPolicy Equivalent a request of one version matches a rule for another, and a Namespace's
 * own requests carry a namespace.
 */
export function rulesMeet(a: Rule, b: Rule): boolean {
  return listsMeet(strings(a.operations), strings(b.operations))
    && listsMeet(strings(a.apiGroups), strings(b.apiGroups))
    && resourcesMeet(strings(a.resources), strings(b.resources))
    && namesMeet(a, b);
}
