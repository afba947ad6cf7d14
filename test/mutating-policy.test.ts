import { Chart, Testing } from 'cdk8s';
import {
  AdmissionResource, AdmissionWarnings, FailurePolicy, KubernetesVersion, ManifestValidator, MatchPolicy, Mutation, MutatingPolicy,
  MutatingPolicyBinding, Operation, ParameterNotFoundAction, PatchType, ReinvocationPolicy, ViolationSeverity,
} from '../src';

const addLabel = Mutation.applyConfiguration('Object{metadata: Object.metadata{labels: {"team": "platform"}}}');
const addSidecar = Mutation.jsonPatch('[JSONPatch{op: "add", path: "/spec/containers/-", value: Object.spec.containers{name: "proxy", image: "proxy:1.0"}}]');
const paramRef = { name: 'defaults', namespace: 'policy-params', parameterNotFoundAction: ParameterNotFoundAction.DENY };

function policy(chart: Chart, props: Partial<ConstructorParameters<typeof MutatingPolicy>[2]> = {}): MutatingPolicy {
  return new MutatingPolicy(chart, 'labels', {
    name: 'team-label',
    resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)],
    mutations: [addLabel],
    ...props,
  });
}

function versioned(version: string): Chart {
  const app = Testing.app();
  app.node.setContext(KubernetesVersion.CONTEXT_KEY, version);
  return new Chart(app, 'c');
}

describe('Mutation', () => {
  test('the factory implies the patch type', () => {
    expect([addLabel.patchType, addSidecar.patchType]).toEqual([PatchType.APPLY_CONFIGURATION, PatchType.JSON_PATCH]);
    expect(addLabel.expression).toContain('Object.metadata');
  });
});

describe('MutatingPolicy', () => {
  test('writes out the apiserver defaults and the required reinvocationPolicy', () => {
    const chart = Testing.chart();
    policy(chart);
    expect(Testing.synth(chart)).toEqual([{
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: 'team-label' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          matchPolicy: 'Equivalent',
          namespaceSelector: {},
          objectSelector: {},
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: 'Namespaced' }],
        },
        mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: addLabel.expression } }],
        reinvocationPolicy: 'Never',
      },
    }]);
  });

  test('every prop appears in the manifest, and additions after construction too', () => {
    const chart = Testing.chart();
    const p = policy(chart, {
      metadata: { labels: { team: 'platform' } },
      excludeResourceRules: [AdmissionResource.PODS.rule(Operation.UPDATE)],
      namespaceSelector: { matchLabels: { inject: 'true' } },
      objectSelector: { matchLabels: { sidecar: 'true' } },
      matchPolicy: MatchPolicy.EXACT,
      matchConditions: [{ name: 'no-proxy-yet', expression: "!object.spec.containers.exists(c, c.name == 'proxy')" }],
      variables: [{ name: 'image', expression: 'params.data.image' }],
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      failurePolicy: FailurePolicy.IGNORE,
      reinvocationPolicy: ReinvocationPolicy.IF_NEEDED,
    });
    p.addMutation(addSidecar);
    p.addVariable({ name: 'later', expression: '1' });
    p.addMatchCondition({ name: 'later', expression: 'true' });
    p.addResourceRule(AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE));
    const [manifest] = Testing.synth(chart);
    expect(manifest.metadata.labels).toEqual({ team: 'platform' });
    expect(manifest.spec).toEqual({
      failurePolicy: 'Ignore',
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: {
        resourceRules: [
          { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: 'Namespaced' },
          { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'], scope: 'Namespaced' },
        ],
        excludeResourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['pods'], scope: 'Namespaced' }],
        namespaceSelector: { matchLabels: { inject: 'true' } },
        objectSelector: { matchLabels: { sidecar: 'true' } },
        matchPolicy: 'Exact',
      },
      matchConditions: [
        { name: 'no-proxy-yet', expression: "!object.spec.containers.exists(c, c.name == 'proxy')" },
        { name: 'later', expression: 'true' },
      ],
      variables: [{ name: 'image', expression: 'params.data.image' }, { name: 'later', expression: '1' }],
      mutations: [
        { patchType: 'ApplyConfiguration', applyConfiguration: { expression: addLabel.expression } },
        { patchType: 'JSONPatch', jsonPatch: { expression: addSidecar.expression } },
      ],
      reinvocationPolicy: 'IfNeeded',
    });
  });

  test('is cluster-scoped in a namespaced chart, and rejects a namespace in metadata', () => {
    const chart = new Chart(Testing.app(), 'ns', { namespace: 'team', labels: { a: 'b' } });
    policy(chart).withBinding('binding', { name: 'team-label' });
    expect(Testing.synth(chart).map((m) => m.metadata)).toEqual([{ name: 'team-label', labels: { a: 'b' } }, { name: 'team-label', labels: { a: 'b' } }]);
    expect(() => policy(Testing.chart(), { metadata: { namespace: 'x' } })).toThrow('metadata.namespace "x" is not allowed');
  });

  test.each([
    ['1.36', 'v1'], ['1.35', 'v1beta1'], ['1.34', 'v1beta1'], ['1.33', 'v1alpha1'], ['1.32', 'v1alpha1'],
  ])('on Kubernetes %s it is written as %s, and so is its binding', (version, apiVersion) => {
    const chart = versioned(version);
    policy(chart).withBinding('binding');
    expect(Testing.synth(chart).map((m) => m.apiVersion)).toEqual([`admissionregistration.k8s.io/${apiVersion}`, `admissionregistration.k8s.io/${apiVersion}`]);
  });

  test('targeting a cluster older than 1.32 is an error naming the version needed', () => {
    expect(() => policy(versioned('1.31'))).toThrow(
      'MutatingAdmissionPolicy is not served by Kubernetes 1.31: it needs Kubernetes 1.32 or newer (admissionregistration.k8s.io/v1alpha1)');
  });

  describe('checks at synth', () => {
    test('DELETE may not be matched, and a policy needs a mutation: all errors together', () => {
      const chart = Testing.chart();
      policy(chart, { resourceRules: [AdmissionResource.PODS.rule(Operation.DELETE)], mutations: [] });
      expect(() => Testing.synth(chart)).toThrow([
        'Validation failed with the following errors:',
        '  [test/labels] spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"',
        '  [test/labels] spec.mutations: Required value: mutations must contain at least one item',
      ].join('\n'));
    });

    test('params consistency between policy and binding', () => {
      const chart = Testing.chart();
      const p = policy(chart);
      p.withBinding('with-ref', { paramRef });
      expect(() => Testing.synth(chart)).toThrow(/\[test\/with-ref\] spec.paramRef: Forbidden: MutatingAdmissionPolicy "team-label" has no spec.paramKind/);
    });

    test('a policy with paramKind needs a paramRef on its binding', () => {
      const chart = Testing.chart();
      policy(chart, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }).withBinding('binding');
      expect(() => Testing.synth(chart)).toThrow(/\[test\/binding\] spec.paramRef: Required value: MutatingAdmissionPolicy "team-label" declares spec.paramKind \(ConfigMap\)/);
    });

    test('duplicate names in the app are errors', () => {
      const chart = Testing.chart();
      policy(chart);
      new MutatingPolicy(chart, 'again', { name: 'team-label', resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)], mutations: [addLabel] });
      expect(() => Testing.synth(chart)).toThrow('[test/again] metadata.name: Duplicate value: "team-label": test/labels is a MutatingAdmissionPolicy with the same name');
    });

    test('a binding may not match DELETE either', () => {
      const chart = Testing.chart();
      policy(chart).withBinding('binding', { matchResources: { resourceRules: [AdmissionResource.PODS.rule(Operation.DELETE)] } });
      expect(() => Testing.synth(chart)).toThrow('[test/binding] spec.matchResources.resourceRules.operations: Unsupported value: "DELETE"');
    });
  });

  describe('warnings', () => {
    test('IfNeeded with a JSON patch appending to a list is not idempotent', () => {
      const chart = Testing.chart();
      policy(chart, { mutations: [addSidecar], reinvocationPolicy: ReinvocationPolicy.IF_NEEDED });
      expect(AdmissionWarnings.of(chart)).toEqual([expect.stringMatching(
        /^\[test\/labels\] spec.mutations\[0\].jsonPatch.expression: with reinvocationPolicy IfNeeded, this JSON patch appends to a list/)]);
    });

    test.each([
      ['with reinvocationPolicy Never', { mutations: [addSidecar] }],
      ['with a guarding match condition', { mutations: [addSidecar], reinvocationPolicy: ReinvocationPolicy.IF_NEEDED, matchConditions: [{ name: 'once', expression: "!object.spec.containers.exists(c, c.name == 'proxy')" }] }],
      ['for an apply configuration', { mutations: [addLabel], reinvocationPolicy: ReinvocationPolicy.IF_NEEDED }],
    ])('not warned %s', (_, props) => {
      const chart = Testing.chart();
      policy(chart, props as any);
      expect(AdmissionWarnings.of(chart)).toEqual([]);
    });

    test('the same lint is reported by ManifestValidator on plain manifests', () => {
      const chart = Testing.chart();
      policy(chart, { mutations: [addSidecar], reinvocationPolicy: ReinvocationPolicy.IF_NEEDED });
      const violations = ManifestValidator.validate(Testing.synth(chart)[0]);
      expect(violations.map((v) => [v.severity, v.path])).toEqual([[ViolationSeverity.WARNING, 'spec.mutations[0].jsonPatch.expression']]);
    });
  });
});

describe('MutatingPolicyBinding', () => {
  test('withBinding binds by name, after the policy, with paramRef and matchResources written out', () => {
    const chart = Testing.chart();
    const binding = policy(chart, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }).withBinding('binding', {
      name: 'team-label',
      paramRef,
      matchResources: { namespaceSelector: { matchLabels: { inject: 'true' } } },
    });
    expect(binding.policyName).toBe('team-label');
    const manifests = Testing.synth(chart);
    expect(manifests.map((m) => m.kind)).toEqual(['MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding']);
    expect(manifests[1].spec).toEqual({
      policyName: 'team-label',
      paramRef,
      matchResources: { namespaceSelector: { matchLabels: { inject: 'true' } }, objectSelector: {}, matchPolicy: 'Equivalent' },
    });
  });

  test('binds a policy defined elsewhere', () => {
    const chart = Testing.chart();
    const shared = MutatingPolicy.fromPolicyName(chart, 'shared', 'org-defaults');
    expect(MutatingPolicy.isMutatingPolicy(shared)).toBe(false);
    new MutatingPolicyBinding(chart, 'binding', { policy: shared, paramRef });
    expect(Testing.synth(chart)).toEqual([expect.objectContaining({ spec: { policyName: 'org-defaults', paramRef } })]);
  });
});
