// Objects reviewed as the apiserver's admission sees them: decoded, defaulted, changed by the
// default admission plugins and prepared for storage. The conformance defaults suite compares
// whole objects with the 1.37 apiserver; these tests pin the behaviour a policy author relies on.
import { Testing } from 'cdk8s';
import { AdmissionPlugin, AdmissionResource, KubernetesVersion, Operation, PolicyTester, ValidatingPolicy, ValidationAction } from '../../../src';
import { BuiltinSchemas } from '../../../src/schemas/builtin-schemas';
import { GoTypes } from '../../../src/schemas/go-types';
import { BuiltinDefaulter, DEFAULTING_FUNCTIONS } from '../../../src/testing/defaulting/builtin-defaulter';

const G = 'admissionregistration.k8s.io/v1';
const policy = (expression: string, resources = ['deployments'], group = 'apps') => [
  {
    apiVersion: G,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'p' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: [group], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources }] },
      validations: [{ expression }],
    },
  },
  { apiVersion: G, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'p' }, spec: { policyName: 'p', validationActions: ['Deny'] } },
];
const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { selector: { matchLabels: { app: 'web' } }, template } };
const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } };
const create = (object: unknown) => ({ operation: Operation.CREATE, object });

describe('defaulting, as the apiserver defaults a minimal object', () => {
  test('docs/policy-tester.md\'s example: replicas defaulted to 1, an untagged image pulled Always', () => {
    const chart = Testing.chart();
    new ValidatingPolicy(chart, 'workloads', {
      name: 'workloads',
      resourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE)],
      validations: [
        { expression: 'object.spec.replicas <= 5' },
        { expression: "object.spec.template.spec.containers.all(c, c.imagePullPolicy != 'Always')", message: 'pin image tags' },
      ],
    }).withBinding('binding', { validationActions: [ValidationAction.DENY] });
    const result = PolicyTester.fromChart(chart).review(create({ ...deployment, spec: { ...deployment.spec, template: { ...template, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } }));
    expect(result.denials.map((d) => d.validationMessage)).toEqual(['pin image tags']);
    expect(result.admittedObject.spec.replicas).toBe(1);
  });

  test('a Deployment without spec.replicas has 1, as on a cluster (not "no such key")', () => {
    const result = PolicyTester.fromManifests(policy('object.spec.replicas <= 5')).review(create(deployment));
    expect(result.allowed).toBe(true);
    expect(result.admittedObject.spec).toEqual(expect.objectContaining({ replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 }));
    expect(result.admittedObject.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  });

  test('containers get their pull policy from the tag, and the fields every container has', () => {
    const images = ['nginx', 'nginx:latest', 'nginx:1.27', 'registry.example.com:5000/app', 'nginx@sha256:' + '0'.repeat(64), 'Not/A/Valid:Image'];
    const pulled = images.map((image) => PolicyTester.fromManifests([]).review(create({ ...pod, spec: { containers: [{ name: 'a', image }] } }))
      .admittedObject.spec.containers[0].imagePullPolicy);
    expect(pulled).toEqual(['Always', 'Always', 'IfNotPresent', 'Always', 'IfNotPresent', 'IfNotPresent']);
    const c = PolicyTester.fromManifests([]).review(create(pod)).admittedObject.spec.containers[0];
    expect(c).toEqual(expect.objectContaining({ terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', resources: {} }));
  });

  test('quantities are written as the apiserver writes them, and rounded up to milli units', () => {
    const resources = { requests: { cpu: '0.0001', memory: '1.5Gi' }, limits: { cpu: '1000m' } };
    const c = PolicyTester.fromManifests([]).review(create({ ...pod, spec: { containers: [{ name: 'a', image: 'x', resources }] } })).admittedObject.spec.containers[0];
    expect(c.resources).toEqual({ requests: { cpu: '1m', memory: '1536Mi' }, limits: { cpu: '1' } });
  });

  test('empty optional fields are dropped and required ones written, as the Go types encode them', () => {
    const object = { ...pod, metadata: { ...pod.metadata, labels: {} }, spec: { ...pod.spec, hostNetwork: false, nodeSelector: {} } };
    const admitted = PolicyTester.fromManifests([]).review(create(object)).admittedObject;
    expect(admitted.metadata.labels).toBeUndefined();
    expect(admitted.spec.hostNetwork).toBeUndefined();
    expect(admitted.spec.nodeSelector).toBeUndefined();
    expect(admitted.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  test('a Pod template carried `creationTimestamp: null` before 1.35 (omitzero came with it)', () => {
    const at = (version: string) => PolicyTester.fromManifests([], { kubernetesVersion: KubernetesVersion.of(version) }).review(create(deployment))
      .admittedObject.spec.template.metadata;
    expect(at('1.33')).toEqual({ labels: { app: 'web' }, creationTimestamp: null });
    expect(at('1.37')).toEqual({ labels: { app: 'web' } });
  });

  test('the system fields and the strategy: a new UID and creation time, generation 1, status reset', () => {
    const admitted = PolicyTester.fromManifests([]).review(create({ ...deployment, status: { replicas: 5 } })).admittedObject;
    expect(admitted.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(admitted.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(admitted.metadata.generation).toBe(1);
    expect(admitted.status).toEqual({});
  });

  test('a custom resource is defaulted by its CRD\'s schema, and its resource comes from the CRD', () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', kind: 'Widget' },
        versions: [{
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', default: {}, properties: { size: { type: 'integer', default: 3 } } } } } },
        }],
      },
    };
    const result = PolicyTester.fromManifests([crd]).review(create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'shop' } }));
    expect(result.admittedObject.spec).toEqual({ size: 3 });
  });
});

describe('the default mutating admission plugins', () => {
  test('ServiceAccount, Priority and DefaultTolerationSeconds on a Pod', () => {
    const spec = PolicyTester.fromManifests([]).review(create(pod)).admittedObject.spec;
    expect(spec.serviceAccountName).toBe('default');
    expect(spec.priority).toBe(0);
    expect(spec.preemptionPolicy).toBe('PreemptLowerPriority');
    expect(spec.tolerations.map((t: any) => t.key)).toEqual(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);
    expect(spec.volumes[0].name).toMatch(/^kube-api-access-[a-z0-9]{5}$/);
    expect(spec.containers[0].volumeMounts).toEqual([{ name: spec.volumes[0].name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
  });

  test('the ServiceAccount and PriorityClass of the manifests are used; missing ones are refused as the apiserver refuses them', () => {
    const manifests = [
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'shop' }, automountServiceAccountToken: false },
      { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'low' }, value: 10, preemptionPolicy: 'Never' },
    ];
    const spec = PolicyTester.fromManifests(manifests).review(create({ ...pod, spec: { ...pod.spec, serviceAccountName: 'builder', priorityClassName: 'low' } })).admittedObject.spec;
    expect(spec.volumes).toBeUndefined();
    expect([spec.priority, spec.preemptionPolicy]).toEqual([10, 'Never']);
    expect(() => PolicyTester.fromManifests([]).review(create({ ...pod, spec: { ...pod.spec, serviceAccountName: 'builder' } })))
      .toThrow("the Pod's ServiceAccount 'builder' is not among the tester's manifests in namespace 'shop'");
    expect(() => PolicyTester.fromManifests([]).review(create({ ...pod, spec: { ...pod.spec, priorityClassName: 'low' } })))
      .toThrow('no PriorityClass with name low was found among the tester\'s manifests');
  });

  test('a cluster without a plugin: disabledAdmissionPlugins', () => {
    const disabledAdmissionPlugins = [AdmissionPlugin.SERVICE_ACCOUNT, AdmissionPlugin.DEFAULT_TOLERATION_SECONDS];
    const tester = PolicyTester.fromManifests([], { disabledAdmissionPlugins });
    const spec = tester.review(create(pod)).admittedObject.spec;
    expect(spec.serviceAccountName).toBeUndefined();
    expect(spec.tolerations).toBeUndefined();
    expect(spec.priority).toBe(0);
    expect(() => PolicyTester.fromManifests([], { disabledAdmissionPlugins: ['Nope' as AdmissionPlugin] })).toThrow('"Nope" is not a plugin PolicyTester models');
  });

  test('a LimitRange of the namespace gives containers their default resources', () => {
    const limitRange = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l', namespace: 'shop' }, spec: { limits: [{ type: 'Container', default: { cpu: '200m' } }] } };
    const admitted = PolicyTester.fromManifests([limitRange]).review(create(pod)).admittedObject;
    // SetDefaults_LimitRangeItem makes the default request the default limit.
    expect(admitted.spec.containers[0].resources).toEqual({ limits: { cpu: '200m' }, requests: { cpu: '200m' } });
    expect(admitted.metadata.annotations['kubernetes.io/limit-ranger']).toBe('LimitRanger plugin set: cpu request for container app; cpu limit for container app');
  });

  test('a mutating policy\'s sidecar is defaulted, and the plugins run again after it (its token mount)', () => {
    const manifests = [
      {
        apiVersion: G,
        kind: 'MutatingAdmissionPolicy',
        metadata: { name: 'sidecar' },
        spec: {
          failurePolicy: 'Fail',
          reinvocationPolicy: 'Never',
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
          mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/spec/containers/-", value: {"name": "proxy", "image": "envoy"}}]' } }],
        },
      },
      { apiVersion: G, kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'sidecar' }, spec: { policyName: 'sidecar' } },
      ...policy('object.spec.containers.all(c, c.imagePullPolicy == "IfNotPresent" || c.image.endsWith(":1.27"))', ['pods'], ''),
    ];
    const result = PolicyTester.fromManifests(manifests).review(create(pod));
    expect(result.denials.map((d) => d.validationMessage)).toEqual([expect.stringContaining('failed expression')]);
    const proxy = result.patchedObject.spec.containers[1];
    expect(proxy.imagePullPolicy).toBe('Always');
    expect(proxy.volumeMounts[0].mountPath).toBe('/var/run/secrets/kubernetes.io/serviceaccount');
  });
});

describe('what PolicyTester cannot default is said so', () => {
  test('a kind whose Go defaulter PolicyTester has not ported for the target version', () => {
    const flowSchema = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'FlowSchema', metadata: { name: 'f' }, spec: { priorityLevelConfiguration: { name: 'p' } } };
    expect(() => PolicyTester.fromManifests([], { kubernetesVersion: KubernetesVersion.of('1.29') }).review(create(flowSchema)))
      .toThrow('PolicyTester cannot default flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema as the apiserver of Kubernetes v1.29.6 does: its defaulter calls flowcontrol/v1beta3.SetDefaults_FlowSchemaSpec, which PolicyTester has not ported');
  });

  test('every GA kind of every target version can be defaulted', () => {
    for (let minor = 28; minor <= 37; minor++) {
      const defaulter = BuiltinDefaulter.of(minor);
      const schemas = BuiltinSchemas.of(minor);
      const problems = schemas.resources().filter((r) => /^v\d+$/.test(r.version))
        .map((r) => ({ r, problem: defaulter.problem(schemas.kind(r.group ? `${r.group}/${r.version}` : r.version, r.kind)!.name) }))
        .filter((x) => x.problem !== undefined);
      expect(problems.map((x) => `1.${minor} ${x.r.group}/${x.r.version} ${x.r.kind}: ${x.problem}`)).toEqual([]);
    }
  });

  test('every ported function names the Go code it follows, and each release has the functions its ports assume', () => {
    for (const [name, port] of Object.entries(DEFAULTING_FUNCTIONS)) {
      expect(Object.keys(port.go)).toContain(name);
      for (const hashes of Object.values(port.go)) expect(hashes.length).toBeGreaterThan(0);
    }
    // A port whose hashes match no release is dead: each matches at least one.
    const releases = [28, 29, 30, 31, 32, 33, 34, 35, 36, 37].map((m) => GoTypes.of(m));
    for (const [name, port] of Object.entries(DEFAULTING_FUNCTIONS)) {
      for (const [go, hashes] of Object.entries(port.go)) {
        for (const hash of hashes.filter((h) => h !== '-')) {
          expect(`${name} ${go} ${hash}: ${releases.some((t) => t.functionHash(go)?.startsWith(hash))}`).toBe(`${name} ${go} ${hash}: true`);
        }
      }
    }
  });
});
