import { KubernetesVersion } from '../../src';
import { CelExpressionChecker, compileExpression } from '../../src/cel/checker';
import { environmentFor } from '../../src/cel/environment';
import { ExpressionField } from '../../src/shared/expression-field';
import { errors, expectErrors, expectValid, mutatingPolicy, validatingPolicy, webhook, webhookConfiguration } from '../validation/fixtures';

describe('ManifestValidator compiles CEL', () => {
  test('an undeclared reference, with the expression as the bad value', () => {
    const [error] = errors(validatingPolicy({ validations: [{ expression: '1 + params.maxReplicas > 2' }] }));
    expect(error.path).toBe('spec.validations[0].expression');
    expect(error.message).toBe(
      'Invalid value: "1 + params.maxReplicas > 2": compilation failed: ERROR: <input>:1:5: undeclared reference to \'params\' (in container \'\')\n'
      + ' | 1 + params.maxReplicas > 2\n'
      + ' | ....^');
  });

  test('params is declared once the policy has a paramKind', () => {
    expectValid(validatingPolicy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'object.spec.replicas <= int(params.data.max)' }] }));
  });

  test('every expression field of a policy is compiled, each in its own environment', () => {
    expectErrors(validatingPolicy({
      matchConditions: [{ name: 'm', expression: 'variables.a == 1' }],
      variables: [{ name: 'a', expression: 'object.spec.replicas' }, { name: 'b', expression: 'variables.c' }],
      validations: [
        { expression: 'object.spec.paused', messageExpression: "authorizer.path('/').check('get').reason()" },
        { expression: "variables.a == 1 && request.uid == ''", messageExpression: 'object.metadata.name' },
      ],
      auditAnnotations: [{ key: 'k', valueExpression: 'variables.a' }],
    }), [
      ['spec.matchConditions[0].expression', "undeclared reference to 'variables'"],
      ['spec.variables[1].expression', "undefined field 'c'"],
      ['spec.validations[0].expression', 'must evaluate to bool but got dyn'],
      ['spec.validations[0].messageExpression', "undeclared reference to 'authorizer'"],
      ['spec.validations[1].expression', "undefined field 'uid'"],
      ['spec.validations[1].messageExpression', 'must evaluate to string but got dyn'],
      ['spec.auditAnnotations[0].valueExpression', 'must evaluate to one of [string null_type] but got dyn'],
    ]);
  });

  test('mutations must produce their patch type', () => {
    expectValid(mutatingPolicy());
    expectErrors(mutatingPolicy({ mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[]' } }] }),
      [['spec.mutations[0].jsonPatch.expression', 'must evaluate to list(JSONPatch) but got list(dyn)']]);
    expectErrors(mutatingPolicy({ mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: '{"metadata": {}}' } }] }),
      [['spec.mutations[0].applyConfiguration.expression', 'must evaluate to Object but got map(string, map(dyn, dyn))']]);
  });

  test('webhook matchConditions have no params', () => {
    expectErrors(webhookConfiguration('ValidatingWebhookConfiguration', [webhook({ matchConditions: [{ name: 'm', expression: 'params.x == 1' }] })]),
      [['webhooks[0].matchConditions[0].expression', "undeclared reference to 'params'"]]);
  });

  test('libraries follow the target version', () => {
    const policy = validatingPolicy({ validations: [{ expression: 'ip(object.spec.ip).family() == 4' }] });
    expectValid(policy, { kubernetesVersion: KubernetesVersion.V1_31 });
    expectErrors(policy, [['spec.validations[0].expression', "undeclared reference to 'ip'"]], { kubernetesVersion: KubernetesVersion.V1_30 });
  });

  test('variables are typed for the expressions after them', () => {
    expectErrors(validatingPolicy({
      variables: [{ name: 'names', expression: 'object.spec.containers.map(c, string(c.name))' }],
      validations: [{ expression: 'variables.names.all(n, n > 1)' }],
    }), [['spec.validations[0].expression', "found no matching overload for '_>_' applied to '(string, int)'"]]);
  });

  test('a chain of variables is typed through: each sees the type of the one before', () => {
    expectErrors(validatingPolicy({
      variables: [
        { name: 'a', expression: "'text'" },
        { name: 'b', expression: 'variables.a' },
        { name: 'c', expression: 'variables.b' },
      ],
      validations: [{ expression: 'variables.c > 1' }],
    }), [['spec.validations[0].expression', "found no matching overload for '_>_' applied to '(string, int)'"]]);
  });

  test('a variable\'s recorded type is used only after the same variables it was checked after', () => {
    const checker = new CelExpressionChecker();
    const env = (field: ExpressionField, variables: string[]) =>
      ({ field, hasParams: false, variables, kubernetesVersion: KubernetesVersion.LATEST });
    expect(checker.check("'text'", env(ExpressionField.VARIABLE, [])).errors).toEqual([]);
    expect(checker.check('variables.a', env(ExpressionField.VARIABLE, ['a'])).errors).toEqual([]);
    expect(checker.check('variables.b + 1', env(ExpressionField.VALIDATION, ['a', 'b'])).errors.join()).toContain("'_+_' applied to '(string, int)'");
    // Another list: `b` came after `x`, not `a`, so its type is not known (dyn) and the sum type-checks.
    expect(checker.check('variables.b + 1 > 0', env(ExpressionField.VALIDATION, ['x', 'b'])).errors).toEqual([]);
  });

  test('environments and compiled expressions are cached', () => {
    const spec = { field: ExpressionField.VALIDATION, hasParams: false, variables: [], minor: 36 };
    expect(compileExpression('object.a == 1', spec)).toBe(compileExpression('object.a == 1', { ...spec }));
    expect(environmentFor(spec)).toBe(environmentFor({ ...spec }));
    expect(environmentFor(spec)).not.toBe(environmentFor({ ...spec, hasParams: true }));
    expect(environmentFor(spec)).not.toBe(environmentFor({ ...spec, minor: 35 }));
    const typed = { ...spec, variables: [{ name: 'a', type: 'int' }] };
    expect(environmentFor(typed)).not.toBe(environmentFor({ ...spec, variables: [{ name: 'a', type: 'string' }] }));
  });
});
