// MutatingAdmissionPolicy (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go: validateMutatingAdmissionPolicy), with
// paramKind, variables and the apiVersion per target version.
import { errors, expectErrors, expectValid, GROUP, mutatingPolicy, warnings } from './fixtures';
import { KubernetesVersion } from '../../src';

const SUBDOMAIN = 'a lowercase RFC 1123 subdomain must consist of';
const DNS1035 = 'a DNS-1035 label must consist of';
const ALL_OPERATIONS = 'supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"';
const MUTATING_OPERATIONS = 'supported values: "*", "CONNECT", "CREATE", "UPDATE"';
const NO_DELETE_PATH = 'spec.matchConstraints.resourceRules.operations';
const APPLY = { expression: 'Object{metadata: Object.metadata{labels: {"a": "b"}}}' };
const JSON_PATCH = { expression: '[JSONPatch{op: "add", path: "/metadata/labels/a", value: "b"}]' };

/** A valid policy rule; `fields` replaces any of its fields. */
function rule(fields: object = {}): object {
  return { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], ...fields };
}

function withRules(resourceRules: object[], excludeResourceRules?: object[]): any {
  return mutatingPolicy({ matchConstraints: { resourceRules, ...(excludeResourceRules ? { excludeResourceRules } : {}) } });
}

function withParamKind(paramKind: object): any {
  return mutatingPolicy({ paramKind });
}

/** A policy with these variables, and (given `condition`) one apply configuration that uses them. */
function withVariables(variables: object[], condition?: string): any {
  const mutations = [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: `${condition} ? Object{} : Object{}` } }];
  return mutatingPolicy({ variables, ...(condition ? { mutations } : {}) });
}

function withMutation(mutation: object): any {
  return mutatingPolicy({ mutations: [mutation] });
}

describe('valid policies', () => {
  test('the fixture is valid on the latest version, without warnings', () => {
    expectValid(mutatingPolicy());
    expect(warnings(mutatingPolicy())).toEqual([]);
  });

  test('a policy using every field is valid', () => {
    expectValid(mutatingPolicy({
      failurePolicy: 'Ignore',
      reinvocationPolicy: 'IfNeeded',
      paramKind: { apiVersion: 'example.com/v1', kind: 'PodDefaults' },
      matchConstraints: {
        matchPolicy: 'Exact',
        namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] },
        objectSelector: { matchLabels: { app: 'web' } },
        resourceRules: [rule({ operations: ['CREATE', 'UPDATE'], resourceNames: ['web'], scope: 'Namespaced' })],
        excludeResourceRules: [rule({ operations: ['DELETE'] })],
      },
      matchConditions: [{ name: 'example.com/not-system', expression: 'request.namespace != "kube-system"' }],
      variables: [{ name: 'team', expression: 'params.team' }, { name: 'labels', expression: '{"team": variables.team}' }],
      mutations: [
        { patchType: 'ApplyConfiguration', applyConfiguration: APPLY },
        { patchType: 'JSONPatch', jsonPatch: JSON_PATCH },
      ],
    }));
  });
});

describe('metadata', () => {
  test('metadata.name is required', () => {
    expectErrors(mutatingPolicy({}, { name: '' }), [['metadata.name', 'Required value: name or generateName is required']]);
  });

  test('metadata.name must be a DNS subdomain', () => {
    expectErrors(mutatingPolicy({}, { name: 'Add_Labels' }), [['metadata.name', `Invalid value: "Add_Labels": ${SUBDOMAIN}`]]);
  });
});

describe('spec.failurePolicy', () => {
  test.each(['other', 'fail', ''])('must be Fail or Ignore: %j', (failurePolicy) => {
    expectErrors(mutatingPolicy({ failurePolicy }), [
      ['spec.failurePolicy', `Unsupported value: "${failurePolicy}": supported values: "Fail", "Ignore"`],
    ]);
  });

  test.each([['Fail'], ['Ignore'], [undefined]])('%s is valid (omitted defaults to Fail)', (failurePolicy) => {
    expectValid(mutatingPolicy({ failurePolicy }));
  });
});

describe('spec.paramKind', () => {
  test('apiVersion and kind are required', () => {
    expectErrors(withParamKind({}), [
      ['spec.paramKind.apiVersion', 'Required value'],
      ['spec.paramKind.kind', 'Required value'],
    ]);
  });

  test.each([
    ['a/b/c', 'Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c'],
    ['g/', 'Invalid value: "g/": version must be specified'],
    ['/', 'Invalid value: "/": version must be specified'],
    ['test.example.com', `Invalid value: "test.example.com": ${DNS1035}`],
    ['!!!/v1', `Invalid value: "!!!": ${SUBDOMAIN}`],
    ['Example.com/v1', `Invalid value: "Example.com": ${SUBDOMAIN}`],
    ['example.com/V1', `Invalid value: "V1": ${DNS1035}`],
    ['example.com/1v', `Invalid value: "1v": ${DNS1035}`],
  ])('apiVersion %j is invalid', (apiVersion, message) => {
    expectErrors(withParamKind({ apiVersion, kind: 'Params' }), [['spec.paramKind.apiVersion', message]]);
  });

  test('a bad group and a bad version are two errors', () => {
    expectErrors(withParamKind({ apiVersion: 'Bad_Group/V1', kind: 'Params' }), [
      ['spec.paramKind.apiVersion', `Invalid value: "Bad_Group": ${SUBDOMAIN}`],
      ['spec.paramKind.apiVersion', `Invalid value: "V1": ${DNS1035}`],
    ]);
  });

  test('a too long and malformed version is one error with both details', () => {
    const version = `${'v'.repeat(63)}_`;
    expectErrors(withParamKind({ apiVersion: `example.com/${version}`, kind: 'Params' }), [
      ['spec.paramKind.apiVersion', `Invalid value: "${version}": must be no more than 63 bytes,${DNS1035}`],
    ]);
  });

  test('a too long and malformed group is one error with both details', () => {
    const group = `${'g'.repeat(253)}_`;
    expectErrors(withParamKind({ apiVersion: `${group}/v1`, kind: 'Params' }), [
      ['spec.paramKind.apiVersion', `Invalid value: "${group}": must be no more than 253 bytes,${SUBDOMAIN}`],
    ]);
  });

  test.each(['v1', 'apps/v1', 'example.com/v1beta1', 'policy.example.com/v2alpha3'])('apiVersion %j is valid', (apiVersion) => {
    expectValid(withParamKind({ apiVersion, kind: 'ConfigMap' }));
  });

  test.each(['My_Kind', '1Kind', 'My.Kind', 'Kind-'])('kind %j is invalid', (kind) => {
    expectErrors(withParamKind({ apiVersion: 'v1', kind }), [
      ['spec.paramKind.kind', `Invalid value: "${kind}": may have mixed case, but should otherwise match: ${DNS1035}`],
    ]);
  });

  test('a too long and malformed kind is one error with both details', () => {
    const kind = `${'K'.repeat(63)}_`;
    expectErrors(withParamKind({ apiVersion: 'v1', kind }), [
      ['spec.paramKind.kind', `Invalid value: "${kind}": may have mixed case, but should otherwise match: must be no more than 63 bytes,${DNS1035}`],
    ]);
  });

  test.each(['ConfigMap', 'MyKind', 'params', 'PARAMS', 'My-Kind'])('kind %j (mixed case) is valid', (kind) => {
    expectValid(withParamKind({ apiVersion: 'v1', kind }));
  });
});

describe('spec.matchConstraints', () => {
  test('is required', () => {
    expectErrors(mutatingPolicy({ matchConstraints: undefined }), [['spec.matchConstraints', 'Required value']]);
  });

  test.each([
    ['missing', {}],
    ['empty', { resourceRules: [] }],
  ])('resourceRules is required on a policy (%s)', (_, matchConstraints) => {
    expectErrors(mutatingPolicy({ matchConstraints }), [['spec.matchConstraints.resourceRules', 'Required value']]);
  });

  test('matchPolicy must be Exact or Equivalent', () => {
    expectErrors(mutatingPolicy({ matchConstraints: { matchPolicy: 'Loose', resourceRules: [rule()] } }), [
      ['spec.matchConstraints.matchPolicy', 'Unsupported value: "Loose": supported values: "Equivalent", "Exact"'],
    ]);
  });

  test('selectors are strict label selectors', () => {
    const namespaceSelector = { matchExpressions: [{ key: 'env', operator: 'Exists', values: ['x'] }] };
    const objectSelector = { matchExpressions: [{ key: 'app', operator: 'Equals' }] };
    expectErrors(mutatingPolicy({ matchConstraints: { namespaceSelector, objectSelector, resourceRules: [rule()] } }), [
      ['spec.matchConstraints.namespaceSelector.matchExpressions[0].values', "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
      ['spec.matchConstraints.objectSelector.matchExpressions[0].operator', 'Invalid value: "Equals": not a valid selector operator'],
    ]);
  });

  test('resourceRules are checked as rules', () => {
    expectErrors(withRules([rule({ apiGroups: [], resources: ['*/*', 'pods'] })]), [
      ['spec.matchConstraints.resourceRules[0].apiGroups', 'Required value'],
      ['spec.matchConstraints.resourceRules[0].resources', "if '*/*' is present, must not specify other resources"],
    ]);
  });

  test('resourceNames are path segments and unique', () => {
    expectErrors(withRules([rule({ resourceNames: ['a/b', 'web', 'web', ''] })]), [
      ['spec.matchConstraints.resourceRules[0].resourceNames[0]', 'Invalid value: "a/b": may not contain \'/\''],
      ['spec.matchConstraints.resourceRules[0].resourceNames[2]', 'Duplicate value: "web"'],
    ]);
  });
});

describe('no DELETE in matchConstraints.resourceRules', () => {
  test('DELETE is rejected at the path without indices', () => {
    expectErrors(withRules([rule({ operations: ['CREATE', 'DELETE'] })]), [
      [NO_DELETE_PATH, `Unsupported value: "DELETE": ${MUTATING_OPERATIONS}`],
    ]);
  });

  test('each DELETE in any rule is reported at the same path', () => {
    expectErrors(withRules([rule(), rule({ operations: ['DELETE'] }), rule({ operations: ['DELETE', 'UPDATE'] })]), [
      [NO_DELETE_PATH, 'Unsupported value: "DELETE"'],
      [NO_DELETE_PATH, 'Unsupported value: "DELETE"'],
    ]);
  });

  test('an invalid operation is reported twice: as a rule, indexed, and as a mutating policy operation, not indexed', () => {
    expectErrors(withRules([rule({ operations: ['CREATE', 'PATCH'] })]), [
      ['spec.matchConstraints.resourceRules[0].operations[1]', `Unsupported value: "PATCH": ${ALL_OPERATIONS}`],
      [NO_DELETE_PATH, `Unsupported value: "PATCH": ${MUTATING_OPERATIONS}`],
    ]);
  });

  test.each([[['*']], [['CREATE', 'UPDATE', 'CONNECT']], [['CONNECT']]])('%j is valid', (operations) => {
    expectValid(withRules([rule({ operations })]));
  });

  test('DELETE is allowed in excludeResourceRules', () => {
    expectValid(withRules([rule({ operations: ['*'] })], [rule({ operations: ['DELETE'] })]));
  });

  test('an invalid operation in excludeResourceRules is only the indexed error', () => {
    expectErrors(withRules([rule()], [rule({ operations: ['PATCH'] })]), [
      ['spec.matchConstraints.excludeResourceRules[0].operations[0]', `Unsupported value: "PATCH": ${ALL_OPERATIONS}`],
    ]);
  });
});

describe('spec.matchConditions', () => {
  const condition = (fields: object = {}) => ({ name: 'not-system', expression: 'request.namespace != "kube-system"', ...fields });

  test('at most 64', () => {
    const matchConditions = Array.from({ length: 65 }, (_, i) => condition({ name: `c${i}` }));
    expectErrors(mutatingPolicy({ matchConditions }), [['spec.matchConditions', 'Too many: 65: must have at most 64 items']]);
    expectValid(mutatingPolicy({ matchConditions: matchConditions.slice(0, 64) }));
  });

  test('name is required', () => {
    expectErrors(mutatingPolicy({ matchConditions: [condition({ name: '' })] }), [['spec.matchConditions[0].name', 'Required value']]);
  });

  test('name is a qualified name', () => {
    expectErrors(mutatingPolicy({ matchConditions: [condition({ name: '-hello' })] }), [
      ['spec.matchConditions[0].name', 'Invalid value: "-hello": name part must consist of alphanumeric characters'],
    ]);
  });

  test('names are unique', () => {
    expectErrors(mutatingPolicy({ matchConditions: [condition(), condition({ name: 'other' }), condition()] }), [
      ['spec.matchConditions[2].name', 'Duplicate value: "not-system"'],
    ]);
  });

  test('expression is required after trimming', () => {
    expectErrors(mutatingPolicy({ matchConditions: [condition({ expression: ' \n\t' })] }), [
      ['spec.matchConditions[0].expression', 'Required value'],
    ]);
  });
});

describe('spec.variables', () => {
  test.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   '],
  ])('name is required (%s)', (_, name) => {
    expectErrors(withVariables([{ name, expression: '1' }]), [['spec.variables[0].name', 'Required value: name is not specified']]);
  });

  test.each(['4ever', 'my-var', 'a.b', 'ünicode', 'has space'])('name %j must be a CEL identifier', (name) => {
    expectErrors(withVariables([{ name, expression: '1' }]), [
      ['spec.variables[0].name', `Invalid value: "${name}": must be a valid CEL identifier`],
    ]);
  });

  test.each([
    'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
    'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
  ])('reserved word %j is not a variable name', (name) => {
    expectErrors(withVariables([{ name, expression: '1' }]), [
      ['spec.variables[0].name', `Invalid value: "${name}": must be a valid CEL identifier`],
    ]);
  });

  test.each(['_x', 'camelCase1', 'snake_case', 'forEach', 'If', 'object', 'A'])('name %j is valid', (name) => {
    expectValid(withVariables([{ name, expression: '1' }]));
  });

  test('duplicate names pass, as they do the apiserver, with a warning', () => {
    const manifest = withVariables([{ name: 'a', expression: '1' }, { name: 'b', expression: '2' }, { name: 'a', expression: '3' }]);
    expectErrors(manifest, []);
    expect(warnings(manifest)).toContainEqual(expect.objectContaining({ path: 'spec.variables[2].name', message: expect.stringContaining('Duplicate value: "a"') }));
  });

  test('a variable with a blank expression is not declared: its users fail, as on the apiserver', () => {
    expectErrors(withVariables([{ name: 'a', expression: ' ' }], "variables.a == 'x'"), [
      ['spec.variables[0].expression', 'Required value: expression is not specified'],
      ['spec.mutations[0].applyConfiguration.expression', "undefined field 'a'"],
    ]);
  });

  test('a variable whose type cannot be declared (the authorizer, variables itself) is dyn for its users', () => {
    expectErrors(withVariables([{ name: 'a', expression: 'authorizer' }, { name: 'b', expression: 'variables' }], 'variables.a == variables.b'), []);
  });

  test.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', ' \n '],
  ])('expression is required (%s)', (_, expression) => {
    expectErrors(withVariables([{ name: 'a', expression }]), [
      ['spec.variables[0].expression', 'Required value: expression is not specified'],
    ]);
  });

  test('errors carry the index of their variable', () => {
    expectErrors(withVariables([{ name: 'ok', expression: '1' }, { name: 'for' }]), [
      ['spec.variables[1].name', 'must be a valid CEL identifier'],
      ['spec.variables[1].expression', 'Required value: expression is not specified'],
    ]);
  });
});

describe('spec.mutations', () => {
  test.each([
    ['missing', undefined],
    ['empty', []],
  ])('at least one is required (%s)', (_, mutations) => {
    expectErrors(mutatingPolicy({ mutations }), [['spec.mutations', 'Required value: mutations must contain at least one item']]);
  });
});

describe('mutations[].patchType', () => {
  test.each([
    ['missing', undefined],
    ['empty', ''],
  ])('is required (%s)', (_, patchType) => {
    expectErrors(withMutation({ patchType, applyConfiguration: APPLY }), [['spec.mutations[0].patchType', 'Required value']]);
  });

  test.each(['other', 'jsonpatch', 'MergePatch'])('must be ApplyConfiguration or JSONPatch: %j', (patchType) => {
    expectErrors(withMutation({ patchType, applyConfiguration: APPLY, jsonPatch: JSON_PATCH }), [
      ['spec.mutations[0].patchType', `Unsupported value: "${patchType}": supported values: "ApplyConfiguration", "JSONPatch"`],
    ]);
  });

  test('errors carry the index of their mutation', () => {
    expectErrors(mutatingPolicy({ mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: APPLY }, { patchType: 'Other' }] }), [
      ['spec.mutations[1].patchType', 'Unsupported value: "Other"'],
    ]);
  });
});

describe('patchType JSONPatch', () => {
  test('is valid with jsonPatch only', () => {
    expectValid(withMutation({ patchType: 'JSONPatch', jsonPatch: JSON_PATCH }));
  });

  test('needs jsonPatch', () => {
    expectErrors(withMutation({ patchType: 'JSONPatch' }), [
      ['spec.mutations[0].jsonPatch', 'Required value: must be specified when patchType is JSONPatch'],
    ]);
  });

  test('forbids applyConfiguration', () => {
    expectErrors(withMutation({ patchType: 'JSONPatch', jsonPatch: JSON_PATCH, applyConfiguration: APPLY }), [
      ['spec.mutations[0].applyConfiguration', 'Invalid value: "{applyConfiguration}": must not be specified when patchType is JSONPatch'],
    ]);
  });

  test('applyConfiguration instead of jsonPatch is both errors', () => {
    expectErrors(withMutation({ patchType: 'JSONPatch', applyConfiguration: APPLY }), [
      ['spec.mutations[0].jsonPatch', 'Required value: must be specified when patchType is JSONPatch'],
      ['spec.mutations[0].applyConfiguration', 'must not be specified when patchType is JSONPatch'],
    ]);
  });
});

describe('patchType ApplyConfiguration', () => {
  test('is valid with applyConfiguration only', () => {
    expectValid(withMutation({ patchType: 'ApplyConfiguration', applyConfiguration: APPLY }));
  });

  test('needs applyConfiguration', () => {
    expectErrors(withMutation({ patchType: 'ApplyConfiguration' }), [
      ['spec.mutations[0].applyConfiguration', 'Required value: must be specified when patchType is ApplyConfiguration'],
    ]);
  });

  test('forbids jsonPatch', () => {
    expectErrors(withMutation({ patchType: 'ApplyConfiguration', applyConfiguration: APPLY, jsonPatch: JSON_PATCH }), [
      ['spec.mutations[0].jsonPatch', 'Invalid value: "{jsonPatch}": must not be specified when patchType is ApplyConfiguration'],
    ]);
  });

  test('jsonPatch instead of applyConfiguration is both errors', () => {
    expectErrors(withMutation({ patchType: 'ApplyConfiguration', jsonPatch: JSON_PATCH }), [
      ['spec.mutations[0].applyConfiguration', 'Required value: must be specified when patchType is ApplyConfiguration'],
      ['spec.mutations[0].jsonPatch', 'must not be specified when patchType is ApplyConfiguration'],
    ]);
  });
});

describe('mutation expressions', () => {
  test.each([
    ['ApplyConfiguration', 'applyConfiguration', 'missing', {}],
    ['ApplyConfiguration', 'applyConfiguration', 'empty', { expression: '' }],
    ['ApplyConfiguration', 'applyConfiguration', 'blank', { expression: '  \n\t ' }],
    ['JSONPatch', 'jsonPatch', 'missing', {}],
    ['JSONPatch', 'jsonPatch', 'empty', { expression: '' }],
    ['JSONPatch', 'jsonPatch', 'blank', { expression: '  \n\t ' }],
  ])('%s: %s.expression is required (%s)', (patchType, field, _, value) => {
    expectErrors(withMutation({ patchType, [field]: value }), [[`spec.mutations[0].${field}.expression`, 'Required value']]);
  });

  test('an expression with surrounding whitespace is valid', () => {
    expectValid(withMutation({ patchType: 'ApplyConfiguration', applyConfiguration: { expression: `\n  ${APPLY.expression}\n` } }));
  });
});

describe('spec.reinvocationPolicy', () => {
  test.each([
    ['missing', undefined],
    ['empty', ''],
  ])('is required, with no default (%s)', (_, reinvocationPolicy) => {
    expectErrors(mutatingPolicy({ reinvocationPolicy }), [['spec.reinvocationPolicy', 'Required value']]);
  });

  test.each(['Always', 'never', 'IfNeeded '])('must be IfNeeded or Never (sorted): %j', (reinvocationPolicy) => {
    expectErrors(mutatingPolicy({ reinvocationPolicy }), [
      ['spec.reinvocationPolicy', `Unsupported value: "${reinvocationPolicy}": supported values: "IfNeeded", "Never"`],
    ]);
  });

  test.each(['IfNeeded', 'Never'])('%s is valid', (reinvocationPolicy) => {
    expectValid(mutatingPolicy({ reinvocationPolicy }));
  });
});

describe('apiVersion and the target Kubernetes version', () => {
  const at = (apiVersion: string): any => ({ ...mutatingPolicy(), apiVersion: `${GROUP}/${apiVersion}` });
  const version = (v: string) => ({ kubernetesVersion: KubernetesVersion.of(v) });

  test('v1 before 1.36 is an error naming 1.36', () => {
    expectErrors(at('v1'), [['apiVersion', 'is served from Kubernetes 1.36']], version('1.34'));
    const [error] = errors(at('v1'), version('1.34'));
    expect(error.message).toContain(`use ${GROUP}/v1beta1`);
  });

  test('v1beta1 on 1.34 is accepted, with a warning about the feature gate', () => {
    expectValid(at('v1beta1'), version('1.34'));
    const found = warnings(at('v1beta1'), version('1.34'));
    expect(found).toHaveLength(1);
    expect(found[0].path).toBe('apiVersion');
    expect(found[0].message).toContain('MutatingAdmissionPolicy feature gate');
  });

  test('v1alpha1 on 1.33 is accepted (with a feature-gate warning)', () => {
    expectValid(at('v1alpha1'), version('1.33'));
    expect(warnings(at('v1alpha1'), version('1.33')).map((w) => w.message)).toEqual([
      expect.stringContaining('MutatingAdmissionPolicy feature gate'),
    ]);
  });

  test('v1beta1 on 1.33 is an error (served from 1.34)', () => {
    expectErrors(at('v1beta1'), [['apiVersion', 'is served from Kubernetes 1.34']], version('1.33'));
  });

  test.each(['v1', 'v1beta1', 'v1alpha1'])('%s on 1.31 is an error: no MutatingAdmissionPolicy before 1.32', (apiVersion) => {
    expectErrors(at(apiVersion), [['apiVersion', 'the target is 1.31']], version('1.31'));
  });

  test('v1beta1 on 1.36 draws a warning to use v1', () => {
    expectValid(at('v1beta1'), version('1.36'));
    const found = warnings(at('v1beta1'), version('1.36'));
    expect(found).toHaveLength(1);
    expect(found[0].path).toBe('apiVersion');
    expect(found[0].message).toContain(`use ${GROUP}/v1`);
  });

  test('v1 on 1.36 is valid without warnings', () => {
    expectValid(at('v1'), version('1.36'));
    expect(warnings(at('v1'), version('1.36'))).toEqual([]);
  });

  test('an unknown apiVersion is unsupported', () => {
    expectErrors(at('v2'), [['apiVersion', `Unsupported value: "${GROUP}/v2"`]]);
  });
});
