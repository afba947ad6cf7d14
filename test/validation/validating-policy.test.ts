import { errors, expectErrors, expectValid, validatingPolicy, warnings } from './fixtures';

const rules = (resources: string[]) => ({
  matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources }] },
});

describe('ValidatingAdmissionPolicy', () => {
  test('the fixture is valid', () => {
    expectValid(validatingPolicy());
    expect(warnings(validatingPolicy())).toEqual([]);
  });

  describe('metadata', () => {
    test('name or generateName is required', () => {
      expectErrors(validatingPolicy({}, { name: undefined }), [['metadata.name', 'Required value: name or generateName is required']]);
    });

    test.each([
      ['Upper', 'a lowercase RFC 1123 subdomain'],
      ['-leading', 'a lowercase RFC 1123 subdomain'],
      ['a'.repeat(254), 'must be no more than 253 bytes'],
    ])('name %s is rejected', (name, fragment) => {
      expect(errors(validatingPolicy({}, { name })).map((e) => [e.path, e.message])).toContainEqual(['metadata.name', expect.stringContaining(fragment)]);
    });

    test('generateName is checked as a prefix and warned about, since apply needs a name', () => {
      const manifest = validatingPolicy({ auditAnnotations: undefined }, { name: undefined, generateName: 'demo-' });
      expectValid(manifest);
      expect(warnings(manifest).map((w) => w.path)).toEqual(['metadata.generateName']);
      expectErrors(validatingPolicy({}, { name: undefined, generateName: 'Demo-' }), [
        ['metadata.generateName', 'RFC 1123 subdomain'],
        ['metadata.name', 'Invalid value: "Demo-xxxxx": a lowercase RFC 1123 subdomain'],
      ]);
    });

    test('a namespace on a cluster-scoped object is a warning (the apiserver drops it)', () => {
      const manifest = validatingPolicy({}, { namespace: 'team-a' });
      expectValid(manifest);
      expect(warnings(manifest).map((w) => w.path)).toEqual(['metadata.namespace']);
    });

    test('labels and annotations follow the label rules', () => {
      expectErrors(validatingPolicy({}, { labels: { 'bad key!': 'v', 'ok': 'bad value!' }, annotations: { 'a/b/c': 'x' } }), [
        ['metadata.labels', 'Invalid value: "bad key!"'],
        ['metadata.labels', 'Invalid value: "bad value!"'],
        ['metadata.annotations', 'Invalid value: "a/b/c"'],
      ]);
      expectValid(validatingPolicy({}, { labels: { 'example.com/team': 'a_b.c-d', 'empty': '' }, annotations: { 'Example.com/Note': 'any text at all' } }));
    });

    test('annotations may total at most 256 KiB', () => {
      const [error] = errors(validatingPolicy({}, { annotations: { big: 'x'.repeat(256 * 1024) } }));
      expect([error.path, error.message]).toEqual(['metadata.annotations', 'Too long: must have at most 262144 bytes']);
    });

    test('a selector requirement without operator or key gets the apiserver\'s errors', () => {
      const selector = { matchExpressions: [{ values: ['a'] }] };
      expectErrors(validatingPolicy({ matchConstraints: { ...rules(['pods']).matchConstraints, objectSelector: selector } }), [
        ['spec.matchConstraints.objectSelector.matchExpressions[0].operator', 'Invalid value: "": not a valid selector operator'],
        ['spec.matchConstraints.objectSelector.matchExpressions[0].key', 'name part must be non-empty'],
        ['spec.matchConstraints.objectSelector.matchExpressions[0].key', 'name part must consist of'],
      ]);
    });
  });

  test('failurePolicy must be Fail or Ignore', () => {
    expectErrors(validatingPolicy({ failurePolicy: 'Maybe' }), [['spec.failurePolicy', 'Unsupported value: "Maybe": supported values: "Fail", "Ignore"']]);
    expectValid(validatingPolicy({ failurePolicy: 'Ignore' }));
    expectValid(validatingPolicy({ failurePolicy: undefined }));
  });

  test('paramKind is checked', () => {
    expectErrors(validatingPolicy({ paramKind: { apiVersion: 'a/b/c', kind: '' } }), [
      ['spec.paramKind.apiVersion', 'unexpected GroupVersion string: a/b/c'],
      ['spec.paramKind.kind', 'Required value'],
    ]);
    expectValid(validatingPolicy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }));
  });

  describe('matchConstraints', () => {
    test('is required, with at least one resource rule', () => {
      expectErrors(validatingPolicy({ matchConstraints: undefined }), [['spec.matchConstraints', 'Required value']]);
      expectErrors(validatingPolicy({ matchConstraints: { resourceRules: [] } }), [['spec.matchConstraints.resourceRules', 'Required value']]);
    });

    test('matchPolicy and selectors are checked', () => {
      expectErrors(validatingPolicy({
        matchConstraints: {
          ...rules(['pods']).matchConstraints,
          matchPolicy: 'Fuzzy',
          namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'Near', values: ['a'] }] },
          objectSelector: { matchExpressions: [{ key: 'env', operator: 'In' }] },
        },
      }), [
        ['spec.matchConstraints.matchPolicy', 'supported values: "Equivalent", "Exact"'],
        ['spec.matchConstraints.namespaceSelector.matchExpressions[0].operator', 'not a valid selector operator'],
        ['spec.matchConstraints.objectSelector.matchExpressions[0].values', "must be specified when `operator` is 'In' or 'NotIn'"],
      ]);
    });

    test('resource wildcard rules are checked in list order, as the apiserver does; the other order warns', () => {
      expectErrors(validatingPolicy(rules(['*', 'pods'])), [['spec.matchConstraints.resourceRules[0].resources', "if '*' is present"]]);
      expectErrors(validatingPolicy(rules(['pods/*', 'pods/log'])), [['spec.matchConstraints.resourceRules[0].resources[1]', "if 'pods/*' is present, must not specify pods/log"]]);
      expectErrors(validatingPolicy(rules(['configmaps', 'pods', '*'])), []);
      // The apiserver looks only at the last plain entry before deciding about '*'.
      expectErrors(validatingPolicy(rules(['pods', '*', 'configmaps'])), [['spec.matchConstraints.resourceRules[0].resources', "if '*' is present"]]);
      for (const resources of [['pods', '*'], ['pods/log', 'pods/*']]) {
        const manifest = validatingPolicy(rules(resources));
        expectErrors(manifest, []);
        expect(warnings(manifest)).toContainEqual(expect.objectContaining({ path: 'spec.matchConstraints.resourceRules[0].resources[0]', message: expect.stringContaining('is already matched by') }));
      }
      expectValid(validatingPolicy(rules(['*', 'pods/log'])));
      expect(warnings(validatingPolicy(rules(['*', 'pods/log'])))).toEqual([]);
    });

    test('excludeResourceRules are checked like resourceRules', () => {
      expectErrors(validatingPolicy({
        matchConstraints: {
          ...rules(['pods']).matchConstraints,
          excludeResourceRules: [{ apiGroups: [], apiVersions: ['v1'], operations: ['*'], resources: ['pods'], resourceNames: ['a/b'] }],
        },
      }), [
        ['spec.matchConstraints.excludeResourceRules[0].apiGroups', 'Required value'],
        ['spec.matchConstraints.excludeResourceRules[0].resourceNames[0]', "may not contain '/'"],
      ]);
    });
  });

  test('matchConditions are checked', () => {
    expectErrors(validatingPolicy({ matchConditions: [{ name: 'a', expression: 'true' }, { name: 'a', expression: '  ' }] }), [
      ['spec.matchConditions[1].name', 'Duplicate value: "a"'],
      ['spec.matchConditions[1].expression', 'Required value'],
    ]);
    const many = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
    expectErrors(validatingPolicy({ matchConditions: many }), [['spec.matchConditions', 'Too many: 65: must have at most 64 items']]);
    expectValid(validatingPolicy({ matchConditions: many.slice(0, 64) }));
  });

  test('a variable name is checked as written, surrounding spaces included', () => {
    expectErrors(validatingPolicy({ variables: [{ name: ' foo ', expression: 'true' }] }), [['spec.variables[0].name', 'Invalid value: " foo ": must be a valid CEL identifier']]);
  });

  test('variables are checked', () => {
    expectErrors(validatingPolicy({ variables: [{ name: '4ever', expression: 'true' }, { name: ' ', expression: '' }] }), [
      ['spec.variables[0].name', 'must be a valid CEL identifier'],
      ['spec.variables[1].name', 'Required value: name is not specified'],
      ['spec.variables[1].expression', 'Required value: expression is not specified'],
    ]);
  });

  test('validations or auditAnnotations must be given', () => {
    expectErrors(validatingPolicy({ validations: [] }), [
      ['spec.validations', 'validations or auditAnnotations must contain at least one item'],
      ['spec.auditAnnotations', 'validations or auditAnnotations must contain at least one item'],
    ]);
    expectValid(validatingPolicy({ validations: [], auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }] }));
  });

  describe('validations', () => {
    const validation = (v: object) => validatingPolicy({ validations: [{ expression: 'true', ...v }] });

    test('expression is required', () => {
      expectErrors(validation({ expression: ' \n ' }), [['spec.validations[0].expression', 'Required value: expression is not specified']]);
    });

    test('messageExpression may not be blank', () => {
      expectErrors(validation({ messageExpression: '  ' }), [['spec.validations[0].messageExpression', 'must be non-empty if specified']]);
      expectValid(validation({ messageExpression: "'too many: ' + string(object.spec.replicas)" }));
    });

    test('message may not be blank or contain line breaks', () => {
      expectErrors(validation({ message: ' ' }), [['spec.validations[0].message', 'must be non-empty if specified']]);
      expectErrors(validation({ message: 'one\ntwo' }), [['spec.validations[0].message', 'must not contain line breaks']]);
      expectValid(validation({ message: 'trailing newline is trimmed\n' }));
      expectValid(validation({ message: '' }));
    });

    test('reason must be a known reason (Unauthorized is documented but rejected)', () => {
      expectErrors(validation({ reason: 'Unauthorized' }), [['spec.validations[0].reason', 'supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"']]);
      expectValid(validation({ reason: 'RequestEntityTooLarge' }));
    });
  });

  describe('auditAnnotations', () => {
    const annotations = (list: object[], metadata: object = {}) => validatingPolicy({ validations: [], auditAnnotations: list }, metadata);

    test('at most 20', () => {
      const list = Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, valueExpression: "'v'" }));
      expectErrors(annotations(list), [['spec.auditAnnotations', 'must not have more than 20 auditAnnotations']]);
      expectValid(annotations(list.slice(0, 20)));
    });

    test('key combined with the policy name is a qualified name', () => {
      expectErrors(annotations([{ key: '@', valueExpression: "'v'" }]), [['spec.auditAnnotations[0].key', 'Invalid value: "demo-policy/@": name part must consist of']]);
      expectErrors(annotations([{ key: 'a/b', valueExpression: "'v'" }]), [['spec.auditAnnotations[0].key', 'demo-policy/a/b']]);
      expectErrors(annotations([{ key: 'x'.repeat(64), valueExpression: "'v'" }]), [['spec.auditAnnotations[0].key', 'name part must be no more than 63 characters']]);
      expectValid(annotations([{ key: 'x'.repeat(63), valueExpression: "'v'" }]));
    });

    test('key needs a policy name', () => {
      expect(errors(annotations([{ key: 'k', valueExpression: "'v'" }], { name: '' })).map((e) => [e.path, e.message])).toContainEqual(
        ['spec.auditAnnotations[0].key', 'Invalid value: "k": requires metadata.name be non-empty']);
    });

    test('keys are unique', () => {
      expectErrors(annotations([{ key: 'a', valueExpression: "'v'" }, { key: 'a', valueExpression: "'w'" }]), [['spec.auditAnnotations[1].key', 'Duplicate value: "a"']]);
    });

    test('valueExpression is required and at most 5120 bytes', () => {
      expectErrors(annotations([{ key: 'a', valueExpression: '   ' }]), [['spec.auditAnnotations[0].valueExpression', 'Required value: valueExpression is not specified']]);
      const long = `'${'x'.repeat(5119)}'`;
      expectErrors(annotations([{ key: 'a', valueExpression: long }]), [['spec.auditAnnotations[0].valueExpression', 'Required value: must not exceed 5120 bytes in length']]);
      // 5120 bytes once trimmed, and valid CEL (a string).
      expectValid(annotations([{ key: 'a', valueExpression: `  '${'x'.repeat(5118)}'  ` }]));
    });
  });

  test('status is accepted and its fields are shape-checked', () => {
    expectValid(validatingPolicy({}, {}));
    const withStatus = { ...validatingPolicy(), status: { observedGeneration: 1, typeChecking: { expressionWarnings: [] } } };
    expectValid(withStatus);
    expectErrors({ ...validatingPolicy(), status: { observedGeneration: 'one' } }, [['status.observedGeneration', 'must be of type integer, not string']]);
  });
});
