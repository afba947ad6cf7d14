// Resource entries that no API group of their rule serves: the apiserver accepts any resource name
// (validateRule in k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go checks
// only its form), and a rule that names what nothing serves never matches a request. Warnings, as
// the objects are valid: each names the entry and what would match.
import { lintConnectOperations } from './connect-operations';
import { Discovery, discoveryOf } from './discovery';
import { FieldViolation, warning } from './field-errors';
import { FieldPath } from './field-path';
import { RuleContext } from './rule-context';
import { closestName } from '../shared/closest-name';
import type { MatchResources, RuleWithOperations } from '../wire/admissionregistration';

/** The warnings for a policy's or binding's resourceRules and excludeResourceRules. */
export function lintMatchResources(match: MatchResources | undefined, path: FieldPath, ctx: RuleContext): FieldViolation[] {
  return [
    ...(match?.resourceRules ?? []).flatMap((rule, i) => (rule ? lintRule(rule, path.child('resourceRules').index(i), ctx) : [])),
    ...(match?.excludeResourceRules ?? []).flatMap((rule, i) => (rule ? lintRule(rule, path.child('excludeResourceRules').index(i), ctx) : [])),
  ];
}

/** The warnings for one rule: its resource entries (below), and its operations against them (connect-operations.ts). */
export function lintRule(rule: RuleWithOperations, path: FieldPath, ctx: RuleContext): FieldViolation[] {
  return [...lintRuleResources(rule, path, ctx), ...lintConnectOperations(rule, path, ctx)];
}

/**
 * The warnings for one rule's resources: an entry with upper-case letters (served resources are
 * lower-case plurals; a kind such as `Deployment` is the usual mistake), and, when every group of
 * the rule is known here, an entry none of them serves (`deployments` in the core group).
 * A subresource is checked on the built-in resources (`deployments/scael`): those of the schemas
 * and the connect ones; a custom resource's, or one in a group not known here, is not judged. Nor
 * are the rule's versions: whether a rule for a version no
 * longer served still matches through matchPolicy Equivalent is left to the apiserver.
 */
function lintRuleResources(rule: RuleWithOperations, path: FieldPath, ctx: RuleContext): FieldViolation[] {
  const groups = (rule.apiGroups ?? []).filter((g): g is string => typeof g === 'string');
  const out: FieldViolation[] = [];
  (rule.resources ?? []).forEach((entry, k) => {
    if (typeof entry !== 'string') return;
    const problem = entryProblem(entry, groups, discoveryOf(ctx), ctx);
    if (problem) out.push(warning(path.child('resources').index(k), problem));
  });
  return out;
}

function entryProblem(entry: string, groups: readonly string[], discovery: Discovery, ctx: RuleContext): string | undefined {
  const [resource, subresource] = splitEntry(entry);
  if (resource === '*') return undefined;
  const version = `Kubernetes ${ctx.kubernetesVersion}`;
  if (/[A-Z]/.test(entry)) return upperCaseProblem(entry, resource, groups, discovery);
  const anyGroup = groups.includes('*');
  if (anyGroup || !groups.every((g) => discovery.knownGroups.has(g))) return undefined;
  if (!discovery.served.some((r) => r.resource === resource && groups.includes(r.group))) {
    const elsewhere = discovery.served.filter((r) => r.resource === resource).map((r) => r.group);
    if (elsewhere.length > 0) {
      return `${quote(resource)} is not served by ${groupList(groups)} at ${version}, so the entry matches nothing: `
        + `it is served by ${groupList(elsewhere)}; put ${elsewhere.length === 1 ? 'it' : 'one of them'} in apiGroups`;
    }
    const inGroups = discovery.served.filter((r) => groups.includes(r.group));
    // The singular (the kind in lower case, `networkpolicy`) can be further from the plural than a typo.
    const suggestion = inGroups.find((r) => r.kind.toLowerCase() === resource)?.resource ?? closestName(resource, inGroups.map((r) => r.resource));
    return `no resource ${quote(resource)} is served by ${groupList(groups)} at ${version}, so the entry matches nothing`
      + (suggestion ? `; did you mean ${quote(subresource === undefined ? suggestion : `${suggestion}/${subresource}`)}?` : '');
  }
  return subresource === undefined || subresource === '*' ? undefined : subresourceProblem(resource, subresource, groups, discovery, version);
}

/** A subresource that no built-in resource of the entry's groups has (each group serving the resource must be built-in). */
function subresourceProblem(
  resource: string, subresource: string, groups: readonly string[], discovery: Discovery, version: string,
): string | undefined {
  const serving = groups.filter((g) => discovery.find(g, resource) !== undefined);
  const known = serving.map((g) => discovery.builtinSubresourcesOf(g, resource));
  if (serving.length === 0 || known.some((k) => k === undefined || k.includes(subresource))) return undefined;
  const all = [...new Set(known.flatMap((k) => k ?? []))].sort();
  const suggestion = closestName(subresource, all);
  return `${quote(resource)} has no subresource ${quote(subresource)} at ${version} (${all.length > 0 ? `its subresources: ${all.join(', ')}` : 'it has none'}), `
    + 'so the entry matches nothing' + (suggestion ? `; did you mean ${quote(`${resource}/${suggestion}`)}?` : '');
}

function upperCaseProblem(entry: string, resource: string, groups: readonly string[], discovery: Discovery): string {
  const kind = discovery.served.filter((r) => r.kind === resource);
  const inGroups = kind.filter((r) => groups.includes('*') || groups.includes(r.group));
  const named = (inGroups.length > 0 ? inGroups : kind)[0];
  if (!named) {
    const lower = entry.toLowerCase();
    const fix = discovery.served.some((r) => r.resource === splitEntry(lower)[0]) ? `: use ${quote(lower)}` : ' (deployments, not Deployment)';
    return `${quote(entry)} has upper-case letters, and served resources are lower-case plurals, so the entry matches nothing${fix}`;
  }
  const groupHint = groups.includes('*') || groups.includes(named.group) ? '' : ` in API group ${groupName(named.group)}`;
  return `${quote(entry)} is a kind, and rules name resources, so the entry matches nothing: use ${quote(entry.replace(resource, named.resource))}${groupHint}`;
}

/** `pods/status` as `['pods', 'status']`; a resource without a subresource has none. */
function splitEntry(entry: string): [string, string | undefined] {
  const slash = entry.indexOf('/');
  return slash === -1 ? [entry, undefined] : [entry.slice(0, slash), entry.slice(slash + 1)];
}

const quote = (s: string) => `'${s}'`;
const groupName = (g: string) => (g === '' ? "'' (the core group)" : quote(g));

function groupList(groups: readonly string[]): string {
  const names = [...new Set(groups)].map(groupName);
  return names.length === 1 ? `API group ${names[0]}` : `API groups ${names.join(', ')}`;
}
