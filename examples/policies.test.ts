// Unit tests of the example app's policies: what a user writes next to their chart. The matchers
// come from cdk8s-admission/lib/jest, which a jest setup file loads once for every test file
// (setupFilesAfterEnv); here, inside this repository, it is imported from the source. Each tester
// records coverage, and the suite fails unless it covered every binding, every outcome of every
// match condition and validation, and every expression of its policies.
import '../src/jest';
import { Testing } from 'cdk8s';
import { ControlPlaneBaselineChart, PodDefaultsChart, ReplicaLimitChart } from './main';
import { CoverageThreshold, Operation, PolicyTester } from '../src';

const EVERYTHING: CoverageThreshold = { bindings: 100, matchConditions: 100, validations: 100, expressions: 100 };

const deployment = (replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { replicas, template: { spec: { containers: [{ name: 'web', image: 'shop/web:1.2.3' }] } } },
});

describe('replica limit', () => {
  const tester = PolicyTester.fromChart(new ReplicaLimitChart(Testing.app(), 'admission'), { coverage: true });
  afterAll(() => expect(tester.coverage().thresholdFailures({ global: EVERYTHING })).toEqual([]));

  test('admits deployments within the limit from the ConfigMap', () => {
    expect(tester.review({ operation: Operation.CREATE, object: deployment(5) })).toBeAllowed();
  });

  test('denies more replicas, with the message users will see', () => {
    expect(tester.review({ operation: Operation.CREATE, object: deployment(6) })).toBeDenied({
      policy: 'replica-limit',
      message: 'replicas must be at most 5',
      code: 422,
    });
  });

  test('leaves kube-system alone', () => {
    const system = { ...deployment(50), metadata: { name: 'coredns', namespace: 'kube-system' } };
    expect(tester.review({ operation: Operation.UPDATE, object: system, oldObject: system })).toMatchNoPolicy();
  });

  const pod = (image: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'debug', namespace: 'shop' }, spec: { containers: [{ name: 'sh', image }] } });

  test('warns, but admits, pods with a :latest image', () => {
    const result = tester.review({ operation: Operation.CREATE, object: pod('busybox:latest') });
    expect(result).toBeAllowed();
    expect(result).toBeWarned("container images must be pinned, not ':latest'");
  });

  test('admits pods with pinned images without a warning', () => {
    const result = tester.review({ operation: Operation.CREATE, object: pod('busybox:1.36') });
    expect(result).toBeAllowed();
    expect(result).not.toBeWarned();
  });
});

describe('pod defaults', () => {
  const tester = PolicyTester.fromChart(new PodDefaultsChart(Testing.app(), 'pod-defaults'), { coverage: true });
  afterAll(() => expect(tester.coverage().thresholdFailures({ global: EVERYTHING })).toEqual([]));
  const pod = (labels: { [key: string]: string }, containers = [{ name: 'app', image: 'shop/app:1.0.0' }]) => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop', labels }, spec: { containers },
  });

  test('injects the proxy sidecar and labels the pod, for pods that opt in', () => {
    expect(tester.review({ operation: Operation.CREATE, object: pod({ 'example.com/inject-proxy': 'true' }) })).toBeMutatedTo({
      metadata: { labels: { 'example.com/proxied': 'true' } },
      spec: { containers: [{ name: 'app' }, { name: 'proxy', image: 'registry.example.com/proxy:1.4.2' }] },
    });
  });

  test('leaves other pods, and pods that already have a proxy, alone', () => {
    expect(tester.review({ operation: Operation.CREATE, object: pod({}) })).toMatchNoPolicy();
    const withProxy = pod({ 'example.com/inject-proxy': 'true' }, [{ name: 'proxy', image: 'proxy:0.9' }]);
    expect(tester.review({ operation: Operation.CREATE, object: withProxy })).toMatchNoPolicy();
  });
});

describe('control-plane baseline (static policies)', () => {
  const tester = PolicyTester.fromChart(new ControlPlaneBaselineChart(Testing.app(), 'baseline'), { coverage: true });
  afterAll(() => expect(tester.coverage().thresholdFailures({ global: EVERYTHING })).toEqual([]));
  const pod = (namespace: string, securityContext?: object) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'agent', namespace },
    spec: { containers: [{ name: 'agent', image: 'agent:1.0.0', ...(securityContext === undefined ? {} : { securityContext }) }] },
  });
  const platformPolicy = (labels: { [key: string]: string }) => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'team-quotas', labels },
    spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] }, validations: [{ expression: 'true' }] },
  });
  const deletePolicy = (labels: { [key: string]: string }) => ({
    operation: Operation.DELETE,
    resource: { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies' },
    name: 'team-quotas',
    oldObject: platformPolicy(labels),
  });

  test('denies privileged containers outside kube-system', () => {
    expect(tester.review({ operation: Operation.CREATE, object: pod('shop', { privileged: true }) })).toBeDenied({
      policy: 'no-privileged-containers.static.k8s.io', message: 'privileged containers run only in kube-system',
    });
    expect(tester.review({ operation: Operation.CREATE, object: pod('shop', { privileged: false }) })).toBeAllowed();
    expect(tester.review({ operation: Operation.CREATE, object: pod('shop', { runAsNonRoot: true }) })).toBeAllowed();
    expect(tester.review({ operation: Operation.CREATE, object: pod('shop') })).toBeAllowed();
    expect(tester.review({ operation: Operation.CREATE, object: pod('kube-system', { privileged: true }) })).toMatchNoPolicy();
  });

  test('keeps protected API policies from being deleted, which only a static policy can see', () => {
    expect(tester.review(deletePolicy({ 'platform.example.com/protected': 'true' }))).toBeDenied({
      policy: 'keep-platform-policies.static.k8s.io', message: 'remove the platform.example.com/protected label before deleting this policy',
    });
    expect(tester.review(deletePolicy({ team: 'shop' }))).toBeAllowed();
    const unlabelled = { ...deletePolicy({}), oldObject: { ...platformPolicy({}), metadata: { name: 'team-quotas' } } };
    expect(tester.review(unlabelled)).toBeAllowed();
  });
});
