// Run-time semantics where the CEL engine differs from cel-go and the library follows cel-go. Each
// expected answer is the apiserver's (measured with the conformance eval suite's oracle).
import { ExpressionField } from '../../src/shared/expression-field';
import { CelRuntime } from '../../src/testing/cel-runtime';

const activation = {
  object: { metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
  oldObject: null,
  namespaceObject: null,
  request: {},
};

function evaluate(expression: string): { value?: unknown; error?: string } {
  return new CelRuntime(37).scope([], false, activation).evaluate(expression, ExpressionField.VARIABLE);
}

describe('run-time semantics follow cel-go', () => {
  test.each([
    // Map literals keep keys that are not strings.
    ['{0: false, 7: true}.map(k, k + 1)', [1, 8]],
    ["{1u: 'a'}[1u]", 'a'],
    ['{true: 1}.all(k, k)', true],
    // sum() keeps the element type.
    ["[duration('1h'), duration('-1.5s')].sum() == duration('3598.5s')", true],
    ['[1u, 2u].sum() == 3u', true],
    // A timestamp's fields in a zone, by Go's names and offsets.
    ["timestamp('1970-01-01T00:00:00Z').getHours('US/Central')", 18],
    ["timestamp('1970-01-01T00:00:00Z').getHours('-05:30')", 18],
    ["timestamp('1970-01-01T00:00:00Z').getHours('5:99')", 6],
    ["timestamp('1970-01-01T00:00:00Z').getDayOfYear('America/New_York')", 364],
    ["timestamp('1970-01-01T00:00:00Z').getHours('')", 0],
    // has() of a field of any value, an index's included.
    ['has(object.spec.containers[0].image)', true],
    ['has(object.spec.containers[0].ports)', false],
    // URLs and named formats compare.
    ["url('https://a/x') != url('https://a/y')", true],
    ['format.uuid() != format.labelValue()', true],
    // Normalized semantic versions.
    ["semver('v01.2', true) == semver('1.2.0')", true],
  ])('%s', (expression, value) => {
    expect(evaluate(expression)).toEqual({ value });
  });

  test.each([
    ['[9223372036854775807, 1].sum()', 'integer overflow'],
    ['[18446744073709551615u, 1u].sum()', 'unsigned integer overflow'],
    ["timestamp('1970-01-01T00:00:00Z').getHours('america/new_york')", 'unknown time zone america/new_york'],
    ["timestamp('1970-01-01T00:00:00Z').getHours('../x')", 'time: invalid location name'],
    ["timestamp('1970-01-01T00:00:00Z').getMonth('a:b')", 'strconv.Atoi: parsing "a": invalid syntax'],
    ["double('NaN') > 1u", 'NaN values cannot be ordered'],
    ["semver('v1.2.3')", 'Invalid character(s) found in major number "v1"'],
    ["semver('1.2')", 'No Major.Minor.Patch elements found'],
    ["semver('1.2.03')", 'Patch number must not contain leading zeroes "03"'],
    // Error texts: an operator's trait check, a dispatcher's signature, bounds.
    ["dyn([1]) < 'a'", 'no such overload: _<_'],
    ["dyn('a') - 1u", 'no such overload'],
    ['dyn(1) * 1.5', 'no such overload'],
    ['[1, 2][5]', 'index out of bounds: 5'],
    ['dyn(1) % 0', 'modulus by zero'],
  ])('%s fails: %s', (expression, error) => {
    expect(evaluate(expression)).toEqual({ error });
  });
});
