// PolicyTester's assert* methods, the matchers of the other jsii languages: each throws with the
// review's explanation when its assertion fails, and returns the result when it holds.
import { Operation, PolicyTester } from '../../src';

const G = 'admissionregistration.k8s.io/v1';
const tester = PolicyTester.fromManifests([
  {
    apiVersion: G,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'replicas' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] },
      validations: [{ expression: 'object.spec.replicas <= 5', message: 'at most 5 replicas' }],
    },
  },
  { apiVersion: G, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'replicas' }, spec: { policyName: 'replicas', validationActions: ['Deny', 'Audit'] } },
]);
const deployment = (replicas: number) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'a' }, spec: { replicas } });
const create = (replicas: number) => ({ operation: Operation.CREATE, object: deployment(replicas) });

test('a holding assertion returns the result', () => {
  expect(tester.assertAllowed(create(3)).allowed).toBe(true);
  expect(tester.assertDenied(create(9), { policy: 'replicas', message: 'at most 5', code: 422 }).allowed).toBe(false);
  expect(tester.assertAudited(create(9), 'validation.policy.admission.k8s.io/validation_failure', 'at most 5').allowed).toBe(false);
  expect(tester.assertMatchedBy(create(3), 'replicas').allowed).toBe(true);
  expect(tester.assertNoPolicyMatched({ operation: Operation.DELETE, oldObject: deployment(3) }).policies[0].matched).toBe(false);
});

test('a failing assertion throws its reason, then the explanation', () => {
  expect(() => tester.assertAllowed(create(9))).toThrow(/expected the request to be allowed, but it was denied[\s\S]*object\.spec\.replicas <= 5 = 9 <= 5 -> false/);
  expect(() => tester.assertWarned(create(9))).toThrow('expected a warning, but there were no warnings');
  expect(() => tester.assertMutated(create(3), { metadata: { labels: { a: 'b' } } })).toThrow('no mutating policy changed it');
});

test('a review no policy acted on fails assertAllowed', () => {
  expect(() => tester.assertAllowed({ operation: Operation.DELETE, oldObject: deployment(3) }))
    .toThrow('no policy matched the request, so nothing was checked');
});

test('a misspelled expectation is an error naming the key', () => {
  expect(() => tester.assertDenied(create(9), { mesage: 'x' } as any)).toThrow(/assertDenied: expected.*mesage.*message/);
});
