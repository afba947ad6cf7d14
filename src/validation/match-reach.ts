// What a policy's, a binding's or a webhook's match criteria can reach, beyond each rule on its
// own: exclude rules that exclude every request the include rules match, and a namespaceSelector
// that cannot apply because every resource the rules match is cluster-scoped. The apiserver
// accepts both; the first makes the object match nothing, the second is a selector with no effect.
import { discoveryOf } from './discovery';
import { FieldViolation, warning } from './field-errors';
import { FieldPath } from './field-path';
import { RuleContext } from './rule-context';
import { ruleCovers } from './rule-coverage';
import type { MatchResources, NamedRuleWithOperations } from '../wire/admissionregistration';
import type { LabelSelector } from '../wire/meta';

type Rule = Partial<NamedRuleWithOperations>;

const isList = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((e) => typeof e === 'string');

/**
 * A rule with every list the apiserver requires, each of strings: the others are errors already
 * (a list of anything else does not even decode), and not judged here.
 */
export function isComplete(rule: unknown): rule is Rule {
  const r = rule as Rule | null | undefined;
  return typeof r === 'object' && r !== null && isList(r.operations) && isList(r.apiGroups) && isList(r.apiVersions) && isList(r.resources);
}

/**
 * Exclude rules that together leave nothing: each include rule covered by one exclude rule
 * (k8s.io/apiserver pkg/admission/plugin/policy/matching/matching.go: a request that matches an
 * exclude rule is not matched, whatever the include rules say).
 */
export function excludesEverything(match: MatchResources | undefined, path: FieldPath, what: string): FieldViolation[] {
  const includes = match?.resourceRules ?? [];
  const excludes = (match?.excludeResourceRules ?? []).map((rule, j) => ({ rule, j })).filter(({ rule }) => isComplete(rule));
  if (includes.length === 0 || !includes.every(isComplete) || excludes.length === 0) return [];
  const covering = includes.map((include) => excludes.find(({ rule }) => ruleCovers(rule as Rule, include as Rule)));
  if (covering.some((c) => c === undefined)) return [];
  const pairs = covering.map((c, i) => `resourceRules[${i}] by excludeResourceRules[${c!.j}]`).join(', ');
  return [warning(path.child('excludeResourceRules'),
    `every request the resourceRules match is excluded (${pairs}), so the ${what} matches nothing: narrow the exclude rules, or remove them`)];
}

/**
 * A namespaceSelector on rules whose resources are all cluster-scoped, and none of them Namespaces:
 * the apiserver never exempts such a request by its namespace
 * (k8s.io/apiserver pkg/admission/plugin/webhook/predicates/namespace/matcher.go: MatchNamespaceSelector).
 * Only rules whose groups and resources are named, and known here, are judged.
 */
export function selectorWithoutEffect(
  rules: readonly unknown[] | undefined, selector: LabelSelector | undefined, path: FieldPath, ctx: RuleContext,
): FieldViolation[] {
  const hasRequirements = Object.keys(selector?.matchLabels ?? {}).length > 0 || (selector?.matchExpressions ?? []).length > 0;
  if (!hasRequirements || !rules || rules.length === 0 || !rules.every(isComplete)) return [];
  const discovery = discoveryOf(ctx);
  const kinds: string[] = [];
  for (const rule of rules as Rule[]) {
    for (const group of rule.apiGroups!) {
      for (const entry of rule.resources!) {
        const resource = entry.split('/')[0];
        const served = group === '*' || resource === '*' ? undefined : discovery.find(group, resource);
        if (!served || served.namespaced || served.resource === 'namespaces') return [];
        kinds.push(served.kind);
      }
    }
  }
  return [warning(path, `every resource the rules match is cluster-scoped (${[...new Set(kinds)].sort().join(', ')}), and the apiserver `
    + 'applies a namespaceSelector only to namespaced objects and Namespaces: this selector has no effect; remove it, or select by objectSelector')];
}
