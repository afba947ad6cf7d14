import * as fc from 'fast-check';
import { ALL_FIELDS, check } from './helpers';

/** Fragments of CEL, so that random expressions get past the lexer often. */
const TOKENS = ['object', '.', 'spec', '?', ':', '[', ']', '{', '}', '(', ')', ',', '1', '2.0', '"s"', "'t'", '+', '==', '&&', '!', 'all', 'x',
  'params', 'variables', 'Object', 'JSONPatch', 'optional', 'of', 'quantity', 'matches', 'sets', 'contains', 'null', 'true', ' ', 'b"\\x00"', 'in'];

describe('the CEL checker never throws', () => {
  test('random token sequences, every field and version', () => {
    fc.assert(fc.property(
      fc.array(fc.constantFrom(...TOKENS), { maxLength: 25 }),
      fc.constantFrom(...ALL_FIELDS),
      fc.integer({ min: 28, max: 36 }),
      fc.boolean(),
      (tokens, field, minor, params) => {
        const problems = check(tokens.join(''), { field, version: `1.${minor}`, params });
        expect(Array.isArray(problems)).toBe(true);
        for (const p of problems) expect(typeof p).toBe('string');
      },
    ), { numRuns: 400 });
  });

  test('random strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), (s) => {
      expect(Array.isArray(check(s))).toBe(true);
    }), { numRuns: 300 });
  });
});
