// Explanations: what each expression gave, and under a false or failing one the sub-expressions
// with their values; each rule has a case that fails without it, and a property ties an
// explanation's decision to review's.
import * as fc from 'fast-check';
import { ExplainedExpression, Operation, PolicyTester } from '../../src';

const G = 'admissionregistration.k8s.io/v1';
const RULE = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] };

function tester(validations: object[], spec: object = {}, extra: any[] = []): PolicyTester {
  return PolicyTester.fromManifests([
    { apiVersion: G, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [RULE] }, validations, ...spec } },
    { apiVersion: G, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'] } },
    ...extra,
  ]);
}
function deployment(replicas: number, images: string[] = ['nginx:1.27']): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'team-a' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: images.map((image, i) => ({ name: `c${i}`, image })) } },
    },
  };
}
const create = (object: any) => ({ operation: Operation.CREATE, object });

/** The one expression of the one evaluation, by field. */
function expression(t: PolicyTester, request: any, field: string): ExplainedExpression {
  const explanation = t.explanation(request);
  const found = explanation.policies[0].evaluations[0].expressions.find((x) => x.field === field);
  expect(found).toBeDefined();
  return found!;
}

describe('an expression that is false', () => {
  test('shows its operands and the operation on their values', () => {
    const withParams = PolicyTester.fromManifests([
      {
        apiVersion: G,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'p' },
        spec: {
          failurePolicy: 'Fail',
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          matchConstraints: { resourceRules: [RULE] },
          validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)' }],
        },
      },
      {
        apiVersion: G,
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'b' },
        spec: {
          policyName: 'p', validationActions: ['Deny'], paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' },
        },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits', namespace: 'team-a' }, data: { maxReplicas: '5' } },
    ]);
    const x = expression(withParams, create(deployment(6)), 'spec.validations[0].expression');
    expect(x.value).toBe('false');
    expect(x.steps.map((s) => [s.expression, s.value, s.operation])).toEqual([
      ['object.spec.replicas', '6', undefined],
      ['params.data.maxReplicas', '"5"', undefined],
      ['int(params.data.maxReplicas)', '5', undefined],
      ['object.spec.replicas <= int(params.data.maxReplicas)', 'false', '6 <= 5'],
    ]);
    expect(withParams.explain(create(deployment(6)))).toContain('object.spec.replicas <= int(params.data.maxReplicas) = 6 <= 5 -> false');
  });

  test('marks a short-circuited operand as not evaluated', () => {
    const x = expression(tester([{ expression: 'object.spec.replicas > 10 && object.metadata.name.startsWith("x")' }]), create(deployment(3)),
      'spec.validations[0].expression');
    expect(x.steps.find((s) => s.expression === 'object.metadata.name.startsWith("x")')).toEqual(
      { expression: 'object.metadata.name.startsWith("x")', evaluated: false, depth: 0 });
  });

  test('marks the ternary arm not taken as not evaluated', () => {
    const x = expression(tester([{ expression: 'object.spec.replicas > 1 ? object.spec.replicas < 3 : object.spec.paused == true' }]), create(deployment(5)),
      'spec.validations[0].expression');
    expect(x.steps.filter((s) => !s.evaluated).map((s) => s.expression)).toEqual(['object.spec.paused == true']);
  });

  test('inside all(), shows the first element that was false, with its index', () => {
    const policy = tester([{ expression: 'object.spec.template.spec.containers.all(c, !c.image.endsWith(":latest"))' }]);
    const x = expression(policy, create(deployment(1, ['a:1', 'b:2', 'c:latest', 'd:latest'])), 'spec.validations[0].expression');
    const iteration = x.steps.find((s) => s.iteration !== undefined)!;
    expect(iteration.iteration).toMatch(/^all\(c, \.\.\.\) at index 2, c = \{"name": "c2", "image": "c:latest"/);
    expect(iteration.depth).toBe(1);
    // Only that iteration's steps: c:latest, not the elements before or after it.
    expect(x.steps.filter((s) => s.expression === 'c.image').map((s) => s.value)).toEqual(['"c:latest"']);
  });

  test('inside exists(), shows the first element that was true when the expression still fails', () => {
    const policy = tester([{ expression: '!object.spec.template.spec.containers.exists(c, c.image == "bad")' }]);
    const x = expression(policy, create(deployment(1, ['ok', 'bad'])), 'spec.validations[0].expression');
    expect(x.steps.find((s) => s.iteration !== undefined)!.iteration).toMatch(/^exists\(c, \.\.\.\) at index 1/);
  });

  test('an error shows at the sub-expression that failed', () => {
    const x = expression(tester([{ expression: 'object.metadata.labels.team == "a"' }]), create(deployment(1)), 'spec.validations[0].expression');
    expect(x.error).toBe('no such key: labels');
    expect(x.steps[0]).toMatchObject({ expression: 'object.metadata.labels.team', error: 'no such key: labels' });
  });
});

describe('an expression that holds', () => {
  test('shows its value without steps', () => {
    const x = expression(tester([{ expression: 'object.spec.replicas <= 5' }]), create(deployment(3)), 'spec.validations[0].expression');
    expect(x).toEqual({ field: 'spec.validations[0].expression', expression: 'object.spec.replicas <= 5', value: 'true', steps: [] });
  });
});

describe('every expression a policy evaluated is listed, with its field', () => {
  test('match conditions, variables, validations, message expressions and audit annotations', () => {
    const t = tester([{ expression: 'object.spec.replicas <= variables.max', messageExpression: '"at most " + string(variables.max)' }], {
      matchConditions: [{ name: 'not-system', expression: 'object.metadata.namespace != "kube-system"' }],
      variables: [{ name: 'max', expression: '5' }],
      auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
    });
    const fields = t.explanation(create(deployment(6))).policies[0].evaluations[0].expressions.map((x) => [x.field, x.value]);
    expect(fields).toEqual([
      ['spec.matchConditions[0].expression', 'true'],
      ['spec.variables[0].expression', '5'],
      ['spec.validations[0].expression', 'false'],
      ['spec.validations[0].messageExpression', '"at most 5"'],
      ['spec.auditAnnotations[0].valueExpression', '"6"'],
    ]);
  });

  test('a mutating policy\'s mutations, and its reinvocation', () => {
    const map = {
      apiVersion: G,
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: 'm' },
      spec: {
        failurePolicy: 'Fail',
        reinvocationPolicy: 'IfNeeded',
        matchConstraints: { resourceRules: [RULE] },
        mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"seen": "yes"}}}' } }],
      },
    };
    const mapb = { apiVersion: G, kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'mb' }, spec: { policyName: 'm' } };
    const explanation = PolicyTester.fromManifests([map, mapb]).explanation(create(deployment(1)));
    expect(explanation.policies[0].evaluations.map((e) => [e.reinvocation, e.expressions.map((x) => x.field)])).toEqual([
      [false, ['spec.mutations[0].applyConfiguration.expression']],
      [true, ['spec.mutations[0].applyConfiguration.expression']],
    ]);
    expect(explanation.text).toContain('evaluation with reinvoked:');
  });

  test('a policy that did not act has no evaluations, and the text says why', () => {
    const t = tester([{ expression: 'false' }]);
    const explanation = t.explanation({ operation: Operation.DELETE, oldObject: deployment(1) });
    expect(explanation.policies[0].evaluations).toEqual([]);
    expect(explanation.text).toContain("ValidatingAdmissionPolicy 'p' with binding 'b': did not act (Operation): policy 'p': operation DELETE is not in");
    expect(explanation.text.split('\n')[0]).toBe('DELETE apps/v1 deployments team-a/web by test-user: allowed; no policy matched');
  });
});

describe('bad input', () => {
  test('explain refuses what review refuses, with the same error', () => {
    const t = tester([{ expression: 'true' }]);
    const bad = { operation: Operation.CREATE, object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { replicsa: 1 } } };
    expect(() => t.review(bad)).toThrow();
    const reviewError = (() => { try { t.review(bad); } catch (e) { return (e as Error).message; } return ''; })();
    expect(() => t.explain(bad)).toThrow(reviewError);
  });

  test('a tester with no policies explains that none exist', () => {
    expect(PolicyTester.fromManifests([]).explain(create(deployment(1)))).toContain('the tester has no admission policies');
  });
});

describe('an explanation decides as review does', () => {
  test('same result for random expressions and objects', () => {
    const expressions = fc.constantFrom(
      'object.spec.replicas <= 5', 'object.spec.replicas > 2 && object.metadata.name == "web"', 'object.spec.template.spec.containers.all(c, c.image != "x")',
      'object.metadata.labels.team == "a"', 'has(object.spec.paused) || object.spec.replicas % 2 == 0',
    );
    fc.assert(fc.property(fc.array(expressions, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 9 }), fc.subarray(['x', 'y:1']),
      (validations, replicas, images) => {
        const t = tester(validations.map((text) => ({ expression: text })));
        const request = create(deployment(replicas, images.length > 0 ? images : ['z']));
        const { admittedObject: _a, ...explained } = t.explanation(request).result;
        const { admittedObject: _b, ...reviewed } = t.review(request);
        expect(explained).toEqual(reviewed);
      }), { numRuns: 50 });
  });
});
