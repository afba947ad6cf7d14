// Property-based tests of the constructs: whatever props a user passes, synthesis either produces
// manifests the validator accepts, with every prop in them, or fails with errors naming the construct.
import { Testing } from 'cdk8s';
import * as fc from 'fast-check';
import {
  FailurePolicy, ManifestValidator, MatchPolicy, Operation, RuleScope, ValidatingPolicy, ValidationAction, ViolationSeverity,
} from '../src';

const name = fc.oneof(fc.constantFrom('replicas', 'team-policy.example.com', 'a'), fc.string({ maxLength: 12 }));
const expression = fc.constantFrom('true', 'object.spec.replicas <= 5', "object.metadata.name.startsWith('a')", 'has(object.spec)', '1 +', 'object.spec.replicas');
const rule = fc.record({
  apiGroups: fc.constantFrom([''], ['apps'], ['*'], [], ['apps', '*']),
  apiVersions: fc.constantFrom(['v1'], ['*'], ['']),
  resources: fc.constantFrom(['pods'], ['deployments'], ['*'], ['pods', '*'], ['pods/status'], []),
  operations: fc.subarray([Operation.CREATE, Operation.UPDATE, Operation.DELETE, Operation.CONNECT, Operation.ALL], { minLength: 0 }),
  scope: fc.option(fc.constantFrom(RuleScope.ALL, RuleScope.CLUSTER, RuleScope.NAMESPACED), { nil: undefined }),
});
const props = fc.record({
  name: fc.option(name, { nil: undefined }),
  resourceRules: fc.array(rule, { maxLength: 2 }),
  validations: fc.array(fc.record({ expression, message: fc.option(fc.constantFrom('too many', ' ', 'a\nb'), { nil: undefined }) }), { maxLength: 3 }),
  variables: fc.array(fc.record({ name: fc.constantFrom('max', 'for', '1x', 'team'), expression }), { maxLength: 2 }),
  failurePolicy: fc.option(fc.constantFrom(FailurePolicy.FAIL, FailurePolicy.IGNORE), { nil: undefined }),
  matchPolicy: fc.option(fc.constantFrom(MatchPolicy.EXACT, MatchPolicy.EQUIVALENT), { nil: undefined }),
  actions: fc.subarray([ValidationAction.DENY, ValidationAction.WARN, ValidationAction.AUDIT]),
});

/** Props that are all valid: synthesis must succeed and keep every one of them. */
const validProps = fc.record({
  name: fc.option(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/), { nil: undefined }),
  resourceRules: fc.array(fc.record({
    apiGroups: fc.constantFrom([''], ['apps'], ['*'], ['batch', 'apps']),
    apiVersions: fc.constantFrom(['v1'], ['*'], ['v1', 'v1beta1']),
    resources: fc.constantFrom(['pods'], ['deployments', 'deployments/scale'], ['*'], ['*/*']),
    operations: fc.constantFrom([Operation.CREATE], [Operation.CREATE, Operation.UPDATE], [Operation.ALL], [Operation.DELETE]),
    scope: fc.option(fc.constantFrom(RuleScope.ALL, RuleScope.CLUSTER, RuleScope.NAMESPACED), { nil: undefined }),
  }), { minLength: 1, maxLength: 3 }),
  validations: fc.array(fc.record({
    expression: fc.constantFrom('true', 'object.spec.replicas <= 5', "object.metadata.name.startsWith('a')", 'has(object.spec)'),
    message: fc.option(fc.constantFrom('too many', 'name must start with a'), { nil: undefined }),
  }), { minLength: 1, maxLength: 3 }),
  variables: fc.uniqueArray(fc.record({ name: fc.constantFrom('max', 'team', 'limit'), expression: fc.constantFrom('5', "'x'", 'object.spec') }),
    { selector: (v) => v.name, maxLength: 3 }),
  failurePolicy: fc.option(fc.constantFrom(FailurePolicy.FAIL, FailurePolicy.IGNORE), { nil: undefined }),
  matchPolicy: fc.option(fc.constantFrom(MatchPolicy.EXACT, MatchPolicy.EQUIVALENT), { nil: undefined }),
  actions: fc.constantFrom(
    [ValidationAction.DENY], [ValidationAction.WARN, ValidationAction.AUDIT],
    [ValidationAction.AUDIT], [ValidationAction.DENY, ValidationAction.AUDIT],
  ),
});

describe('ValidatingPolicy with random props', () => {
  test('valid props synthesize to manifests the validator accepts, with every prop in them', () => {
    fc.assert(fc.property(validProps, (p) => {
      const chart = Testing.chart();
      const { actions, ...policyProps } = p;
      new ValidatingPolicy(chart, 'policy', policyProps).withBinding('binding', { validationActions: actions });
      const manifests = Testing.synth(chart);
      for (const m of manifests) {
        expect(ManifestValidator.validate(m).filter((v) => v.severity === ViolationSeverity.ERROR)).toEqual([]);
      }
      const [policyManifest, bindingManifest] = manifests;
      const spec = policyManifest.spec;
      if (p.name !== undefined) expect(policyManifest.metadata.name).toBe(p.name);
      expect(spec.failurePolicy).toBe(p.failurePolicy ?? 'Fail');
      expect(spec.matchConstraints.matchPolicy).toBe(p.matchPolicy ?? 'Equivalent');
      expect(spec.matchConstraints.resourceRules).toEqual(p.resourceRules.map((r) => ({ ...r, scope: r.scope ?? '*' })));
      expect(spec.validations).toEqual(p.validations.map((v) => (v.message === undefined ? { expression: v.expression } : v)));
      expect(spec.variables ?? []).toEqual(p.variables);
      expect(bindingManifest.spec).toEqual({ policyName: policyManifest.metadata.name, validationActions: p.actions });
    }), { numRuns: 150 });
  });

  test('any props either synthesize valid manifests or fail with errors naming the construct', () => {
    fc.assert(fc.property(props, (p) => {
      const chart = Testing.chart();
      let manifests: any[];
      try {
        const { actions, ...policyProps } = p;
        const policy = new ValidatingPolicy(chart, 'policy', policyProps);
        policy.withBinding('binding', { validationActions: actions });
        manifests = Testing.synth(chart);
      } catch (e) {
        const message = (e as Error).message;
        if (message.startsWith('Validation failed with the following errors:')) {
          // Each error starts a line with its construct path; CEL errors continue on caret lines.
          const errors = message.split('\n  [').slice(1);
          expect(errors.length).toBeGreaterThan(0);
          for (const error of errors) expect(error).toMatch(/^test\/(policy|binding)\] \S+: \S/);
        } else {
          expect(message).toMatch(/test\/(policy|binding)|Kubernetes|invalid/);
        }
        return;
      }
      for (const m of manifests) {
        expect(ManifestValidator.validate(m).filter((v) => v.severity === ViolationSeverity.ERROR)).toEqual([]);
      }
    }), { numRuns: 150 });
  });
});
