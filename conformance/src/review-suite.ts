/**
 * The review suite: each scenario's configuration is installed in the real apiserver, its request
 * is sent with `dryRun=All`, and the answer is compared with `PolicyTester.review` of the same
 * manifests and request: the decision, the HTTP code, the messages, the warnings, the audit
 * annotations (from the audit log) and, for allowed requests, the object the apiserver would store.
 *
 * Scenarios are installed in batches. A batch's Namespaces, params and stored objects are created
 * first (before any policy could see them), then its policies and bindings, then a sentinel pair
 * of policies (one validating, one mutating, each with params) created last: once both act on
 * their probe requests, the apiserver's policy sources (refreshed from their informers every
 * second, in creation order) hold the whole batch.
 */
import { AuditLog } from './audit-log';
import { Impersonation, mapConcurrently, Oracle, OracleResponse } from './oracle';
import { ReviewScenario, SCOPE_LABEL } from './review-scenarios';
import { CaseOutcome, percent, SuiteResult } from './suite';
import { AdmissionResult, KubernetesVersion, Operation, Permission, PolicyTester } from '../../src';

const ORACLE_USER = { username: 'conformance', uid: 'conformance-uid', groups: ['system:masters', 'system:authenticated'] };
const BATCH_SIZE = 250;
const CONCURRENCY = 12;

/** What the tester may assume of RBAC: the oracle's user may do anything; others only what `setUpRbac` grants. */
const PERMISSIONS: Permission[] = [
  { users: [ORACLE_USER.username], verbs: ['*'], apiGroups: ['*'], resources: ['*'], nonResourceUrls: ['*'] },
  { users: ['alice', 'bob'], verbs: ['*'], apiGroups: [''], resources: ['configmaps'] },
];

const PLURAL: Record<string, string> = {
  ValidatingAdmissionPolicy: 'validatingadmissionpolicies',
  ValidatingAdmissionPolicyBinding: 'validatingadmissionpolicybindings',
  MutatingAdmissionPolicy: 'mutatingadmissionpolicies',
  MutatingAdmissionPolicyBinding: 'mutatingadmissionpolicybindings',
};

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

async function must(oracle: Oracle, method: string, url: string, body?: unknown): Promise<OracleResponse> {
  const res = await oracle.request(method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
  return res;
}

/** Lets every authenticated user do anything with ConfigMaps, so impersonated requests reach admission. */
async function setUpRbac(oracle: Oracle): Promise<void> {
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

function objectUrl(o: any, dryRun = false): string {
  const base = `/api/v1/namespaces/${o.metadata.namespace}/configmaps`;
  return `${base}/${o.metadata.name}${dryRun ? '?dryRun=All' : ''}`;
}

function collectionUrl(o: any, dryRun = false): string {
  if (o.kind === 'Namespace') return '/api/v1/namespaces';
  if (o.kind === 'ConfigMap') return `/api/v1/namespaces/${o.metadata.namespace}/configmaps${dryRun ? '?dryRun=All' : ''}`;
  return `/apis/admissionregistration.k8s.io/v1/${PLURAL[o.kind]}`;
}

/** The sentinel policies of batch `n`: a validating policy that denies `probe-v`, a mutating one that labels `probe-m`. */
function sentinel(n: number): { namespace: string; param: any; policies: any[] } {
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

async function waitForSentinel(oracle: Oracle, namespace: string): Promise<void> {
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
  return s.user ? { username: s.user.username, groups: s.user.groups } : undefined;
}

function testerUser(s: ReviewScenario) {
  return s.user ? { username: s.user.username, uid: '', groups: [...s.user.groups, 'system:authenticated'] } : ORACLE_USER;
}

const ANNOTATION_PREFIXES = ['rv', 'validation.policy.admission.k8s.io/'];

/** The admission-policy annotations only (the audit log also has authorization's). */
function policyAnnotations(all: { [key: string]: string } | undefined): { [key: string]: string } {
  return Object.fromEntries(Object.entries(all ?? {}).filter(([k]) => ANNOTATION_PREFIXES.some((p) => k.startsWith(p))));
}

async function send(oracle: Oracle, s: ReviewScenario): Promise<OracleResponse> {
  const as = impersonation(s);
  switch (s.operation) {
    case 'CREATE': return oracle.request('POST', collectionUrl(s.object, true), s.object, as);
    case 'UPDATE': return oracle.request('PUT', objectUrl(s.object, true), s.object, as);
    case 'DELETE': return oracle.request('DELETE', objectUrl(s.object, true), undefined, as);
  }
}

function answerOf(res: OracleResponse, audit: { [key: string]: string } | undefined): Answer {
  const warnings = res.warnings.filter((w) => w.startsWith('Validation failed for ValidatingAdmissionPolicy'));
  const annotations = policyAnnotations(audit);
  if (res.status < 300) {
    return { allowed: true, code: res.status, messages: [], warnings, auditAnnotations: annotations, object: res.body?.kind === 'ConfigMap' ? res.body : undefined };
  }
  const body = res.body ?? {};
  const causes: string[] = (body.details?.causes ?? []).map((c: any) => c.message).filter((m: unknown) => typeof m === 'string');
  // A validating policy's denial is its last cause; a mutating policy's lists every failure as a cause.
  const validating = typeof body.message === 'string' && body.message.includes(': ValidatingAdmissionPolicy ');
  const messages = validating ? causes.slice(-1) : causes.length > 0 ? causes : [String(body.message ?? res.body)];
  return { allowed: false, code: res.status, reason: body.reason, messages, warnings, auditAnnotations: annotations };
}

/** The fields of a ConfigMap that admission may change (the server's own metadata left out). */
function storedShape(o: any): unknown {
  if (!o || typeof o !== 'object') return o;
  const { uid, resourceVersion, creationTimestamp, managedFields, generation, ...metadata } = o.metadata ?? {};
  return { ...o, metadata };
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

interface ReviewOutcome extends CaseOutcome {
  readonly codeAgrees?: boolean;
  readonly messageAgrees?: boolean;
  readonly auditAgrees?: boolean;
  readonly mutationAgrees?: boolean;
  readonly mutating: boolean;
}

function compare(s: ReviewScenario, tester: AdmissionResult | Error, answer: Answer, expectedObject: unknown): ReviewOutcome {
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
    object: tester.allowed ? tester.patchedObject ?? expectedObject : undefined,
  });
  const verdictAgrees = tester.allowed === answer.allowed;
  const outcome = { ...base, library, verdictAgrees };
  if (!verdictAgrees) return outcome;
  const warningsAgree = JSON.stringify(sorted(tester.warnings)) === JSON.stringify(sorted(answer.warnings));
  const auditAgrees = JSON.stringify(auditShape(tester.auditAnnotations)) === JSON.stringify(auditShape(answer.auditAnnotations));
  if (!answer.allowed) {
    // Which denial the apiserver reports first is its map order: any of the library's, with its code.
    const matching = tester.denials.filter((d) => answer.messages.includes(d.message));
    const messageAgrees = answer.messages.every((m) => messages.includes(m))
      && (answer.messages.length === 1 || answer.messages.length === messages.length);
    const codeAgrees = matching.some((d) => d.code === answer.code && d.reason === answer.reason);
    return { ...outcome, messageAgrees, codeAgrees, warningsAgree, auditAgrees };
  }
  const mutationAgrees = answer.object === undefined
    || canonical(storedShape(tester.patchedObject ?? expectedObject)) === canonical(storedShape(answer.object));
  return { ...outcome, warningsAgree, auditAgrees, mutationAgrees };
}

function disagrees(o: ReviewOutcome): boolean {
  return !o.verdictAgrees || [o.codeAgrees, o.messageAgrees, o.warningsAgree, o.auditAgrees, o.mutationAgrees].includes(false);
}

/** Installs one batch, sends its requests, and compares the answers with the tester's. */
async function runBatch(
  oracle: Oracle, audit: AuditLog, batch: readonly ReviewScenario[], n: number, version: KubernetesVersion,
): Promise<ReviewOutcome[]> {
  const guard = sentinel(n);
  const namespaces = [...batch.flatMap((s) => s.namespaces), { name: guard.namespace, labels: {} }];
  await mapConcurrently(namespaces, CONCURRENCY, (ns) => must(oracle, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns.name, labels: ns.labels } }));
  // What the apiserver stored, as the tester's params and old objects.
  const stored = await mapConcurrently(batch, CONCURRENCY, async (s) =>
    Promise.all(s.objects.map(async (o) => (await must(oracle, 'POST', collectionUrl(o), o)).body)));
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

  const responses = await mapConcurrently(batch, CONCURRENCY, (s, i) => (installErrors[i] ? Promise.resolve(undefined) : send(oracle, s)));
  const outcomes: ReviewOutcome[] = [];
  for (const [i, s] of batch.entries()) {
    const res = responses[i];
    if (!res) {
      outcomes.push({ name: s.name, apiserverAccepted: false, verdictAgrees: false, library: 'installed', apiserver: `not installed: ${installErrors[i]}`, mutating: false });
      continue;
    }
    const annotations = res.auditId ? await auditAnnotations(audit, res.auditId) : undefined;
    const answer = answerOf(res, annotations);
    const storedObject = s.operation === 'CREATE' ? undefined : stored[i][stored[i].length - 1];
    const namespaceManifests = s.namespaces.map((ns) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns.name, labels: ns.labels } }));
    const review = (manifests: readonly unknown[]): AdmissionResult | Error => {
      try {
        const tester = PolicyTester.fromManifests([...namespaceManifests, ...manifests], { kubernetesVersion: version, permissions: PERMISSIONS });
        return tester.review({
          operation: s.operation as Operation,
          ...(s.operation === 'DELETE' ? {} : { object: s.object }),
          ...(storedObject ? { oldObject: storedObject } : {}),
          userInfo: testerUser(s),
          dryRun: true,
        });
      } catch (e) {
        return e as Error;
      }
    };
    const manifests = [...stored[i], ...s.policies];
    const outcome = compare(s, review(manifests), answer, s.object);
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
    const agreeing = orders.map((o) => {
      const other = review(o.manifests);
      return { ...compare(s, other instanceof Error ? other : o.back(other), answer, s.object), name: `${s.name} (${o.what})` };
    }).find((o) => !disagrees(o));
    outcomes.push(agreeing ?? outcome);
  }
  // Later batches should not pay for this one's policies at every refresh.
  await mapConcurrently([...batch.flatMap((s) => s.policies), ...guard.policies], CONCURRENCY, (p) =>
    oracle.request('DELETE', `${collectionUrl(p)}/${p.metadata.name}`));
  return outcomes;
}

/** The audit event is written as the response completes: wait briefly for it. */
async function auditAnnotations(audit: AuditLog, auditId: string): Promise<{ [key: string]: string } | undefined> {
  for (let i = 0; i < 50; i++) {
    const found = audit.annotationsOf(auditId);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}

export async function runReviewSuite(oracle: Oracle, scenarios: readonly ReviewScenario[], version: KubernetesVersion): Promise<SuiteResult> {
  await setUpRbac(oracle);
  // Policies that use ConfigMap params for the whole run: when the last policy with a paramKind is
  // deleted, the apiserver stops that kind's param informer, and one started again later was seen
  // to miss params created after it (every selector found nothing). The keepers are never deleted.
  for (const p of sentinel(-1).policies) await must(oracle, 'POST', collectionUrl(p), p);
  const audit = new AuditLog(oracle.auditLog);
  const outcomes: ReviewOutcome[] = [];
  for (let start = 0, n = 0; start < scenarios.length; start += BATCH_SIZE, n++) {
    outcomes.push(...await runBatch(oracle, audit, scenarios.slice(start, start + BATCH_SIZE), n, version));
  }
  const count = (f: (o: ReviewOutcome) => boolean | undefined) => outcomes.filter((o) => f(o) === true).length;
  const of = (f: (o: ReviewOutcome) => boolean | undefined) => outcomes.filter((o) => f(o) !== undefined).length;
  const rate = (f: (o: ReviewOutcome) => boolean | undefined) => `${count(f)}/${of(f)} (${percent(count(f), of(f))})`;
  return {
    suite: 'reviews',
    outcomes,
    rows: [
      ['scenarios', `${outcomes.length} (${count((o) => o.mutating)} with mutating policies)`],
      ['allowed by the apiserver', String(count((o) => o.apiserverAccepted))],
      ['decisions agree', rate((o) => o.verdictAgrees)],
      ['codes agree (denied)', rate((o) => o.codeAgrees)],
      ['messages agree (denied)', rate((o) => o.messageAgrees)],
      ['warnings agree', rate((o) => o.warningsAgree)],
      ['audit annotations agree', rate((o) => o.auditAgrees)],
      ['mutations agree (allowed)', rate((o) => o.mutationAgrees)],
    ],
  };
}
