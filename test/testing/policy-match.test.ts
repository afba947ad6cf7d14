// Which policies acted on a review, and the first reason the others did not: each reason has a
// case that fails when its check is removed, and a property ties the verdicts to the decision.
import * as fc from 'fast-check';
import { MatchMiss, Operation, PolicyMatch, PolicyTester } from '../../src';

const G = 'admissionregistration.k8s.io/v1';
const RULE = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] };

function vap(name: string, spec: object = {}): any {
  return {
    apiVersion: G,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [RULE] },
      validations: [{ expression: 'object.spec.replicas <= 5', message: 'at most 5 replicas' }],
      ...spec,
    },
  };
}
function vapb(name: string, policyName: string, spec: object = {}): any {
  return { apiVersion: G, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName, validationActions: ['Deny'], ...spec } };
}
function deployment(replicas: number, metadata: object = {}): any {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'team-a', ...metadata }, spec: { replicas } };
}
const namespace = (name: string, labels: object = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });

/** The one verdict of a tester with one policy and one binding. */
function verdict(manifests: any[], request: object): PolicyMatch {
  const { policies } = PolicyTester.fromManifests(manifests).review(request as any);
  expect(policies).toHaveLength(1);
  return policies[0];
}

describe('a policy that acts', () => {
  test('is reported matched, with no reason', () => {
    expect(verdict([vap('p'), vapb('b', 'p')], { operation: Operation.CREATE, object: deployment(3) }))
      .toEqual({ policyKind: 'ValidatingAdmissionPolicy', policy: 'p', binding: 'b', matched: true });
  });

  test('whose match condition errs under Fail acted: it denied', () => {
    const policy = vap('p', { matchConditions: [{ name: 'broken', expression: 'object.metadata.labels.missing == "x"' }] });
    const result = PolicyTester.fromManifests([policy, vapb('b', 'p')]).review({ operation: Operation.CREATE, object: deployment(3) });
    expect(result.allowed).toBe(false);
    expect(result.policies[0].matched).toBe(true);
  });

  test('whose params are missing under parameterNotFoundAction Deny acted: it denied', () => {
    const policy = vap('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } });
    const binding = vapb('b', 'p', { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } });
    const result = PolicyTester.fromManifests([policy, binding]).review({ operation: Operation.CREATE, object: deployment(3) });
    expect(result.allowed).toBe(false);
    expect(result.policies[0].matched).toBe(true);
  });
});

describe('the first reason a policy did not act', () => {
  const create = { operation: Operation.CREATE, object: deployment(30) };
  const cases: Array<[string, any[], object, Partial<PolicyMatch>]> = [
    ['an operation the rules do not list', [vap('p'), vapb('b', 'p')], { operation: Operation.DELETE, oldObject: deployment(30) }, {
      miss: MatchMiss.OPERATION,
      field: 'spec.matchConstraints.resourceRules[0].operations',
      reason: "policy 'p': operation DELETE is not in spec.matchConstraints.resourceRules[0].operations [CREATE, UPDATE]",
    }],
    ['a kind where the rules want a resource', [vap('p', { matchConstraints: { resourceRules: [{ ...RULE, resources: ['Deployment'] }] } }), vapb('b', 'p')], create, {
      miss: MatchMiss.RESOURCE,
      field: 'spec.matchConstraints.resourceRules[0].resources',
      reason: "policy 'p': resource apps/deployments is not in spec.matchConstraints.resourceRules[0].resources [Deployment]",
    }],
    ['the wrong API group', [vap('p', { matchConstraints: { resourceRules: [{ ...RULE, apiGroups: [''] }] } }), vapb('b', 'p')], create, {
      miss: MatchMiss.RESOURCE,
      field: 'spec.matchConstraints.resourceRules[0].apiGroups',
      reason: 'policy \'p\': API group "apps" of resource apps/deployments is not in spec.matchConstraints.resourceRules[0].apiGroups [""]',
    }],
    ['a scope the resource does not have', [vap('p', { matchConstraints: { resourceRules: [{ ...RULE, scope: 'Cluster' }] } }), vapb('b', 'p')], create, {
      miss: MatchMiss.SCOPE,
      field: 'spec.matchConstraints.resourceRules[0].scope',
    }],
    ['a name the rules do not list', [vap('p', { matchConstraints: { resourceRules: [{ ...RULE, resourceNames: ['api'] }] } }), vapb('b', 'p')], create, {
      miss: MatchMiss.RESOURCE_NAME,
      reason: 'policy \'p\': name "web" is not in spec.matchConstraints.resourceRules[0].resourceNames [api]',
    }],
    ['an exclude rule', [vap('p', { matchConstraints: { resourceRules: [RULE], excludeResourceRules: [{ ...RULE, resourceNames: ['web'] }] } }), vapb('b', 'p')], create, {
      miss: MatchMiss.EXCLUDED,
      field: 'spec.matchConstraints.excludeResourceRules[0]',
    }],
    ['the namespace selector, naming the label',
      [vap('p', {
        matchConstraints: {
          resourceRules: [RULE],
          namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
        },
      }), vapb('b', 'p'), namespace('team-a', { env: 'dev' })], create, {
        miss: MatchMiss.NAMESPACE_SELECTOR,
        field: 'spec.matchConstraints.namespaceSelector.matchExpressions[0]',
        reason: 'policy \'p\': spec.matchConstraints.namespaceSelector requires env In [prod]; label env is "dev" on namespace \'team-a\'',
      }],
    ['the object selector', [vap('p', { matchConstraints: { resourceRules: [RULE], objectSelector: { matchLabels: { tier: 'web' } } } }), vapb('b', 'p')], create, {
      miss: MatchMiss.OBJECT_SELECTOR,
      field: 'spec.matchConstraints.objectSelector.matchLabels.tier',
      reason: "policy 'p': spec.matchConstraints.objectSelector requires tier=web; label tier is absent on the object",
    }],
    ["the binding's matchResources",
      [vap('p'), vapb('b', 'p', { matchResources: { namespaceSelector: { matchLabels: { env: 'prod' } } } }), namespace('team-a')], create, {
        miss: MatchMiss.NAMESPACE_SELECTOR,
        field: 'spec.matchResources.namespaceSelector.matchLabels.env',
        reason: "binding 'b': spec.matchResources.namespaceSelector requires env=prod; label env is absent on namespace 'team-a'",
      }],
    ['a false match condition, by name', [vap('p', { matchConditions: [{ name: 'big', expression: 'object.spec.replicas > 100' }] }), vapb('b', 'p')], create, {
      miss: MatchMiss.MATCH_CONDITION,
      field: 'spec.matchConditions[0]',
      reason: "policy 'p': match condition 'big' is false",
    }],
    ['an erring match condition under Ignore',
      [vap('p', { failurePolicy: 'Ignore', matchConditions: [{ name: 'labelled', expression: 'object.metadata.labels.team == "a"' }] }), vapb('b', 'p')], create, {
        miss: MatchMiss.MATCH_CONDITION,
        field: 'spec.matchConditions[0]',
      }],
    ['params not found under parameterNotFoundAction Allow',
      [vap('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }), vapb('b', 'p', { paramRef: { name: 'limits', parameterNotFoundAction: 'Allow' } })], create, {
        miss: MatchMiss.PARAMS_NOT_FOUND,
        field: 'spec.paramRef',
        reason: "binding 'b': no params found for spec.paramRef (parameterNotFoundAction Allow)",
      }],
    ['no binding', [vap('p')], create, { miss: MatchMiss.NO_BINDING, reason: "no ValidatingAdmissionPolicyBinding names policy 'p'" }],
  ];

  test.each(cases)('%s', (_name, manifests, request, expected) => {
    const result = PolicyTester.fromManifests(manifests).review(request as any);
    expect(result.allowed).toBe(true);
    expect(result.policies).toHaveLength(1);
    expect(result.policies[0]).toMatchObject({ policy: 'p', matched: false, ...expected });
  });

  test('of several rules, the one for the request\'s resource', () => {
    const rules = [{ ...RULE, resources: ['pods'], apiGroups: [''], operations: ['*'] }, { ...RULE, operations: ['UPDATE'] }];
    const v = verdict([vap('p', { matchConstraints: { resourceRules: rules } }), vapb('b', 'p')], { operation: Operation.CREATE, object: deployment(3) });
    expect(v).toMatchObject({ miss: MatchMiss.OPERATION, field: 'spec.matchConstraints.resourceRules[1].operations' });
  });

  test('a review of a policy object exempts every policy', () => {
    const v = verdict([vap('p', { matchConstraints: { resourceRules: [{ ...RULE, apiGroups: ['*'], resources: ['*'] }] } }), vapb('b', 'p')],
      { operation: Operation.CREATE, object: vap('other') });
    expect(v).toMatchObject({ matched: false, miss: MatchMiss.EXEMPT });
  });

  test('validating policies after a mutating denial were not reached', () => {
    const map = {
      apiVersion: 'admissionregistration.k8s.io/v1beta1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: 'm' },
      spec: {
        failurePolicy: 'Fail',
        reinvocationPolicy: 'Never',
        matchConstraints: { resourceRules: [RULE] },
        mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/spec/x", value: object.spec.missing}]' } }],
      },
    };
    const mapb = { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'mb' }, spec: { policyName: 'm' } };
    const result = PolicyTester.fromManifests([map, mapb, vap('p'), vapb('b', 'p')]).review({ operation: Operation.CREATE, object: deployment(30) });
    expect(result.allowed).toBe(false);
    expect(result.policies.map((p) => [p.policyKind, p.policy, p.matched, p.miss])).toEqual([
      ['MutatingAdmissionPolicy', 'm', true, undefined],
      ['ValidatingAdmissionPolicy', 'p', false, MatchMiss.NOT_REACHED],
    ]);
  });
});

describe('the verdicts agree with the decision', () => {
  // Random policies and requests: a policy that denied, warned or annotated is reported matched,
  // and every (policy, binding) pair has exactly one verdict.
  const ops = fc.subarray(['CREATE', 'UPDATE', 'DELETE'], { minLength: 1 });
  const policy = fc.record({
    operations: ops,
    resources: fc.subarray(['deployments', 'Deployment', 'replicasets'], { minLength: 1 }),
    env: fc.option(fc.constantFrom('prod', 'dev'), { nil: undefined }),
    condition: fc.constantFrom(undefined, 'true', 'false', 'object.spec.replicas > 2', 'object.metadata.labels.x == "y"'),
    failurePolicy: fc.constantFrom('Fail', 'Ignore'),
    // The apiserver refuses Deny with Warn.
    actions: fc.constantFrom(['Deny'], ['Warn'], ['Audit'], ['Deny', 'Audit'], ['Warn', 'Audit']),
    bound: fc.boolean(),
  });

  test('matched when it took part, one verdict per binding', () => {
    fc.assert(fc.property(fc.array(policy, { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 10 }), fc.constantFrom('prod', 'dev'),
      (specs, replicas, env) => {
        const manifests: any[] = [namespace('team-a', { env })];
        specs.forEach((s, i) => {
          manifests.push(vap(`p${i}`, {
            failurePolicy: s.failurePolicy,
            matchConstraints: {
              resourceRules: [{ ...RULE, operations: s.operations, resources: s.resources }],
              ...(s.env ? { namespaceSelector: { matchLabels: { env: s.env } } } : {}),
            },
            ...(s.condition ? { matchConditions: [{ name: 'c', expression: s.condition }] } : {}),
            auditAnnotations: [{ key: 'seen', valueExpression: '"yes"' }],
          }));
          if (s.bound) manifests.push(vapb(`b${i}`, `p${i}`, { validationActions: s.actions }));
        });
        const result = PolicyTester.fromManifests(manifests).review({ operation: Operation.CREATE, object: deployment(replicas) });
        expect(result.policies.map((p) => p.policy)).toEqual(specs.map((_s, i) => `p${i}`));
        const matched = new Set(result.policies.filter((p) => p.matched).map((p) => p.policy));
        const tookPart = new Set([
          ...result.denials.map((d) => d.policy),
          ...result.warnings.map((w) => /ValidatingAdmissionPolicy '([^']+)'/.exec(w)![1]),
          ...Object.keys(result.auditAnnotations).filter((k) => k.endsWith('/seen')).map((k) => k.split('/')[0]),
          ...JSON.parse(result.auditAnnotations['validation.policy.admission.k8s.io/validation_failure'] ?? '[]').map((f: any) => f.policy),
        ]);
        for (const p of tookPart) expect(matched).toContain(p);
        // Every policy that acted annotated the audit log: acting and taking part are the same.
        for (const p of matched) expect(tookPart).toContain(p);
      }), { numRuns: 200 });
  });
});
