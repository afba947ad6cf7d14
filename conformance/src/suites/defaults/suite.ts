/**
 * The defaults suite: the object the apiserver's validating admission sees, against the one
 * PolicyTester's validating policies see (`admittedObject`), for objects sent as a user writes
 * them (cases.ts), with no preparation by the apiserver first. The apiserver's side is
 * read by a recording webhook (cmd/oracle/recorder.go) installed for the suite's namespaces and
 * labelled cluster-scoped objects; validating webhooks run with the validating policies, on the
 * same object. A third of the namespaced cases go to a namespace where MutatingAdmissionPolicies
 * add a label and a sidecar container (without a pull policy) first.
 *
 * Compared: the whole object, with what neither side can predict replaced by a placeholder (the
 * UID, times taken from the clock, the random suffix of generated names, the Job's controller UID,
 * a Service's allocated cluster IP and node ports)
 * and `metadata.managedFields` left out (a known difference: PolicyTester does not track field
 * managers).
 */
import { DefaultsCase, defaultsCases, typedVariants } from './cases';
import { AdmissionResult, KubernetesVersion, Operation, PolicyTester } from '../../../../src';
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';
import { mapConcurrently } from '../../oracle/map-concurrently';
import { Oracle } from '../../oracle/oracle';
import { CaseOutcome, SuiteResult } from '../../outcomes/suite-result';
import { percent } from '../../outcomes/table';

const LABEL = 'conformance-defaults';
const PLAIN = 'defaults';
const MUTATED = 'defaults-mutated';
const LIMITED = 'defaults-limits';
const CONCURRENCY = 8;

/** What both sides are given: the Namespaces, the objects the admission plugins read, and the mutating policies. */
function fixtures(): any[] {
  const ns = (name: string, extra: object = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { [LABEL]: 'recorded', ...extra } } });
  const accounts = [PLAIN, MUTATED, LIMITED].flatMap((namespace) => [
    // The oracle runs no controller that would create the `default` ServiceAccount; PolicyTester assumes it.
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace }, automountServiceAccountToken: false, imagePullSecrets: [{ name: 'regcred' }] },
  ]);
  const sidecar = (name: string, resources: string[], path: string) => [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name },
      spec: {
        matchConstraints: {
          namespaceSelector: { matchLabels: { [`${LABEL}-mutated`]: 'yes' } },
          resourceRules: [{ apiGroups: ['', 'apps', 'batch'], apiVersions: ['v1'], operations: ['CREATE'], resources }],
        },
        failurePolicy: 'Fail',
        reinvocationPolicy: 'Never',
        mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: `[JSONPatch{op: "add", path: "${path}/-", value: {"name": "sidecar", "image": "busybox:1.36"}}]` } }],
      },
    },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name } },
  ];
  return [
    ns(PLAIN), ns(MUTATED, { [`${LABEL}-mutated`]: 'yes' }), ns(LIMITED),
    ...accounts,
    { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'defaults', namespace: LIMITED }, spec: { limits: [{ type: 'Container', default: { cpu: '200m' }, defaultRequest: { memory: '64Mi' }, max: { memory: '1Gi' } }] } },
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'batch-low' }, value: 1000, preemptionPolicy: 'Never' },
    {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'sandboxed' },
      handler: 'runsc',
      overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
      scheduling: { nodeSelector: { sandbox: 'yes' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
    },
    { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'example.com/disk' },
    { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: 'default-class', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } }, spec: { controller: 'example.com/ingress' } },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: 'defaults-label' },
      spec: {
        matchConstraints: {
          namespaceSelector: { matchLabels: { [`${LABEL}-mutated`]: 'yes' } },
          resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['CREATE'], resources: ['*'], scope: 'Namespaced' }],
        },
        failurePolicy: 'Fail',
        reinvocationPolicy: 'Never',
        mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"mutated": "yes"}}}' } }],
      },
    },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'defaults-label' }, spec: { policyName: 'defaults-label' } },
    ...sidecar('defaults-sidecar-pods', ['pods'], '/spec/containers'),
    ...sidecar('defaults-sidecar-templates', ['deployments', 'statefulsets', 'daemonsets', 'replicasets', 'jobs', 'replicationcontrollers'], '/spec/template/spec/containers'),
  ];
}

/** The recording webhooks: namespaced objects in the suite's namespaces, cluster-scoped ones by label. */
function recorderConfiguration(oracle: Oracle): any {
  const { url, caBundle } = oracle.recorderWebhook;
  const webhook = (name: string, scope: string, selector: object) => ({
    name,
    clientConfig: { url, caBundle },
    rules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['CREATE'], resources: ['*'], scope }],
    failurePolicy: 'Fail',
    matchPolicy: 'Exact',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 10,
    ...selector,
  });
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'defaults-recorder' },
    webhooks: [
      webhook('namespaced.recorder.conformance', 'Namespaced', { namespaceSelector: { matchLabels: { [LABEL]: 'recorded' } } }),
      webhook('cluster.recorder.conformance', 'Cluster', { objectSelector: { matchLabels: { [LABEL]: 'recorded' } } }),
    ],
  };
}

interface Prepared {
  readonly c: DefaultsCase;
  readonly object: any;
  readonly namespace?: string;
  readonly url: string;
}

/** Where a case is sent and what it is named; cluster-scoped objects carry the recorder's label. */
function prepared(c: DefaultsCase, index: number, schemas: BuiltinSchemas): Prepared | undefined {
  const object = JSON.parse(JSON.stringify(c.object));
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/', 2) : ['', object.apiVersion];
  const resource = schemas.resources().find((r) => r.group === group && r.version === version && r.kind === object.kind);
  if (!resource) return undefined;
  const name = object.kind === 'CustomResourceDefinition' ? `things${index}.example.com` : `d${index}`;
  if (object.kind === 'CustomResourceDefinition') object.spec.names.plural = `things${index}`;
  const namespace = c.namespaced ? (index % 3 === 1 ? MUTATED : index % 7 === 2 ? LIMITED : PLAIN) : undefined;
  object.metadata = { ...object.metadata, name, ...(namespace ? { namespace } : { labels: { ...object.metadata?.labels, [LABEL]: 'recorded' } }) };
  const prefix = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const url = `${prefix}${namespace ? `/namespaces/${namespace}` : ''}/${resource.resource}?dryRun=All&fieldValidation=Strict`;
  return { c, object, namespace, url };
}

/** Fields the apiserver allocates values for (a Service's cluster IPs and node ports), which PolicyTester fills with placeholders. */
const ALLOCATED_ADDRESSES = new Set(['clusterIP', 'clusterIPs']);
const ALLOCATED_PORTS = new Set(['nodePort', 'healthCheckNodePort']);
const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** Fields whose value is the time of the request. */
const CLOCK_FIELDS = new Set(['creationTimestamp', 'lastTransitionTime', 'lastPhaseTransitionTime', 'timeAdded']);

/** An object with what neither side can predict replaced by placeholders. */
export function comparable(object: any): unknown {
  const uid: unknown = object?.metadata?.uid;
  const walk = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (typeof v === 'number' && key !== undefined && ALLOCATED_PORTS.has(key)) return '<allocated port>';
    if (v && typeof v === 'object') {
      const out: { [k: string]: unknown } = {};
      for (const k of Object.keys(v).sort()) {
        if (k === 'managedFields') continue;
        out[k] = walk((v as any)[k], k);
      }
      return out;
    }
    if (typeof v === 'string') {
      if (v === uid || (key === 'uid' && UUID.test(v))) return '<uid>';
      if (key !== undefined && CLOCK_FIELDS.has(key) && TIME.test(v)) return '<now>';
      if (key !== undefined && ALLOCATED_ADDRESSES.has(key) && IPV4.test(v)) return '<allocated address>';
      return v.replace(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/, 'kube-api-access-<random>');
    }
    return v;
  };
  return walk(object);
}

function canonical(v: unknown): string {
  return JSON.stringify(v);
}

export async function runDefaultsSuite(oracle: Oracle, count: number, seed: number, version: KubernetesVersion): Promise<SuiteResult> {
  const schemas = BuiltinSchemas.of(version.minor);
  const setup = fixtures();
  const created: any[] = [];
  const create = async (o: any) => {
    const [group, v] = o.apiVersion.includes('/') ? o.apiVersion.split('/', 2) : ['', o.apiVersion];
    const resource = schemas.resources().find((r) => r.group === group && r.version === v && r.kind === o.kind)!;
    const base = group === '' ? `/api/${v}` : `/apis/${group}/${v}`;
    const url = `${base}${resource.namespaced ? `/namespaces/${o.metadata.namespace}` : ''}/${resource.resource}`;
    const res = await oracle.request('POST', url, o);
    if (res.status >= 300) throw new Error(`defaults suite: cannot create ${o.kind} ${o.metadata.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    created.unshift({ url: `${url}/${o.metadata.name}` });
  };
  const outcomes: CaseOutcome[] = [];
  const refused: string[] = [];
  let mutatedCases = 0;
  try {
    for (const o of [...setup, recorderConfiguration(oracle)]) await create(o);
    await waitForPolicies(oracle);
    const tester = PolicyTester.fromManifests(setup, { kubernetesVersion: version });
    // Half written by fragments, half drawn by type from those.
    const written = defaultsCases(Math.ceil(count / 2), seed);
    const all = [...written, ...typedVariants(written, Math.floor(count / 2), seed + 1, schemas)];
    const cases = all.map((c, i) => prepared(c, i, schemas)).filter((p): p is Prepared => p !== undefined);
    const results = await mapConcurrently(cases, CONCURRENCY, async (p) => {
      const res = await oracle.request('POST', p.url, p.object);
      if (res.status >= 300) return { p, refused: `${res.status} ${res.body?.message ?? JSON.stringify(res.body).slice(0, 200)}` };
      // A Namespace's request namespace is its own name.
      const namespace = p.object.kind === 'Namespace' ? p.object.metadata.name : p.namespace ?? '';
      const recorded = await oracle.recorded(`${p.object.kind}/${namespace}/${p.object.metadata.name}`);
      return { p, recorded };
    });
    for (const r of results) {
      const { p } = r;
      if ('refused' in r) {
        refused.push(`${p.c.name}: ${r.refused}`);
        continue;
      }
      if (p.namespace === MUTATED) mutatedCases++;
      const name = `${p.c.name}${p.namespace === MUTATED ? ' after mutating policies' : p.namespace === LIMITED ? ' with a LimitRange' : ''}`;
      const apiserver = r.recorded ? canonical(comparable(r.recorded.object)) : 'not recorded: the recording webhook was not called';
      let library: string;
      try {
        const result: AdmissionResult = tester.review({ operation: Operation.CREATE, object: p.object });
        library = canonical(comparable(result.admittedObject));
      } catch (e) {
        library = `error: ${(e as Error).message}`;
      }
      outcomes.push({ name, apiserverAccepted: true, verdictAgrees: library === apiserver, library, apiserver });
    }
  } finally {
    for (const c of created) await oracle.request('DELETE', c.url);
  }
  const agree = outcomes.filter((o) => o.verdictAgrees).length;
  return {
    suite: 'defaults',
    outcomes,
    rows: [
      ['objects sent as written, recorded at validating admission', String(outcomes.length)],
      ['  after mutating policies', String(mutatedCases)],
      ['admitted object agrees with PolicyTester\'s', `${agree}/${outcomes.length} (${percent(agree, outcomes.length)})`],
      ['refused by the apiserver before admission (not counted)', String(refused.length)],
    ],
    notes: refused.slice(0, 10).map((r) => `refused: ${r.slice(0, 300)}`),
  };
}

/**
 * Waits until every mutating policy and the recorder act: a probe ConfigMap is labelled, a probe
 * Pod and a probe Deployment get the sidecar. Each policy is loaded by the apiserver's informer on
 * its own, so one policy acting says nothing of the others (a CI run where only the label policy
 * was probed saw 33 early cases admitted without the sidecar).
 */
async function waitForPolicies(oracle: Oracle): Promise<void> {
  const pod = (name: string) => ({ metadata: { name, labels: { app: 'probe' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } });
  const probes: Array<{ kind: string; url: string; body: (name: string) => object; containers?: (o: any) => any[] | undefined }> = [
    { kind: 'ConfigMap', url: `/api/v1/namespaces/${MUTATED}/configmaps`, body: (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }) },
    { kind: 'Pod', url: `/api/v1/namespaces/${MUTATED}/pods`, body: (name: string) => ({ apiVersion: 'v1', kind: 'Pod', ...pod(name) }), containers: (o: any) => o?.spec?.containers },
    {
      kind: 'Deployment',
      url: `/apis/apps/v1/namespaces/${MUTATED}/deployments`,
      body: (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { selector: { matchLabels: { app: 'probe' } }, template: pod(name) } }),
      containers: (o: any) => o?.spec?.template?.spec?.containers,
    },
  ];
  for (const probe of probes) {
    let acted = false;
    for (let i = 0; i < 300 && !acted; i++) {
      const name = `probe${i}`;
      const res = await oracle.request('POST', `${probe.url}?dryRun=All`, probe.body(name));
      const recorded = res.status < 300 ? await oracle.recorded(`${probe.kind}/${MUTATED}/${name}`) : undefined;
      const labelled = recorded?.object?.metadata?.labels?.mutated === 'yes';
      acted = labelled && (!probe.containers || (probe.containers(recorded?.object) ?? []).some((c: any) => c.name === 'sidecar'));
      if (!acted) await new Promise((r) => setTimeout(r, 200));
    }
    if (!acted) throw new Error(`defaults suite: the mutating policies or the recording webhook did not act on a probe ${probe.kind} within a minute`);
  }
}
