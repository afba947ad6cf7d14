// MutatingAdmissionPolicyBinding (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go: validateMutatingAdmissionPolicyBinding).
import { expectErrors, expectValid, GROUP, mutatingBinding, warnings } from './fixtures';
import { KubernetesVersion } from '../../src';

const SUBDOMAIN = 'a lowercase RFC 1123 subdomain must consist of';
const EXCLUSIVE = 'Forbidden: name and selector are mutually exclusive';
const NO_DELETE_PATH = 'spec.matchResources.resourceRules.operations';
const MUTATING_OPERATIONS = 'supported values: "*", "CONNECT", "CREATE", "UPDATE"';
const V1_33 = { kubernetesVersion: KubernetesVersion.of('1.33') };
const V1_34 = { kubernetesVersion: KubernetesVersion.of('1.34') };

/** A valid binding rule; `fields` replaces any of its fields. */
function rule(fields: object = {}): object {
  return { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], ...fields };
}

function withRules(resourceRules: object[], excludeResourceRules?: object[]): any {
  return mutatingBinding({ matchResources: { resourceRules, ...(excludeResourceRules ? { excludeResourceRules } : {}) } });
}

/** The binding in another apiVersion of admissionregistration.k8s.io. */
function inVersion(version: string, spec: object = {}): any {
  return { ...mutatingBinding(spec), apiVersion: `${GROUP}/${version}` };
}

describe('valid bindings', () => {
  test('the fixture is valid on the latest version, without warnings', () => {
    expectValid(mutatingBinding());
    expect(warnings(mutatingBinding())).toEqual([]);
  });

  test('a binding using every field is valid', () => {
    expectValid(mutatingBinding({
      policyName: 'demo-mutation.example.com',
      paramRef: { selector: { matchLabels: { team: 'web' } }, namespace: 'any namespace', parameterNotFoundAction: 'Allow' },
      matchResources: {
        matchPolicy: 'Equivalent',
        namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] },
        objectSelector: {},
        resourceRules: [rule({ operations: ['*'], resourceNames: ['web', ''] })],
        excludeResourceRules: [rule({ operations: ['DELETE'] })],
      },
    }));
  });
});

describe('metadata', () => {
  test('metadata.name is required', () => {
    expectErrors(mutatingBinding({}, { name: undefined }), [['metadata.name', 'Required value: name or generateName is required']]);
  });

  test('metadata.name must be a DNS subdomain', () => {
    expectErrors(mutatingBinding({}, { name: 'Bind.Me!' }), [['metadata.name', `Invalid value: "Bind.Me!": ${SUBDOMAIN}`]]);
  });
});

describe('spec.policyName', () => {
  test.each([
    ['missing', undefined],
    ['empty', ''],
  ])('is required (%s)', (_, policyName) => {
    expectErrors(mutatingBinding({ policyName }), [['spec.policyName', 'Required value']]);
  });

  test.each(['Demo', 'demo_mutation', 'demo..mutation'])('must be a DNS subdomain: %j', (policyName) => {
    expectErrors(mutatingBinding({ policyName }), [['spec.policyName', `Invalid value: "${policyName}": ${SUBDOMAIN}`]]);
  });
});

describe('spec.paramRef', () => {
  test('name and selector together are two errors', () => {
    expectErrors(mutatingBinding({ paramRef: { name: 'p', selector: { matchLabels: { a: 'b' } }, parameterNotFoundAction: 'Deny' } }), [
      ['spec.paramRef.name', EXCLUSIVE],
      ['spec.paramRef.selector', EXCLUSIVE],
    ]);
  });

  test('one of name or selector is required', () => {
    expectErrors(mutatingBinding({ paramRef: { namespace: 'default', parameterNotFoundAction: 'Deny' } }), [
      ['spec.paramRef', 'Required value: one of name or selector must be specified'],
    ]);
  });

  test('an empty selector counts', () => {
    expectValid(mutatingBinding({ paramRef: { selector: {}, parameterNotFoundAction: 'Deny' } }));
  });

  test('name must be a path segment; uppercase and dots are fine', () => {
    expectErrors(mutatingBinding({ paramRef: { name: 'a/b', parameterNotFoundAction: 'Deny' } }), [
      ['spec.paramRef.name', 'Invalid value: "a/b": may not contain \'/\''],
    ]);
    expectValid(mutatingBinding({ paramRef: { name: 'My.Params', parameterNotFoundAction: 'Deny' } }));
  });

  test('v1 requires parameterNotFoundAction', () => {
    expectErrors(mutatingBinding({ paramRef: { name: 'params' } }), [['spec.paramRef.parameterNotFoundAction', 'Required value']]);
  });

  test('v1beta1 requires parameterNotFoundAction', () => {
    expectErrors(inVersion('v1beta1', { paramRef: { name: 'params' } }), [
      ['spec.paramRef.parameterNotFoundAction', 'Required value'],
    ], V1_34);
  });

  test('v1alpha1 defaults parameterNotFoundAction to Deny, so it may be omitted', () => {
    expectValid(inVersion('v1alpha1', { paramRef: { name: 'params' } }), V1_33);
  });

  test('v1alpha1 does not default an explicit empty parameterNotFoundAction', () => {
    expectErrors(inVersion('v1alpha1', { paramRef: { name: 'params', parameterNotFoundAction: '' } }), [
      ['spec.paramRef.parameterNotFoundAction', 'Required value'],
    ], V1_33);
  });

  test('v1alpha1 still checks the other paramRef rules', () => {
    expectErrors(inVersion('v1alpha1', { paramRef: { parameterNotFoundAction: 'Maybe' } }), [
      ['spec.paramRef', 'Required value: one of name or selector must be specified'],
      ['spec.paramRef.parameterNotFoundAction', 'Unsupported value: "Maybe": supported values: "Deny", "Allow"'],
    ], V1_33);
  });

  test('parameterNotFoundAction lists "Deny", "Allow" in that order', () => {
    expectErrors(mutatingBinding({ paramRef: { name: 'params', parameterNotFoundAction: 'invalid' } }), [
      ['spec.paramRef.parameterNotFoundAction', 'Unsupported value: "invalid": supported values: "Deny", "Allow"'],
    ]);
  });

  test('namespace is not validated', () => {
    expectValid(mutatingBinding({ paramRef: { name: 'params', namespace: '!!', parameterNotFoundAction: 'Allow' } }));
  });
});

describe('spec.matchResources', () => {
  test.each([
    ['empty', {}],
    ['selectors only', { namespaceSelector: { matchLabels: { env: 'prod' } } }],
  ])('resourceRules is optional (%s)', (_, matchResources) => {
    expectValid(mutatingBinding({ matchResources }));
  });

  test('matchPolicy must be Exact or Equivalent', () => {
    expectErrors(mutatingBinding({ matchResources: { matchPolicy: 'Fuzzy' } }), [
      ['spec.matchResources.matchPolicy', 'Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"'],
    ]);
  });

  test('selectors are strict label selectors', () => {
    expectErrors(mutatingBinding({ matchResources: { objectSelector: { matchExpressions: [{ key: 'a', operator: 'NotIn' }] } } }), [
      ['spec.matchResources.objectSelector.matchExpressions[0].values', "Required value: must be specified when `operator` is 'In' or 'NotIn'"],
    ]);
  });

  test('resourceNames are path segments and unique', () => {
    expectErrors(withRules([rule({ resourceNames: ['..', 'x', 'x'] })]), [
      ['spec.matchResources.resourceRules[0].resourceNames[0]', "Invalid value: \"..\": may not be '..'"],
      ['spec.matchResources.resourceRules[0].resourceNames[2]', 'Duplicate value: "x"'],
    ]);
  });

  test('DELETE is rejected at the path without indices', () => {
    expectErrors(withRules([rule({ operations: ['UPDATE', 'DELETE'] })]), [
      [NO_DELETE_PATH, `Unsupported value: "DELETE": ${MUTATING_OPERATIONS}`],
    ]);
  });

  test('an invalid operation is reported indexed and not indexed', () => {
    expectErrors(withRules([rule({ operations: ['PATCH'] })]), [
      ['spec.matchResources.resourceRules[0].operations[0]', 'Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"'],
      [NO_DELETE_PATH, `Unsupported value: "PATCH": ${MUTATING_OPERATIONS}`],
    ]);
  });

  test.each([[['*']], [['CREATE', 'UPDATE', 'CONNECT']]])('%j is valid', (operations) => {
    expectValid(withRules([rule({ operations })]));
  });

  test('DELETE is allowed in excludeResourceRules', () => {
    expectValid(withRules([], [rule({ operations: ['DELETE'] })]));
  });
});

describe('no validationActions', () => {
  test('validationActions is an unknown field', () => {
    expectErrors(mutatingBinding({ validationActions: ['Deny'] }), [
      ['spec.validationActions', 'unknown field "spec.validationActions"'],
    ]);
  });
});
