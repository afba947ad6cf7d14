// The matching suite's cases, as a corpus for the library alone: every drawn mistake is warned
// once, at its entry, with what would match; every right rule is not warned. (`npx projen
// conformance` checks the same cases against the apiserver: the warned ones never act, the others do.)
import { connectCases, connectTargets, matchCases, matchTargets } from '../../../../conformance/src/suites/matching/cases';
import { libraryClaim, manifestsOf } from '../../../../conformance/src/suites/matching/suite';
import { KubernetesVersion } from '../../../../src';
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';

const schemas = BuiltinSchemas.of(KubernetesVersion.LATEST.minor);
/** The connect paths of the 1.37 apiserver's OpenAPI, as the suite reads them from it (and one path that is not a connect one). */
const OPENAPI = {
  paths: Object.fromEntries([
    ...['pods/{name}/attach', 'pods/{name}/exec', 'pods/{name}/portforward', 'pods/{name}/proxy', 'services/{name}/proxy']
      .map((p) => [`/api/v1/namespaces/{namespace}/${p}`, { post: { operationId: 'connectCoreV1Post' } }]),
    ['/api/v1/nodes/{name}/proxy', { get: { operationId: 'connectCoreV1GetNodeProxy' } }],
    ['/api/v1/namespaces/{namespace}/pods/{name}/status', { get: { operationId: 'readCoreV1NamespacedPodStatus' } }],
  ]),
};
const connects = connectTargets(OPENAPI);
const cases = [...matchCases(matchTargets(schemas), schemas, 20261202), ...connectCases(connects)];
const RIGHT = new Set(['exact', 'any group', 'connect', 'connect, any subresource', 'connect, any resource', 'condition on its kind', 'condition on its resource']);
const claims = cases.map((c) => ({ c, claim: libraryClaim(manifestsOf(c, 'p'), KubernetesVersion.LATEST) }));

test('the corpus is large enough, with every variant for most targets', () => {
  expect(matchTargets(schemas).length).toBeGreaterThanOrEqual(20);
  expect(connects.map((t) => t.kind).sort()).toEqual(['nodes/proxy', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'services/proxy']);
  expect(cases.filter((c) => !RIGHT.has(c.variant)).length).toBeGreaterThanOrEqual(30);
  expect(cases.filter((c) => RIGHT.has(c.variant) || c.variant === 'exclude kind').length).toBeGreaterThanOrEqual(30);
});

test.each(claims.filter(({ c }) => RIGHT.has(c.variant)).map(({ c, claim }) => [`${c.variant} ${c.rule.apiGroups} ${c.rule.resources}`, claim]))(
  'matches, not warned: %s', (_, claim) => {
    expect(claim).toEqual({ acts: true, warnings: [] });
  });

const ENTRY = /so the entry matches nothing(: use '[a-z/]+'|: it is served by API group|; did you mean '[a-z/]+'\?|$)/;
const INCLUDE_ENTRY: [boolean, string, RegExp] = [false, 'spec.matchConstraints.resourceRules[0].resources[0]: ', ENTRY];
/** Per variant: whether the policy still acts, where the one warning is, and what it says. */
const EXPECTED: Record<string, [boolean, string, RegExp]> = {
  'kind': INCLUDE_ENTRY,
  'kind, any group': INCLUDE_ENTRY,
  'capitalized': INCLUDE_ENTRY,
  'singular': INCLUDE_ENTRY,
  'other group': INCLUDE_ENTRY,
  'dropped letter': INCLUDE_ENTRY,
  'exclude kind': [true, 'spec.matchConstraints.excludeResourceRules[0].resources[0]: ', ENTRY],
  'exclude all': [false, 'spec.matchConstraints.excludeResourceRules: ', /so the policy matches nothing/],
  'selector on cluster-scoped': [true, 'spec.matchConstraints.namespaceSelector: ', /this selector has no effect/],
  'binding selects another resource': [false, 'spec.matchResources.resourceRules: ', /this binding never acts/],
  'binding excludes all': [false, 'spec.matchResources.excludeResourceRules: ', /this binding never acts/],
  'CONNECT on the resource': [false, 'spec.matchConstraints.resourceRules[0].operations: ', /so the rule matches nothing/],
  'CONNECT beside CREATE': [true, 'spec.matchConstraints.resourceRules[0].operations[1]: ', /so CONNECT here matches nothing/],
  'connect without CONNECT': [false, 'spec.matchConstraints.resourceRules[0].resources[0]: ', /receives only CONNECT requests .* so the entry matches nothing/],
  'CONNECT on the resource only': [false, 'spec.matchConstraints.resourceRules[0].operations: ', /so the rule matches nothing/],
  'condition on another kind': [false, 'spec.matchConditions[0].expression: ', /is false for every resource the rules match .* so the policy matches nothing/],
  'condition on another group': [false, 'spec.matchConditions[0].expression: ', /is false for every resource the rules match/],
  'constant false condition': [false, 'spec.matchConditions[0].expression: ', /is false for every request, so the policy matches nothing/],
  'constant true condition': [true, 'spec.matchConditions[0].expression: ', /is true for every request, so the condition lets every request through/],
};

test('every variant drawn is expected here', () => {
  expect([...new Set(cases.map((c) => c.variant))].filter((v) => !RIGHT.has(v) && !EXPECTED[v])).toEqual([]);
});

test.each(claims.filter(({ c }) => !RIGHT.has(c.variant)).map(({ c, claim }) => [`${c.variant} ${JSON.stringify(c.rule)} (${c.target.kind})`, c.variant, claim]))(
  'warned once, where the mistake is, with the fix: %s', (_, variant, claim) => {
    const [acts, at, says] = EXPECTED[variant];
    expect(claim.acts).toBe(acts);
    expect(claim.warnings).toHaveLength(1);
    expect(claim.warnings[0].startsWith(at)).toBe(true);
    expect(claim.warnings[0]).toMatch(says);
  });
