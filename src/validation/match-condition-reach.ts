// Match conditions that never let a request through, or always do: constant ones (`false`,
// `1 == 1`), and ones false for every resource the rules match (`object.kind == 'Pod'` on a policy
// for deployments). The apiserver accepts them (they compile); a policy or webhook whose condition
// is never true acts on nothing. Warnings, at the condition's expression.
import { discoveryOf } from './discovery';
import { FieldViolation, warning } from './field-errors';
import { FieldPath } from './field-path';
import { isComplete } from './match-reach';
import { RuleContext } from './rule-context';
import { guardValue, KnownRequest } from '../cel/request-guards';

/** Operations whose `object` is the resource's object: null on DELETE, the options on CONNECT. */
const OBJECT_OPERATIONS: ReadonlySet<string> = new Set(['CREATE', 'UPDATE']);

/**
 * The requests the rules match, one per resource, when every rule names its groups and
 * resources and each is served here without a subresource; undefined otherwise (not judged).
 */
function matchedRequests(rules: unknown, ctx: RuleContext): KnownRequest[] | undefined {
  if (!Array.isArray(rules) || rules.length === 0 || !rules.every(isComplete)) return undefined;
  const discovery = discoveryOf(ctx);
  const out: KnownRequest[] = [];
  for (const rule of rules) {
    const objectIsTheResource = rule.operations!.every((o) => OBJECT_OPERATIONS.has(o));
    for (const group of rule.apiGroups!) {
      for (const entry of rule.resources!) {
        const served = group === '*' || entry.includes('*') || entry.includes('/') ? undefined : discovery.find(group, entry);
        if (!served) return undefined;
        out.push({ group, resource: served.resource, kind: served.kind, objectIsTheResource });
      }
    }
  }
  return out;
}

/**
 * The warning for one match condition (that compiles) against the rules of its policy or webhook
 * (`what`), if it is the same for every request, or false for every resource the rules match.
 */
export function lintMatchConditionReach(expression: string, rules: unknown, at: FieldPath, ctx: RuleContext, what: string): FieldViolation[] {
  const minor = ctx.kubernetesVersion.minor;
  const always = guardValue(expression, minor);
  if (always !== undefined) {
    return [warning(at, always
      ? 'is true for every request, so the condition lets every request through: remove it'
      : `is false for every request, so the ${what} matches nothing: remove the condition, or make it test the request`)];
  }
  const requests = matchedRequests(rules, ctx);
  if (!requests || !requests.every((r) => guardValue(expression, minor, r) === false)) return [];
  const matched = [...new Set(requests.map((r) => `${r.kind} (${r.group === '' ? '' : `${r.group}/`}${r.resource})`))].join(', ');
  return [warning(at, `is false for every resource the rules match (${matched}), so the ${what} matches nothing: `
    + 'make the condition test what the rules match, or the rules match what it tests')];
}
