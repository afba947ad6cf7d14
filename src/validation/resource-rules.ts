import { duplicate, FieldViolation, invalid, invalidEach, notSupported, required, warning } from './field-errors';
import { FieldPath } from './field-path';
import { OPERATIONS, SCOPES } from './policy-enums';
import { isPathSegmentName } from '../shared/name-formats';
import type { NamedRuleWithOperations, RuleWithOperations } from '../wire/admissionregistration';


/**
 * A rule of a webhook or a policy: operations, apiGroups, apiVersions, resources, scope
 * (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go: validateRuleWithOperations, validateRule).
 */
export function validateRuleWithOperations(rule: RuleWithOperations, path: FieldPath): FieldViolation[] {
  return [
    ...validateOperations(rule.operations ?? [], path.child('operations')),
    ...validateWildcardList(rule.apiGroups ?? [], path.child('apiGroups'), 'API groups', false),
    ...validateWildcardList(rule.apiVersions ?? [], path.child('apiVersions'), 'API versions', true),
    ...validateResources(rule.resources ?? [], path.child('resources')),
    ...validateScope(rule.scope, path.child('scope')),
  ];
}

/** A policy or binding rule, which can also name resources (pkg/apis/admissionregistration/validation/validation.go: validateNamedRuleWithOperations). */
export function validateNamedRule(rule: NamedRuleWithOperations, path: FieldPath): FieldViolation[] {
  const out = validateRuleWithOperations(rule, path);
  const seen = new Set<string>();
  (rule.resourceNames ?? []).forEach((name, i) => {
    if (typeof name !== 'string') return;
    const p = path.child('resourceNames').index(i);
    // An empty name passes the apiserver (it matches nothing); only path-segment rules apply.
    if (name !== '') out.push(...invalidEach(p, name, isPathSegmentName(name)));
    if (seen.has(name)) out.push(duplicate(p, name));
    seen.add(name);
  });
  return out;
}

function validateOperations(operations: readonly string[], path: FieldPath): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (operations.length === 0) out.push(required(path));
  if (operations.length > 1 && operations.includes('*')) {
    out.push(invalid(path, operations, "if '*' is present, must not specify other operations"));
  }
  operations.forEach((op, i) => {
    if (typeof op === 'string' && !OPERATIONS.includes(op)) out.push(notSupported(path.index(i), op, OPERATIONS));
  });
  return out;
}

function validateWildcardList(items: readonly string[], path: FieldPath, what: string, entriesRequired: boolean): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (items.length === 0) out.push(required(path));
  if (items.length > 1 && items.includes('*')) {
    out.push(invalid(path, items, `if '*' is present, must not specify other ${what}`));
  }
  if (entriesRequired) {
    items.forEach((item, i) => {
      if (item === '') out.push(required(path.index(i)));
    });
  }
  return out;
}

/**
 * The resource wildcard rules, as the apiserver applies them: in list order. A wildcard entry
 * (`res/` + `*`, or `*` + `/sub`) forbids the entries after it that it covers, and `*` forbids other plain resources only
 * when the last plain entry is not `*` itself, so `["pods", "*"]` and `["a/x", "a/*"]` pass while
 * `["*", "pods"]` and `["a/*", "a/x"]` fail. What passes only by its order is still a rule that
 * says something it does not mean: a warning.
 */
export function validateResources(resources: readonly string[], path: FieldPath): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (resources.length === 0) out.push(required(path));
  const entries = resources.map((r) => (typeof r === 'string' ? r : ''));
  const wildcardSubresources = new Set<string>();
  const wildcardResources = new Set<string>();
  let lastPlainIsNotWildcard = false;
  entries.forEach((entry, i) => {
    if (entry === '') out.push(required(path.index(i)));
    const slash = entry.indexOf('/');
    if (slash < 0) {
      lastPlainIsNotWildcard = entry !== '*';
      return;
    }
    const resource = entry.slice(0, slash);
    const sub = entry.slice(slash + 1);
    if (wildcardSubresources.has(resource)) out.push(invalid(path.index(i), entry, `if '${resource}/*' is present, must not specify ${entry}`));
    if (wildcardResources.has(sub)) out.push(invalid(path.index(i), entry, `if '*/${sub}' is present, must not specify ${entry}`));
    if (sub === '*') wildcardSubresources.add(resource);
    if (resource === '*') wildcardResources.add(sub);
  });
  if (resources.length > 1 && entries.includes('*/*')) {
    out.push(invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  }
  if (entries.includes('*') && lastPlainIsNotWildcard) {
    out.push(invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  }
  return out.length > 0 ? out : coveredEntryWarnings(entries, path);
}

/** Entries that an earlier-or-later wildcard already covers, which the apiserver lets pass by their order. */
function coveredEntryWarnings(entries: readonly string[], path: FieldPath): FieldViolation[] {
  const out: FieldViolation[] = [];
  entries.forEach((entry, i) => {
    const slash = entry.indexOf('/');
    if (slash < 0) {
      if (entry !== '*' && entries.includes('*')) out.push(warning(path.index(i), `'${entry}' is already matched by '*' in the same list: remove it, or remove '*'`));
      return;
    }
    const resource = entry.slice(0, slash);
    const sub = entry.slice(slash + 1);
    for (const wildcard of [`${resource}/*`, `*/${sub}`]) {
      if (wildcard !== entry && entries.includes(wildcard)) {
        out.push(warning(path.index(i), `'${entry}' is already matched by '${wildcard}' in the same list: remove it, or remove '${wildcard}'`));
      }
    }
  });
  return out;
}

function validateScope(scope: string | undefined, path: FieldPath): FieldViolation[] {
  if (scope === undefined || SCOPES.includes(scope)) return [];
  return [notSupported(path, scope, SCOPES)];
}
