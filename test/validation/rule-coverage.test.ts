// The rule algebra behind "excludes everything" and "selects nothing its policy matches", against
// PolicyTester's rule matcher (which the conformance reviews suite checks against the apiserver):
// a rule said to cover another matches every request the other matches, and two rules said to be
// disjoint never match one request, under both match policies.
import * as fc from 'fast-check';
import { RequestAttributes, ruleMatches } from '../../src/testing/matching';
import { ruleCovers, rulesMeet } from '../../src/validation/rule-coverage';
import type { NamedRuleWithOperations } from '../../src/wire/admissionregistration';

const OPERATIONS = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
const GROUPS = ['', 'apps', 'batch'];
const VERSIONS = ['v1', 'v1beta1'];
const RESOURCES = ['pods', 'deployments', 'jobs'];
const SUBRESOURCES = ['', 'status', 'scale'];
const NAMES = ['a', 'b'];

const listOf = (values: string[]) => fc.oneof(fc.constant(['*']), fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: values.length }));
const entry = fc.tuple(fc.constantFrom('*', ...RESOURCES), fc.constantFrom('', '*', ...SUBRESOURCES.filter((s) => s)))
  .map(([r, s]) => (s === '' ? r : `${r}/${s}`));
const rule: fc.Arbitrary<NamedRuleWithOperations> = fc.record({
  operations: listOf(OPERATIONS),
  apiGroups: listOf(GROUPS),
  apiVersions: listOf(VERSIONS),
  resources: fc.uniqueArray(entry, { minLength: 1, maxLength: 3 }),
  scope: fc.constantFrom(undefined, '*', 'Cluster', 'Namespaced'),
  resourceNames: fc.oneof(fc.constant(undefined), fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1 })),
}, { requiredKeys: ['operations', 'apiGroups', 'apiVersions', 'resources'] }) as fc.Arbitrary<NamedRuleWithOperations>;

/** Every request the drawn rules can tell apart. */
const requests: RequestAttributes[] = [];
for (const operation of OPERATIONS) {
  for (const group of GROUPS) {
    for (const version of VERSIONS) {
      for (const resource of RESOURCES) {
        for (const subResource of SUBRESOURCES) {
          for (const name of [...NAMES, 'c']) {
            for (const namespaced of [true, false]) {
              requests.push({
                operation,
                group,
                version,
                resource,
                subResource,
                name,
                namespaced,
                namespace: namespaced ? 'n' : '',
                isNamespaceObject: false,
                namespaceLabels: {},
              });
            }
          }
        }
      }
    }
  }
}

describe('against the matcher, on every request the rules can tell apart', () => {
  test.each(['Exact', 'Equivalent'])('a cover matches every request of the covered rule (matchPolicy %s)', (matchPolicy) => {
    fc.assert(fc.property(rule, rule, (outer, inner) => {
      fc.pre(ruleCovers(outer, inner));
      expect(requests.filter((r) => ruleMatches(inner, r, matchPolicy) && !ruleMatches(outer, r, matchPolicy))).toEqual([]);
    }), { numRuns: 300 });
  });

  test.each(['Exact', 'Equivalent'])('disjoint rules never match one request (matchPolicy %s)', (matchPolicy) => {
    fc.assert(fc.property(rule, rule, (a, b) => {
      fc.pre(!rulesMeet(a, b));
      expect(requests.filter((r) => ruleMatches(a, r, matchPolicy) && ruleMatches(b, r, matchPolicy))).toEqual([]);
    }), { numRuns: 300 });
  });

  test('the answers are not vacuous: covers and disjoint pairs are drawn, and a rule covers itself', () => {
    const pairs = fc.sample(fc.tuple(rule, rule), { numRuns: 2000, seed: 7 });
    expect(pairs.filter(([a, b]) => ruleCovers(a, b)).length).toBeGreaterThan(20);
    expect(pairs.filter(([a, b]) => !rulesMeet(a, b)).length).toBeGreaterThan(20);
    fc.assert(fc.property(rule, (r) => ruleCovers(r, r) && rulesMeet(r, r)));
  });
});

describe('examples', () => {
  const r = (resources: string[], more: Partial<NamedRuleWithOperations> = {}): NamedRuleWithOperations =>
    ({ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources, ...more });

  test.each([
    [r(['*']), r(['deployments']), true],
    [r(['*']), r(['deployments/status']), false], // `*` has no subresources
    [r(['*/*']), r(['deployments/status']), true],
    [r(['deployments/*']), r(['deployments']), true], // a `*` subresource matches none too
    [r(['deployments']), r(['deployments'], { operations: ['CREATE', 'UPDATE'] }), false],
    [r(['deployments'], { apiVersions: ['v1'] }), r(['deployments'], { apiVersions: ['*'] }), false],
    [r(['deployments'], { resourceNames: ['a'] }), r(['deployments']), false],
    [r(['deployments']), r(['deployments'], { resourceNames: ['a'] }), true],
    [r(['deployments'], { scope: 'Namespaced' }), r(['deployments']), false],
  ])('%j covers %j: %s', (outer, inner, covers) => {
    expect(ruleCovers(outer, inner)).toBe(covers);
  });

  test.each([
    [r(['deployments']), r(['pods']), false],
    [r(['deployments']), r(['deployments'], { apiGroups: ['batch'] }), false],
    [r(['deployments']), r(['deployments'], { apiVersions: ['v1beta1'] }), true], // Equivalent matches across versions
    [r(['deployments']), r(['deployments'], { operations: ['DELETE'] }), false],
    [r(['deployments'], { resourceNames: ['a'] }), r(['deployments'], { resourceNames: ['b'] }), false],
    [r(['*']), r(['deployments/status']), false],
  ])('%j meets %j: %s', (a, b, meet) => {
    expect(rulesMeet(a, b)).toBe(meet);
  });
});
