// The checker declares only the variables an expression names (so that n variables cost n small
// environments): its answers must be those of an environment declaring every visible variable.
import * as fc from 'fast-check';
import { CelExpressionChecker, compileExpression } from '../../src/cel/checker';
import { KubernetesVersion } from '../../src/kubernetes-version';
import { ExpressionField } from '../../src/shared/expression-field';

const VARIABLES: ReadonlyArray<readonly [string, string, string]> = [
  ['a', '1', 'int'], ['b', "'s'", 'string'], ['c', '[1, 2]', 'list<int>'], ['d', "{'k': true}", 'map<string, bool>'],
];
const NAMES = VARIABLES.map(([name]) => name);
const PARTS = [
  'variables.a', 'variables.b', 'variables.c', 'variables.d', 'variables.e', 'variables', 'variables.?a', 'has(variables.b)',
  "variables['a']", 'variables . c', '1', "'x'", 'size(variables.c)', 'variables.d.k', 'object.variables.a',
];
const OPERATORS = [' + ', ' == ', ' && ', ' || ', ' < ', ' in '];
const FIELDS = [ExpressionField.VALIDATION, ExpressionField.VARIABLE, ExpressionField.MESSAGE_EXPRESSION];
const version = KubernetesVersion.LATEST;

const parts = fc.array(fc.constantFrom(...PARTS), { minLength: 1, maxLength: 3 });
const operators = fc.array(fc.constantFrom(...OPERATORS), { minLength: 2, maxLength: 2 });
const expression = fc.tuple(parts, operators)
  .map(([terms, ops]) => terms.map((p, i) => (i === 0 ? p : `${ops[i - 1]}${p}`)).join(''));

/** A checker that has seen the variables, as the validator's has when it reaches a later expression. */
function checkerAfterVariables(): CelExpressionChecker {
  const checker = new CelExpressionChecker();
  VARIABLES.forEach(([, source], i) => {
    const environment = { field: ExpressionField.VARIABLE, hasParams: false, variables: NAMES.slice(0, i), kubernetesVersion: version };
    expect(checker.check(source, environment).errors).toEqual([]);
  });
  return checker;
}

describe('declaring only the named variables', () => {
  test('gives the errors and types of declaring every visible one', () => {
    const typed = VARIABLES.map(([name, , type]) => ({ name, type }));
    fc.assert(fc.property(expression, fc.constantFrom(...FIELDS), fc.integer({ min: 0, max: 4 }), (e, field, visible) => {
      const environment = { field, hasParams: false, variables: NAMES.slice(0, visible), kubernetesVersion: version };
      const got = checkerAfterVariables().check(e, environment).errors;
      const all = typed.slice(0, visible);
      const declared = field === ExpressionField.VARIABLE || all.length > 0;
      const expected = compileExpression(e, { field, hasParams: false, variables: declared ? all : [], minor: version.minor }).errors;
      expect(got).toEqual(expected);
    }), { numRuns: 600 });
  });
});
