// resource.Quantity as the apiserver reads and writes it (k8s.io/apimachinery pkg/api/resource):
// expected texts from its own tests (quantity_test.go) and from the 1.37 apiserver (the defaults
// suite compares whole objects that carry quantities).
import fc from 'fast-check';
import { formatGoQuantity, parseGoQuantity, roundUpGoQuantity } from '../../src/schemas/quantity';

const canonical = (text: string) => formatGoQuantity(parseGoQuantity(text)!);

describe('Quantity texts as the apiserver writes them back', () => {
  test.each([
    ['0', '0'], ['0.0', '0'], ['1000m', '1'], ['0.5', '500m'], ['1.5', '1500m'], ['1.5Gi', '1536Mi'], ['1024Ki', '1Mi'],
    ['1Ki', '1Ki'], ['8Ki', '8Ki'], ['0.5Gi', '512Mi'], ['1e3', '1e3'], ['1000e0', '1e3'], ['2e9', '2e9'], ['100M', '100M'],
    ['1000k', '1M'], ['10k', '10k'], ['1.5k', '1500'], ['-1.5', '-1500m'], ['1.0001Ki', '1024102400u'], ['.5', '500m'],
    // A text already in canonical form is kept as sent (the parser's cache), its sign or trailing dot too.
    ['1.', '1.'], ['0.000000001', '1n'], ['0.0000000001', '1n'], ['+1k', '+1k'], ['1023Ki', '1023Ki'], ['1Mi', '1Mi'],
  ])('%s is written %s', (text, expected) => expect(canonical(text)).toBe(expected));

  test('texts that are no quantity are refused', () => {
    for (const text of ['', 'x', '1ki', '1.2.3', '1e', '--1', '1Gix']) expect(parseGoQuantity(text)).toBeUndefined();
  });

  test('binary quantities over the int64 maximum are capped', () => expect(canonical('9Ei')).toBe('9223372036854775807'));

  test('RoundUp to milli units: finer values round away from zero, coarser ones are kept as written', () => {
    expect(formatGoQuantity(roundUpGoQuantity(parseGoQuantity('0.0001')!, -3))).toBe('1m');
    expect(formatGoQuantity(roundUpGoQuantity(parseGoQuantity('-0.0001')!, -3))).toBe('-1m');
    expect(formatGoQuantity(roundUpGoQuantity(parseGoQuantity('+1k')!, -3))).toBe('+1k');
    expect(formatGoQuantity(roundUpGoQuantity(parseGoQuantity('1500u')!, -3))).toBe('2m');
  });

  test('the written text reads back as the same value and is written the same (a fixed point)', () => {
    const suffix = fc.constantFrom('', 'm', 'k', 'M', 'G', 'Ki', 'Mi', 'Gi', 'e3', 'e-2', 'n', 'u');
    fc.assert(fc.property(fc.nat(1_000_000), fc.nat(999), suffix, (whole, fraction, s) => {
      const once = canonical(`${whole}.${fraction}${s}`);
      expect(canonical(once)).toBe(once);
    }));
  });
});
