// PolicyTester with a static set (the policies an apiserver loads from its staticManifestsDir):
// static hooks run before the API's (policy/generic/composite_policy_source.go: Hooks), bind
// only with bindings of their own source, and are the only ones run on requests for admission
// policies and bindings (policy/generic/plugin.go: Dispatch). Measured on the 1.37.2 apiserver
// started with a static set: a static policy denied the creation of a ValidatingAdmissionPolicy.
import { Testing } from 'cdk8s';
import {
  AdmissionResource, MatchMiss, Operation, PolicyTester, RuleScope, StaticAdmissionChart, ValidatingPolicy, ValidationAction,
} from '../../src';

const G = 'admissionregistration.k8s.io/v1';
const s = (name: string) => `${name}.static.k8s.io`;

const vap = (name: string, expression: string, rules = [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }]) => ({
  apiVersion: G,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: rules }, validations: [{ expression, message: `denied by ${name}` }] },
});
const vapb = (name: string, policyName: string) => ({
  apiVersion: G, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName, validationActions: ['Deny'] },
});
const map = (name: string, expression: string) => ({
  apiVersion: G,
  kind: 'MutatingAdmissionPolicy',
  metadata: { name },
  spec: {
    failurePolicy: 'Fail',
    reinvocationPolicy: 'Never',
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
    mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression } }],
  },
});
const mapb = (name: string, policyName: string) => ({ apiVersion: G, kind: 'MutatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName } });

const deployment = (replicas: number) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'team-a' }, spec: { replicas } });
const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'team-a' }, spec: { containers: [{ name: 'app', image: 'app:1' }] } };
const policyObject = (name: string) => ({ ...vap(name, 'true', [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }]) });
const POLICIES = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies' };

describe('PolicyTester with a static set', () => {
  test('static validating policies run before the API\'s, whatever the names', () => {
    const tester = PolicyTester.fromManifests([vap('a-api', 'object.spec.replicas <= 5'), vapb('a-api', 'a-api')], {
      staticManifests: [vap(s('z-baseline'), 'object.spec.replicas <= 3'), vapb(s('z-baseline'), s('z-baseline'))],
    });
    const result = tester.review({ operation: Operation.CREATE, object: deployment(9) });
    expect(result.denials.map((d) => d.policy)).toEqual([s('z-baseline'), 'a-api']);
    expect(tester.review({ operation: Operation.CREATE, object: deployment(4) }).denials.map((d) => d.policy)).toEqual([s('z-baseline')]);
  });

  test('static mutating policies run first: an API mutation sees what a static one set', () => {
    const tester = PolicyTester.fromManifests([
      map('a-copy', 'Object{metadata: Object.metadata{labels: {"copied": object.metadata.labels["tier"]}}}'), mapb('a-copy', 'a-copy'),
    ], { staticManifests: [map(s('z-tier'), 'Object{metadata: Object.metadata{labels: {"tier": "baseline"}}}'), mapb(s('z-tier'), s('z-tier'))] });
    const result = tester.review({ operation: Operation.CREATE, object: pod });
    expect(result.patchedObject.metadata.labels).toEqual({ tier: 'baseline', copied: 'baseline' });
  });

  test('requests for admission policies meet the static policies, and are exempt from the API\'s', () => {
    const rules = [{ apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['validatingadmissionpolicies'] }];
    const tester = PolicyTester.fromManifests([vap('api-guard', 'false', rules), vapb('api-guard', 'api-guard')], {
      staticManifests: [vap(s('guard'), "!object.metadata.name.startsWith('evil')", rules), vapb(s('guard'), s('guard'))],
    });
    const denied = tester.review({ operation: Operation.CREATE, resource: POLICIES, object: policyObject('evil-x') });
    expect(denied.allowed).toBe(false);
    expect(denied.denials.map((d) => [d.policy, d.message])).toEqual([[s('guard'),
      `ValidatingAdmissionPolicy '${s('guard')}' with binding '${s('guard')}' denied request: denied by ${s('guard')}`]]);
    expect(denied.policies.find((p) => p.policy === 'api-guard')).toEqual(expect.objectContaining({ matched: false, miss: MatchMiss.EXEMPT }));
    expect(tester.review({ operation: Operation.CREATE, resource: POLICIES, object: policyObject('fine') }).allowed).toBe(true);
  });

  test('without a static set, requests for admission policies are exempt from every policy', () => {
    const rules = [{ apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['validatingadmissionpolicies'] }];
    const tester = PolicyTester.fromManifests([vap('api-guard', 'false', rules), vapb('api-guard', 'api-guard')]);
    expect(tester.review({ operation: Operation.CREATE, resource: POLICIES, object: policyObject('evil-x') }).allowed).toBe(true);
  });

  test('a binding binds only a policy of its own source', () => {
    const tester = PolicyTester.fromManifests([vapb('api-binding', s('baseline'))], {
      staticManifests: [vap(s('baseline'), 'object.spec.replicas <= 3')],
    });
    const result = tester.review({ operation: Operation.CREATE, object: deployment(9) });
    expect(result.allowed).toBe(true);
    expect(result.policies).toEqual([expect.objectContaining({
      policy: s('baseline'),
      matched: false,
      miss: MatchMiss.NO_BINDING,
      reason: expect.stringContaining('a binding created through the API does, but binds only API policies'),
    })]);
  });

  test('fromChart of a StaticAdmissionChart tests its set, as static policies', () => {
    const chart = new StaticAdmissionChart(Testing.app(), 'baseline');
    new ValidatingPolicy(chart, 'guard', {
      resourceRules: [AdmissionResource.custom({ apiGroup: 'admissionregistration.k8s.io', apiVersion: 'v1', resource: 'validatingadmissionpolicies', scope: RuleScope.CLUSTER })
        .rule(Operation.CREATE)],
      validations: [{ expression: "!object.metadata.name.startsWith('evil')", message: 'no evil policies' }],
    }).withBinding('deny', { validationActions: [ValidationAction.DENY] });
    const tester = PolicyTester.fromChart(chart);
    expect(tester.assertDenied({ operation: Operation.CREATE, resource: POLICIES, object: policyObject('evil-x') }, { message: 'no evil policies' }).allowed).toBe(false);
  });

  test('a static set the apiserver would refuse to start with is refused, every problem listed', () => {
    expect(() => PolicyTester.fromManifests([], { staticManifests: [vap('baseline', 'true'), vapb(s('b'), s('missing'))] })).toThrow(
      /would refuse to start with this static set[\s\S]*metadata\.name: Invalid value: "baseline": the name of a static manifest must end with[\s\S]*spec\.policyName: Invalid value: "missing\.static\.k8s\.io": the bound policy is not in the static set/,
    );
    expect(() => PolicyTester.fromManifests([], { staticManifests: 'x' as any })).toThrow(/options\.staticManifests must be a list of manifests/);
  });

  test('static manifests may be given as YAML', () => {
    const yaml = `apiVersion: ${G}\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: ${s('b')}}\nspec: {policyName: ${s('p')}, validationActions: [Deny]}\n`;
    const tester = PolicyTester.fromManifests([], { staticManifests: [vap(s('p'), 'object.spec.replicas <= 3'), yaml] });
    expect(tester.review({ operation: Operation.CREATE, object: deployment(9) }).allowed).toBe(false);
  });
});
