import { isCelIdentifier } from '../../src/validation/variables';

describe('isCelIdentifier', () => {
  test.each(['a', '_', '_a1', 'object2', 'Namespace', 'namespaces', 'trueish', 'A_B'])('accepts %j', (value) => {
    expect(isCelIdentifier(value)).toEqual([]);
  });

  test.each([
    '', '1a', 'a-b', 'a.b', 'a b', 'é',
    'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function',
    'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
  ])('rejects %j', (value) => {
    expect(isCelIdentifier(value)).toEqual(['must be a valid CEL identifier']);
  });
});
