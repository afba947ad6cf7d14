import * as fc from 'fast-check';
import { unmatchableReason } from '../../src/validation/selector-satisfiability';

const KEYS = ['a', 'b'];
const VALUES = ['x', 'y', 'z'];
/** A value no selector names: what any unnamed value stands for. */
const OTHER = 'other';

type Labels = Record<string, string>;

function matches(selector: any, labels: Labels): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = e.key in labels;
    if (e.operator === 'In' && !(has && e.values.includes(labels[e.key]))) return false;
    if (e.operator === 'NotIn' && has && e.values.includes(labels[e.key])) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** Every label set over KEYS: each key absent, or one of VALUES or OTHER. */
function allLabelSets(): Labels[] {
  let sets: Labels[] = [{}];
  for (const k of KEYS) sets = sets.flatMap((s) => [s, ...[...VALUES, OTHER].map((v) => ({ ...s, [k]: v }))]);
  return sets;
}

const requirement = fc.oneof(
  fc.record({ key: fc.constantFrom(...KEYS), operator: fc.constantFrom('In', 'NotIn'), values: fc.uniqueArray(fc.constantFrom(...VALUES), { minLength: 1 }) }),
  fc.record({ key: fc.constantFrom(...KEYS), operator: fc.constantFrom('Exists', 'DoesNotExist') }),
);
const selector = fc.record({
  matchLabels: fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES), { maxKeys: 2 }),
  matchExpressions: fc.array(requirement, { maxLength: 4 }),
});

describe('unmatchableReason', () => {
  test('gives a reason exactly when no label set matches (brute force over two keys and three values)', () => {
    const sets = allLabelSets();
    fc.assert(fc.property(selector, (s) => {
      const matchable = sets.some((labels) => matches(s, labels));
      expect(unmatchableReason(s) === undefined).toBe(matchable);
    }), { numRuns: 2000 });
  });

  test('the reasons name the label', () => {
    expect(unmatchableReason({ matchExpressions: [{ key: 'a', operator: 'Exists' }, { key: 'a', operator: 'DoesNotExist' }] }))
      .toBe('it requires label a both to be present and to be absent');
    expect(unmatchableReason({ matchLabels: { a: 'x' }, matchExpressions: [{ key: 'a', operator: 'In', values: ['y'] }] }))
      .toBe('its requirements on label a allow no value in common');
    expect(unmatchableReason({ matchExpressions: [{ key: 'a', operator: 'In', values: ['x'] }, { key: 'a', operator: 'NotIn', values: ['x', 'y'] }] }))
      .toBe('every value it allows for label a (x) it also excludes');
    expect(unmatchableReason({})).toBeUndefined();
    expect(unmatchableReason(undefined)).toBeUndefined();
  });
});
