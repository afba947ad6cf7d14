import { ApiObject, App, Chart, JsonPatch, Testing } from 'cdk8s';
import {
  AdmissionResource, AuditAnnotation, FailurePolicy, KubernetesVersion, LabelSelectorOperator, MatchPolicy, Operation,
  RuleScope, ValidatingPolicy, ValidationReason,
} from '../src';

const deployments = AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE, Operation.UPDATE);

function policy(chart: Chart, props: Partial<ConstructorParameters<typeof ValidatingPolicy>[2]> = {}): ValidatingPolicy {
  return new ValidatingPolicy(chart, 'replicas', {
    name: 'replica-limit',
    resourceRules: [deployments],
    validations: [{ expression: 'object.spec.replicas <= 5' }],
    ...props,
  });
}

describe('ValidatingPolicy', () => {
  test('writes out the apiserver defaults, so the YAML says what runs', () => {
    const chart = Testing.chart();
    policy(chart);
    expect(Testing.synth(chart)).toEqual([{
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'replica-limit' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          matchPolicy: 'Equivalent',
          namespaceSelector: {},
          objectSelector: {},
          resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'], scope: 'Namespaced' }],
        },
        validations: [{ expression: 'object.spec.replicas <= 5' }],
      },
    }]);
  });

  test('every prop appears in the manifest', () => {
    const chart = Testing.chart();
    const annotation: AuditAnnotation = { key: 'replicas', valueExpression: 'string(object.spec.replicas)' };
    new ValidatingPolicy(chart, 'full', {
      name: 'full',
      metadata: { labels: { team: 'platform' }, annotations: { 'example.com/owner': 'platform' } },
      resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], operations: [Operation.CREATE], resourceNames: ['web'], scope: RuleScope.NAMESPACED }],
      excludeResourceRules: [AdmissionResource.DEPLOYMENTS.subresource('scale').rule()],
      namespaceSelector: { matchLabels: { env: 'prod' } },
      objectSelector: { matchExpressions: [{ key: 'skip', operator: LabelSelectorOperator.DOES_NOT_EXIST }] },
      matchPolicy: MatchPolicy.EXACT,
      matchConditions: [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" }],
      variables: [{ name: 'max', expression: 'int(params.data.max)' }],
      validations: [{ expression: 'object.spec.replicas <= variables.max', message: 'too many', messageExpression: "'at most ' + string(variables.max)", reason: ValidationReason.FORBIDDEN }],
      auditAnnotations: [annotation],
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      failurePolicy: FailurePolicy.IGNORE,
    });
    const [manifest] = Testing.synth(chart);
    expect(manifest.metadata).toEqual({ name: 'full', labels: { team: 'platform' }, annotations: { 'example.com/owner': 'platform' } });
    expect(manifest.spec).toEqual({
      failurePolicy: 'Ignore',
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: {
        resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], operations: ['CREATE'], resourceNames: ['web'], scope: 'Namespaced' }],
        excludeResourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/scale'], operations: ['*'], scope: 'Namespaced' }],
        namespaceSelector: { matchLabels: { env: 'prod' } },
        objectSelector: { matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] },
        matchPolicy: 'Exact',
      },
      matchConditions: [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" }],
      variables: [{ name: 'max', expression: 'int(params.data.max)' }],
      validations: [{ expression: 'object.spec.replicas <= variables.max', message: 'too many', messageExpression: "'at most ' + string(variables.max)", reason: 'Forbidden' }],
      auditAnnotations: [annotation],
    });
  });

  test('renders lazily: what is added after construction is in the output', () => {
    const chart = Testing.chart();
    const p = policy(chart, { validations: [] });
    p.addValidation({ expression: 'true', message: 'added later' });
    p.addVariable({ name: 'v', expression: '1' });
    p.addAuditAnnotation({ key: 'k', valueExpression: "'v'" });
    p.addMatchCondition({ name: 'm', expression: 'true' });
    p.addResourceRule(AdmissionResource.STATEFUL_SETS.rule(Operation.CREATE));
    p.addExcludeResourceRule(AdmissionResource.DEPLOYMENTS.rule(Operation.UPDATE));
    const { spec } = Testing.synth(chart)[0];
    expect(spec.validations).toEqual([{ expression: 'true', message: 'added later' }]);
    expect(spec.variables).toEqual([{ name: 'v', expression: '1' }]);
    expect(spec.auditAnnotations).toEqual([{ key: 'k', valueExpression: "'v'" }]);
    expect(spec.matchConditions).toEqual([{ name: 'm', expression: 'true' }]);
    expect(spec.matchConstraints.resourceRules.map((r: any) => r.resources[0])).toEqual(['deployments', 'statefulsets']);
    expect(spec.matchConstraints.excludeResourceRules).toHaveLength(1);
  });

  test('a change between two syntheses in the same tick is in the second one', () => {
    const chart = Testing.chart();
    const p = policy(chart);
    expect(Testing.synth(chart)[0].spec.validations).toHaveLength(1);
    p.addValidation({ expression: 'true', message: 'second' });
    expect(Testing.synth(chart)[0].spec.validations).toHaveLength(2);
    p.addValidation({ expression: 'true', message: 'third' });
    expect(p.apiObject.toJson().spec.validations).toHaveLength(3);
  });

  test('a JSON patch of the user still applies to the cluster-scoped object', () => {
    const chart = new Chart(Testing.app(), 'team', { namespace: 'team-a' });
    const p = policy(chart);
    p.apiObject.addJsonPatch(JsonPatch.add('/metadata/annotations', { owner: 'team-a' }));
    expect(Testing.synth(chart)[0].metadata).toEqual({ name: 'replica-limit', annotations: { owner: 'team-a' } });
  });

  test('is cluster-scoped: no namespace even in a namespaced chart, chart labels still apply', () => {
    const chart = new Chart(Testing.app(), 'team', { namespace: 'team-a', labels: { team: 'a' } });
    policy(chart);
    const [manifest] = Testing.synth(chart);
    expect(manifest.metadata).toEqual({ name: 'replica-limit', labels: { team: 'a' } });
  });

  test('a namespace in metadata is rejected, not dropped', () => {
    expect(() => policy(Testing.chart(), { metadata: { namespace: 'x' } })).toThrow(
      'test/replicas: metadata.namespace "x" is not allowed: admissionregistration objects are cluster-scoped; remove it');
  });

  test('name and metadata.name must agree', () => {
    expect(() => policy(Testing.chart(), { name: 'a', metadata: { name: 'b' } })).toThrow('name "a" and metadata.name "b" differ');
    const chart = Testing.chart();
    policy(chart, { name: undefined, metadata: { name: 'from-metadata' } });
    expect(Testing.synth(chart)[0].metadata.name).toBe('from-metadata');
  });

  test('without a name, cdk8s generates one from the construct path', () => {
    const chart = Testing.chart();
    const p = policy(chart, { name: undefined });
    expect(p.name).toMatch(/^test-replicas-[0-9a-f]{8}$/);
    expect(Testing.synth(chart)[0].metadata.name).toBe(p.name);
  });

  describe('apiVersion by target Kubernetes version', () => {
    test('v1 from 1.30, v1beta1 for 1.28-1.29, from context or props', () => {
      const app = Testing.app();
      app.node.setContext(KubernetesVersion.CONTEXT_KEY, '1.29');
      const chart = new Chart(app, 'old');
      policy(chart);
      new ValidatingPolicy(chart, 'explicit', { name: 'explicit', resourceRules: [deployments], validations: [{ expression: 'true' }], kubernetesVersion: KubernetesVersion.V1_30 });
      expect(Testing.synth(chart).map((m) => m.apiVersion)).toEqual(['admissionregistration.k8s.io/v1beta1', 'admissionregistration.k8s.io/v1']);
    });

    test('below 1.28 is an error', () => {
      const app = Testing.app();
      app.node.setContext(KubernetesVersion.CONTEXT_KEY, '1.27');
      expect(() => policy(new Chart(app, 'c'))).toThrow('Kubernetes 1.27 is not supported');
    });
  });

  describe('checks at synth', () => {
    test('reports every error at once, with construct path and field path', () => {
      const chart = Testing.chart();
      policy(chart, { resourceRules: [{ apiGroups: [], apiVersions: ['v1'], resources: ['*', 'pods'], operations: [Operation.CREATE] }], validations: [{ expression: 'true', message: ' ' }] });
      new ValidatingPolicy(chart, 'other', { name: 'other', resourceRules: [deployments], auditAnnotations: [{ key: 'bad/key', valueExpression: "'v'" }] });
      expect(() => Testing.synth(chart)).toThrow([
        'Validation failed with the following errors:',
        '  [test/replicas] spec.matchConstraints.resourceRules[0].apiGroups: Required value',
        '  [test/replicas] spec.matchConstraints.resourceRules[0].resources: Invalid value: ["*","pods"]: if \'*\' is present, must not specify other resources without subresources',
        '  [test/replicas] spec.validations[0].message: Invalid value: " ": must be non-empty if specified',
        '  [test/other] spec.auditAnnotations[0].key: Invalid value: "other/bad/key": a qualified name must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\') with an optional DNS subdomain prefix and \'/\' (e.g. \'example.com/MyName\')',
      ].join('\n'));
    });

    test('a policy needs validations or audit annotations', () => {
      const chart = Testing.chart();
      policy(chart, { validations: [] });
      expect(() => Testing.synth(chart)).toThrow('[test/replicas] spec.validations: Required value: validations or auditAnnotations must contain at least one item');
    });

    test('two policies with one name in an app is an error, across charts too', () => {
      const app = Testing.app();
      policy(new Chart(app, 'a'));
      policy(new Chart(app, 'b'));
      expect(() => app.synth()).toThrow('[b/replicas] metadata.name: Duplicate value: "replica-limit": a/replicas is a ValidatingAdmissionPolicy with the same name');
    });

    test('a policy removed from the tree no longer counts as a duplicate', () => {
      const app = Testing.app();
      const a = new Chart(app, 'a');
      policy(a);
      a.node.tryRemoveChild('replicas');
      policy(new Chart(app, 'b'));
      expect(() => app.synthYaml()).not.toThrow();
    });

    test('the escape hatch is the ApiObject', () => {
      const chart = Testing.chart();
      const p = policy(chart);
      expect(ApiObject.of(p)).toBe(p.apiObject);
      p.apiObject.metadata.addAnnotation('example.com/patched', 'yes');
      expect(Testing.synth(chart)[0].metadata.annotations).toEqual({ 'example.com/patched': 'yes' });
    });
  });

  test('fromPolicyName refers to a policy defined elsewhere', () => {
    const chart = Testing.chart();
    const imported = ValidatingPolicy.fromPolicyName(chart, 'shared', 'org-wide-policy');
    expect(imported.name).toBe('org-wide-policy');
    expect(ValidatingPolicy.isValidatingPolicy(imported)).toBe(false);
    expect(ValidatingPolicy.isValidatingPolicy(policy(chart))).toBe(true);
    expect(Testing.synth(chart)).toHaveLength(1);
  });

  test('can be used in an app that synthesizes to files', () => {
    const app = new App({ outdir: Testing.app().outdir });
    policy(new Chart(app, 'files'));
    expect(app.synthYaml()).toContain('kind: ValidatingAdmissionPolicy');
  });
});

describe('AdmissionResource', () => {
  test('builds rules that read like what they match', () => {
    expect(AdmissionResource.PODS.rule(Operation.CREATE)).toEqual({ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'], scope: 'Namespaced' });
    expect(AdmissionResource.NAMESPACES.rule().operations).toEqual(['*']);
    expect(AdmissionResource.PODS.subresource('exec').resource).toBe('pods/exec');
    expect(AdmissionResource.PODS.subresource('exec').subresource('attach').resource).toBe('pods/attach');
    const crd = AdmissionResource.custom({ apiGroup: 'example.com', apiVersion: 'v1alpha1', resource: 'widgets' });
    expect(crd.rule(Operation.DELETE)).toEqual({ apiGroups: ['example.com'], apiVersions: ['v1alpha1'], resources: ['widgets'], operations: ['DELETE'], scope: '*' });
  });

  test.each([
    ['DEPLOYMENTS', 'apps', 'deployments'], ['STATEFUL_SETS', 'apps', 'statefulsets'], ['JOBS', 'batch', 'jobs'],
    ['INGRESSES', 'networking.k8s.io', 'ingresses'], ['CLUSTER_ROLES', 'rbac.authorization.k8s.io', 'clusterroles'], ['SECRETS', '', 'secrets'],
  ])('%s is %s/%s', (constant, group, resource) => {
    const r = (AdmissionResource as any)[constant] as AdmissionResource;
    expect([r.apiGroup, r.resource]).toEqual([group, resource]);
  });
});
