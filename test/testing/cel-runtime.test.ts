import { ExpressionField } from '../../src/shared/expression-field';
import { BUDGET_EXCEEDED, CelRuntime, fromCel, toCel } from '../../src/testing/cel-runtime';
import { CostBudget } from '../../src/testing/cost-meter';

const activation = { object: { spec: { replicas: 3 } }, oldObject: null, namespaceObject: null, request: {} };

describe('CelRuntime', () => {
  test('values: JSON integers are CEL ints, and come back as numbers', () => {
    expect(toCel({ a: [1, 1.5, 'x', null] })).toEqual({ a: [BigInt(1), 1.5, 'x', null] });
    expect(fromCel(new Map<string, unknown>([['n', BigInt(2)], ['skip', undefined]]))).toEqual({ n: 2 });
    const scope = new CelRuntime(36).scope([], false, activation);
    expect(scope.evaluate('object.spec.replicas * 2', ExpressionField.VARIABLE)).toEqual({ value: 6 });
  });

  test('a binding evaluation stops when its budget runs out, with the apiserver\'s message', () => {
    const budget = new CostBudget(5_000);
    const scope = new CelRuntime(36).scope([], false, activation, budget);
    expect(scope.evaluate('lists.range(50).all(i, i >= 0)', ExpressionField.VALIDATION)).toEqual({ value: true });
    expect(budget.remaining).toBeLessThan(5_000);
    expect(scope.evaluate('lists.range(5000).all(i, i >= 0)', ExpressionField.VALIDATION)).toEqual({ error: BUDGET_EXCEEDED });
    expect(scope.evaluate('true', ExpressionField.VALIDATION)).toEqual({ error: BUDGET_EXCEEDED });
  });

  test('compile errors are returned as errors', () => {
    const scope = new CelRuntime(36).scope([], false, activation);
    expect(scope.evaluate('params.x == 1', ExpressionField.VALIDATION)).toEqual({
      error: expect.stringMatching(/^compilation error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'/), compilation: true,
    });
  });
});
