// Behaviour follows the Kubernetes documentation of ValidatingAdmissionPolicy
// (https://kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy/), the
// MutatingAdmissionPolicy page, and the apiserver's validating and mutating dispatchers
// (k8s.io/apiserver pkg/admission/plugin/policy): message precedence, failurePolicy handling,
// validationActions and the exact response texts. The conformance review suite checks them
// against the 1.37 apiserver.
import { Testing } from 'cdk8s';
import { AdmissionResource, AdmissionResult, Operation, PolicyTester, ValidatingPolicy, ValidationAction } from '../../src';

/**
 * The decision alone: without the object the validating policies saw (new UID and time on each
 * review); which policies acted is checked in policy-match.test.ts.
 */
function decision(result: AdmissionResult): Omit<AdmissionResult, 'admittedObject' | 'policies'> {
  const { admittedObject, policies, ...rest } = result;
  return rest;
}

const G = 'admissionregistration.k8s.io/v1';

function vap(name: string, spec: object): any {
  return {
    apiVersion: G,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] },
      validations: [{ expression: 'object.spec.replicas <= 5', message: 'at most 5 replicas' }],
      ...spec,
    },
  };
}
function vapb(name: string, policyName: string, spec: object = {}): any {
  return { apiVersion: G, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName, validationActions: ['Deny'], ...spec } };
}
function deployment(replicas: number | undefined, metadata: object = {}): any {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'team-a', ...metadata }, spec: replicas === undefined ? {} : { replicas } };
}
const create = (object: any, extra: object = {}) => ({ operation: Operation.CREATE, object, ...extra });

/**
 * A validation that costs about 909,000 (under the per-expression limit of 1,000,000), evaluated in
 * linear time by cel-go too: nine RE2 matches of a 4,000-character pattern against the 1,000
 * characters of `withText`. (A comprehension over `lists.range` of that cost takes the 1.37
 * apiserver longer than the request's deadline.)
 */
const HEAVY = { expression: Array.from({ length: 9 }, () => `object.metadata.annotations.text.matches('${'a?'.repeat(2000)}')`).join(' && ') };
const withText = (object: any) => ({ ...object, metadata: { ...object.metadata, annotations: { text: 'abcdefghij'.repeat(100) } } });

describe('decisions', () => {
  test('denies with the apiserver\'s message format', () => {
    const tester = PolicyTester.fromManifests([vap('max-replicas', {}), vapb('max-replicas-binding', 'max-replicas')]);
    expect(decision(tester.review(create(deployment(3))))).toEqual({ allowed: true, denials: [], warnings: [], auditAnnotations: {} });
    expect(decision(tester.review(create(deployment(9))))).toEqual({
      allowed: false,
      denials: [{
        policy: 'max-replicas',
        binding: 'max-replicas-binding',
        reason: 'Invalid',
        code: 422,
        expressionIndex: 0,
        validationMessage: 'at most 5 replicas',
        message: "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: at most 5 replicas",
      }],
      warnings: [],
      auditAnnotations: {},
    });
  });

  test('validations run in order, each failure reported with its index and reason', () => {
    const tester = PolicyTester.fromManifests([
      vap('p', {
        validations: [
          { expression: 'object.spec.replicas > 0', reason: 'Forbidden' },
          { expression: 'object.spec.replicas <= 5', reason: 'Forbidden' },
          { expression: 'object.metadata.name != "web"', reason: 'RequestEntityTooLarge' },
        ],
      }),
      vapb('b', 'p'),
    ]);
    const { denials } = tester.review(create(deployment(9)));
    expect(denials.map((d) => [d.expressionIndex, d.reason])).toEqual([[1, 'Forbidden'], [2, 'RequestEntityTooLarge']]);
  });

  describe('messages', () => {
    const review = (validation: object) => PolicyTester.fromManifests([vap('p', { validations: [{ expression: 'object.spec.replicas <= 5', ...validation }] }), vapb('b', 'p')])
      .review(create(deployment(9))).denials[0].validationMessage;

    test('messageExpression first', () => expect(review({ message: 'static', messageExpression: "'too many: ' + string(object.spec.replicas)" })).toBe('too many: 9'));
    test('message when messageExpression is empty, has line breaks or fails', () => {
      expect(review({ message: 'static', messageExpression: "''" })).toBe('static');
      expect(review({ message: 'static', messageExpression: "'a\\nb'" })).toBe('static');
      expect(review({ message: 'static', messageExpression: 'string(object.spec.missing)' })).toBe('static');
    });
    test('failed expression: <expression> without either', () => expect(review({ expression: '  object.spec.replicas <= 5 ' })).toBe('failed expression: object.spec.replicas <= 5'));
  });

  describe('failurePolicy on evaluation errors', () => {
    // spec.paused has no default: a Deployment without it has no such key.
    const paused = { validations: [{ expression: '!object.spec.paused' }] };
    test('Fail denies with the CEL error', () => {
      const tester = PolicyTester.fromManifests([vap('p', paused), vapb('b', 'p')]);
      expect(tester.review(create(deployment(undefined))).denials[0].validationMessage).toBe(
        "expression '!object.spec.paused' resulted in error: no such key: paused");
    });
    test('Ignore lets the request through', () => {
      const tester = PolicyTester.fromManifests([vap('p', { ...paused, failurePolicy: 'Ignore' }), vapb('b', 'p')]);
      expect(tester.review(create(deployment(undefined))).allowed).toBe(true);
    });
  });

  describe('validationActions', () => {
    const review = (actions: string[]) => PolicyTester.fromManifests([vap('p', {}), vapb('b', 'p', { validationActions: actions })]).review(create(deployment(9)));

    test('Warn returns the apiserver\'s warning text and admits', () => {
      expect(decision(review(['Warn']))).toEqual({
        allowed: true,
        denials: [],
        auditAnnotations: {},
        warnings: ["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': at most 5 replicas"],
      });
    });
    test('Audit records validation_failure and admits', () => {
      const result = review(['Audit']);
      expect(result.allowed).toBe(true);
      expect(JSON.parse(result.auditAnnotations['validation.policy.admission.k8s.io/validation_failure'])).toEqual([
        { message: 'at most 5 replicas', policy: 'p', binding: 'b', expressionIndex: 0, validationActions: ['Audit'] },
      ]);
    });
    test('Deny with Audit does both', () => {
      const result = review(['Deny', 'Audit']);
      expect(result.allowed).toBe(false);
      expect(Object.keys(result.auditAnnotations)).toEqual(['validation.policy.admission.k8s.io/validation_failure']);
    });
  });

  test('audit annotations are published as <policy>/<key>; null and empty values are left out', () => {
    const tester = PolicyTester.fromManifests([vap('p', {
      validations: [],
      auditAnnotations: [
        { key: 'replicas', valueExpression: "'replicas: ' + string(object.spec.replicas)" },
        { key: 'never', valueExpression: 'null' },
        { key: 'empty', valueExpression: "'  '" },
      ],
    }), vapb('b', 'p')]);
    expect(tester.review(create(deployment(2))).auditAnnotations).toEqual({ 'p/replicas': 'replicas: 2' });
  });

  test('variables are evaluated lazily: an unused failing variable is harmless', () => {
    const tester = PolicyTester.fromManifests([vap('p', {
      variables: [{ name: 'broken', expression: 'object.spec.missing.field' }, { name: 'max', expression: '5' }],
      validations: [{ expression: 'object.spec.replicas <= variables.max' }],
    }), vapb('b', 'p')]);
    expect(tester.review(create(deployment(3))).allowed).toBe(true);
    expect(tester.review(create(deployment(6))).allowed).toBe(false);
  });

  test('a failing variable is reported as the apiserver words it', () => {
    const tester = PolicyTester.fromManifests([vap('p', {
      variables: [{ name: 'max', expression: 'int(object.spec.limit)' }],
      validations: [{ expression: 'object.spec.replicas <= variables.max' }],
    }), vapb('b', 'p')]);
    expect(tester.review(create(deployment(3))).denials[0].validationMessage).toMatch(/composited variable "max" fails to evaluate: no such key: limit/);
  });
});

describe('matching', () => {
  const tester = (policySpec: object, bindingSpec: object = {}, extra: any[] = []) =>
    PolicyTester.fromManifests([vap('p', policySpec), vapb('b', 'p', bindingSpec), ...extra]);
  const denied = (t: PolicyTester, request: any) => !t.review(request).allowed;

  test('operations, groups, versions and resources of the rules', () => {
    const t = tester({});
    expect(denied(t, create(deployment(9)))).toBe(true);
    expect(denied(t, { operation: Operation.DELETE, oldObject: deployment(9) })).toBe(false);
    const exact = tester({ matchConstraints: { matchPolicy: 'Exact', resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'] }] } });
    // A DELETE has no object: the validation fails on null, and failurePolicy Fail denies.
    expect(denied(exact, { operation: Operation.DELETE, oldObject: deployment(9) })).toBe(true);
    // Equivalent: another version of the resource matches; Exact: it does not.
    const v2 = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', namespace: 'team-a' }, spec: { maxReplicas: 9 } };
    const hpa = (matchPolicy: string) => tester({
      matchConstraints: { matchPolicy, resourceRules: [{ apiGroups: ['autoscaling'], apiVersions: ['v1'], operations: ['*'], resources: ['horizontalpodautoscalers'] }] },
      validations: [{ expression: 'object.spec.maxReplicas <= 5' }],
    });
    expect(denied(hpa('Equivalent'), create(v2))).toBe(true);
    expect(denied(hpa('Exact'), create(v2))).toBe(false);
  });

  test('subresources: a bare resource does not match its subresources; r/* matches r and all of them', () => {
    const t = tester({});
    expect(denied(t, create(deployment(9), { subResource: 'scale' }))).toBe(false);
    const scale = tester({ matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments/*'] }] } });
    expect(denied(scale, create(deployment(9), { subResource: 'scale' }))).toBe(true);
    expect(denied(scale, create(deployment(9)))).toBe(true);
  });

  test('resourceNames and scope', () => {
    const named = tester({ matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'], resourceNames: ['api'] }] } });
    expect(denied(named, create(deployment(9)))).toBe(false);
    expect(denied(named, create(deployment(9, { name: 'api' })))).toBe(true);
    const cluster = tester({ matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'], scope: 'Cluster' }] } });
    expect(denied(cluster, create(deployment(9)))).toBe(false);
  });

  test('excludeResourceRules win over resourceRules', () => {
    const t = tester({
      matchConstraints: {
        resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }],
        excludeResourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }],
      },
    });
    expect(denied(t, create(deployment(9)))).toBe(false);
    expect(denied(t, { operation: Operation.UPDATE, object: deployment(9), oldObject: deployment(1) })).toBe(true);
  });

  test('namespaceSelector against the Namespaces given, or the request\'s namespaceObject', () => {
    const selector = { matchLabels: { env: 'prod' } };
    const rules = [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'] }];
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { env: 'prod' } } };
    const withNs = tester({ matchConstraints: { namespaceSelector: selector, resourceRules: rules } }, {}, [namespace]);
    expect(denied(withNs, create(deployment(9)))).toBe(true);
    expect(denied(withNs, create(deployment(9, { namespace: 'other' })))).toBe(false);
    expect(denied(withNs, create(deployment(9, { namespace: 'other' }), { namespaceObject: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other', labels: { env: 'prod' } } } }))).toBe(true);
  });

  test('cluster-scoped objects are not filtered by namespaceSelector, except Namespaces by their own labels', () => {
    const selector = { matchLabels: { env: 'prod' } };
    const t = tester({
      matchConstraints: { namespaceSelector: selector, resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['namespaces', 'nodes'] }] },
      validations: [{ expression: 'false', message: 'no' }],
    });
    expect(denied(t, create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }))).toBe(true);
    expect(denied(t, create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x', labels: { env: 'prod' } } }))).toBe(true);
    expect(denied(t, create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'y', labels: { env: 'dev' } } }))).toBe(false);
  });

  test('objectSelector matches the object or the old object', () => {
    const t = tester({
      matchConstraints: {
        objectSelector: { matchLabels: { enforce: 'yes' } },
        resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'] }],
      },
    });
    expect(denied(t, create(deployment(9)))).toBe(false);
    expect(denied(t, create(deployment(9, { labels: { enforce: 'yes' } })))).toBe(true);
    expect(denied(t, { operation: Operation.UPDATE, object: deployment(9), oldObject: deployment(1, { labels: { enforce: 'yes' } }) })).toBe(true);
  });

  test('a binding\'s matchResources narrow the policy; empty rules there mean all the policy matches', () => {
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { tier: 'gold' } } };
    const gold = tester({}, { matchResources: { namespaceSelector: { matchLabels: { tier: 'gold' } } } }, [namespace]);
    expect(denied(gold, create(deployment(9)))).toBe(true);
    expect(denied(gold, create(deployment(9, { namespace: 'team-b' })))).toBe(false);
  });

  describe('matchConditions', () => {
    test('a false condition skips the policy', () => {
      const t = tester({ matchConditions: [{ name: 'not-web', expression: 'object.metadata.name != "web"' }] });
      expect(denied(t, create(deployment(9)))).toBe(false);
      expect(denied(t, create(deployment(9, { name: 'api' })))).toBe(true);
    });
    test('an error fails the request under Fail, and skips the policy under Ignore', () => {
      const condition = [{ name: 'needs-label', expression: 'object.metadata.labels.team == "a"' }];
      const fail = tester({ matchConditions: condition }).review(create(deployment(1)));
      expect(fail.allowed).toBe(false);
      expect(fail.denials[0].validationMessage).toBe(
        "expression 'object.metadata.labels.team == \"a\"' resulted in error: no such key: labels");
      expect(tester({ matchConditions: condition, failurePolicy: 'Ignore' }).review(create(deployment(9))).allowed).toBe(true);
    });
  });

  test('a custom resource needs its CustomResourceDefinition among the manifests, which names its resource and defaults it', () => {
    const rules = { matchConstraints: { resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['*'], resources: ['widgets'] }] } };
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'team-a' }, spec: { replicas: 9 } };
    expect(() => tester(rules).review(create(widget))).toThrow('cannot infer the resource of example.com/v1 Widget');
    expect(() => tester(rules).review(create(widget, { resource: { group: 'example.com', version: 'v1', resource: 'widgets' } })))
      .toThrow('no CustomResourceDefinition among the tester\'s manifests defines it: add the CRD');
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer', default: 1 } } } } } },
        }],
      },
    };
    const t = PolicyTester.fromManifests([vap('p', rules), vapb('b', 'p'), crd]);
    expect(denied(t, create(widget))).toBe(true);
    // The schema's default is applied before admission: a Widget without replicas has 1.
    expect(denied(t, create({ ...widget, spec: {} }))).toBe(false);
  });
});

describe('params', () => {
  const policy = vap('p', {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    validations: [{ expression: 'object.spec.replicas <= int(params.data.max)', messageExpression: "'at most ' + params.data.max" }],
  });
  const limits = (name: string, namespace: string, max: string, labels: object = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data: { max } });

  test('by name, in paramRef.namespace', () => {
    const t = PolicyTester.fromManifests([policy, vapb('b', 'p', { paramRef: { name: 'limits', namespace: 'params', parameterNotFoundAction: 'Deny' } }), limits('limits', 'params', '4')]);
    expect(t.review(create(deployment(4))).allowed).toBe(true);
    expect(t.review(create(deployment(5))).denials[0].validationMessage).toBe('at most 4');
  });

  test('in the request\'s namespace when paramRef.namespace is unset', () => {
    const t = PolicyTester.fromManifests([policy, vapb('b', 'p', { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } }),
      limits('limits', 'team-a', '2'), limits('limits', 'team-b', '8')]);
    expect(t.review(create(deployment(5))).allowed).toBe(false);
    expect(t.review(create(deployment(5, { namespace: 'team-b' }))).allowed).toBe(true);
  });

  test('by selector: one evaluation per param, results ANDed', () => {
    const t = PolicyTester.fromManifests([policy, vapb('b', 'p', { paramRef: { selector: { matchLabels: { policy: 'replicas' } }, namespace: 'params', parameterNotFoundAction: 'Deny' } }),
      limits('a', 'params', '6', { policy: 'replicas' }), limits('b', 'params', '3', { policy: 'replicas' }), limits('c', 'params', '1')]);
    expect(t.review(create(deployment(3))).allowed).toBe(true);
    expect(t.review(create(deployment(5))).denials.map((d) => d.validationMessage)).toEqual(['at most 3']);
  });

  test('parameterNotFoundAction: Allow admits, Deny denies', () => {
    const allow = PolicyTester.fromManifests([policy, vapb('b', 'p', { paramRef: { name: 'missing', namespace: 'params', parameterNotFoundAction: 'Allow' } })]);
    expect(allow.review(create(deployment(99))).allowed).toBe(true);
    const deny = PolicyTester.fromManifests([policy, vapb('b', 'p', { paramRef: { name: 'missing', namespace: 'params', parameterNotFoundAction: 'Deny' } })]);
    expect(deny.review(create(deployment(1))).denials[0].validationMessage).toBe(
      'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction');
  });
});

describe('loading', () => {
  test('fromChart runs the chart\'s checks and reads its policies', () => {
    const chart = Testing.chart();
    new ValidatingPolicy(chart, 'p', {
      name: 'replicas',
      resourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE)],
      validations: [{ expression: 'object.spec.replicas <= 5' }],
    }).withBinding('b', { name: 'replicas', validationActions: [ValidationAction.DENY] });
    expect(PolicyTester.fromChart(chart).review(create(deployment(6))).denials[0].message).toBe(
      "ValidatingAdmissionPolicy 'replicas' with binding 'replicas' denied request: failed expression: object.spec.replicas <= 5");
  });

  test('fromYaml reads multi-document YAML', () => {
    const yaml = Testing.app().synthYaml;
    expect(yaml).toBeDefined();
    const t = PolicyTester.fromYaml([
      `apiVersion: ${G}`, 'kind: ValidatingAdmissionPolicy', 'metadata: {name: p}', 'spec:', '  matchConstraints:',
      '    resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]',
      '  validations: [{expression: "object.spec.replicas <= 5"}]', '---',
      `apiVersion: ${G}`, 'kind: ValidatingAdmissionPolicyBinding', 'metadata: {name: b}', 'spec: {policyName: p, validationActions: [Deny]}',
    ].join('\n'));
    expect(t.review(create(deployment(7))).allowed).toBe(false);
  });

  test('a request has one operation', () => {
    expect(() => PolicyTester.fromManifests([]).review({ operation: Operation.ALL, object: deployment(1) })).toThrow('a request has one operation');
  });
});

describe('request and authorizer', () => {
  test('request fields and userInfo are available to expressions', () => {
    const t = PolicyTester.fromManifests([vap('p', {
      validations: [{ expression: 'request.userInfo.username == "alice" && "devs" in request.userInfo.groups && request.namespace == "team-a" && request.operation == "CREATE"' }],
    }), vapb('b', 'p')]);
    expect(t.review(create(deployment(1), { userInfo: { username: 'alice', groups: ['devs'] } })).allowed).toBe(true);
    expect(t.review(create(deployment(1))).allowed).toBe(false);
  });

  test('authorizer checks follow the permissions given; nothing is allowed by default', () => {
    const policy = vap('p', {
      validations: [{ expression: 'object.spec.replicas <= 5 || authorizer.group("apps").resource("deployments").namespace(request.namespace).check("scale").allowed()' }],
    });
    const none = PolicyTester.fromManifests([policy, vapb('b', 'p')]);
    expect(none.review(create(deployment(9))).allowed).toBe(false);
    const granted = PolicyTester.fromManifests([policy, vapb('b', 'p')], {
      permissions: [{ verbs: ['scale'], apiGroups: ['apps'], resources: ['deployments'], namespaces: ['team-a'], users: ['ops'] }],
    });
    expect(granted.review(create(deployment(9), { userInfo: { username: 'ops' } })).allowed).toBe(true);
    expect(granted.review(create(deployment(9), { userInfo: { username: 'dev' } })).allowed).toBe(false);
    expect(granted.review(create(deployment(9, { namespace: 'team-b' }), { userInfo: { username: 'ops' } })).allowed).toBe(false);
  });
});

describe('mutating policies', () => {
  const map = ({ name, ...spec }: { name?: string; [field: string]: unknown }) => ({
    apiVersion: G,
    kind: 'MutatingAdmissionPolicy',
    metadata: { name: name ?? 'm' },
    spec: {
      failurePolicy: 'Fail',
      reinvocationPolicy: 'Never',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
      ...spec,
    },
  });
  const mapb = (policyName = 'm') => ({ apiVersion: G, kind: 'MutatingAdmissionPolicyBinding', metadata: { name: `${policyName}-binding` }, spec: { policyName } });
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'team-a', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } };

  test('a JSON patch, with jsonpatch.escapeKey', () => {
    const t = PolicyTester.fromManifests([map({
      mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/team"), value: "a"}]' } }],
    }), mapb()]);
    const result = t.review(create(pod));
    expect(result.patchedObject.metadata.labels).toEqual({ 'app': 'web', 'example.com/team': 'a' });
    expect(pod.metadata.labels).toEqual({ app: 'web' }); // the request's object is not changed
  });

  test('an apply configuration merges maps, and lists of named items by name', () => {
    const t = PolicyTester.fromManifests([map({
      mutations: [{
        patchType: 'ApplyConfiguration',
        applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"sidecar": "yes"}}, spec: Object.spec{containers: [Object.spec.containers{name: "proxy", image: "proxy:1"}]}}' },
      }],
    }), mapb()]);
    const patched = t.review(create(pod)).patchedObject;
    expect(patched.metadata.labels).toEqual({ app: 'web', sidecar: 'yes' });
    expect(patched.spec.containers.map((c: any) => [c.name, c.image])).toEqual([['app', 'app:1'], ['proxy', 'proxy:1']]);
    // The apiserver defaults the object again after a mutation: the sidecar gets a pull policy.
    expect(patched.spec.containers[1].imagePullPolicy).toBe('IfNotPresent');
  });

  // ConfigMap data, whose keys may be any of these (label keys may not start with '_').
  const configMaps = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] };
  const configMap = (data: string) => ({ operation: Operation.CREATE, object: JSON.parse(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"team-a"},"data":${data}}`) });

  test('an apply configuration may set any key, `__proto__` and `constructor` included, as data', () => {
    const t = PolicyTester.fromManifests([map({
      matchConstraints: configMaps,
      mutations: [{
        patchType: 'ApplyConfiguration',
        applyConfiguration: { expression: 'Object{data: {"__proto__": "p", "constructor": "c", "toString": "t", "prototype": "x"}}' },
      }],
    }), mapb()]);
    const data = t.review(configMap('{"app":"web"}')).patchedObject.data;
    expect(Object.keys(data).sort()).toEqual(['__proto__', 'app', 'constructor', 'prototype', 'toString']);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toBe('p');
    expect(JSON.parse(JSON.stringify(data))).toEqual(JSON.parse('{"app":"web","__proto__":"p","constructor":"c","toString":"t","prototype":"x"}'));
  });

  test('a request object with a `__proto__` key keeps it through review and mutation', () => {
    const t = PolicyTester.fromManifests([map({
      matchConstraints: configMaps,
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{data: {"__proto__": "new"}}' } }],
    }), mapb()]);
    const data = t.review(configMap('{"__proto__":"old"}')).patchedObject.data;
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toBe('new');
  });

  test('an Object literal named by another path than its field\'s is refused, as the apiserver refuses it', () => {
    const t = PolicyTester.fromManifests([map({
      matchConstraints: configMaps,
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadatax{labels: {"a": "b"}}}' } }],
    }), mapb()]);
    const result = t.review(configMap('{"k":"v"}'));
    expect(result.allowed).toBe(false);
    expect(result.denials[0].message).toContain('type mismatch: unexpected type name "Object.metadatax", expected "Object.metadata", which matches field name path from root Object type');
  });

  test('validating policies see the mutated object', () => {
    const t = PolicyTester.fromManifests([
      map({ mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "replace", path: "/spec/containers/0/image", value: "app:2"}]' } }] }),
      mapb(),
      vap('pinned', {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
        validations: [{ expression: 'object.spec.containers.all(c, c.image == "app:2")', message: 'not mutated' }],
      }),
      vapb('pinned-binding', 'pinned'),
    ]);
    const result = t.review(create(pod));
    expect(result.allowed).toBe(true);
    expect(result.patchedObject.spec.containers.map((c: any) => c.image)).toEqual(['app:2']);
    expect(result.admittedObject.spec.containers.map((c: any) => c.image)).toEqual(['app:2']);
  });

  test('IfNeeded policies that ran are reinvoked once a mutation applied; one skipped by its match conditions is not', () => {
    // "a-copy" runs first (by name) and copies the label "b-set" sets; with IfNeeded it runs again.
    const manifests = (aCopy: object) => [
      map({ name: 'a-copy', reinvocationPolicy: 'IfNeeded', ...aCopy }), mapb('a-copy'),
      map({ name: 'b-set', mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/b", value: "set"}]' } }] }),
      mapb('b-set'),
    ];
    const copy = '[JSONPatch{op: "add", path: "/metadata/labels/a", value: object.metadata.labels["b"]}]';
    const ran = PolicyTester.fromManifests(manifests({
      mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: `"b" in object.metadata.labels ? ${copy} : []` } }],
    }));
    expect(ran.review(create(pod)).patchedObject.metadata.labels).toEqual({ app: 'web', a: 'set', b: 'set' });
    // The apiserver's dispatcher marks for reinvocation only the invocations whose match conditions held.
    const skipped = PolicyTester.fromManifests(manifests({
      matchConditions: [{ name: 'has-b', expression: '"b" in object.metadata.labels' }],
      mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: copy } }],
    }));
    expect(skipped.review(create(pod)).patchedObject.metadata.labels).toEqual({ app: 'web', b: 'set' });
  });

  test('each mutation sees the result of the ones before it', () => {
    const t = PolicyTester.fromManifests([map({
      mutations: [
        { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/a", value: "1"}]' } },
        { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/b", value: object.metadata.labels.a + "2"}]' } },
      ],
    }), mapb()]);
    expect(t.review(create(pod)).patchedObject.metadata.labels).toEqual({ app: 'web', a: '1', b: '12' });
  });

  test('mutations are not applied without an object (DELETE)', () => {
    const rule = { apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['pods'] };
    const t = PolicyTester.fromManifests([map({
      matchConstraints: { resourceRules: [rule] },
      mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/a", value: "1"}]' } }],
    }), mapb()]);
    expect(decision(t.review({ operation: Operation.DELETE, oldObject: pod })))
      .toEqual({ allowed: true, denials: [], warnings: [], auditAnnotations: {} });
  });

  test('a failing mutation denies the request under Fail, and is skipped under Ignore', () => {
    const broken = { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/spec/x", value: object.spec.missing}]' } };
    const fail = PolicyTester.fromManifests([map({ mutations: [broken] }), mapb()]).review(create(pod));
    expect(fail.allowed).toBe(false);
    expect(fail.denials[0].validationMessage).toMatch(/resulted in error: no such key: missing/);
    const ignore = PolicyTester.fromManifests([map({ mutations: [broken], failurePolicy: 'Ignore' }), mapb()]).review(create(pod));
    expect(decision(ignore)).toEqual({ allowed: true, denials: [], warnings: [], auditAnnotations: {} });
  });
});

describe('runtime cost limits', () => {
  test('an expression over the per-call limit fails with the apiserver\'s error, under failurePolicy', () => {
    const t = PolicyTester.fromManifests([vap('p', {
      validations: [{ expression: 'lists.range(1500).all(i, lists.range(1000).all(j, i + j >= 0))' }],
    }), vapb('b', 'p')]);
    expect(t.review(create(deployment(1))).denials[0].validationMessage).toMatch(/resulted in error: operation cancelled: actual cost limit exceeded$/);
  });

  test('an authorization check costs 350,000: two fit in one expression, three do not', () => {
    const check = 'authorizer.group("apps").resource("deployments").namespace(request.namespace).check("scale").allowed()';
    const review = (n: number) => PolicyTester.fromManifests([vap('p', {
      validations: [{ expression: Array.from({ length: n }, () => `!${check}`).join(' && ') }],
    }), vapb('b', 'p')]).review(create(deployment(1)));
    expect(review(2).allowed).toBe(true);
    expect(review(3).denials[0].validationMessage).toMatch(/resulted in error: operation cancelled: actual cost limit exceeded$/);
  });

  test('running out of the binding\'s budget is one decision, without the failures before it', () => {
    // Each validation costs about 909,000: the twelfth finds less than that left of 10,000,000.
    const t = PolicyTester.fromManifests([vap('p', { validations: [{ expression: 'false', message: 'first' }, ...Array.from({ length: 12 }, () => HEAVY)] }), vapb('b', 'p')]);
    expect(t.review(create(withText(deployment(1)))).denials.map((d) => [d.validationMessage, d.code])).toEqual([
      ['validation failed due to running out of cost budget, no further validation rules will be run', 422],
    ]);
    const fewer = PolicyTester.fromManifests([vap('p', { validations: [{ expression: 'false', message: 'first' }, ...Array.from({ length: 10 }, () => HEAVY)] }), vapb('b', 'p')]);
    expect(fewer.review(create(withText(deployment(1)))).denials.map((d) => d.validationMessage)).toEqual(['first']);
  });

  test('cheap expressions are unaffected', () => {
    const t = PolicyTester.fromManifests([vap('p', { validations: [{ expression: 'lists.range(100).all(i, i >= 0)' }] }), vapb('b', 'p')]);
    expect(t.review(create(deployment(1))).allowed).toBe(true);
  });
});

describe('apiserver behaviour found in review', () => {
  test('policies and bindings are exempt from policies; webhook configurations are not (as seen on the 1.37 apiserver)', () => {
    const all = vap('p', {
      matchConstraints: { resourceRules: [{ apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] },
      validations: [{ expression: 'false', message: 'no' }],
    });
    const t = PolicyTester.fromManifests([all, vapb('b', 'p')]);
    expect(t.review(create(vap('other', {}))).allowed).toBe(true);
    expect(t.review(create(vapb('other-b', 'p'))).allowed).toBe(true);
    expect(t.review(create({ apiVersion: G, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'w' } })).allowed).toBe(false);
  });

  test('the same warning from several params is reported once, as the apiserver\'s warning recorder does', () => {
    const policy = vap('p', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [{ expression: 'object.spec.replicas <= 1', message: 'one replica' }],
    });
    const param = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'params', labels: { policy: 'p' } } });
    const t = PolicyTester.fromManifests([policy, param('a'), param('b'),
      vapb('b', 'p', { validationActions: ['Warn'], paramRef: { selector: { matchLabels: { policy: 'p' } }, namespace: 'params', parameterNotFoundAction: 'Deny' } })]);
    expect(t.review(create(deployment(3))).warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': one replica"]);
  });

  test('when both operands of || fail, the left operand\'s error is reported (cel-go\'s first error)', () => {
    const t = PolicyTester.fromManifests([vap('p', { validations: [{ expression: 'object.spec.missing == 1 || object.metadata.labels.owner == "x"' }] }), vapb('b', 'p')]);
    expect(t.review(create(deployment(1))).denials[0].validationMessage).toMatch(/resulted in error: no such key: missing$/);
    const and = PolicyTester.fromManifests([vap('p', { validations: [{ expression: 'object.spec.missing == 1 && object.metadata.labels.owner == "x"' }] }), vapb('b', 'p')]);
    expect(and.review(create(deployment(1))).denials[0].validationMessage).toMatch(/resulted in error: no such key: missing$/);
    const decided = PolicyTester.fromManifests([vap('p', { validations: [{ expression: 'object.spec.missing == 1 || true' }] }), vapb('b', 'p')]);
    expect(decided.review(create(deployment(1))).allowed).toBe(true);
  });

  test('a string that is not a number fails int() with cel-go\'s conversion error', () => {
    const t = PolicyTester.fromManifests([vap('p', { validations: [{ expression: 'int(object.metadata.name) > 0' }] }), vapb('b', 'p')]);
    expect(t.review(create(deployment(1))).denials[0].validationMessage).toMatch(/resulted in error: type conversion error from 'string' to 'int'$/);
  });

  test('a variable keeps its type: a bool variable is a validation', () => {
    const t = PolicyTester.fromManifests([vap('p', {
      variables: [{ name: 'small', expression: 'object.spec.replicas <= 5' }],
      validations: [{ expression: 'variables.small' }],
    }), vapb('b', 'p')]);
    expect(t.review(create(deployment(3))).allowed).toBe(true);
    expect(t.review(create(deployment(9))).allowed).toBe(false);
  });

  test('changing the caller\'s objects between reviews is seen', () => {
    const limits = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits', namespace: 'team-a' }, data: { max: '5' } };
    const t = PolicyTester.fromManifests([vap('p', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [{ expression: 'object.spec.replicas <= int(params.data.max) && (oldObject == null || oldObject.spec.replicas <= 5)' }],
    }), vapb('b', 'p', { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } }), limits]);
    const old = deployment(2);
    const update = { operation: Operation.UPDATE, object: deployment(3), oldObject: old };
    expect(t.review(update).allowed).toBe(true);
    old.spec.replicas = 9;
    expect(t.review(update).allowed).toBe(false);
  });

  test('configuration errors deny even for Warn-only bindings', () => {
    const t = PolicyTester.fromManifests([vap('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }),
      vapb('b', 'p', { validationActions: ['Warn'], paramRef: { name: 'missing', namespace: 'x', parameterNotFoundAction: 'Deny' } })]);
    const result = t.review(create(deployment(1)));
    expect(result.allowed).toBe(false);
    expect(result.denials[0].reason).toBe('Invalid');
    expect(result.denials[0].code).toBe(422);
    expect(result.warnings).toEqual([]);
  });

  test('an objectSelector never matches a request without objects', () => {
    const t = PolicyTester.fromManifests([vap('p', {
      matchConstraints: {
        objectSelector: { matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] },
        resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'] }],
      },
      validations: [{ expression: 'false' }],
    }), vapb('b', 'p')]);
    expect(t.review({ operation: Operation.CONNECT, resource: { group: 'apps', version: 'v1', resource: 'deployments' }, namespace: 'team-a', name: 'web' }).allowed).toBe(true);
    expect(t.review(create(deployment(1))).allowed).toBe(false);
  });

  test('Namespaces carry kubernetes.io/metadata.name, so the usual exclusion works', () => {
    const t = PolicyTester.fromManifests([vap('p', {
      matchConstraints: {
        namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }] },
        resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'] }],
      },
    }), vapb('b', 'p')]);
    expect(t.review(create(deployment(9, { namespace: 'kube-system' }))).allowed).toBe(true);
    expect(t.review(create(deployment(9))).allowed).toBe(false);
  });

  test('a policy the apiserver would not create is an error, not a review (it does not compile; a failurePolicy of "fail")', () => {
    expect(() => PolicyTester.fromManifests([vap('p', { validations: [{ expression: 'object.spec.replicas <= params.max' }] }), vapb('b', 'p')]))
      .toThrow(/^PolicyTester.fromManifests: the apiserver \(Kubernetes 1\.\d+\) would reject these manifests; fix them before reviewing:\n- manifest 0 \(ValidatingAdmissionPolicy 'p'\): spec.validations\[0\].expression: Invalid value: .*undeclared reference to 'params'/);
    expect(() => PolicyTester.fromYaml(`apiVersion: ${G}\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec: {policyName: p, validationActions: [Deny], extra: 1}\n`))
      .toThrow(/manifest 0 \(ValidatingAdmissionPolicyBinding 'b'\): spec.extra: unknown field/);
    expect(() => PolicyTester.fromManifests([vap('p', { failurePolicy: 'fail' }), vapb('b', 'p')])).toThrow(/spec.failurePolicy: Unsupported value: "fail"/);
    // Other objects (params, Namespaces) are the apiserver's to validate, not the tester's.
    expect(() => PolicyTester.fromManifests([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, extra: 1 }])).not.toThrow();
  });

  test('fromManifests takes YAML strings too', () => {
    const yaml = `apiVersion: ${G}\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec: {policyName: p, validationActions: [Deny]}\n`;
    expect(PolicyTester.fromManifests([vap('p', {}), yaml]).review(create(deployment(9))).allowed).toBe(false);
  });
});

describe('params and match conditions, as the apiserver scopes them', () => {
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } };
  const nodePolicy = (spec: object) => vap('p', {
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['nodes'] }] },
    ...spec,
  });

  test('a namespaced paramKind without paramRef.namespace cannot serve a cluster-scoped request', () => {
    const t = PolicyTester.fromManifests([nodePolicy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }] }),
      vapb('b', 'p', { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } })]);
    expect(t.review(create(node)).denials[0].validationMessage).toBe(
      'failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  });

  test('a cluster-scoped request has a null namespaceObject', () => {
    const t = PolicyTester.fromManifests([nodePolicy({ validations: [{ expression: 'namespaceObject == null' }, { expression: 'namespaceObject.metadata.name == "x"' }] }), vapb('b', 'p')]);
    expect(t.review(create(node)).denials.map((d) => d.validationMessage)).toEqual([
      "expression 'namespaceObject.metadata.name == \"x\"' resulted in error: no such key: metadata",
    ]);
  });

  test('match conditions see no namespaceObject', () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { env: 'prod' } } };
    const t = PolicyTester.fromManifests([vap('p', {
      matchConditions: [{ name: 'no-namespace', expression: 'namespaceObject == null' }],
      validations: [{ expression: 'namespaceObject != null' }, { expression: 'namespaceObject.metadata.labels.env == "dev"' }],
    }), vapb('b', 'p'), ns]);
    // The match condition holds (null there); the validations see the Namespace.
    expect(t.review(create(deployment(1))).denials.map((d) => d.validationMessage)).toEqual(['failed expression: namespaceObject.metadata.labels.env == "dev"']);
  });

  test('distinct audit values of several params are joined', () => {
    const t = PolicyTester.fromManifests([
      vap('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [], auditAnnotations: [{ key: 'tier', valueExpression: 'string(params.data.tier)' }] }),
      vapb('b', 'p', { paramRef: { selector: {}, namespace: 'params', parameterNotFoundAction: 'Deny' } }),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'params' }, data: { tier: 'gold' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'params' }, data: { tier: 'silver' } },
    ]);
    expect(t.review(create(deployment(1))).auditAnnotations).toEqual({ 'p/tier': 'gold, silver' });
  });
});

describe('JSON patches are applied strictly, as RFC 6902 and the apiserver do', () => {
  const map = (expression: string) => ({
    apiVersion: G,
    kind: 'MutatingAdmissionPolicy',
    metadata: { name: 'm' },
    spec: {
      failurePolicy: 'Fail',
      reinvocationPolicy: 'Never',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
      mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression } }],
    },
  });
  const binding = { apiVersion: G, kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'mb' }, spec: { policyName: 'm' } };
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'team-a' }, spec: { containers: [{ name: 'app', image: 'app:1' }] } };
  const review = (expression: string) => PolicyTester.fromManifests([map(expression), binding]).review(create(pod));

  test.each([
    ['[JSONPatch{op: "replace", path: "/spec/missing/x", value: 1}]', 'replace operation does not apply: doc is missing path: /spec/missing/x: missing value'],
    ['[JSONPatch{op: "remove", path: "/metadata/labels/x"}]', 'remove operation does not apply: doc is missing path: "/metadata/labels/x": missing value'],
    ['[JSONPatch{op: "add", path: "/metadata/annotations/x", value: "y"}]', 'add operation does not apply: doc is missing path: "/metadata/annotations/x": missing value'],
    ['[JSONPatch{op: "remove", path: "/spec/missing"}]', "error in remove for path: '/spec/missing': Unable to remove nonexistent key: missing: missing value"],
  ])('%s fails with the apiserver\'s text', (expression, message) => {
    expect(review(expression).denials[0].validationMessage).toBe(`JSON Patch: ${message}`);
  });

  test('a replace of a missing key adds it, and a failing test leaves the object unchanged', () => {
    expect(review('[JSONPatch{op: "add", path: "/metadata/labels", value: {}}, JSONPatch{op: "replace", path: "/metadata/labels/tier", value: "gold"}]')
      .patchedObject.metadata.labels).toEqual({ tier: 'gold' });
    const tested = review('[JSONPatch{op: "test", path: "/metadata/name", value: "other"}, JSONPatch{op: "add", path: "/spec/x", value: 1}]');
    expect(tested.allowed).toBe(true);
    expect(tested.patchedObject).toBeUndefined();
  });

  test('valid operations apply in order', () => {
    const result = review('[JSONPatch{op: "add", path: "/metadata/labels", value: {"a": "1"}}, JSONPatch{op: "replace", path: "/metadata/labels/a", value: "2"}, '
      + 'JSONPatch{op: "add", path: "/spec/containers/-", value: {"name": "b", "image": "b:1"}}]');
    expect(result.allowed).toBe(true);
    expect(result.patchedObject.metadata.labels).toEqual({ a: '2' });
    expect(result.patchedObject.spec.containers.map((c: any) => c.name)).toEqual(['app', 'b']);
  });
});

describe('rules and messages, one behaviour each', () => {
  const one = (rule: object, spec: object = {}) => PolicyTester.fromManifests([vap('p', {
    matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'], ...rule }] },
    validations: [{ expression: 'false', message: 'matched' }],
    ...spec,
  }), vapb('b', 'p')]);
  const matched = (t: PolicyTester, request: any) => !t.review(request).allowed;

  test('the API group must match', () => {
    expect(matched(one({ apiGroups: ['batch'] }), create(deployment(1)))).toBe(false);
    expect(matched(one({ apiGroups: ['*'] }), create(deployment(1)))).toBe(true);
  });

  test('scope Namespaced excludes cluster-scoped resources, Cluster excludes namespaced ones', () => {
    const nodeRule = { apiGroups: [''], resources: ['nodes'] };
    const node = create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    expect(matched(one({ ...nodeRule, scope: 'Namespaced' }), node)).toBe(false);
    expect(matched(one({ ...nodeRule, scope: 'Cluster' }), node)).toBe(true);
    expect(matched(one({ scope: 'Namespaced' }), create(deployment(1)))).toBe(true);
  });

  test('NotIn, In, Exists and DoesNotExist in selectors', () => {
    const withSelector = (expression: object) => one({}, {
      matchConstraints: {
        objectSelector: { matchExpressions: [expression] },
        resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'] }],
      },
    });
    const labelled = create(deployment(1, { labels: { tier: 'gold' } }));
    expect(matched(withSelector({ key: 'tier', operator: 'NotIn', values: ['gold'] }), labelled)).toBe(false);
    expect(matched(withSelector({ key: 'tier', operator: 'NotIn', values: ['silver'] }), labelled)).toBe(true);
    expect(matched(withSelector({ key: 'tier', operator: 'In', values: ['gold'] }), labelled)).toBe(true);
    expect(matched(withSelector({ key: 'tier', operator: 'Exists' }), labelled)).toBe(true);
    expect(matched(withSelector({ key: 'tier', operator: 'DoesNotExist' }), labelled)).toBe(false);
  });

  test('a variable is evaluated once per evaluation, however often it is used', () => {
    // The variable costs most of a per-call limit; evaluated for each of the 20 uses it would exhaust
    // the 10,000,000 budget of the binding evaluation, evaluated once it does not.
    const t = PolicyTester.fromManifests([vap('p', {
      variables: [{ name: 'heavy', expression: HEAVY.expression }],
      validations: Array.from({ length: 20 }, () => ({ expression: 'variables.heavy' })),
    }), vapb('b', 'p')]);
    expect(t.review(create(withText(deployment(1)))).allowed).toBe(true);
  });

  test('messageExpression results over 5 KiB fall back to message, and messages are trimmed', () => {
    const review = (validation: object) => PolicyTester.fromManifests([vap('p', { validations: [{ expression: 'false', ...validation }] }), vapb('b', 'p')])
      .review(create(deployment(1))).denials[0].validationMessage;
    expect(review({ message: '  static  ', messageExpression: "'x'.format([]) + 'y'" })).toBe('xy');
    expect(review({ message: '  static  ', messageExpression: "lists.range(6000).map(i, 'x').join('')" })).toBe('static');
  });
});

test('for a Namespace, request.namespace is its name', () => {
  const t = PolicyTester.fromManifests([vap('p', {
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['namespaces'] }] },
    validations: [{ expression: 'request.namespace == object.metadata.name' }],
  }), vapb('b', 'p')]);
  expect(t.review(create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } })).allowed).toBe(true);
});
