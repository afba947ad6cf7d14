import * as fs from 'fs';
import { Chart, Testing } from 'cdk8s';
import {
  AdmissionResource, AdmissionWarnings, KubernetesVersion, LabelSelectorOperator, MatchPolicy, Operation, ParameterNotFoundAction,
  Mutation, MutatingPolicy, MutatingPolicyBinding, RolloutStage, ValidatingPolicy, ValidatingPolicyBinding, ValidationAction,
} from '../src';

const paramRef = { name: 'limits', namespace: 'policy-params', parameterNotFoundAction: ParameterNotFoundAction.DENY };

function policy(chart: Chart, props: Partial<ConstructorParameters<typeof ValidatingPolicy>[2]> = {}): ValidatingPolicy {
  return new ValidatingPolicy(chart, 'policy', {
    name: 'replica-limit',
    resourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE, Operation.UPDATE)],
    validations: [{ expression: 'object.spec.replicas <= 5' }],
    ...props,
  });
}

const everything = { apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], operations: [Operation.CREATE, Operation.UPDATE] };

describe('ValidatingPolicyBinding', () => {
  test('withBinding binds the policy by name, and is written after it', () => {
    const chart = Testing.chart();
    const binding = policy(chart).withBinding('binding', { name: 'replica-limit', validationActions: [ValidationAction.DENY] });
    expect(binding.policyName).toBe('replica-limit');
    expect(binding.node.path).toBe('test/binding');
    expect(Testing.synth(chart)).toEqual([
      expect.objectContaining({ kind: 'ValidatingAdmissionPolicy' }),
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'replica-limit' },
        spec: { policyName: 'replica-limit', validationActions: ['Deny'] },
      },
    ]);
  });

  test('is written after its policy even when the policy is in a later chart', () => {
    const app = Testing.app();
    const bindings = new Chart(app, 'bindings');
    const policies = new Chart(app, 'policies');
    new ValidatingPolicyBinding(bindings, 'binding', { policy: policy(policies), validationActions: [ValidationAction.DENY] });
    app.synth();
    // cdk8s numbers the files of dependent charts in dependency order.
    expect(fs.readdirSync(app.outdir).sort()).toEqual(['0000-policies.k8s.yaml', '0001-bindings.k8s.yaml']);
  });

  test('paramRef and matchResources are written out with the apiserver defaults', () => {
    const chart = Testing.chart();
    policy(chart, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }).withBinding('binding', {
      validationActions: [ValidationAction.WARN, ValidationAction.AUDIT],
      paramRef: { selector: { matchLabels: { tier: 'gold' } }, parameterNotFoundAction: ParameterNotFoundAction.ALLOW },
      matchResources: {
        namespaceSelector: { matchExpressions: [{ key: 'env', operator: LabelSelectorOperator.IN, values: ['prod'] }] },
        excludeResourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.UPDATE)],
      },
    });
    expect(Testing.synth(chart)[1].spec).toEqual({
      policyName: 'replica-limit',
      validationActions: ['Warn', 'Audit'],
      paramRef: { selector: { matchLabels: { tier: 'gold' } }, parameterNotFoundAction: 'Allow' },
      matchResources: {
        excludeResourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], operations: ['UPDATE'], scope: 'Namespaced' }],
        namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
        objectSelector: {},
        matchPolicy: MatchPolicy.EQUIVALENT,
      },
    });
  });

  test('binds a policy defined elsewhere, with no dependency and no cross checks', () => {
    const chart = Testing.chart();
    const shared = ValidatingPolicy.fromPolicyName(chart, 'shared', 'org-wide');
    new ValidatingPolicyBinding(chart, 'binding', { policy: shared, validationActions: [ValidationAction.AUDIT], paramRef });
    expect(Testing.synth(chart)).toEqual([expect.objectContaining({ spec: expect.objectContaining({ policyName: 'org-wide', paramRef }) })]);
  });

  test('a policy named by fromPolicyName and defined in the same app is cross-checked like the construct', () => {
    const app = Testing.app();
    const bindings = new Chart(app, 'bindings');
    new ValidatingPolicyBinding(bindings, 'params-to-plain', { policy: ValidatingPolicy.fromPolicyName(bindings, 'x', 'replica-limit'), validationActions: [ValidationAction.DENY], paramRef });
    new ValidatingPolicyBinding(bindings, 'mutating-name', { policy: ValidatingPolicy.fromPolicyName(bindings, 'y', 'defaults'), validationActions: [ValidationAction.DENY] });
    new MutatingPolicyBinding(bindings, 'validating-name', { policy: MutatingPolicy.fromPolicyName(bindings, 'z', 'replica-limit') });
    const policies = new Chart(app, 'policies');
    policy(policies);
    new MutatingPolicy(policies, 'm', { name: 'defaults', resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)], mutations: [Mutation.applyConfiguration('Object{}')] });
    expect(() => app.synth()).toThrow(/\[bindings\/params-to-plain\] spec\.paramRef: Forbidden: ValidatingAdmissionPolicy "replica-limit" has no spec\.paramKind/);
    expect(() => app.synth()).toThrow(/\[bindings\/mutating-name\] spec\.policyName: Invalid value: "defaults": names a MutatingAdmissionPolicy, but a ValidatingAdmissionPolicyBinding binds a ValidatingAdmissionPolicy; use a MutatingAdmissionPolicyBinding/);
    expect(() => app.synth()).toThrow(/\[bindings\/validating-name\] spec\.policyName: Invalid value: "replica-limit": names a ValidatingAdmissionPolicy/);
  });

  test('a named policy written for another Kubernetes version is warned, with the version to set', () => {
    const chart = Testing.chart();
    policy(chart, { kubernetesVersion: KubernetesVersion.V1_29 });
    new ValidatingPolicyBinding(chart, 'b', { policy: ValidatingPolicy.fromPolicyName(chart, 'x', 'replica-limit'), validationActions: [ValidationAction.DENY] });
    expect(AdmissionWarnings.of(chart)).toContainEqual(expect.stringMatching(
      /^\[test\/b\] apiVersion: admissionregistration\.k8s\.io\/v1 differs from the bound policy's admissionregistration\.k8s\.io\/v1beta1 .*set the binding's kubernetesVersion to 1\.29$/));
  });

  test('is cluster-scoped and uses the policy\'s Kubernetes version', () => {
    const app = Testing.app();
    app.node.setContext(KubernetesVersion.CONTEXT_KEY, '1.28');
    const chart = new Chart(app, 'c', { namespace: 'team' });
    policy(chart, { kubernetesVersion: KubernetesVersion.V1_31 }).withBinding('b', { validationActions: [ValidationAction.DENY] });
    new ValidatingPolicyBinding(chart, 'elsewhere', { policy: ValidatingPolicy.fromPolicyName(chart, 'x', 'x'), validationActions: [ValidationAction.DENY] });
    const manifests = Testing.synth(chart);
    expect(manifests.map((m) => m.apiVersion)).toEqual(['admissionregistration.k8s.io/v1', 'admissionregistration.k8s.io/v1', 'admissionregistration.k8s.io/v1beta1']);
    expect(manifests.map((m) => m.metadata.namespace)).toEqual([undefined, undefined, undefined]);
    expect(() => policy(Testing.chart()).withBinding('b', { validationActions: [ValidationAction.DENY], metadata: { namespace: 'x' } })).toThrow('test/b: metadata.namespace "x" is not allowed');
  });

  test('a MutatingPolicy cannot be bound by a ValidatingPolicyBinding, nor the reverse', () => {
    const chart = Testing.chart();
    const mutating = new MutatingPolicy(chart, 'm', { resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)], mutations: [Mutation.applyConfiguration('Object{}')] });
    expect(() => new ValidatingPolicyBinding(chart, 'vb', { policy: mutating, validationActions: [ValidationAction.DENY] })).toThrow(
      'test/vb: test/m is not a ValidatingPolicy: bind a MutatingPolicy with a MutatingPolicyBinding');
    expect(() => new MutatingPolicyBinding(chart, 'mb', { policy: policy(chart) })).toThrow('test/mb: test/policy is not a MutatingPolicy');
  });

  test('a binding written for another Kubernetes version than its policy is warned', () => {
    const chart = Testing.chart();
    policy(chart).withBinding('binding', { validationActions: [ValidationAction.DENY], kubernetesVersion: KubernetesVersion.V1_29 });
    expect(AdmissionWarnings.of(chart)).toEqual(expect.arrayContaining([
      expect.stringMatching(/^\[test\/binding\] apiVersion: admissionregistration.k8s.io\/v1beta1 differs from the bound policy's admissionregistration.k8s.io\/v1/),
    ]));
  });

  describe('checks at synth', () => {
    test('apiserver rules, with construct and field path', () => {
      const chart = Testing.chart();
      policy(chart).withBinding('binding', { validationActions: [ValidationAction.DENY, ValidationAction.WARN, ValidationAction.DENY] });
      expect(() => Testing.synth(chart)).toThrow([
        'Validation failed with the following errors:',
        '  [test/binding] spec.validationActions[2]: Duplicate value: "Deny"',
        '  [test/binding] spec.validationActions: Invalid value: ["Deny","Warn","Deny"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ].join('\n'));
    });

    test('paramRef on a policy without paramKind is an error with a fix', () => {
      const chart = Testing.chart();
      policy(chart).withBinding('binding', { validationActions: [ValidationAction.DENY], paramRef });
      expect(() => Testing.synth(chart)).toThrow(
        '[test/binding] spec.paramRef: Forbidden: ValidatingAdmissionPolicy "replica-limit" has no spec.paramKind, so this paramRef would be ignored; remove it, or give the policy a paramKind');
    });

    test('a policy with paramKind bound without paramRef is an error with a fix', () => {
      const chart = Testing.chart();
      policy(chart, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }).withBinding('binding', { validationActions: [ValidationAction.DENY] });
      expect(() => Testing.synth(chart)).toThrow(/\[test\/binding\] spec.paramRef: Required value: ValidatingAdmissionPolicy "replica-limit" declares spec.paramKind \(ConfigMap\).*set paramRef/);
    });

    test('a paramRef with both name and selector is rejected', () => {
      const chart = Testing.chart();
      policy(chart, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }).withBinding('binding', {
        validationActions: [ValidationAction.DENY], paramRef: { ...paramRef, selector: {} },
      });
      expect(() => Testing.synth(chart)).toThrow(/\[test\/binding\] spec.paramRef.name: Forbidden: name and selector are mutually exclusive\n.*\[test\/binding\] spec.paramRef.selector: Forbidden/);
    });

    test('two bindings with one name in an app is an error', () => {
      const chart = Testing.chart();
      const p = policy(chart);
      p.withBinding('a', { name: 'same', validationActions: [ValidationAction.DENY] });
      p.withBinding('b', { name: 'same', validationActions: [ValidationAction.AUDIT] });
      expect(() => Testing.synth(chart)).toThrow('[test/b] metadata.name: Duplicate value: "same": test/a is a ValidatingAdmissionPolicyBinding with the same name');
    });
  });

  describe('cluster-wide impact warning', () => {
    const message = /spec.validationActions: ValidatingAdmissionPolicy "everything" matches every resource of every API group \('\*'\) with failurePolicy Fail, and this binding denies/;

    function everythingPolicy(chart: Chart) {
      return policy(chart, { name: 'everything', resourceRules: [everything] });
    }

    test('a policy widened after a clean synthesis in the same tick warns its binding at the next one', () => {
      const app = Testing.app();
      const p = policy(new Chart(app, 'policies'));
      p.withBinding('binding', { validationActions: [ValidationAction.DENY] });
      const warn = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        app.synthYaml();
        expect(warn).not.toHaveBeenCalled();
        p.addResourceRule(everything); // the binding's manifest is unchanged; its check against the policy is not
        app.synthYaml();
        expect(warn.mock.calls.map((c) => String(c[0]))).toEqual(expect.arrayContaining([expect.stringMatching(/\[policies\/binding\] spec.validationActions: /)]));
      } finally {
        warn.mockRestore();
      }
    });

    test('Deny, Fail, and * resources of * groups: warned, visible at synth and in AdmissionWarnings', () => {
      const chart = Testing.chart();
      everythingPolicy(chart).withBinding('binding', { validationActions: [ValidationAction.DENY] });
      const warn = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        Testing.synth(chart);
        Testing.synth(chart);
        expect(warn).toHaveBeenCalledTimes(1);
        expect(warn.mock.calls[0][0]).toMatch(/^cdk8s-admission warning: \[test\/binding\] /);
      } finally {
        warn.mockRestore();
      }
      expect(AdmissionWarnings.of(chart)).toEqual([expect.stringMatching(message)]);
    });

    test.each([
      ['without Deny', { validationActions: [ValidationAction.WARN, ValidationAction.AUDIT] }, {}],
      ['for one API group', { validationActions: [ValidationAction.DENY] }, { resourceRules: [{ ...everything, apiGroups: ['apps'] }] }],
      ['with failurePolicy Ignore', { validationActions: [ValidationAction.DENY] }, { failurePolicy: 'Ignore' }],
      ['narrowed by namespace', { validationActions: [ValidationAction.DENY], matchResources: { namespaceSelector: { matchLabels: { a: 'b' } } } }, {}],
    ])('not warned %s', (_, options, policyProps) => {
      const chart = Testing.chart();
      policy(chart, { name: 'everything', resourceRules: [everything], ...policyProps as object }).withBinding('binding', options as any);
      expect(AdmissionWarnings.of(chart)).toEqual([]);
    });

    test('the DENY rollout stage is warned too: Audit does not reduce the impact', () => {
      const chart = Testing.chart();
      everythingPolicy(chart).withRolloutBinding('binding', RolloutStage.DENY);
      expect(AdmissionWarnings.of(chart)).toEqual([expect.stringMatching(message)]);
    });

    test('warningsAsErrors turns warnings into synth errors', () => {
      const app = Testing.app();
      app.node.setContext(AdmissionWarnings.AS_ERRORS_CONTEXT, true);
      const chart = new Chart(app, 'strict');
      everythingPolicy(chart).withBinding('binding', { validationActions: [ValidationAction.DENY] });
      expect(() => Testing.synth(chart)).toThrow(message);
    });
  });

  describe('rollout', () => {
    test.each([
      [RolloutStage.AUDIT, ['Audit']],
      [RolloutStage.WARN, ['Warn', 'Audit']],
      [RolloutStage.DENY, ['Deny', 'Audit']],
    ])('stage %s binds with %j', (stage, actions) => {
      const chart = Testing.chart();
      policy(chart, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }).withRolloutBinding('binding', stage, { paramRef });
      expect(Testing.synth(chart)[1].spec).toEqual({ policyName: 'replica-limit', paramRef, validationActions: actions });
    });
  });
});
