import { expectAccepted, headline } from './helpers';
import { Operation, PolicyTester, ValidationAction } from '../../src';
import { nestingDepth } from '../../src/cel/nesting';

// Each case was measured on the 1.37 apiserver (conformance/src/suites/cel/expressions.ts keeps them in the CEL suite).
const chain = (n: number, term: string, op: string) => Array(n).fill(term).join(op);

describe('chains of && and || compile at any length the size limit allows', () => {
  test.each([
    ['10,000 && operands', chain(10_000, 'true', ' && ')],
    ['16,000 || operands', chain(16_000, 'true', '||')],
    ['mixed', chain(3_000, 'true && false || true', ' || ')],
  ])('%s', (_, expression) => {
    expectAccepted(expression);
  });

  test('the first operand that does not type-check is reported, not an internal error', () => {
    expect(headline(chain(20_000, 'a', '||'))).toBe("compilation failed: ERROR: <input>:1:1: undeclared reference to 'a' (in container '')");
  });

  test('a chain counts log2 of its operands towards the nesting limit, as cel-go balances it', () => {
    expectAccepted(`${'['.repeat(230)}${chain(1_000, 'true', ' && ')}${']'.repeat(230)} != []`);
  });
});

describe('runs of one unary operator collapse in pairs, as in cel-go', () => {
  test.each([
    ['!!1 == 1'], ["--'a' == 'a'"], ['!!(1) == 1'], ['--1u == 1u'], ['---1 < 0'], ['-- -1 < 0'], [`${'!'.repeat(99_990)}true`],
    [`${'-'.repeat(99_990)}1 > 0`],
  ])('%s compiles', (expression) => {
    expectAccepted(expression);
  });

  test.each([
    ['!!!1', "<input>:1:1: found no matching overload for '!_' applied to '(int)'"],
    ['!(!1) == 1', "<input>:1:3: found no matching overload for '!_' applied to '(int)'"],
    ['--9223372036854775808 > 0', '<input>:1:3: invalid int literal'],
    ['---9223372036854775808 < 0', '<input>:1:4: invalid int literal'],
    ['!-1', "<input>:1:1: found no matching overload for '!_' applied to '(int)'"],
  ])('%s', (expression, error) => {
    expect(headline(expression)).toBe(`compilation failed: ERROR: ${error}`);
  });

  test.each([
    ['-!true', "<input>:1:2: Syntax error: no viable alternative at input '-!'"],
    ['--!true', "<input>:1:3: Syntax error: no viable alternative at input '-!'"],
    ['- - !true', "<input>:1:5: Syntax error: no viable alternative at input '- !'"],
    ['!-x', "<input>:1:3: Syntax error: no viable alternative at input '-x'"],
    ['!-(1)', "<input>:1:3: Syntax error: no viable alternative at input '-('"],
    ['!--1', "<input>:1:3: Syntax error: no viable alternative at input '--'"],
  ])('%s is a syntax error', (expression, error) => {
    expect(headline(expression)).toBe(`compilation failed: ERROR: ${error}`);
  });
});

describe('the middle of a conditional is an || expression', () => {
  test('an unparenthesized conditional there is a syntax error', () => {
    expect(headline('true ? true ? true : false : false')).toBe("compilation failed: ERROR: <input>:1:13: Syntax error: mismatched input '?' expecting ':'");
  });
  test('parenthesized, and nested in the last operand, it compiles', () => {
    expectAccepted('true ? (true ? true : false) : false');
    expectAccepted(`${'false ? false : '.repeat(249)}true`);
  });
  test('nesting in the last operand is limited as cel-go limits it', () => {
    expect(headline(`${'false ? false : '.repeat(250)}true`)).toBe('compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250');
  });
});

describe('deep left-nested operators', () => {
  test('a 30,000-term sum is over the nesting limit, reported as cel-go reports it', () => {
    expect(headline(`${chain(30_000, '1', '+')} > 0`)).toBe('compilation failed: ERROR: <input>:-1:0: max recursion depth exceeded');
  });
  test('nestingDepth walks a 50,000-level tree without recursion', () => {
    let node: any = { op: 'value', args: 1 };
    for (let i = 0; i < 50_000; i++) node = { op: '+', args: [node, { op: 'value', args: 1 }] };
    expect(nestingDepth(node)).toBe(50_000);
  });
});

describe('PolicyTester evaluates the shapes cel-go builds', () => {
  function tester(expression: string): PolicyTester {
    return PolicyTester.fromManifests([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'p' },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations: ['CREATE'] }] },
          validations: [{ expression }],
        },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'b' },
        spec: { policyName: 'p', validationActions: [ValidationAction.DENY] },
      },
    ]);
  }
  const configMap = (data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data });

  test('a 4,000-operand chain decides on its operands', () => {
    const t = tester(`${chain(3_999, 'has(object.data.a)', ' && ')} && object.data.b == 'x'`);
    expect(t.review({ operation: Operation.CREATE, object: configMap({ a: '1', b: 'x' }) }).allowed).toBe(true);
    expect(t.review({ operation: Operation.CREATE, object: configMap({ a: '1', b: 'y' }) }).allowed).toBe(false);
  });
  test('!! of a string is the string', () => {
    const t = tester("!!object.data.a == 'yes'");
    expect(t.review({ operation: Operation.CREATE, object: configMap({ a: 'yes' }) }).allowed).toBe(true);
    expect(t.review({ operation: Operation.CREATE, object: configMap({ a: 'no' }) }).allowed).toBe(false);
  });
});
