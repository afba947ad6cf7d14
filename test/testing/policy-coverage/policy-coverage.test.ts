// PolicyTester's coverage record and PolicyCoverage: what is counted, how reports merge, the
// thresholds, the JSON form read back, and the HTML page's marks.
import { Testing } from 'cdk8s';
import { PodDefaultsChart, ReplicaLimitChart } from '../../../examples/main';
import { Operation, PolicyCoverage, PolicyTester } from '../../../src';

const deployment = (replicas: number, namespace = 'shop') => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace }, spec: { replicas },
});
const replicaTester = () => PolicyTester.fromChart(new ReplicaLimitChart(Testing.app(), 'admission'), { coverage: true });

describe('a tester with coverage on', () => {
  test('counts bindings that acted, outcomes of conditions and validations, expressions and branches', () => {
    const tester = replicaTester();
    tester.review({ operation: Operation.CREATE, object: deployment(3) });
    const [noLatest, replicas] = tester.coverage().policies;
    expect(noLatest).toMatchObject({ policy: 'no-latest-tag', bindings: { covered: 0, total: 1 }, expressions: { covered: 0, total: 1 } });
    expect(replicas).toMatchObject({
      policyKind: 'ValidatingAdmissionPolicy',
      policy: 'replica-limit',
      bindings: { covered: 1, total: 1, percent: 100 },
      matchConditions: { covered: 1, total: 2, percent: 50 },
      validations: { covered: 1, total: 2 },
      // The message expression runs only on a failure.
      expressions: { covered: 3, total: 4 },
      branches: { covered: 2, total: 4 },
    });
    tester.review({ operation: Operation.CREATE, object: deployment(9) });
    tester.review({ operation: Operation.CREATE, object: deployment(9, 'kube-system') });
    expect(tester.coverage().policies[1]).toMatchObject({
      matchConditions: { covered: 2 }, validations: { covered: 2 }, expressions: { covered: 4 }, branches: { covered: 4 },
    });
  });

  test('assert* methods count as reviews; explanations do not', () => {
    const tester = replicaTester();
    tester.explain({ operation: Operation.CREATE, object: deployment(3) });
    expect(tester.coverage().total.expressions.covered).toBe(0);
    tester.assertAllowed({ operation: Operation.CREATE, object: deployment(3) });
    expect(tester.coverage().total.expressions.covered).toBe(3);
  });

  test('of no policies is an empty report', () => {
    const coverage = PolicyTester.fromManifests([], { coverage: true }).coverage();
    expect(coverage.toJson()).toEqual({ format: 'cdk8s-admission.policy-coverage', version: 1, policies: [] });
    expect(coverage.policies).toEqual([]);
    expect(coverage.toText()).toContain('All policies');
    expect(coverage.thresholdFailures({ global: { branches: 100 } })).toEqual([]);
  });
});

test('coverage of a tester without it is an error that says how to turn it on', () => {
  expect(() => PolicyTester.fromManifests([]).coverage()).toThrow(/coverage is off for this tester: create it with the option coverage: true/);
});

describe('reports merge', () => {
  test('the same policy (name and content) once, with its counts summed', () => {
    const a = replicaTester();
    a.review({ operation: Operation.CREATE, object: deployment(3) });
    const b = replicaTester();
    b.review({ operation: Operation.CREATE, object: deployment(9) });
    const merged = PolicyCoverage.merge([a.coverage(), b.coverage()]);
    expect(merged.policies.map((p) => p.policy)).toEqual(['no-latest-tag', 'replica-limit']);
    expect(merged.policies[1].validations).toMatchObject({ covered: 2, total: 2 });
    expect(merged.toJson().policies[1].bindings).toEqual({ 'replica-limit': 2 });
  });

  test('a policy of the same name with other content is another policy', () => {
    const rule = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] };
    const other = PolicyTester.fromManifests([{
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'replica-limit' },
      spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [rule] }, validations: [{ expression: 'true' }] },
    }], { coverage: true });
    const merged = PolicyCoverage.merge([replicaTester().coverage(), other.coverage()]);
    const ids = merged.policies.filter((p) => p.policy === 'replica-limit').map((p) => p.contentHash);
    expect(new Set(ids).size).toBe(2);
    expect(merged.toText()).toMatch(/ValidatingAdmissionPolicy\/replica-limit@[0-9a-f]{16}/);
  });
});

describe('thresholds', () => {
  const tester = replicaTester();
  tester.review({ operation: Operation.CREATE, object: deployment(3) });
  const coverage = tester.coverage();

  test('a shortfall is a sentence naming the measure, global or per policy', () => {
    expect(coverage.thresholdFailures({ global: { bindings: 50 }, policies: { 'replica-limit': { validations: 100, bindings: 100 } } })).toEqual([
      "policy 'replica-limit': validations coverage 50.00% (1/2) is below the threshold of 100%",
    ]);
    expect(coverage.thresholdFailures({ global: { bindings: 51 } })).toEqual(['all policies: bindings coverage 50.00% (1/2) is below the threshold of 51%']);
  });

  test('naming an unknown policy, an unknown measure or a percentage out of range is an error', () => {
    expect(() => coverage.thresholdFailures({ policies: { 'replica-limits': { bindings: 1 } } }))
      .toThrow("thresholds.policies names 'replica-limits', which the report does not have (it has 'no-latest-tag', 'replica-limit')");
    expect(() => coverage.thresholdFailures({ global: { branch: 1 } as any })).toThrow(/CoverageThreshold has no "branch"; did you mean "branches"\?/);
    expect(() => coverage.thresholdFailures({ global: { branches: 101 } })).toThrow('thresholds.global.branches must be a percentage from 0 to 100, got 101');
  });
});

describe('the JSON form', () => {
  test('reads back to the same report', () => {
    const tester = replicaTester();
    tester.review({ operation: Operation.CREATE, object: deployment(9) });
    const json = tester.coverage().toJson();
    expect(PolicyCoverage.fromJson(JSON.parse(JSON.stringify(json))).toJson()).toEqual(json);
  });

  test('of another format or version, or a broken shape, is refused with the field', () => {
    const json = replicaTester().coverage().toJson();
    expect(() => PolicyCoverage.fromJson({ ...json, version: 2 })).toThrow('PolicyCoverage.fromJson: version: this version of cdk8s-admission reads version 1, got 2');
    expect(() => PolicyCoverage.fromJson({ ...json, format: 'lcov' })).toThrow('format: expected "cdk8s-admission.policy-coverage"');
    const broken = JSON.parse(JSON.stringify(json));
    broken.policies[1].expressions[0].evaluations = -1;
    expect(() => PolicyCoverage.fromJson(broken)).toThrow('policies[1].expressions[0].evaluations: expected a count');
  });
});

test('the HTML page marks what was not covered, and shows the counts of the JSON', () => {
  const tester = PolicyTester.fromChart(new PodDefaultsChart(Testing.app(), 'pod-defaults'), { coverage: true });
  tester.review({
    operation: Operation.CREATE,
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop', labels: { 'example.com/inject-proxy': 'true' } }, spec: { containers: [{ name: 'a', image: 'a:1' }] } },
  });
  const html = tester.coverage().toHtml();
  // The match condition was only true: its `!` was never false, the exists never true.
  expect(html).toContain('<code><mark class="uncovered" title="never false">!<mark class="uncovered" title="never true">object.spec.containers.exists(c, '
    + '<mark class="uncovered" title="never true">c.name == \'proxy\'</mark>)</mark></mark></code>');
  const [summary] = tester.coverage().policies;
  expect(html).toContain(`data-measure="branches" data-covered="${summary.branches.covered}" data-total="${summary.branches.total}"`);
});
