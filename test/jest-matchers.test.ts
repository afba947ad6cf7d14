// The jest matchers: each passes where its assertion holds and fails, with the explanation,
// where it does not; a review that no policy acted on fails toBeAllowed and every negation.
import '../src/jest';
import { Operation, PolicyTester } from '../src';

const G = 'admissionregistration.k8s.io/v1';
const RULE = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] };
const tester = PolicyTester.fromManifests([
  {
    apiVersion: G,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'replicas' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [RULE] },
      validations: [{ expression: 'object.spec.replicas <= 5', message: 'at most 5 replicas', reason: 'Forbidden' }],
      auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
    },
  },
  { apiVersion: G, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'replicas' }, spec: { policyName: 'replicas', validationActions: ['Deny'] } },
  {
    apiVersion: G,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'named' },
    spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [RULE] }, validations: [{ expression: 'object.metadata.name != "bad"', message: 'bad name' }] },
  },
  { apiVersion: G, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'named' }, spec: { policyName: 'named', validationActions: ['Warn'] } },
  {
    apiVersion: G,
    kind: 'MutatingAdmissionPolicy',
    metadata: { name: 'label' },
    spec: {
      failurePolicy: 'Fail',
      reinvocationPolicy: 'Never',
      matchConstraints: { resourceRules: [RULE] },
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"seen": "yes"}}}' } }],
    },
  },
  { apiVersion: G, kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'label' }, spec: { policyName: 'label' } },
]);
function deployment(replicas: number, name = 'web'): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'team-a' },
    spec: {
      replicas,
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
    },
  };
}
const small = tester.review({ operation: Operation.CREATE, object: deployment(3) });
const big = tester.review({ operation: Operation.CREATE, object: deployment(9, 'bad') });
// DELETE matches no rule: nothing acted on it.
const unmatched = tester.review({ operation: Operation.DELETE, oldObject: deployment(9) });

/** The message of a matcher's failure (it must fail). */
function failure(assertion: () => void): string {
  try {
    assertion();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the matcher passed');
}

describe('each matcher passes where it holds and fails where it does not', () => {
  test('toBeAllowed', () => {
    expect(small).toBeAllowed();
    expect(big).not.toBeAllowed();
    expect(failure(() => expect(big).toBeAllowed())).toContain('expected the request to be allowed, but it was denied');
  });

  test('toBeDenied, by policy, message text or pattern, reason and code', () => {
    expect(big).toBeDenied();
    expect(big).toBeDenied({ policy: 'replicas', binding: 'replicas', message: 'at most 5', reason: 'Forbidden', code: 403 });
    expect(big).toBeDenied({ message: /at most \d replicas$/ });
    expect(small).not.toBeDenied();
    expect(big).not.toBeDenied({ policy: 'named' });
    expect(failure(() => expect(big).toBeDenied({ code: 422 }))).toContain('expected a denial with code 422, but the denials were');
    // A message given as text is not a regular expression.
    expect(failure(() => expect(big).toBeDenied({ message: 'at most . replicas' }))).toContain('expected a denial with messagePattern');
  });

  test('toBeWarned', () => {
    expect(big).toBeWarned(/bad name/);
    expect(big).toBeWarned('bad name');
    expect(small).not.toBeWarned();
    expect(failure(() => expect(small).toBeWarned())).toContain('expected a warning, but there were no warnings');
  });

  test('toBeAudited', () => {
    expect(small).toBeAudited('replicas/replicas', '3');
    expect(small).not.toBeAudited('replicas/other');
    expect(failure(() => expect(small).toBeAudited('replicas/replicas', /^9$/))).toContain('its value was "3"');
  });

  test('toBeMutatedTo, a partial object or a JSON patch', () => {
    expect(small).toBeMutatedTo({ metadata: { labels: { seen: 'yes' } } });
    expect(small).toBeMutatedTo([{ op: 'add', path: '/metadata/labels/seen', value: 'yes' }, { op: 'remove', path: '/metadata/labels/other' }]);
    expect(failure(() => expect(small).toBeMutatedTo({ metadata: { labels: { seen: 'no' } } })))
      .toContain('metadata.labels.seen: expected "no", got "yes"');
    expect(failure(() => expect(small).toBeMutatedTo([{ op: 'remove', path: '/metadata/labels/seen' }])))
      .toContain('/metadata/labels/seen: expected nothing (remove), got "yes"');
  });

  test('toBeMatchedBy and toMatchNoPolicy', () => {
    expect(small).toBeMatchedBy('replicas', 'replicas');
    expect(unmatched).not.toBeMatchedBy('replicas');
    expect(unmatched).toMatchNoPolicy();
    expect(small).not.toMatchNoPolicy();
    expect(failure(() => expect(small).toBeMatchedBy('replica'))).toContain("the tester has no such policy (it has 'label', 'named', 'replicas')");
    expect(failure(() => expect(unmatched).toBeMatchedBy('replicas'))).toContain('operation DELETE is not in');
  });
});

describe('a review no policy acted on proves nothing', () => {
  test('it fails toBeAllowed, naming the way to say it', () => {
    expect(unmatched.allowed).toBe(true);
    expect(failure(() => expect(unmatched).toBeAllowed())).toContain('no policy matched the request, so nothing was checked');
  });

  test.each([
    ['not.toBeDenied', () => expect(unmatched).not.toBeDenied()],
    ['not.toBeDenied({ policy })', () => expect(unmatched).not.toBeDenied({ policy: 'replicas' })],
    ['not.toBeWarned', () => expect(unmatched).not.toBeWarned()],
    ['not.toBeAudited', () => expect(unmatched).not.toBeAudited('replicas/replicas')],
    ['not.toBeMutatedTo', () => expect(unmatched).not.toBeMutatedTo({ metadata: { labels: { seen: 'yes' } } })],
  ])('it fails %s', (_name, assertion) => {
    expect(failure(assertion)).toContain('no policy matched the request');
  });
});

describe('a failing matcher prints the explanation', () => {
  test('with the values of the false expression', () => {
    const message = failure(() => expect(big).toBeAllowed());
    expect(message).toContain('Explanation:\nCREATE apps/v1 deployments team-a/bad by test-user: denied');
    expect(message).toContain('object.spec.replicas <= 5 = 9 <= 5 -> false');
  });

  test('and refuses what is not a review result', () => {
    expect(() => expect({ allowed: true }).toBeAllowed()).toThrow('toBeAllowed: expected the result of PolicyTester.review(...), got object');
  });
});
