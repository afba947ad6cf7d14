// ValidatingAdmissionPolicyBinding (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go:
// validateValidatingAdmissionPolicyBinding), with matchResources and paramRef.
import { errors, expectErrors, expectValid, validatingBinding, warnings } from './fixtures';

const SUBDOMAIN = 'a lowercase RFC 1123 subdomain must consist of';
const ACTIONS_SUPPORTED = 'supported values: "Audit", "Deny", "Warn"';
const DENY_AND_WARN = 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)';
const EXCLUSIVE = 'Forbidden: name and selector are mutually exclusive';

/** A valid binding rule; `fields` replaces any of its fields. */
function rule(fields: object = {}): object {
  return { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'], ...fields };
}

describe('valid bindings', () => {
  test('the fixture is valid and draws no warnings', () => {
    expectValid(validatingBinding());
    expect(warnings(validatingBinding())).toEqual([]);
  });

  test('a binding using every field is valid', () => {
    expectValid(validatingBinding({
      policyName: 'demo-policy.example.com',
      validationActions: ['Warn', 'Audit'],
      paramRef: { name: 'demo-params', namespace: 'default', parameterNotFoundAction: 'Allow' },
      matchResources: {
        matchPolicy: 'Exact',
        namespaceSelector: { matchLabels: { env: 'prod' } },
        objectSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
        resourceRules: [rule({ resourceNames: ['web', 'api'], scope: 'Namespaced' })],
        excludeResourceRules: [rule({ operations: ['DELETE'], resourceNames: ['legacy'] })],
      },
    }));
  });
});

describe('metadata', () => {
  test('metadata.name is required', () => {
    expectErrors(validatingBinding({}, { name: undefined }), [
      ['metadata.name', 'Required value: name or generateName is required'],
    ]);
  });

  test('metadata.name must be a DNS subdomain', () => {
    expectErrors(validatingBinding({}, { name: 'Demo_Binding' }), [
      ['metadata.name', `Invalid value: "Demo_Binding": ${SUBDOMAIN}`],
    ]);
  });
});

describe('spec.policyName', () => {
  test.each([
    ['missing', undefined],
    ['empty', ''],
  ])('is required (%s)', (_, policyName) => {
    expectErrors(validatingBinding({ policyName }), [['spec.policyName', 'Required value']]);
  });

  test.each(['Demo-Policy', '!!!', 'demo_policy', '-demo', 'demo.'])('must be a DNS subdomain: %j', (policyName) => {
    expectErrors(validatingBinding({ policyName }), [['spec.policyName', `Invalid value: "${policyName}": ${SUBDOMAIN}`]]);
  });

  test('is at most 253 bytes', () => {
    const policyName = 'a'.repeat(254);
    expectErrors(validatingBinding({ policyName }), [['spec.policyName', 'must be no more than 253 bytes']]);
    expectValid(validatingBinding({ policyName: 'a'.repeat(253) }));
  });

  test('a dotted subdomain is valid, and the policy need not exist', () => {
    expectValid(validatingBinding({ policyName: 'no-such-policy.example.com' }));
  });
});

describe('spec.paramRef', () => {
  test('name and selector together are two errors', () => {
    expectErrors(validatingBinding({ paramRef: { name: 'params', selector: {}, parameterNotFoundAction: 'Deny' } }), [
      ['spec.paramRef.name', EXCLUSIVE],
      ['spec.paramRef.selector', EXCLUSIVE],
    ]);
  });

  test.each([
    ['neither', {}],
    ['an empty name', { name: '' }],
  ])('one of name or selector is required (%s)', (_, ref) => {
    expectErrors(validatingBinding({ paramRef: { ...ref, parameterNotFoundAction: 'Deny' } }), [
      ['spec.paramRef', 'Required value: one of name or selector must be specified'],
    ]);
  });

  test('an empty selector counts (it selects every param object)', () => {
    expectValid(validatingBinding({ paramRef: { selector: {}, parameterNotFoundAction: 'Deny' } }));
  });

  test('a selector is validated as a label selector', () => {
    const selector = { matchExpressions: [{ key: 'tier', operator: 'Matches', values: ['a'] }] };
    expectErrors(validatingBinding({ paramRef: { selector, parameterNotFoundAction: 'Deny' } }), [
      ['spec.paramRef.selector.matchExpressions[0].operator', 'Invalid value: "Matches": not a valid selector operator'],
    ]);
  });

  test('a selector with matchLabels is valid', () => {
    expectValid(validatingBinding({ paramRef: { selector: { matchLabels: { tier: 'gold' } }, parameterNotFoundAction: 'Allow' } }));
  });

  test.each([
    ['.', "may not be '.'"],
    ['..', "may not be '..'"],
    ['a/b', "may not contain '/'"],
    ['50%', "may not contain '%'"],
  ])('name must be a path segment: %j', (name, detail) => {
    expectErrors(validatingBinding({ paramRef: { name, parameterNotFoundAction: 'Deny' } }), [
      ['spec.paramRef.name', `Invalid value: "${name}": ${detail}`],
    ]);
  });

  test('a name with both "/" and "%" is two errors', () => {
    expectErrors(validatingBinding({ paramRef: { name: 'a/%', parameterNotFoundAction: 'Deny' } }), [
      ['spec.paramRef.name', "may not contain '/'"],
      ['spec.paramRef.name', "may not contain '%'"],
    ]);
  });

  test.each(['My.Params', 'UPPER_case', '...', 'a.b.c', 'with space'])('name need not be a DNS name: %j', (name) => {
    expectValid(validatingBinding({ paramRef: { name, parameterNotFoundAction: 'Deny' } }));
  });

  test.each([
    ['missing', undefined],
    ['empty', ''],
  ])('parameterNotFoundAction is required (%s)', (_, parameterNotFoundAction) => {
    expectErrors(validatingBinding({ paramRef: { name: 'params', parameterNotFoundAction } }), [
      ['spec.paramRef.parameterNotFoundAction', 'Required value'],
    ]);
  });

  test.each(['invalid', 'deny', 'Ignore'])('parameterNotFoundAction lists "Deny", "Allow" in that order: %j', (parameterNotFoundAction) => {
    expectErrors(validatingBinding({ paramRef: { name: 'params', parameterNotFoundAction } }), [
      ['spec.paramRef.parameterNotFoundAction', `Unsupported value: "${parameterNotFoundAction}": supported values: "Deny", "Allow"`],
    ]);
  });

  test.each(['Deny', 'Allow'])('parameterNotFoundAction %s is valid', (parameterNotFoundAction) => {
    expectValid(validatingBinding({ paramRef: { name: 'params', parameterNotFoundAction } }));
  });

  test('namespace is not validated', () => {
    expectValid(validatingBinding({ paramRef: { name: 'params', namespace: 'Not A Namespace!', parameterNotFoundAction: 'Deny' } }));
  });

  test('every paramRef error is reported at once', () => {
    expectErrors(validatingBinding({ paramRef: { name: '..', selector: { matchLabels: { 'bad key!': 'x' } } } }), [
      ['spec.paramRef.name', "may not be '..'"],
      ['spec.paramRef.name', EXCLUSIVE],
      ['spec.paramRef.selector', EXCLUSIVE],
      ['spec.paramRef.selector.matchLabels', 'Invalid value: "bad key!"'],
      ['spec.paramRef.parameterNotFoundAction', 'Required value'],
    ]);
  });
});

describe('spec.matchResources', () => {
  test('errors are reported under spec.matchResources (not the old spec.matchResouces)', () => {
    const found = errors(validatingBinding({ matchResources: { matchPolicy: 'other' } }));
    expect(found.map((v) => v.path)).toEqual(['spec.matchResources.matchPolicy']);
  });

  test.each(['other', 'exact', ''])('matchPolicy must be Exact or Equivalent: %j', (matchPolicy) => {
    expectErrors(validatingBinding({ matchResources: { matchPolicy } }), [
      ['spec.matchResources.matchPolicy', `Unsupported value: "${matchPolicy}": supported values: "Equivalent", "Exact"`],
    ]);
  });

  test.each(['Exact', 'Equivalent'])('matchPolicy %s is valid', (matchPolicy) => {
    expectValid(validatingBinding({ matchResources: { matchPolicy } }));
  });

  test.each([
    ['empty', {}],
    ['only selectors', { namespaceSelector: { matchLabels: { env: 'prod' } }, objectSelector: {} }],
    ['an empty resourceRules list', { resourceRules: [] }],
  ])('resourceRules is optional on a binding (%s)', (_, matchResources) => {
    expectValid(validatingBinding({ matchResources }));
  });

  test('namespaceSelector is a strict label selector', () => {
    expectErrors(validatingBinding({ matchResources: { namespaceSelector: { matchLabels: { env: 'not valid!' } } } }), [
      ['spec.matchResources.namespaceSelector.matchLabels', 'Invalid value: "not valid!": a valid label must be an empty string'],
    ]);
  });

  test('objectSelector In needs values', () => {
    const objectSelector = { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] };
    expectErrors(validatingBinding({ matchResources: { objectSelector } }), [
      ['spec.matchResources.objectSelector.matchExpressions[0].values', "Required value: must be specified when `operator` is 'In' or 'NotIn'"],
    ]);
  });

  test('objectSelector Exists forbids values', () => {
    const objectSelector = { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['web'] }] };
    expectErrors(validatingBinding({ matchResources: { objectSelector } }), [
      ['spec.matchResources.objectSelector.matchExpressions[0].values', "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
    ]);
  });

  test('resourceRules are checked as rules', () => {
    expectErrors(validatingBinding({ matchResources: { resourceRules: [rule({ operations: [] }), rule({ scope: 'Global' })] } }), [
      ['spec.matchResources.resourceRules[0].operations', 'Required value'],
      ['spec.matchResources.resourceRules[1].scope', 'Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"'],
    ]);
  });

  test('a binding may match DELETE', () => {
    expectValid(validatingBinding({ matchResources: { resourceRules: [rule({ operations: ['DELETE'] })] } }));
  });

  test.each([
    ['.', "may not be '.'"],
    ['..', "may not be '..'"],
    ['/./.', "may not contain '/'"],
    ['a%2Fb', "may not contain '%'"],
  ])('resourceNames must be path segments: %j', (name, detail) => {
    expectErrors(validatingBinding({ matchResources: { resourceRules: [rule({ resourceNames: [name] })] } }), [
      ['spec.matchResources.resourceRules[0].resourceNames[0]', `Invalid value: "${name}": ${detail}`],
    ]);
  });

  test('resourceNames must be unique', () => {
    expectErrors(validatingBinding({ matchResources: { resourceRules: [rule({ resourceNames: ['test', 'other', 'test'] })] } }), [
      ['spec.matchResources.resourceRules[0].resourceNames[2]', 'Duplicate value: "test"'],
    ]);
  });

  test('the same resourceName may appear in different rules', () => {
    expectValid(validatingBinding({ matchResources: { resourceRules: [rule({ resourceNames: ['test'] }), rule({ resourceNames: ['test'] })] } }));
  });

  test.each([
    ['an empty string', ['']],
    ['uppercase and dots', ['My.Deployment', '...', 'a_b']],
  ])('resourceNames accept %s', (_, resourceNames) => {
    expectValid(validatingBinding({ matchResources: { resourceRules: [rule({ resourceNames })] } }));
  });

  test('an empty resourceName may still be a duplicate', () => {
    expectErrors(validatingBinding({ matchResources: { resourceRules: [rule({ resourceNames: ['', ''] })] } }), [
      ['spec.matchResources.resourceRules[0].resourceNames[1]', 'Duplicate value: ""'],
    ]);
  });

  test('excludeResourceRules are checked like resourceRules', () => {
    const excludeResourceRules = [rule({ operations: ['PATCH'], resourceNames: ['x', '..', 'x'] })];
    expectErrors(validatingBinding({ matchResources: { excludeResourceRules } }), [
      ['spec.matchResources.excludeResourceRules[0].operations[0]', 'Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"'],
      ['spec.matchResources.excludeResourceRules[0].resourceNames[1]', "Invalid value: \"..\": may not be '..'"],
      ['spec.matchResources.excludeResourceRules[0].resourceNames[2]', 'Duplicate value: "x"'],
    ]);
  });

  test('excludeResourceRules alone are valid', () => {
    expectValid(validatingBinding({ matchResources: { excludeResourceRules: [rule({ resourceNames: ['kube-system-thing'] })] } }));
  });
});

describe('spec.validationActions', () => {
  test.each([
    ['missing', undefined],
    ['empty', []],
  ])('at least one is required (%s)', (_, validationActions) => {
    expectErrors(validatingBinding({ validationActions }), [
      ['spec.validationActions', 'Required value: at least one validation action is required'],
    ]);
  });

  test.each(['illegal', 'deny', 'Reject'])('each must be Audit, Deny or Warn (sorted): %j', (action) => {
    expectErrors(validatingBinding({ validationActions: ['Audit', action] }), [
      ['spec.validationActions[1]', `Unsupported value: "${action}": ${ACTIONS_SUPPORTED}`],
    ]);
  });

  test.each(['Deny', 'Warn', 'Audit'])('a repeated %s is a duplicate', (action) => {
    expectErrors(validatingBinding({ validationActions: [action, action] }), [
      ['spec.validationActions[1]', `Duplicate value: "${action}"`],
    ]);
  });

  test.each([
    [['Deny', 'Warn']],
    [['Warn', 'Audit', 'Deny']],
  ])('Deny and Warn together are rejected: %j', (validationActions) => {
    expectErrors(validatingBinding({ validationActions }), [['spec.validationActions', DENY_AND_WARN]]);
  });

  test('a duplicate Deny with Warn is both errors', () => {
    expectErrors(validatingBinding({ validationActions: ['Deny', 'Warn', 'Deny'] }), [
      ['spec.validationActions[2]', 'Duplicate value: "Deny"'],
      ['spec.validationActions', DENY_AND_WARN],
    ]);
  });

  test.each([
    [['Deny']],
    [['Warn']],
    [['Audit']],
    [['Warn', 'Audit']],
    [['Deny', 'Audit']],
  ])('%j is valid', (validationActions) => {
    expectValid(validatingBinding({ validationActions }));
  });
});
