/**
 * The review suite: each scenario's configuration is installed in the real apiserver, its request
 * is sent with `dryRun=All`, and the answer is compared with `PolicyTester.review` of the same
 * manifests and request: the decision, the HTTP code, the messages, the warnings, the audit
 * annotations (from the audit log), for allowed requests the object the apiserver would store,
 * and the match verdicts (match-verdicts.ts): no policy the tester says did not act shows in
 * the answer.
 *
 * Scenarios are installed in batches. A batch's Namespaces, params and stored objects are created
 * first (before any policy could see them), then its policies and bindings, then a sentinel pair
 * of policies (one validating, one mutating, each with params) created last: once both act on
 * their probe requests, the apiserver's policy sources (refreshed from their informers every
 * second, in creation order) hold the whole batch.
 */
import { matchDisagreements, participants } from './match-verdicts';
import { ReviewScenario, ScenarioResource, SCOPE_LABEL } from './scenario';
import { AdmissionResult, KubernetesVersion, Operation, Permission, PolicyTester } from '../../../../src';
import { builtInResource, groupVersionKind } from '../../../../src/testing/resource-table';
import { AuditLog } from '../../oracle/audit-log';
import { mapConcurrently } from '../../oracle/map-concurrently';
import { Impersonation, Oracle, OracleResponse } from '../../oracle/oracle';
import { CaseOutcome, SuiteResult } from '../../outcomes/suite-result';
import { percent } from '../../outcomes/table';

export const ORACLE_USER = { username: 'conformance', uid: 'conformance-uid', groups: ['system:masters', 'system:authenticated'] };
const BATCH_SIZE = 250;
const CONCURRENCY = 12;

/** What the tester may assume of RBAC: the oracle's user may do anything; others what `setUpRbac` grants, and a scenario's own grants. */
export const PERMISSIONS: Permission[] = [
  { users: [ORACLE_USER.username], verbs: ['*'], apiGroups: ['*'], resources: ['*'], nonResourceUrls: ['*'] },
  { verbs: ['*'], apiGroups: [''], resources: ['configmaps'] },
];

/** The apiserver's answer to a scenario's request, as compared. */
interface Answer {
  readonly allowed: boolean;
  readonly code: number;
  readonly reason?: string;
  /** The denial messages: the one a validating policy returns, or every cause of a mutating policy's denial. */
  readonly messages: string[];
  readonly warnings: string[];
  readonly auditAnnotations: { [key: string]: string };
  /** The object as it would be stored (allowed CREATE and UPDATE). */
  readonly object?: any;
}

export async function must(oracle: Oracle, method: string, url: string, body?: unknown): Promise<OracleResponse> {
  const res = await oracle.request(method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
  return res;
}

/** Lets every authenticated user do anything with ConfigMaps, so impersonated requests reach admission. */
export async function setUpRbac(oracle: Oracle): Promise<void> {
  await must(oracle, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'conformance-configmaps' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }],
  });
  await must(oracle, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'conformance-configmaps' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'conformance-configmaps' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }],
  });
}

/** The resource of an object: built-in, or the scenario's own (a custom resource). */
function resourceOf(o: any, s?: ReviewScenario): ScenarioResource {
  const gvk = groupVersionKind(o);
  const known = gvk && builtInResource(gvk);
  if (gvk && known) return { group: gvk.group, version: gvk.version, resource: known.resource, namespaced: known.namespaced };
  if (s?.resource) return s.resource;
  throw new Error(`no resource known for ${o?.apiVersion} ${o?.kind}`);
}

export function collectionUrl(o: any, s?: ReviewScenario, dryRun = false): string {
  const r = resourceOf(o, s);
  const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  return `${prefix}${r.namespaced ? `/namespaces/${o.metadata.namespace}` : ''}/${r.resource}${dryRun ? '?dryRun=All' : ''}`;
}

function objectUrl(o: any, s?: ReviewScenario, dryRun = false): string {
  return `${collectionUrl(o, s)}/${o.metadata.name}${dryRun ? '?dryRun=All' : ''}`;
}

/** The sentinel policies of batch `n`: a validating policy that denies `probe-v`, a mutating one that labels `probe-m`. */
export function sentinel(n: number): { namespace: string; param: any; policies: any[] } {
  const namespace = n < 0 ? 'rv-keeper' : `rv-sentinel-${n}`;
  const name = namespace;
  const constraints = (resource: string) => ({
    namespaceSelector: { matchExpressions: [{ key: SCOPE_LABEL, operator: 'In', values: [namespace] }] },
    resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations: ['CREATE'], resourceNames: [resource] }],
  });
  // By selector: the param informer lists selected params (names are also read from the API), and
  // this param, created after the batch's, shows that the informer has all of theirs.
  const paramRef = { selector: { matchLabels: { sentinel: name } }, parameterNotFoundAction: 'Deny' };
  const V1 = 'admissionregistration.k8s.io/v1';
  return {
    namespace,
    param: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels: { sentinel: name } }, data: { word: 'sentinel' } },
    policies: [
      {
        apiVersion: V1,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name },
        spec: {
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          matchConstraints: constraints('probe-v'),
          validations: [{ expression: 'false', messageExpression: 'string(params.data.word)' }],
        },
      },
      {
        apiVersion: V1,
        kind: 'MutatingAdmissionPolicy',
        metadata: { name },
        spec: {
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          matchConstraints: constraints('probe-m'),
          reinvocationPolicy: 'Never',
          mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"sentinel": params.data.word}}}' } }],
        },
      },
      { apiVersion: V1, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name, validationActions: ['Deny'], paramRef } },
      { apiVersion: V1, kind: 'MutatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name, paramRef } },
    ],
  };
}

export async function waitForSentinel(oracle: Oracle, namespace: string): Promise<void> {
  const probe = (name: string) => oracle.request('POST', `/api/v1/namespaces/${namespace}/configmaps?dryRun=All`,
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } });
  let last = '';
  for (let i = 0; i < 600; i++) {
    const [v, m] = await Promise.all([probe('probe-v'), probe('probe-m')]);
    const denied = v.status === 422 && JSON.stringify(v.body).includes('denied request: sentinel');
    const mutated = m.status === 201 && m.body?.metadata?.labels?.sentinel === 'sentinel';
    if (denied && mutated) return;
    last = `probe-v: ${v.status} ${JSON.stringify(v.body).slice(0, 300)}; probe-m: ${m.status} ${JSON.stringify(m.body?.metadata ?? m.body).slice(0, 300)}`;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the sentinel policies of ${namespace} were not in force within 2 minutes (${last})`);
}

function impersonation(s: ReviewScenario): Impersonation | undefined {
  return s.user;
}

/** The user the apiserver's impersonation makes: `system:authenticated` is added unless a group says otherwise. */
export function testerUser(s: ReviewScenario) {
  if (!s.user) return ORACLE_USER;
  const groups = [...s.user.groups];
  if (!groups.includes('system:authenticated') && !groups.includes('system:unauthenticated')) groups.push('system:authenticated');
  return {
    username: s.user.username,
    uid: s.user.uid ?? '',
    groups,
    ...(s.user.extra ? { extra: Object.fromEntries(Object.entries(s.user.extra).map(([k, v]) => [k, [...v]])) } : {}),
  };
}

const ANNOTATION_PREFIXES = ['rv', 'rc', 'rm', 'validation.policy.admission.k8s.io/'];

/** The admission-policy annotations only (the audit log also has authorization's). */
function policyAnnotations(all: { [key: string]: string } | undefined): { [key: string]: string } {
  return Object.fromEntries(Object.entries(all ?? {}).filter(([k]) => ANNOTATION_PREFIXES.some((p) => k.startsWith(p))));
}

export async function send(oracle: Oracle, s: ReviewScenario, object: any, as = impersonation(s)): Promise<OracleResponse> {
  switch (s.operation) {
    case 'CREATE': return oracle.request('POST', collectionUrl(object, s, true), object, as);
    case 'UPDATE': return oracle.request('PUT', objectUrl(object, s, true), object, as);
    case 'DELETE': return oracle.request('DELETE', objectUrl(object, s, true), undefined, as);
  }
}

/** The answer to a request; `kind` is that of the object to compare (none for DELETE, which nothing mutates). */
export function answerOf(res: OracleResponse, audit: { [key: string]: string } | undefined, kind: string | undefined): Answer {
  const warnings = res.warnings.filter((w) => w.startsWith('Validation failed for ValidatingAdmissionPolicy'));
  const annotations = policyAnnotations(audit);
  if (res.status < 300) {
    const object = kind !== undefined && res.body?.kind === kind ? res.body : undefined;
    return { allowed: true, code: res.status, messages: [], warnings, auditAnnotations: annotations, object };
  }
  const body = res.body ?? {};
  const causes: string[] = (body.details?.causes ?? []).map((c: any) => c.message).filter((m: unknown) => typeof m === 'string');
  // A validating policy's denial is its last cause; a mutating policy's lists every failure as a cause.
  const validating = typeof body.message === 'string' && body.message.includes(': ValidatingAdmissionPolicy ');
  const messages = validating ? causes.slice(-1) : causes.length > 0 ? causes : [String(body.message ?? res.body)];
  return { allowed: false, code: res.status, reason: body.reason, messages, warnings, auditAnnotations: annotations };
}

/** An object without what neither side can predict: the server's own metadata, a token volume's random name. */
function storedShape(o: any): unknown {
  if (!o || typeof o !== 'object') return o;
  const { uid, resourceVersion, creationTimestamp, managedFields, ...metadata } = o.metadata ?? {};
  return JSON.parse(JSON.stringify({ ...o, metadata }).replace(/kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}/g, 'kube-api-access-<random>'));
}

/** JSON with the keys of every object sorted (the apiserver returns maps in key order). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}

function sorted(values: readonly string[]): string[] {
  return [...values].sort();
}

/** Audit annotation values compared as sets: the order of params and policies is the apiserver's map order. */
function auditShape(annotations: { [key: string]: string }): unknown {
  return Object.fromEntries(Object.keys(annotations).sort().map((k) => {
    const v = annotations[k];
    if (k === 'validation.policy.admission.k8s.io/validation_failure') {
      try {
        return [k, sorted((JSON.parse(v) as unknown[]).map((x) => JSON.stringify(x)))];
      } catch {
        return [k, v];
      }
    }
    return [k, sorted(v.split(', '))];
  }));
}

interface Described {
  allowed: boolean;
  code?: number;
  reason?: string;
  messages: readonly string[];
  warnings: readonly string[];
  auditAnnotations: object;
  object?: unknown;
}

function describeAnswer(a: Described): string {
  return JSON.stringify({
    allowed: a.allowed,
    code: a.code,
    reason: a.reason,
    messages: a.messages,
    warnings: a.warnings,
    auditAnnotations: a.auditAnnotations,
    ...(a.object ? { object: storedShape(a.object) } : {}),
  });
}

export interface ReviewOutcome extends CaseOutcome {
  readonly codeAgrees?: boolean;
  readonly messageAgrees?: boolean;
  readonly auditAgrees?: boolean;
  readonly mutationAgrees?: boolean;
  readonly matchAgrees?: boolean;
  /** How many policies the apiserver's answer named (each checked against the tester's verdicts). */
  readonly participantsNamed?: number;
  /** How many denials the tester gave, for a request both sides denied. */
  readonly testerDenials?: number;
  readonly mutating: boolean;
}

/**
 * Compares the tester's answer with the apiserver's: for an admitted request, the object admission
 * let through too. `firstDenialKnown`: the policies run in an order the tester knows (static
 * policies, which the loader sorts), so the apiserver's one validating denial must be the tester's
 * first, not any of them.
 */
export function compare(s: ReviewScenario, tester: AdmissionResult | Error, answer: Answer, firstDenialKnown = false): ReviewOutcome {
  const mutating = s.policies.some((p) => p.kind === 'MutatingAdmissionPolicy');
  const base = { name: s.name, apiserverAccepted: answer.allowed, apiserver: describeAnswer(answer), mutating };
  if (tester instanceof Error) {
    return { ...base, verdictAgrees: false, library: `error: ${tester.message}` };
  }
  const messages = tester.denials.map((d) => d.message);
  const library = describeAnswer({
    allowed: tester.allowed,
    code: tester.denials[0]?.code,
    reason: tester.denials[0]?.reason,
    messages,
    warnings: tester.warnings,
    auditAnnotations: tester.auditAnnotations,
    object: tester.allowed ? tester.admittedObject : undefined,
  });
  // The policies either side's answer names, against the tester's verdicts of which acted.
  const testerAnswer = { messages, warnings: tester.warnings, auditAnnotations: tester.auditAnnotations };
  const named = participants(answer);
  const matchProblems = [...new Set([named, participants(testerAnswer)]
    .flatMap((seen, i) => matchDisagreements(tester.policies, seen).map((d) => (i === 0 ? d : d.replace("the apiserver's", "the tester's")))))];
  const matchAgrees = matchProblems.length === 0;
  const verdictAgrees = tester.allowed === answer.allowed;
  const outcome = { ...base, library: matchAgrees ? library : `${library} match verdicts: ${matchProblems.join(' | ')}`, verdictAgrees, matchAgrees, participantsNamed: named.length };
  if (!verdictAgrees) return outcome;
  const warningsAgree = JSON.stringify(sorted(tester.warnings)) === JSON.stringify(sorted(answer.warnings));
  const auditAgrees = JSON.stringify(auditShape(tester.auditAnnotations)) === JSON.stringify(auditShape(answer.auditAnnotations));
  if (!answer.allowed) {
    // Which denial the apiserver reports first is, for API policies, its map order: any of the
    // library's, with its code.
    const matching = (firstDenialKnown ? tester.denials.slice(0, 1) : tester.denials).filter((d) => answer.messages.includes(d.message));
    const messageAgrees = answer.messages.every((m) => messages.includes(m))
      && (answer.messages.length === 1 || answer.messages.length === messages.length)
      && (!firstDenialKnown || answer.messages[0] === messages[0]);
    const codeAgrees = matching.some((d) => d.code === answer.code && d.reason === answer.reason);
    return { ...outcome, messageAgrees, codeAgrees, warningsAgree, auditAgrees, testerDenials: messages.length };
  }
  const mutationAgrees = answer.object === undefined || canonical(storedShape(tester.admittedObject)) === canonical(storedShape(answer.object));
  return { ...outcome, warningsAgree, auditAgrees, mutationAgrees };
}

export function disagrees(o: ReviewOutcome): boolean {
  return !o.verdictAgrees || [o.codeAgrees, o.messageAgrees, o.warningsAgree, o.auditAgrees, o.mutationAgrees, o.matchAgrees].includes(false);
}

/** A scenario that was not sent: the recorded review is no request the apiserver can receive, or it refused the object before admission. */
export interface UnrealizedScenario {
  readonly name: string;
  readonly reason: string;
}

/**
 * A refusal by the apiserver's decoding or validation, which come before validating admission: no
 * policy took part (denials by policies, mutating or validating, say "denied request").
 */
export function refusedBeforeAdmission(res: { status: number; body: any }): boolean {
  if (res.status < 400) return false;
  const message = String(res.body?.message ?? '');
  return (res.status === 400 || res.status === 422) && !message.includes('denied request') && !message.includes('denied the request');
}

/** SubjectAccessReview attributes that a permission grants, made concrete. */
function accessOf(p: Permission, s: ReviewScenario): object {
  const concrete = (values: readonly string[] | undefined, fallback: string) => (!values || values[0] === '*' ? fallback : values[0]);
  const user = testerUser(s);
  const who = { user: concrete(p.users, user.username), ...(p.users ? {} : { groups: user.groups }) };
  if (!p.resources) return { ...who, nonResourceAttributes: { verb: concrete(p.verbs, 'get'), path: concrete(p.nonResourceUrls, '/').replace(/\*$/, '') } };
  const [resource, subresource] = concrete(p.resources, 'pods').split('/');
  return {
    ...who,
    resourceAttributes: {
      verb: concrete(p.verbs, 'get'),
      group: concrete(p.apiGroups, ''),
      resource,
      ...(subresource ? { subresource } : {}),
      ...(p.namespaces ? { namespace: p.namespaces[0] } : {}),
      ...(p.resourceNames ? { name: p.resourceNames[0] } : {}),
    },
  };
}

/** Waits until RBAC grants what a scenario's permissions say (its informers lag behind the objects). */
async function waitForAccess(oracle: Oracle, s: ReviewScenario): Promise<void> {
  for (const p of s.permissions ?? []) {
    const spec = accessOf(p, s);
    let allowed = false;
    for (let i = 0; i < 600 && !allowed; i++) {
      const res = await must(oracle, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
      allowed = res.body?.status?.allowed === true;
      if (!allowed) await new Promise((r) => setTimeout(r, 200));
    }
    if (!allowed) throw new Error(`${s.name}: RBAC did not grant ${JSON.stringify(spec)} within 2 minutes`);
  }
}

/** Waits until a deleted sentinel no longer acts: the batch's policies, deleted before it, are gone from the policy sources. */
async function waitForSentinelGone(oracle: Oracle, namespace: string): Promise<void> {
  const probe = (name: string) => oracle.request('POST', `/api/v1/namespaces/${namespace}/configmaps?dryRun=All`,
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } });
  for (let i = 0; i < 600; i++) {
    const [v, m] = await Promise.all([probe('probe-v'), probe('probe-m')]);
    if (v.status === 201 && m.status === 201 && m.body?.metadata?.labels?.sentinel === undefined) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the deleted sentinel policies of ${namespace} still acted after 2 minutes`);
}

/** Installs one batch, sends its requests, and compares the answers with the tester's. */
async function runBatch(
  oracle: Oracle, audit: AuditLog, batch: readonly ReviewScenario[], n: number, version: KubernetesVersion,
): Promise<{ outcomes: ReviewOutcome[]; unrealized: UnrealizedScenario[] }> {
  const guard = sentinel(n);
  const namespaces = [...batch.flatMap((s) => s.namespaces), { name: guard.namespace, labels: {} }];
  await mapConcurrently(namespaces, CONCURRENCY, (ns) => must(oracle, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns.name, labels: ns.labels } }));
  // What the apiserver stored, as the tester's params and old objects.
  const stored = await mapConcurrently(batch, CONCURRENCY, async (s) => {
    const out: any[] = [];
    for (const o of s.objects) out.push((await must(oracle, 'POST', collectionUrl(o, s), o)).body);
    return out;
  });
  await mapConcurrently(batch, CONCURRENCY, (s) => waitForAccess(oracle, s));
  await must(oracle, 'POST', collectionUrl(guard.param), guard.param);
  const installErrors = await mapConcurrently(batch, CONCURRENCY, async (s) => {
    for (const p of s.policies) {
      const res = await oracle.request('POST', collectionUrl(p), p);
      if (res.status >= 300) return `${p.kind} ${p.metadata.name}: ${res.body?.message ?? res.status}`;
    }
    return undefined;
  });
  for (const p of guard.policies) await must(oracle, 'POST', collectionUrl(p), p);
  await waitForSentinel(oracle, guard.namespace);

  // The object as the scenario has it: each side decodes, defaults and admits it itself.
  const responses = await mapConcurrently(batch, CONCURRENCY, (s, i) => (installErrors[i] ? Promise.resolve(undefined) : send(oracle, s, s.object)));
  const outcomes: ReviewOutcome[] = [];
  const unrealized: UnrealizedScenario[] = [];
  for (const [i, s] of batch.entries()) {
    const res = responses[i];
    if (res && refusedBeforeAdmission(res)) {
      unrealized.push({ name: s.name, reason: `the apiserver refused the object before admission (${res.status}): ${res.body?.message ?? JSON.stringify(res.body).slice(0, 300)}` });
      continue;
    }
    if (!res) {
      outcomes.push({ name: s.name, apiserverAccepted: false, verdictAgrees: false, library: 'installed', apiserver: `not installed: ${installErrors[i]}`, mutating: false });
      continue;
    }
    const object = s.object;
    const annotations = res.auditId ? await auditAnnotations(audit, res.auditId) : undefined;
    const answer = answerOf(res, annotations, s.operation === 'DELETE' ? undefined : object.kind);
    const storedObject = s.operation === 'CREATE' ? undefined : stored[i][stored[i].length - 1];
    const namespaceManifests = s.namespaces.map((ns) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns.name, labels: ns.labels } }));
    const resource = s.resource ? { resource: { group: s.resource.group, version: s.resource.version, resource: s.resource.resource } } : {};
    const review = (manifests: readonly unknown[]): AdmissionResult | Error => {
      try {
        const permissions = [...PERMISSIONS, ...(s.permissions ?? [])];
        const tester = PolicyTester.fromManifests([...namespaceManifests, ...manifests], { kubernetesVersion: version, permissions });
        return tester.review({
          operation: s.operation as Operation,
          ...(s.operation === 'DELETE' ? {} : { object }),
          ...(storedObject ? { oldObject: storedObject } : {}),
          ...resource,
          userInfo: testerUser(s),
          dryRun: true,
        });
      } catch (e) {
        return e as Error;
      }
    };
    const compared = async (result: AdmissionResult | Error) => compare(s, result, answer);
    const manifests = [...stored[i], ...s.policies];
    const outcome = await compared(review(manifests));
    if (!disagrees(outcome)) {
      outcomes.push(outcome);
      continue;
    }
    // Orders the apiserver leaves open, each tried when the tester's own disagrees: its mutating
    // policies run in a Go map's order (stable between refreshes, not by name), and the params a
    // selector finds come in its informer's order; the tester takes names and manifests in order.
    const mutatingNames = s.policies.filter((p) => p.kind === 'MutatingAdmissionPolicy').map((p) => p.metadata.name as string);
    const swap = (text: string) => {
      const [x, y] = mutatingNames;
      return text.split(x).map((part) => part.split(y).join(x)).join(y);
    };
    const orders: Array<{ what: string; manifests: unknown[]; back: (r: AdmissionResult) => AdmissionResult }> = [
      { what: 'its params in the other order', manifests: [...[...stored[i]].reverse(), ...s.policies], back: (r) => r },
    ];
    if (mutatingNames.length === 2) {
      const unswap = (r: AdmissionResult) => JSON.parse(swap(JSON.stringify(r)));
      orders.push({ what: 'the other order of its mutating policies', manifests: JSON.parse(swap(JSON.stringify(manifests))), back: unswap });
      orders.push({
        what: 'the other order of its mutating policies and params',
        manifests: JSON.parse(swap(JSON.stringify([...[...stored[i]].reverse(), ...s.policies]))),
        back: unswap,
      });
    }
    let agreeing: ReviewOutcome | undefined;
    for (const o of orders) {
      const other = review(o.manifests);
      const tried = { ...await compared(other instanceof Error ? other : o.back(other)), name: `${s.name} (${o.what})` };
      if (!disagrees(tried)) {
        agreeing = tried;
        break;
      }
    }
    outcomes.push(agreeing ?? outcome);
  }
  // Later batches should not pay for this one's policies at every refresh, and a scenario that
  // runs alone must not meet them: the sentinel, deleted last, shows when they are gone.
  await mapConcurrently(batch.flatMap((s) => s.policies), CONCURRENCY, (p) => oracle.request('DELETE', objectUrl(p)));
  for (const p of guard.policies) await oracle.request('DELETE', objectUrl(p));
  await waitForSentinelGone(oracle, guard.namespace);
  // What a scenario alone stored outside its Namespaces (Namespaces cannot be deleted here: no controller finalizes them).
  const clusterScoped = batch.filter((s) => s.solo).flatMap((s) => s.objects).filter((o) => o.kind !== 'Namespace' && !resourceOf(o).namespaced);
  await mapConcurrently(clusterScoped, CONCURRENCY, (o) => oracle.request('DELETE', objectUrl(o)));
  return { outcomes, unrealized };
}

/** The audit event is written as the response completes: wait briefly for it. */
export async function auditAnnotations(audit: AuditLog, auditId: string): Promise<{ [key: string]: string } | undefined> {
  for (let i = 0; i < 50; i++) {
    const found = audit.annotationsOf(auditId);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}

/** Creates the CustomResourceDefinitions of the scenarios and waits until their resources are served. */
async function defineResources(oracle: Oracle, scenarios: readonly ReviewScenario[]): Promise<void> {
  const definitions = new Map<string, any>();
  for (const s of scenarios) for (const d of s.definitions ?? []) definitions.set(d.metadata.name, d);
  for (const d of definitions.values()) {
    await must(oracle, 'POST', collectionUrl(d), d);
    const { group, versions, names } = d.spec;
    let served = false;
    for (let i = 0; i < 600 && !served; i++) {
      served = (await oracle.request('GET', `/apis/${group}/${versions[0].name}/${names.plural}`)).status === 200;
      if (!served) await new Promise((r) => setTimeout(r, 200));
    }
    if (!served) throw new Error(`the CustomResourceDefinition ${d.metadata.name} was not served within 2 minutes`);
  }
}

/** Batches of scenarios: those scoped to their Namespaces together, each that must run alone by itself. */
function batchesOf(scenarios: readonly ReviewScenario[]): ReviewScenario[][] {
  const shared = scenarios.filter((s) => !s.solo);
  const batches: ReviewScenario[][] = [];
  for (let start = 0; start < shared.length; start += BATCH_SIZE) batches.push(shared.slice(start, start + BATCH_SIZE));
  return [...batches, ...scenarios.filter((s) => s.solo).map((s) => [s])];
}

/**
 * Runs the scenarios against the apiserver; `unrealized` are those of the corpus that are no
 * request it can receive, reported with the ones it refused before admission.
 */
export async function runReviewSuite(
  oracle: Oracle, scenarios: readonly ReviewScenario[], version: KubernetesVersion, unrealized: readonly UnrealizedScenario[] = [],
): Promise<SuiteResult> {
  await setUpRbac(oracle);
  // Policies that use ConfigMap params for the whole run: when the last policy with a paramKind is
  // deleted, the apiserver stops that kind's param informer, and one started again later was seen
  // to miss params created after it (every selector found nothing). The keepers are never deleted.
  for (const p of sentinel(-1).policies) await must(oracle, 'POST', collectionUrl(p), p);
  await defineResources(oracle, scenarios);
  const audit = new AuditLog(oracle.auditLog);
  const outcomes: ReviewOutcome[] = [];
  const notSent: UnrealizedScenario[] = [...unrealized];
  for (const [n, batch] of batchesOf(scenarios).entries()) {
    const result = await runBatch(oracle, audit, batch, n, version);
    outcomes.push(...result.outcomes);
    notSent.push(...result.unrealized);
  }
  const count = (f: (o: ReviewOutcome) => boolean | undefined) => outcomes.filter((o) => f(o) === true).length;
  const of = (f: (o: ReviewOutcome) => boolean | undefined) => outcomes.filter((o) => f(o) !== undefined).length;
  const rate = (f: (o: ReviewOutcome) => boolean | undefined) => `${count(f)}/${of(f)} (${percent(count(f), of(f))})`;
  const corpus = (name: string) => name.startsWith('corpus ');
  return {
    suite: 'reviews',
    outcomes,
    rows: [
      ['scenarios', `${outcomes.length} (${count((o) => corpus(o.name))} from the project's tests and examples, ${count((o) => o.mutating)} with mutating policies)`],
      ['not sent (below)', String(notSent.length)],
      ['allowed by the apiserver', String(count((o) => o.apiserverAccepted))],
      ['decisions agree', rate((o) => o.verdictAgrees)],
      ['decisions agree (corpus)', rate((o) => (corpus(o.name) ? o.verdictAgrees : undefined))],
      ['codes agree (denied)', rate((o) => o.codeAgrees)],
      ['messages agree (denied)', rate((o) => o.messageAgrees)],
      ['warnings agree', rate((o) => o.warningsAgree)],
      ['audit annotations agree', rate((o) => o.auditAgrees)],
      ['mutations agree (allowed)', rate((o) => o.mutationAgrees)],
      ['match verdicts agree', `${rate((o) => o.matchAgrees)}, ${outcomes.reduce((n, o) => n + (o.participantsNamed ?? 0), 0)} policies named by the answers`],
    ],
    notes: notSent.map((u) => `not sent: ${u.name.slice(0, 160)}: ${u.reason.slice(0, 300)}`),
  };
}
