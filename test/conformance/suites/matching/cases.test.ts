// The matching suite's cases, as a corpus for the library alone: every drawn mistake is warned
// once, at its entry, with what would match; every right rule is not warned. (`npx projen
// conformance` checks the same cases against the apiserver: the warned ones never act, the others do.)
import { matchCases, matchTargets } from '../../../../conformance/src/suites/matching/cases';
import { libraryClaim, policyOf } from '../../../../conformance/src/suites/matching/suite';
import { KubernetesVersion } from '../../../../src';
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';

const schemas = BuiltinSchemas.of(KubernetesVersion.LATEST.minor);
const cases = matchCases(matchTargets(schemas), schemas, 20261202);
const RIGHT = new Set(['exact', 'any group']);
const claims = cases.map((c) => ({ c, claim: libraryClaim(policyOf(c, 'p'), KubernetesVersion.LATEST) }));

test('the corpus is large enough, with every variant for most targets', () => {
  expect(matchTargets(schemas).length).toBeGreaterThanOrEqual(20);
  expect(cases.filter((c) => !RIGHT.has(c.variant)).length).toBeGreaterThanOrEqual(30);
  expect(cases.filter((c) => RIGHT.has(c.variant) || c.variant === 'exclude kind').length).toBeGreaterThanOrEqual(30);
});

test.each(claims.filter(({ c }) => RIGHT.has(c.variant)).map(({ c, claim }) => [`${c.variant} ${c.rule.apiGroups} ${c.rule.resources}`, claim]))(
  'matches, not warned: %s', (_, claim) => {
    expect(claim).toEqual({ acts: true, warnings: [] });
  });

test.each(claims.filter(({ c }) => !RIGHT.has(c.variant)).map(({ c, claim }) => [`${c.variant} ${JSON.stringify(c.rule)}`, c.variant, claim]))(
  'warned once at the entry, with the fix: %s', (_, variant, claim) => {
    const exclude = variant === 'exclude kind';
    expect(claim.acts).toBe(exclude);
    expect(claim.warnings).toHaveLength(1);
    const at = exclude ? 'spec.matchConstraints.excludeResourceRules[0].resources[0]: ' : 'spec.matchConstraints.resourceRules[0].resources[0]: ';
    expect(claim.warnings[0].startsWith(at)).toBe(true);
    expect(claim.warnings[0]).toMatch(/so the entry matches nothing(: use '[a-z/]+'|: it is served by API group|; did you mean '[a-z/]+'\?|$)/);
  });
