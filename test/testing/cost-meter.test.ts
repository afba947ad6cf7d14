// Runtime cost as cel-go's cost tracker charges it (interpreter/runtimecost.go and the Kubernetes
// library's CallCost): the expected numbers are cel-go's, worked out from those rules.
import { ExpressionField } from '../../src/shared/expression-field';
import { CelRuntime } from '../../src/testing/cel-runtime';
import { CostBudget, PER_CALL_EXCEEDED } from '../../src/testing/cost-meter';

const activation = { object: { data: { s: 'abcdefghij'.repeat(100) } }, oldObject: null, namespaceObject: null, request: {} };

/** What one expression costs, as charged to its binding's budget. */
function cost(expression: string, variables: { name: string; expression: string }[] = []): number {
  const budget = new CostBudget(10_000_000);
  const scope = new CelRuntime(36).scope(variables, false, activation, budget);
  const result = scope.evaluate(expression, ExpressionField.VALIDATION);
  if ('error' in result) throw new Error(result.error);
  return 10_000_000 - budget.remaining;
}

function error(expression: string, variables: { name: string; expression: string }[] = []): string | undefined {
  const result = new CelRuntime(36).scope(variables, false, activation).evaluate(expression, ExpressionField.VALIDATION);
  return 'error' in result ? result.error : undefined;
}

describe('cost by node', () => {
  test('identifiers and selections cost 1 each, constants and logical operators nothing', () => {
    expect(cost('true')).toBe(0);
    // Equality costs a tenth of the smaller size, rounded up: nothing against an empty string.
    expect(cost('object.data.s != ""')).toBe(3);
    expect(cost('object.data.s != "x"')).toBe(3 + 1);
    expect(cost('true && (false || true) ? true : false')).toBe(0);
  });

  test('literals cost 10 (list), 30 (map), calls 1; literals of constants are planned, and free', () => {
    expect(cost('[object.data.s] != []')).toBe(10 + 3 + 0);
    expect(cost('{"a": object.data.s} != {}')).toBe(30 + 3 + 0);
    expect(cost('[1, 2] != [1]')).toBe(1);
    expect(cost('{"a": 1} != {"b": 2}')).toBe(1);
    expect(cost('size([1]) == 1')).toBe(1 + 1);
  });

  test('comprehensions are charged the loop condition and step of cel-go\'s expansion per iteration', () => {
    // all: a constant range, then per element: condition 2, step 1, predicate `x > 0` (x 1, > 1); result 1.
    expect(cost('[1, 2, 3].all(x, x > 0)')).toBe(3 * (3 + 2) + 1);
    // exists: condition 3 per iteration; stops at the first match, after its condition once more.
    expect(cost('[1, 2, 3].exists(x, x == 1)')).toBe(1 * (4 + 2) + 3 + 1);
    // map: a constant init list, per element `__result__ + [f]` 12 plus f (x 1, * 1); result 1; `!= []` 0.
    expect(cost('[1, 2].map(x, x * 2) != []')).toBe(2 * (12 + 2) + 1);
  });
});

describe('cost by size', () => {
  const s = 'object.data.s'; // 1,000 characters, 3 to select

  test('string functions are charged a tenth per character', () => {
    // Two dyn operands: the checker leaves `+` to run-time dispatch, which costs 1; a string operand resolves it.
    expect(cost(`${s} + ${s} != "x"`)).toBe(3 + 3 + 1 + 1);
    expect(cost(`(${s} + "x").size() > 0`)).toBe(3 + 101 + 1 + 1);
    expect(cost(`${s}.startsWith("abc")`)).toBe(3 + 1);
    expect(cost(`${s}.contains("abc")`)).toBe(3 + 100 * 1);
    expect(cost(`${s}.split("a") != []`)).toBe(3 + 200);
    expect(cost(`${s}.lowerAscii() == ${s}`)).toBe(3 + 100 + 3 + 100);
  });

  test('a regex match is charged the string length by the regex length', () => {
    // ceil((1 + 1000) * 0.1) = 101, by ceil(8 * 0.25) = 2.
    expect(cost(`${s}.matches("^[a-z]+$")`)).toBe(3 + 101 * 2);
  });

  test('membership in a list is charged its size, in a list of constants nothing (a set lookup)', () => {
    expect(cost('object.data.s in [object.data.s, object.data.s]')).toBe(3 + 10 + 3 + 3 + 2);
    expect(cost('2 in [1, 2, 3]')).toBe(0);
    expect(cost('2 in []')).toBe(0);
  });

  test('a size-heavy expression reaches the per-call limit where cel-go\'s does', () => {
    // Each match costs 3 + ceil(1001 * 0.1) * ceil(4000 * 0.25) = 101,003: nine fit in 1,000,000, ten do not.
    const regex = `"${'a?'.repeat(2000)}"`;
    const matches = (n: number) => Array.from({ length: n }, () => `${s}.matches(${regex})`).join(' && ');
    expect(error(matches(9))).toBeUndefined();
    expect(error(matches(10))).toBe(PER_CALL_EXCEEDED);
  });
});

describe('blow-ups stop at the limit, never at memory', () => {
  const doubling = (base: string, times: number) => [
    { name: 'v0', expression: base },
    ...Array.from({ length: times }, (_, i) => ({ name: `v${i + 1}`, expression: `variables.v${i} + variables.v${i}` })),
  ];

  test('a string doubled 40 times', () => {
    expect(error('size(variables.v40) > 0', doubling('"ab"', 40))).toMatch(new RegExp(`fails to evaluate: ${PER_CALL_EXCEEDED}$`));
  });

  test('a list doubled 40 times', () => {
    expect(error('size(variables.v40) > 0', doubling('[1, 2]', 40))).toMatch(new RegExp(`fails to evaluate: ${PER_CALL_EXCEEDED}$`));
  });

  test('lists.range of a huge size fails before allocating', () => {
    // Above its maximum, lists.range refuses the size; below it, a list too costly to make stops at the limit.
    expect(error('size(lists.range(1000000000000)) > 0')).toBe('lists.range: size 1000000000000 exceeds maximum allowed (1000000)');
    expect(error('size(lists.range(999995)) > 0')).toBe(PER_CALL_EXCEEDED);
    expect(cost('size(lists.range(100)) > 0')).toBe(100 + 11 + 1 + 1);
  });
});
