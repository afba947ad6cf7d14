// CONNECT in a rule where it cannot match, or its absence where only it can: the apiserver runs
// admission for CONNECT only on the connect subresources (rest.go: ConnectResource in
// k8s.io/apiserver pkg/endpoints/handlers), and those subresources receive no other operation.
// The apiserver accepts both mistakes (validateRuleWithOperations checks only the operations'
// names); a rule of either matches nothing, or part of it does. Warnings, as the objects are valid.
import { CONNECT_SUBRESOURCES, discoveryOf } from './discovery';
import { FieldViolation, warning } from './field-errors';
import { FieldPath } from './field-path';
import { RuleContext } from './rule-context';
import type { RuleWithOperations } from '../wire/admissionregistration';

const LISTED = 'pods/attach, pods/exec, pods/portforward, pods/proxy, services/proxy and nodes/proxy';

/** Whether requests for a rule's resource entry, in one of these groups, can be CONNECT requests. */
function receivesConnect(entry: string, groups: readonly string[]): boolean {
  const slash = entry.indexOf('/');
  // `pods` and `*` match only requests without a subresource, and those are never CONNECT.
  if (slash === -1) return false;
  const [resource, subresource] = [entry.slice(0, slash), entry.slice(slash + 1)];
  return CONNECT_SUBRESOURCES.some((c) => {
    const [group, r, s] = c.split('/');
    return groups.includes(group) && (resource === '*' || resource === r) && (subresource === '*' || subresource === s);
  });
}

/** Whether requests for the entry are all CONNECT requests: an entry that names one connect subresource. */
function onlyConnect(entry: string, groups: readonly string[]): boolean {
  return !entry.includes('*') && groups.every((g) => CONNECT_SUBRESOURCES.includes(`${g}/${entry}`));
}

/**
 * The warnings for one rule's operations against its resources, when every group of the rule is
 * known here (a `*` group, or one of an aggregated API, may serve connect subresources of its own):
 * CONNECT where no entry receives it (at the operations, as the rule then matches nothing when
 * CONNECT is its only operation), and an entry that receives only CONNECT in a rule without it.
 */
export function lintConnectOperations(rule: RuleWithOperations, path: FieldPath, ctx: RuleContext): FieldViolation[] {
  const { operations, apiGroups: groups, resources } = rule;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((e) => typeof e === 'string');
  if (!strings(operations) || !strings(groups) || !strings(resources) || operations.includes('*')) return [];
  const known = discoveryOf(ctx).knownGroups;
  if (groups.includes('*') || !groups.every((g) => known.has(g))) return [];
  const connect = operations.indexOf('CONNECT');
  if (connect !== -1 && !resources.some((e) => receivesConnect(e, groups))) {
    const why = `CONNECT requests are made only to the connect subresources (${LISTED}), and no resource of this rule is one`;
    return operations.length === 1
      ? [warning(path.child('operations'), `${why}, so the rule matches nothing: name the subresource ('pods/exec' for kubectl exec), or choose other operations`)]
      : [warning(path.child('operations').index(connect), `${why}, so CONNECT here matches nothing: remove it, or add the subresource to resources`)];
  }
  if (connect !== -1) return [];
  const out: FieldViolation[] = [];
  resources.forEach((entry, k) => {
    if (!onlyConnect(entry, groups)) return;
    out.push(warning(path.child('resources').index(k), `'${entry}' receives only CONNECT requests (kubectl exec, attach, port-forward and proxy are CONNECT), `
      + `and the rule's operations (${operations.join(', ')}) do not include it, so the entry matches nothing: add CONNECT to operations`));
  });
  return out;
}
