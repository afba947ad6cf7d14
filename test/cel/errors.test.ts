import { check, headline } from './helpers';
import { renderIssue } from '../../src/cel/errors';
import { celTypeName } from '../../src/cel/type-names';

describe('compile errors shaped like cel-go', () => {
  test('header, source line and caret', () => {
    expect(check('1 + params.x > 2')).toEqual([
      "compilation failed: ERROR: <input>:1:5: undeclared reference to 'params' (in container '')\n | 1 + params.x > 2\n | ....^",
    ]);
  });

  test('lines and columns count from 1, on the line of the error', () => {
    expect(check('object.a == 1 &&\n  nope == 2')[0]).toBe(
      "compilation failed: ERROR: <input>:2:3: undeclared reference to 'nope' (in container '')\n |   nope == 2\n | ..^");
  });

  test('columns count code points; wide characters get wide dots', () => {
    expect(renderIssue("'é' + x", { offset: 6, message: 'm' })).toBe("ERROR: <input>:1:7: m\n | 'é' + x\n | .\uff0e....^");
  });

  test('leading spaces count (validations are compiled untrimmed)', () => {
    expect(headline('  nope')).toBe("compilation failed: ERROR: <input>:1:3: undeclared reference to 'nope' (in container '')");
  });

  test('operators are reported at their token, selections at the dot, calls at the parenthesis', () => {
    expect(headline("object.a == 1 && 1 + 'a' == 2")).toBe(
      "compilation failed: ERROR: <input>:1:20: found no matching overload for '_+_' applied to '(int, string)'");
    expect(headline('request.foo == 1')).toBe("compilation failed: ERROR: <input>:1:8: undefined field 'foo'");
    expect(headline("'a'.startsWith(1)")).toBe("compilation failed: ERROR: <input>:1:15: found no matching overload for 'startsWith' applied to 'string.(int)'");
    expect(headline("'a'.matches(1)")).toBe("compilation failed: ERROR: <input>:1:12: found no matching overload for 'matches' applied to 'string.(int)'");
    expect(headline('size(1) == 1')).toBe("compilation failed: ERROR: <input>:1:5: found no matching overload for 'size' applied to '(int)'");
  });

  test('syntax errors', () => {
    expect(headline('1 +')).toBe('compilation failed: ERROR: <input>:1:4: Syntax error: Unexpected token: EOF');
    expect(headline("'abc")).toContain('Syntax error: Unterminated string');
  });

  test('types print as cel-go prints them', () => {
    expect(celTypeName('list<int>')).toBe('list(int)');
    expect(celTypeName('map<string, list<string>>')).toBe('map(string, list(string))');
    expect(celTypeName('optional<string>')).toBe('optional_type(string)');
    expect(celTypeName('null')).toBe('null_type');
    expect(celTypeName('list<T>')).toBe('list(dyn)');
    expect(celTypeName('kubernetes.Quantity')).toBe('kubernetes.Quantity');
  });
});
