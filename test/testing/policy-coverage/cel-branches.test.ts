// CEL branch coverage: the branches an expression has, and those one evaluation takes, against
// an independent interpretation of generated boolean expressions (fast-check).
import * as fc from 'fast-check';
import { Operation, PolicyTester } from '../../../src';

const G = 'admissionregistration.k8s.io/v1';

/** The branches of `expression` one review of `object` took, as `text kind` entries, and those it did not. */
function branches(expression: string, object: object): { taken: string[]; untaken: string[] } {
  const tester = PolicyTester.fromManifests([
    {
      apiVersion: G,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'p' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
        validations: [{ expression }],
      },
    },
    { apiVersion: G, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Audit'] } },
  ], { coverage: true });
  tester.review({ operation: Operation.CREATE, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' }, ...object } });
  const [record] = tester.coverage().toJson().policies[0].expressions;
  const text = (b: any) => `${expression.slice(b.start, b.end)} ${b.kind}`;
  return { taken: record.branches.filter((b: any) => b.hits > 0).map(text), untaken: record.branches.filter((b: any) => b.hits === 0).map(text) };
}

describe('branches of each kind', () => {
  test('a comparison is seen true or false', () => {
    expect(branches("object.data.a == 'x'", { data: { a: 'x' } })).toEqual({ taken: ["object.data.a == 'x' true"], untaken: ["object.data.a == 'x' false"] });
  });

  test('the left operand of && decides when false, and the right is never evaluated', () => {
    expect(branches("object.data.a == 'y' && object.data.b == 'z'", { data: { a: 'x' } })).toEqual({
      taken: ["object.data.a == 'y' && object.data.b == 'z' false", "object.data.a == 'y' && object.data.b == 'z' left", "object.data.a == 'y' false"],
      untaken: [
        "object.data.a == 'y' && object.data.b == 'z' true", "object.data.a == 'y' && object.data.b == 'z' right",
        "object.data.a == 'y' true", "object.data.b == 'z' true", "object.data.b == 'z' false",
      ],
    });
  });

  test('a ternary takes one arm', () => {
    const { taken } = branches("has(object.data) ? object.data.a == 'x' : false", {});
    expect(taken).toEqual(["has(object.data) ? object.data.a == 'x' : false else", 'has(object.data) false']);
  });

  test('a macro over an empty list never reaches its body', () => {
    expect(branches('object.data.all(k, k != "")', { data: {} }).untaken).toContain('object.data.all(k, k != "") body');
    expect(branches('object.data.all(k, k != "")', { data: { a: 'b' } }).taken).toContain('object.data.all(k, k != "") body');
  });
});

/** A boolean expression over `object.data`, with what it evaluates to and the branches it takes, computed without CEL. */
interface Generated {
  readonly text: string;
  readonly evaluate: (data: Record<string, string>, taken: Set<string>) => boolean;
}

const KEYS = ['a', 'b', 'c'];
const atom: fc.Arbitrary<Generated> = fc.oneof(
  fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('x', 'y')).map(([k, v]): Generated => {
    const text = `object.data.${k} == '${v}'`;
    return { text: `(${text})`, evaluate: (d, t) => mark(t, text, d[k] === v) };
  }),
  fc.constantFrom('a', 'd').map((k): Generated => {
    const text = `'${k}' in object.data`;
    return { text: `(${text})`, evaluate: (d, t) => mark(t, text, k in d) };
  }),
);

function mark(taken: Set<string>, text: string, value: boolean): boolean {
  taken.add(`${text} ${value}`);
  return value;
}

const expression: fc.Arbitrary<Generated> = fc.letrec<{ e: Generated }>((tie) => ({
  e: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('e'), fc.constantFrom('&&', '||'), tie('e')).map(([l, op, r]): Generated => {
      const text = `(${l.text} ${op} ${r.text})`;
      const inner = text.slice(1, -1);
      return {
        text,
        evaluate: (d, t) => {
          const left = l.evaluate(d, t);
          if (left === (op === '||')) {
            t.add(`${inner} left`);
            return mark(t, inner, left);
          }
          t.add(`${inner} right`);
          return mark(t, inner, r.evaluate(d, t));
        },
      };
    }),
    // Parenthesized: the parser drops an even run of `!` (`!!x` is `x`), as cel-go's does.
    tie('e').map((x): Generated => ({ text: `(!${x.text})`, evaluate: (d, t) => mark(t, `!${x.text}`, !x.evaluate(d, t)) })),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([c, a, b]): Generated => {
      const text = `(${c.text} ? ${a.text} : ${b.text})`;
      const inner = text.slice(1, -1);
      return { text, evaluate: (d, t) => (c.evaluate(d, t) ? (t.add(`${inner} then`), a.evaluate(d, t)) : (t.add(`${inner} else`), b.evaluate(d, t))) };
    }),
  ),
})).e;

test('the branches taken are those a short-circuiting evaluation takes', () => {
  // Every key compared is there (a missing one is an error, no branch); `d`, tested with `in`, may be absent.
  const value = fc.constantFrom('x', 'y');
  const data = fc.record({ a: value, b: value, c: value, d: value }, { requiredKeys: ['a', 'b', 'c'] }) as fc.Arbitrary<Record<string, string>>;
  fc.assert(fc.property(expression, data, (e, d) => {
    const expected = new Set<string>();
    e.evaluate(d, expected);
    // A parenthesized source text and the node's own range differ by the parentheses: compare without them.
    const strip = (s: string) => s.replace(/[()]/g, '');
    const { taken } = branches(e.text, { data: d });
    expect(new Set(taken.map(strip))).toEqual(new Set([...expected].map(strip)));
  }), { numRuns: 150 });
});
