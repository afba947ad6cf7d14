// Match criteria that leave nothing, or a selector with no effect: exclude rules that exclude all a
// policy or binding includes, a namespaceSelector on cluster-scoped resources, a binding that
// selects nothing its policy matches. Warnings, at the field to change; what still matches is not warned.
import { Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { mutatingBinding, mutatingPolicy, validatingBinding, validatingPolicy, webhook, webhookConfiguration } from './fixtures';
import { AdmissionResource, AdmissionWarnings, ManifestValidator, Operation, ValidatingPolicy, ValidationAction, ViolationSeverity } from '../../src';

const rule = (apiGroups: string[], resources: string[], operations = ['CREATE'], apiVersions = ['v1']) => ({ apiGroups, apiVersions, operations, resources });
const DEPLOYMENTS = rule(['apps'], ['deployments']);
const policy = (match: object) => validatingPolicy({ matchConstraints: match });
const binding = (matchResources: object) => validatingBinding({ policyName: 'demo-policy', matchResources });

/** The warnings of these lints, as `kind path: message`. */
function reachWarnings(manifests: object[]): string[] {
  return ManifestValidator.validateAll(manifests)
    .filter((v) => v.severity === ViolationSeverity.WARNING && /(excludeResourceRules|namespaceSelector|matchResources\.resourceRules)$/.test(v.path))
    .map((v) => `${v.kind} ${v.path}: ${v.message}`);
}

describe('exclude rules that exclude everything', () => {
  test.each([
    [[DEPLOYMENTS], [DEPLOYMENTS]],
    [[DEPLOYMENTS], [rule(['*'], ['*'], ['*'], ['*'])]],
    [[DEPLOYMENTS, rule([''], ['pods'])], [rule(['apps'], ['*']), rule([''], ['pods', 'configmaps'], ['CREATE', 'UPDATE'])]],
    [[rule(['apps'], ['deployments/status'])], [rule(['apps'], ['*/*'])]],
  ])('%j excluded by %j', (resourceRules, excludeResourceRules) => {
    expect(reachWarnings([policy({ resourceRules, excludeResourceRules })])).toEqual([
      expect.stringMatching(/^ValidatingAdmissionPolicy spec\.matchConstraints\.excludeResourceRules: every request the resourceRules match is excluded \(resourceRules\[0\] by excludeResourceRules\[0\].*\), so the policy matches nothing/),
    ]);
  });

  test.each([
    [[DEPLOYMENTS], [rule(['apps'], ['deployments/status'])]], // a subresource only
    [[DEPLOYMENTS], [rule(['apps'], ['deployments'], ['UPDATE'])]],
    [[rule(['apps'], ['deployments'], ['CREATE'], ['*'])], [DEPLOYMENTS]], // v1 of every version
    [[DEPLOYMENTS, rule([''], ['pods'])], [DEPLOYMENTS]], // one of two
    [[DEPLOYMENTS], [{ ...DEPLOYMENTS, resourceNames: ['web'] }]],
    [[DEPLOYMENTS], [{ ...DEPLOYMENTS, scope: 'Namespaced' }]],
  ])('%j, not all excluded by %j: no warning', (resourceRules, excludeResourceRules) => {
    expect(reachWarnings([policy({ resourceRules, excludeResourceRules })])).toEqual([]);
  });

  test('in a binding\'s own matchResources, and of its policy\'s rules', () => {
    const own = binding({ resourceRules: [DEPLOYMENTS], excludeResourceRules: [DEPLOYMENTS] });
    expect(reachWarnings([policy({ resourceRules: [DEPLOYMENTS] }), own])).toEqual([
      expect.stringMatching(/^ValidatingAdmissionPolicyBinding spec\.matchResources\.excludeResourceRules: every request .* so the binding matches nothing/),
    ]);
    expect(reachWarnings([policy({ resourceRules: [DEPLOYMENTS] }), binding({ excludeResourceRules: [rule(['apps'], ['*'], ['*'])] })])).toEqual([
      'ValidatingAdmissionPolicyBinding spec.matchResources.excludeResourceRules: excludes every request ValidatingAdmissionPolicy "demo-policy" '
      + 'matches, so this binding never acts; narrow the exclude rules, or remove them',
    ]);
  });
});

describe('a namespaceSelector on cluster-scoped resources only', () => {
  const selector = { matchLabels: { team: 'a' } };
  test.each([
    [[rule([''], ['nodes'])], 'Node'],
    [[rule(['rbac.authorization.k8s.io'], ['clusterroles', 'clusterrolebindings'])], 'ClusterRole, ClusterRoleBinding'],
    [[rule([''], ['nodes/status']), rule(['storage.k8s.io'], ['storageclasses'])], 'Node, StorageClass'],
  ])('%j', (resourceRules, kinds) => {
    expect(reachWarnings([policy({ resourceRules, namespaceSelector: selector })])).toEqual([
      `ValidatingAdmissionPolicy spec.matchConstraints.namespaceSelector: every resource the rules match is cluster-scoped (${kinds}), and the apiserver `
      + 'applies a namespaceSelector only to namespaced objects and Namespaces: this selector has no effect; remove it, or select by objectSelector',
    ]);
  });

  test.each([
    [[rule([''], ['namespaces'])]], // a Namespace is matched by its own labels
    [[rule([''], ['nodes', 'pods'])]],
    [[rule(['*'], ['nodes'])]],
    [[rule([''], ['*'])]],
    [[rule(['metrics.k8s.io'], ['nodes'])]], // not known here
  ])('%j: no warning', (resourceRules) => {
    expect(reachWarnings([policy({ resourceRules, namespaceSelector: selector })])).toEqual([]);
    expect(reachWarnings([policy({ resourceRules: [rule([''], ['nodes'])], namespaceSelector: {} })])).toEqual([]);
  });
});

describe('a binding that selects nothing its policy matches', () => {
  test('its rules meet none of the policy\'s', () => {
    expect(reachWarnings([policy({ resourceRules: [DEPLOYMENTS] }), binding({ resourceRules: [rule([''], ['pods'])] })])).toEqual([
      'ValidatingAdmissionPolicyBinding spec.matchResources.resourceRules: no rule here meets a rule of ValidatingAdmissionPolicy "demo-policy"\'s '
      + 'matchConstraints, and a binding acts only on what its policy matches: this binding never acts; select among the policy\'s resources, or remove the resourceRules',
    ]);
  });

  test.each([
    [rule(['apps'], ['*'])],
    [rule(['apps'], ['deployments'], ['*'])],
    [rule(['apps'], ['deployments'], ['CREATE'], ['v1beta1'])], // Equivalent matches across versions
    [rule(['*'], ['*/*'], ['*'], ['*'])],
  ])('%j meets the policy\'s rules: no warning', (bindingRule) => {
    expect(reachWarnings([policy({ resourceRules: [DEPLOYMENTS] }), binding({ resourceRules: [bindingRule] })])).toEqual([]);
  });

  test('from the constructs: a warning on the binding at synth', () => {
    const chart = Testing.chart();
    new ValidatingPolicy(chart, 'replicas', {
      resourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE)],
      validations: [{ expression: 'object.spec.replicas <= 5' }],
    }).withBinding('binding', {
      validationActions: [ValidationAction.DENY],
      matchResources: { resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)] },
    });
    expect(AdmissionWarnings.of(chart)).toEqual([expect.stringMatching(/^\[test\/binding\] spec\.matchResources\.resourceRules: no rule here meets a rule of/)]);
  });
});

describe('malformed match criteria', () => {
  // These lints judge only rules of string lists; anything else is a shape error already. Found by
  // the conformance manifests suite: `resources: [{}]` in a binding crashed the validator.
  const selector = { matchLabels: { team: 'a' } };
  const match = { namespaceSelector: selector, resourceRules: [DEPLOYMENTS], excludeResourceRules: [DEPLOYMENTS] };
  const pairs: Array<[string, () => object[]]> = [
    ['validating', () => [policy(match), binding(match)]],
    ['mutating', () => [
      mutatingPolicy({ matchConstraints: match }),
      mutatingBinding({ policyName: 'demo-mutation', matchResources: match }),
    ]],
    ['webhook', () => [webhookConfiguration('ValidatingWebhookConfiguration', [webhook({ namespaceSelector: selector, rules: [DEPLOYMENTS] })])]],
  ];
  const ruleFields = ['apiGroups', 'apiVersions', 'resources', 'operations'];
  /** Every place a rule, its lists or their entries sit in these manifests. */
  const places = (manifest: any): Array<Array<string | number>> => {
    const lists: Array<Array<string | number>> = manifest.webhooks
      ? [['webhooks', 0, 'rules']]
      : ['resourceRules', 'excludeResourceRules'].map((l) => ['spec', manifest.spec.matchConstraints ? 'matchConstraints' : 'matchResources', l]);
    return lists.flatMap((l) => [l, [...l, 0], ...ruleFields.flatMap((f) => [[...l, 0, f], [...l, 0, f, 0]])]);
  };
  const set = (manifest: any, at: Array<string | number>, value: unknown) => {
    let target = manifest;
    for (const k of at.slice(0, -1)) target = target[k];
    target[at[at.length - 1]] = value;
  };

  test('any JSON value in a rule is a violation at its path, never an internal error', () => {
    fc.assert(fc.property(fc.constantFrom(...pairs), fc.nat(), fc.nat(), fc.jsonValue(), ([, make], which, where, value) => {
      const manifests: any[] = JSON.parse(JSON.stringify(make()));
      const target = manifests[which % manifests.length];
      const at = places(target)[where % places(target).length];
      set(target, at, value);
      const violations = ManifestValidator.validateAll(manifests);
      expect(violations.filter((v) => v.message.includes('Internal error'))).toEqual([]);
      const entry = typeof at[at.length - 1] === 'number' && ruleFields.includes(String(at[at.length - 2]));
      // null decodes as '' in Go (encoding/json leaves the zero value), so it is no shape error.
      if (entry && typeof value !== 'string' && value !== null) {
        expect(violations).toContainEqual(expect.objectContaining({ severity: ViolationSeverity.ERROR, path: expect.stringContaining(at.join('.').replace(/\.(\d+)/g, '[$1]')) }));
      }
    }), { numRuns: 400 });
  });
});
