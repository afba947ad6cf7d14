// `<`, `<=`, `>` and `>=` with a null operand compile where cel-go lets null stand for a timestamp or
// duration (against null, dyn, timestamp or duration), and stay errors against every other type:
// each row was measured on the 1.37.2 apiserver (a dry-run create of a policy with the expression).
import { check } from './helpers';
import { ExpressionField } from '../../src/shared/expression-field';
import { CelRuntime } from '../../src/testing/cel-runtime';

const OPERATORS = ['<', '<=', '>', '>='];
const COMPILE = ['null', 'dyn(1)', "timestamp('2020-01-01T00:00:00Z')", "duration('1s')", 'object.spec.replicas'];
const REFUSED: Array<[string, string]> = [['1', 'int'], ["'a'", 'string'], ['b"a"', 'bytes'], ['true', 'bool'], ['1.0', 'double'], ['1u', 'uint'], ['[1]', 'list(int)'], ["quantity('1')", 'kubernetes.Quantity']];

describe.each(OPERATORS)('%s with null', (op) => {
  test.each(COMPILE)('%s compiles, on either side', (operand) => {
    expect(check(`${operand} ${op} null`)).toEqual([]);
    expect(check(`null ${op} ${operand}`)).toEqual([]);
  });

  test.each(REFUSED)('%s (%s) stays an error', (operand, type) => {
    expect(check(`${operand} ${op} null`)).toEqual([expect.stringContaining(`found no matching overload for '_${op}_' applied to '(${type}, null)'`)]);
  });
});

test('a variable whose expression is null, compared, compiles', () => {
  expect(check('object.spec.replicas <= variables.limit', { variables: [['limit', 'null']] })).toEqual([]);
});

test('arithmetic with null is not extended (the apiserver gives it other result types)', () => {
  expect(check("null + duration('1s') == duration('2s')")).toEqual([expect.stringContaining("found no matching overload for '_+_'")]);
});

test('it fails when it runs, as on the apiserver', () => {
  const scope = new CelRuntime(37).scope([], false, { object: { spec: { replicas: 3 } }, oldObject: null, namespaceObject: null, request: {} });
  for (const expression of ['object.spec.replicas <= null', 'null < null', "timestamp('2020-01-01T00:00:00Z') < null"]) {
    expect(scope.evaluate(expression, ExpressionField.VALIDATION)).toEqual({ error: expect.stringMatching(/^no such overload/) });
  }
});
