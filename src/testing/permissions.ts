import { AuthorizationAttributes, AuthorizationDecision } from '../cel/libraries/authz';

/**
 * What a user may do, for the `authorizer` of policy expressions (an RBAC-like allow rule).
 * Checks no permission allows get "no opinion", so `allowed()` is false, as on a cluster where
 * nothing grants them.
 */
export interface Permission {
  /** Verbs, e.g. `['get', 'list']`; `'*'` for all. */
  readonly verbs: string[];
  /**
   * API groups of resource checks (`''` is core); `'*'` for all.
   * @default ['*']
   */
  readonly apiGroups?: string[];
  /**
   * Resources of resource checks, e.g. `['deployments', 'pods/exec']`; `'*'` for all.
   * @default - no resource checks (only `nonResourceUrls`)
   */
  readonly resources?: string[];
  /**
   * Only in these namespaces.
   * @default - every namespace, and cluster-scoped resources
   */
  readonly namespaces?: string[];
  /**
   * Only objects with these names.
   * @default - any name
   */
  readonly resourceNames?: string[];
  /**
   * Non-resource paths of path checks (`authorizer.path('/healthz')`); a trailing `*` is a prefix.
   * @default - none
   */
  readonly nonResourceUrls?: string[];
  /**
   * The users it applies to (a service account is `system:serviceaccount:<namespace>:<name>`).
   * @default - every user
   */
  readonly users?: string[];
}

const any = (list: readonly string[] | undefined, value: string | undefined, fallback: boolean) =>
  list === undefined ? fallback : list.some((x) => x === '*' || x === (value ?? ''));

function allows(p: Permission, a: AuthorizationAttributes): boolean {
  if (!any(p.users, a.user, true) || !any(p.verbs, a.verb, false)) return false;
  if (a.path !== undefined) {
    return (p.nonResourceUrls ?? []).some((u) => u === a.path || (u.endsWith('*') && (a.path ?? '').startsWith(u.slice(0, -1))));
  }
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return any(p.apiGroups, a.group, true) && any(p.resources, resource, false) && any(p.namespaces, a.namespace, true)
    && any(p.resourceNames, a.name, true);
}

/** The decision function of the tester's authorizer. */
export function decideWith(permissions: readonly Permission[]): (a: AuthorizationAttributes) => AuthorizationDecision {
  return (a) => (permissions.some((p) => allows(p, a))
    ? { decision: 'allow', reason: 'allowed by a PolicyTester permission' }
    : { decision: 'noOpinion', reason: 'no PolicyTester permission allows it' });
}
