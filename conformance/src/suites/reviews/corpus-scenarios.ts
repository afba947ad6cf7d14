/**
 * Review scenarios from the project's own tests and examples: every `PolicyTester.review` the jest
 * suite made (recorded by record-corpus.ts), realized for the real apiserver.
 *
 * A recorded review becomes scenario `rc<k>`, isolated from the others as the generated ones are:
 * - its Namespaces are renamed `rc<k>-<name>`, everywhere the configuration names them (objects,
 *   paramRefs, `kubernetes.io/metadata.name` selectors, and CEL string literals equal to one of
 *   them, when no object of the scenario has that name);
 * - its policies and bindings are renamed `rc<k>-<name>`, and each policy's namespaceSelector gets
 *   the requirement that the request is in the scenario's Namespace;
 * - a cluster-scoped request (which namespaceSelectors do not scope) runs in a batch of its own.
 * The tester is given exactly what the apiserver is, renaming included: the request's object as
 * the test wrote it, which each side decodes, defaults and runs its admission plugins on itself.
 *
 * Some recorded reviews are not requests the apiserver can receive (a CREATE of deployments/scale,
 * CONNECT without a backend, an API version it does not serve); they are listed as not realized,
 * with the reason. Objects the apiserver's validation would reject before validating admission
 * (a Deployment without a pod template) are completed with the least that makes them valid, and
 * the scenario says so.
 */
import { ReviewScenario, ScenarioResource, ScenarioUser, SCOPE_LABEL } from './scenario';
import type { Permission } from '../../../../src';
import { builtInResource, groupVersionKind } from '../../../../src/testing/resource-table';
import type { RecordedReview } from '../../corpus/recorded-reviews';

/** A recorded review that is not a request the apiserver could receive. */
export interface UnrealizedReview {
  readonly name: string;
  readonly reason: string;
}

const ADMISSION = 'admissionregistration.k8s.io/';
const POLICY_KINDS = ['ValidatingAdmissionPolicy', 'MutatingAdmissionPolicy'];
const BINDING_KINDS = ['ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicyBinding'];
const EXPRESSION_FIELDS = new Set(['expression', 'messageExpression', 'valueExpression']);
const VERBS: { readonly [operation: string]: string } = { CREATE: 'create', UPDATE: 'update', DELETE: 'delete' };
/** The user PolicyTester assumes when a review names none. */
const TESTER_USER = 'test-user';

/** The scenarios of the recorded reviews, and the reviews that cannot be realized. */
export function corpusScenarios(recorded: readonly RecordedReview[]): { scenarios: ReviewScenario[]; unrealized: UnrealizedReview[] } {
  const scenarios: ReviewScenario[] = [];
  const unrealized: UnrealizedReview[] = [];
  recorded.forEach((r, k) => {
    const name = `corpus #${k}: ${r.test}`;
    const realized = realize(r, k, name);
    if (typeof realized === 'string') unrealized.push({ name, reason: realized });
    else scenarios.push(realized);
  });
  return { scenarios, unrealized };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** The resource of a recorded request, or why it has none the apiserver serves. */
function resourceOf(r: RecordedReview): ScenarioResource | string {
  const object = r.request.object ?? r.request.oldObject;
  const gvk = groupVersionKind(object);
  if (!gvk) return 'the request has no object with apiVersion and kind';
  const known = builtInResource(gvk);
  const given = r.request.resource;
  if (given) {
    if (given.group !== gvk.group || given.version !== gvk.version) return `the resource ${JSON.stringify(given)} is not the object's ${object.apiVersion}`;
    return { ...given, namespaced: known ? known.namespaced : Boolean(object.metadata?.namespace) };
  }
  if (!known) return `${object.apiVersion} ${object.kind} is not a built-in kind`;
  return { group: gvk.group, version: gvk.version, resource: known.resource, namespaced: known.namespaced };
}

/** Why a recorded request is not one the apiserver can receive, if it is not. */
function unrealizable(r: RecordedReview): string | undefined {
  const q = r.request;
  if (q.subResource) return `a ${q.operation} of the subresource ${q.subResource}: the suite sends requests to main resources only`;
  if (!VERBS[q.operation]) return `a ${q.operation} request reaches admission only with a backend (pods/exec, attach, portforward, proxy)`;
  const object = q.object ?? q.oldObject;
  if (q.name !== undefined && q.name !== object?.metadata?.name) return 'the request names another object than its own';
  return undefined;
}

/** The least that makes an object of the tests valid for the apiserver, and what was added. */
function completed(object: any): { object: any; added: string[] } {
  const o = clone(object);
  const added: string[] = [];
  const podSpec = (spec: any, at: string) => {
    if (!Array.isArray(spec.containers) || spec.containers.length === 0) {
      spec.containers = [{ name: 'app', image: 'app:1' }];
      added.push(`${at}.containers`);
    }
    spec.containers.forEach((c: any, i: number) => {
      if (c && typeof c === 'object' && !c.image) {
        c.image = 'app:1';
        added.push(`${at}.containers[${i}].image`);
      }
    });
  };
  const workload = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'];
  if (o.apiVersion === 'apps/v1' && workload.includes(o.kind)) {
    o.spec = o.spec ?? {};
    const template = o.spec.template ?? (o.spec.template = {});
    template.metadata = template.metadata ?? {};
    if (!o.spec.selector) {
      const labels = template.metadata.labels && Object.keys(template.metadata.labels).length > 0 ? template.metadata.labels : { app: o.metadata?.name ?? 'app' };
      template.metadata.labels = labels;
      o.spec.selector = { matchLabels: labels };
      added.push('spec.selector');
    }
    template.spec = template.spec ?? {};
    podSpec(template.spec, 'spec.template.spec');
  } else if (o.apiVersion === 'v1' && o.kind === 'Pod') {
    o.spec = o.spec ?? {};
    podSpec(o.spec, 'spec');
  }
  return { object: o, added };
}

/** `rc<k>-<name>`, within the 63 characters of a Namespace name. */
function renamed(k: number, name: string): string {
  return `rc${k}-${name}`.slice(0, 63).replace(/-+$/, '');
}

/** Every string of a manifest tree, under keys that hold CEL, with `'from'` and `"from"` literals replaced. */
function renameLiterals(value: any, names: ReadonlyMap<string, string>): any {
  if (Array.isArray(value)) return value.map((v) => renameLiterals(v, names));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => {
    if (EXPRESSION_FIELDS.has(key) && typeof v === 'string') {
      let text = v;
      for (const [from, to] of names) text = text.split(`'${from}'`).join(`'${to}'`).split(`"${from}"`).join(`"${to}"`);
      return [key, text];
    }
    return [key, renameLiterals(v, names)];
  }));
}

/** A label selector with its `kubernetes.io/metadata.name` values renamed. */
function renameSelector(selector: any, rename: (ns: string) => string): any {
  if (!selector) return selector;
  const s = clone(selector);
  if (s.matchLabels?.[SCOPE_LABEL] !== undefined) s.matchLabels[SCOPE_LABEL] = rename(s.matchLabels[SCOPE_LABEL]);
  for (const e of s.matchExpressions ?? []) {
    if (e.key === SCOPE_LABEL && Array.isArray(e.values)) e.values = e.values.map(rename);
  }
  return s;
}

/** A selector that also requires the Namespace `scope`. */
function scoped(selector: any, scope: string): any {
  const s = selector ? clone(selector) : {};
  s.matchExpressions = [...(s.matchExpressions ?? []), { key: SCOPE_LABEL, operator: 'In', values: [scope] }];
  return s;
}

/** The RBAC objects that grant what a tester permission allows (namespaced grants as Roles). */
function rbacObjects(p: Permission, name: string, rename: (ns: string) => string): any[] {
  const RBAC = 'rbac.authorization.k8s.io/v1';
  const subjects = p.users
    ? p.users.map((u) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: u }))
    : [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }];
  const rules: any[] = [];
  if (p.resources) {
    rules.push({ verbs: p.verbs, apiGroups: p.apiGroups ?? ['*'], resources: p.resources, ...(p.resourceNames ? { resourceNames: p.resourceNames } : {}) });
  }
  if (p.nonResourceUrls && !p.namespaces) rules.push({ verbs: p.verbs, nonResourceURLs: p.nonResourceUrls });
  if (p.namespaces) {
    return p.namespaces.flatMap((ns) => [
      { apiVersion: RBAC, kind: 'Role', metadata: { name, namespace: rename(ns) }, rules },
      { apiVersion: RBAC, kind: 'RoleBinding', metadata: { name, namespace: rename(ns) }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name }, subjects },
    ]);
  }
  return [
    { apiVersion: RBAC, kind: 'ClusterRole', metadata: { name }, rules },
    { apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name }, subjects },
  ];
}

/** A CustomResourceDefinition that serves `resource` for objects of `kind`, any fields allowed. */
function definition(resource: ScenarioResource, kind: string): any {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${resource.resource}.${resource.group}` },
    spec: {
      group: resource.group,
      names: { plural: resource.resource, kind, singular: kind.toLowerCase(), listKind: `${kind}List` },
      scope: resource.namespaced ? 'Namespaced' : 'Cluster',
      versions: [{
        name: resource.version,
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      }],
    },
  };
}

/** Recorded review `k` as a scenario, or why it cannot be one. */
function realize(r: RecordedReview, k: number, name: string): ReviewScenario | string {
  const reason = unrealizable(r);
  if (reason) return reason;
  const resource = resourceOf(r);
  if (typeof resource === 'string') return resource;
  const q = r.request;
  const operation = q.operation as 'CREATE' | 'UPDATE' | 'DELETE';
  const source = operation === 'DELETE' ? q.oldObject : q.object;
  if (!source) return `a ${operation} without ${operation === 'DELETE' ? 'oldObject' : 'object'}`;
  // A CRD is cluster-wide and must be established before its resources are served: the objects
  // suite installs one and compares custom-resource decoding against it instead.
  if (r.manifests.some((m) => m?.kind === 'CustomResourceDefinition')) {
    return 'the tester was given a CustomResourceDefinition, which the suite does not install per scenario (the objects suite checks custom resources against a real CRD)';
  }
  const isNamespace = resource.group === '' && resource.resource === 'namespaces';

  // Every Namespace the scenario names, renamed.
  const namespaceNames = new Set<string>();
  const ownNamespace = resource.namespaced ? q.namespace ?? source.metadata?.namespace : undefined;
  const requestNamespace: string | undefined = isNamespace ? source.metadata?.name : ownNamespace;
  if (resource.namespaced && !requestNamespace) return 'a namespaced request without a namespace';
  if (requestNamespace) namespaceNames.add(requestNamespace);
  for (const m of r.manifests) {
    if (m.kind === 'Namespace') namespaceNames.add(m.metadata.name);
    else if (typeof m.metadata?.namespace === 'string') namespaceNames.add(m.metadata.namespace);
    if (typeof m.spec?.paramRef?.namespace === 'string') namespaceNames.add(m.spec.paramRef.namespace);
  }
  const rename = (ns: string) => renamed(k, ns);
  const objectNames = new Set<string>([...r.manifests, q.object, q.oldObject].map((o) => o?.metadata?.name).filter((n) => typeof n === 'string'));
  const literals = new Map([...namespaceNames]
    .filter((n) => !objectNames.has(n) || (n === requestNamespace && isNamespace))
    .map((n) => [n, rename(n)]));

  const withNamespace = (o: any) => {
    if (!o) return o;
    const c = clone(o);
    if (resource.namespaced && c.metadata) c.metadata.namespace = rename(c.metadata.namespace ?? requestNamespace);
    if (isNamespace && c.metadata?.name) c.metadata.name = rename(c.metadata.name);
    return c;
  };
  const repairs: string[] = [];
  const prepared = (o: any) => {
    const { object, added } = completed(withNamespace(o));
    for (const a of added) if (!repairs.includes(a)) repairs.push(a);
    return object;
  };
  const object = prepared(source);
  const stored = operation === 'CREATE' ? undefined : prepared(q.oldObject);

  // The configuration: Namespaces (with labels), params and other objects, policies and bindings.
  const labelsOf = new Map<string, { [key: string]: string }>();
  for (const m of r.manifests) if (m.kind === 'Namespace') labelsOf.set(m.metadata.name, { ...m.metadata.labels });
  if (q.namespaceObject) labelsOf.set(q.namespaceObject.metadata.name, { ...q.namespaceObject.metadata?.labels });
  const created = new Set<string>([...labelsOf.keys()]);
  if (requestNamespace && !isNamespace) created.add(requestNamespace);
  const objects: any[] = [];
  const policies: any[] = [];
  for (const m of r.manifests) {
    if (m.kind === 'Namespace') continue;
    const admission = typeof m.apiVersion === 'string' && m.apiVersion.startsWith(ADMISSION);
    if (admission && [...POLICY_KINDS, ...BINDING_KINDS].includes(m.kind)) {
      policies.push(m);
      continue;
    }
    if (admission) return `the tester was given a ${m.kind}, which it ignores`;
    const gvk = groupVersionKind(m);
    const known = gvk && builtInResource(gvk);
    if (!known) return `the tester was given a ${m.apiVersion} ${m.kind}, which the suite cannot create`;
    const c = clone(m);
    if (known.namespaced) {
      if (!c.metadata?.namespace) return `the tester was given a ${m.kind} without a namespace`;
      c.metadata.namespace = rename(c.metadata.namespace);
      created.add(m.metadata.namespace);
    }
    objects.push(c);
  }
  const scope = requestNamespace ? rename(requestNamespace) : `rc${k}`;
  const installed = policies.map((p) => {
    const c = renameLiterals(clone(p), literals);
    c.metadata = { ...c.metadata, name: `rc${k}-${c.metadata.name}` };
    if (POLICY_KINDS.includes(p.kind)) {
      const constraints = c.spec.matchConstraints ?? {};
      c.spec.matchConstraints = { ...constraints, namespaceSelector: scoped(renameSelector(constraints.namespaceSelector, rename), scope) };
    } else {
      c.spec.policyName = `rc${k}-${c.spec.policyName}`;
      if (c.spec.paramRef?.namespace) c.spec.paramRef.namespace = rename(c.spec.paramRef.namespace);
      const match = c.spec.matchResources;
      if (match?.namespaceSelector) match.namespaceSelector = renameSelector(match.namespaceSelector, rename);
    }
    return c;
  });

  // Who asks, and what RBAC lets them: the test's permissions and the request itself.
  const u = q.userInfo ?? {};
  const user: ScenarioUser = {
    username: u.username ?? TESTER_USER,
    groups: u.groups ?? [],
    ...(u.uid ? { uid: u.uid } : {}),
    ...(u.extra ? { extra: u.extra } : {}),
  };
  const requestGrant: Permission = {
    users: [user.username],
    verbs: [VERBS[operation]],
    apiGroups: [resource.group],
    resources: [resource.resource],
    ...(requestNamespace && !isNamespace ? { namespaces: [requestNamespace] } : {}),
  };
  const grants = [...r.permissions, requestGrant];
  for (const p of grants) for (const ns of p.namespaces ?? []) created.add(ns);
  const rbac = grants.flatMap((p, i) => rbacObjects(p, `rc${k}-grant-${i}`, rename));
  const renamedGrants: Permission[] = grants.map((p) => (p.namespaces ? { ...p, namespaces: p.namespaces.map(rename) } : p));
  const clusterWide = grants.some((p) => !p.namespaces);

  // Pods need the Namespace's default ServiceAccount (no controller makes it here); without a
  // mounted token, so that the ServiceAccount plugin adds no volume with a random name.
  const accounts = [...created].map((ns) => ({
    apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: rename(ns) }, automountServiceAccountToken: false,
  }));
  const custom = builtInResource(groupVersionKind(source)!) ? [] : [definition(resource, source.kind)];

  return {
    name: repairs.length > 0 ? `${name} (completed: ${repairs.join(', ')})` : name,
    namespaces: [...created].sort().map((ns) => ({ name: rename(ns), labels: labelsOf.get(ns) ?? {} })),
    objects: [...accounts, ...rbac, ...objects, ...(stored ? [stored] : [])],
    policies: installed,
    operation,
    object: operation === 'DELETE' ? stored : object,
    user,
    resource,
    permissions: renamedGrants,
    ...(clusterWide || !resource.namespaced ? { solo: true } : {}),
    ...(custom.length > 0 ? { definitions: custom } : {}),
  };
}
