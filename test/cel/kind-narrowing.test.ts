// An expression as each kind of a multi-kind policy sees it (src/cel/kind-narrowing.ts): what a
// guard rules out for the kind is blanked, every line and column of the rest kept.
import * as fc from 'fast-check';
import { compileProgram } from '../../src/cel/checker';
import { KindNarrowing } from '../../src/cel/kind-narrowing';
import { environment } from '../../src/cel/request-guards';
import { SourceExtents } from '../../src/cel/source-extents';
import { KubernetesVersion } from '../../src/kubernetes-version';
import { ExpressionField } from '../../src/shared/expression-field';
import { policyTypes } from '../../src/validation/policy-types';

const MINOR = 37;
const RULES = [
  { apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] },
  { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], operations: ['CREATE'] },
  { apiGroups: ['batch'], apiVersions: ['v1'], resources: ['cronjobs'], operations: ['CREATE'] },
];
const TYPES = policyTypes({ matchConstraints: { resourceRules: RULES } }, KubernetesVersion.V1_37)!;
const KINDS = TYPES.objects.map((o) => ({ label: o.label, request: o.request, types: o.resource.types, key: o.resource.key }));
const LABELS = KINDS.map((k) => k.label);

/** The expression as each kind sees it, by label (the expression itself where nothing is ruled out). */
function narrowed(expression: string): Record<string, string> {
  const narrowing = new KindNarrowing(expression, MINOR, KINDS);
  return Object.fromEntries(LABELS.map((label, i) => [label, narrowing.forKind(i) ?? expression]));
}

/** `text` with everything but `kept` (a substring of it, at its place) blanked. */
function only(text: string, kept: string, at = text.indexOf(kept)): string {
  return ' '.repeat(at) + kept + ' '.repeat(text.length - at - kept.length);
}

test('the kinds are those of the rules, each with what its requests share', () => {
  expect(LABELS).toEqual(['apps/v1 Deployment', 'batch/v1 CronJob', 'v1 Pod']);
  expect(TYPES.objects[0].request).toEqual({ group: 'apps', resource: 'deployments', kind: 'Deployment', apiVersion: 'apps/v1', objectIsTheResource: true });
});

describe('a ternary on the kind keeps the branch the kind takes', () => {
  const e = "object.kind == 'Pod' ? object.spec.containers : object.kind == 'CronJob' ? object.spec.jobTemplate.spec.template.spec.containers : object.spec.template.spec.containers";
  test.each([
    ['v1 Pod', 'object.spec.containers'],
    ['batch/v1 CronJob', 'object.spec.jobTemplate.spec.template.spec.containers'],
    ['apps/v1 Deployment', 'object.spec.template.spec.containers'],
  ])('%s: %s', (label, kept) => {
    expect(narrowed(e)[label]).toBe(only(e, kept));
  });

  test.each([
    ["object.kind in ['Pod'] ? object.spec.containers : object.spec.template.spec.containers", 'object.spec.template.spec.containers'],
    ["object.kind != 'Pod' ? object.spec.template.spec.containers : object.spec.containers", 'object.spec.template.spec.containers'],
    ["!(object.kind == 'Pod') ? object.spec.template.spec.containers : object.spec.containers", 'object.spec.template.spec.containers'],
    ["request.kind.kind == 'Pod' ? object.spec.containers : object.spec.template.spec.containers", 'object.spec.template.spec.containers'],
    ["request.resource.resource == 'pods' ? object.spec.containers : object.spec.template.spec.containers", 'object.spec.template.spec.containers'],
    ["object.apiVersion == 'v1' ? object.spec.containers : object.spec.template.spec.containers", 'object.spec.template.spec.containers'],
    ["request.kind.group == '' ? object.spec.containers : object.spec.template.spec.containers", 'object.spec.template.spec.containers'],
  ])('for a Deployment, %s', (e2, kept) => {
    expect(narrowed(e2)['apps/v1 Deployment']).toBe(only(e2, kept));
  });
});

describe('&&, || and ! with a decided operand', () => {
  test('a false && is false, a true operand leaves the other', () => {
    const e = "object.kind == 'Pod' && object.spec.containers.size() > 0";
    expect(narrowed(e)['apps/v1 Deployment']).toBe(`false${' '.repeat(e.length - 5)}`);
    expect(narrowed(e)['v1 Pod']).toBe(only(e, 'object.spec.containers.size() > 0'));
  });

  test('a true || is true, a false operand leaves the other', () => {
    const e = "object.kind == 'Pod' || object.spec.template.spec.containers.size() > 0";
    expect(narrowed(e)['v1 Pod']).toBe(`true${' '.repeat(e.length - 4)}`);
    expect(narrowed(e)['apps/v1 Deployment']).toBe(only(e, 'object.spec.template.spec.containers.size() > 0'));
  });

  test('a branch per kind, with parentheses kept in pairs', () => {
    const e = "(object.kind == 'Pod' && (object.spec.containers.size() > 0)) || (object.kind != 'Pod' && (object.spec.template.spec.containers.size() > 0))";
    const forDeployment = narrowed(e)['apps/v1 Deployment'];
    expect(forDeployment.replace(/ +/g, ' ').trim()).toBe('( (object.spec.template.spec.containers.size() > 0))');
    expect(forDeployment.indexOf('object.spec.template')).toBe(e.indexOf('object.spec.template'));
    expect(narrowed(e)['v1 Pod'].replace(/ +/g, ' ').trim()).toBe('( (object.spec.containers.size() > 0))');
  });
});

describe('has() and optional selections', () => {
  test('has() of a field the kind lacks is false; of one it has and another kind lacks, true', () => {
    const e = 'has(object.spec.template) ? object.spec.template.spec.containers : object.spec.containers';
    expect(narrowed(e)['v1 Pod']).toBe(only(e, 'object.spec.containers', e.lastIndexOf('object.spec.containers')));
    expect(narrowed(e)['apps/v1 Deployment']).toBe(only(e, 'object.spec.template.spec.containers'));
    // CronJob lacks template too: it takes the else branch, and the type check then warns of it (its containers are deeper).
    expect(narrowed(e)['batch/v1 CronJob']).toBe(only(e, 'object.spec.containers', e.lastIndexOf('object.spec.containers')));
  });

  test('has() of a field every kind has decides nothing', () => {
    expect(new KindNarrowing('has(object.metadata.labels) ? 1 : 2', MINOR, KINDS).forKind(0)).toBeUndefined();
  });

  test('an optional selection of a field the kind lacks is an optional without a value', () => {
    const e = "object.spec.?template.spec.containers.orValue([]).all(c, c.image != '')";
    expect(narrowed(e)['v1 Pod']).toBe(`dyn(0).?a${' '.repeat('object.spec.?template'.length - 9)}${e.slice('object.spec.?template'.length)}`);
    expect(narrowed(e)['apps/v1 Deployment']).toBe(e);
  });

  test('hasValue() of such a selection is false; true where it tells the kinds apart', () => {
    const e = 'object.spec.?template.hasValue() ? object.spec.template.spec.containers : object.spec.containers';
    expect(narrowed(e)['v1 Pod']).toBe(only(e, 'object.spec.containers', e.lastIndexOf('object.spec.containers')));
    expect(narrowed(e)['apps/v1 Deployment']).toBe(only(e, 'object.spec.template.spec.containers'));
  });

  test('a tested field no kind has is reported once, with the kinds that have its parent', () => {
    const narrowing = new KindNarrowing('has(object.spec.templte) && object.spec.?replicsa.hasValue()', MINOR, KINDS);
    expect(narrowing.untestableFields()).toEqual([
      { offset: 3, field: 'templte', known: expect.arrayContaining(['template', 'replicas', 'containers', 'jobTemplate']), labels: LABELS },
      { offset: 39, field: 'replicsa', known: expect.any(Array), labels: LABELS },
    ]);
    expect(new KindNarrowing('has(object.spec.template)', MINOR, KINDS).untestableFields()).toEqual([]);
  });
});

describe('what is left keeps its lines and columns', () => {
  test('over several lines, and with parentheses in strings', () => {
    const e = "object.kind == 'Pod' ?\n  object.spec.containers.exists(c, c.name == ')(') :\n  object.spec.template.spec.containers.exists(c, c.name == '(')";
    const forDeployment = narrowed(e)['apps/v1 Deployment'];
    expect(forDeployment.split('\n').map((l) => l.length)).toEqual(e.split('\n').map((l) => l.length));
    expect(forDeployment.split('\n')[2]).toBe(e.split('\n')[2]);
    expect(forDeployment.split('\n')[1].trim()).toBe('');
  });

  test('code points beyond the BMP are blanked as one column each', () => {
    const e = "object.kind == '😀' ? object.spec.containers : object.spec.template.spec.containers";
    const forPod = narrowed(e)['v1 Pod'];
    expect([...forPod].length).toBe([...e].length);
    // A Pod's kind is not '😀': it takes the else branch, at its column.
    expect([...forPod].indexOf('o', 5)).toBe([...e].indexOf('o', [...e].indexOf(':')));
  });

  test('an expression that does not parse is left alone', () => {
    expect(new KindNarrowing("object.kind == 'Pod' ? (", MINOR, KINDS).forKind(0)).toBeUndefined();
  });
});

describe('the parentheses of sub-expressions', () => {
  test.each([
    ['(a) && b', 'a', '(a)'],
    ['((a)) && f(b)', 'a', '((a))'],
    ['f(a) && b', 'a', 'a'], // a call's parentheses are the call's
    ["x.exists(c, (c == ')')) || y", "c == ')'", "(c == ')')"],
  ])('%s: the extent of %s is %s', (text, node, extent) => {
    const ast = environment(MINOR).parse(text).ast;
    const found: Array<[number, number]> = [];
    const visit = (n: { start: number; end: number; args: unknown }) => {
      if (text.slice(n.start, n.end) === node) found.push(new SourceExtents(text).outer(n as never));
      for (const a of Array.isArray(n.args) ? n.args.flat() : [n.args]) if (a && typeof a === 'object' && 'start' in a) visit(a as never);
    };
    visit(ast);
    expect(found.map(([s, e]) => text.slice(s, e))).toContain(extent);
  });
});

describe('properties', () => {
  const kindTest = fc.constantFrom(
    "object.kind == 'Pod'", "object.kind != 'Pod'", "object.kind in ['Deployment', 'CronJob']", "request.kind.kind == 'CronJob'",
    'has(object.spec.template)', 'has(object.spec.jobTemplate)', 'has(object.spec.containers)', "object.metadata.name == 'x'",
  );
  const guard: fc.Arbitrary<string> = fc.letrec<{ g: string }>((tie) => ({
    g: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      kindTest,
      tie('g').map((g) => `!(${g})`),
      fc.tuple(tie('g'), tie('g'), fc.constantFrom('&&', '||'), fc.boolean()).map(([a, b, op, paren]) => (paren ? `(${a} ${op} ${b})` : `${a} ${op}\n ${b}`)),
      fc.tuple(tie('g'), tie('g'), tie('g')).map(([c, a, b]) => `(${c} ? ${a} : ${b})`),
    ),
  })).g;

  /** A complete object of each kind, with the fields the tests above look at. */
  const OBJECTS: Record<string, unknown> = {
    'v1 Pod': { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { containers: [] } },
    'apps/v1 Deployment': { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'y' }, spec: { template: { spec: { containers: [] } } } },
    'batch/v1 CronJob': { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'x' }, spec: { jobTemplate: { spec: {} } } },
  };
  const evaluate = (text: string, label: string) => {
    const [group, version] = label.split(' ')[0].includes('/') ? label.split(' ')[0].split('/') : ['', label.split(' ')[0]];
    const kind = label.split(' ')[1];
    const program = compileProgram(text, { field: ExpressionField.VALIDATION, hasParams: false, variables: [], minor: MINOR }).program;
    try {
      return program ? program({ object: OBJECTS[label], oldObject: null, request: { kind: { group, version, kind } } }) : 'error';
    } catch {
      return 'error';
    }
  };

  test('narrowing keeps every line\'s length in code points, and the text parses', () => {
    fc.assert(fc.property(guard, (g) => {
      const narrowing = new KindNarrowing(g, MINOR, KINDS);
      for (const [i] of KINDS.entries()) {
        const text = narrowing.forKind(i);
        if (text === undefined) continue;
        expect(text.split('\n').map((l) => [...l].length)).toEqual(g.split('\n').map((l) => [...l].length));
        expect(() => environment(MINOR).parse(text)).not.toThrow();
      }
    }), { numRuns: 300 });
  });

  test('for a complete object of the kind, the narrowed expression has the value of the expression as written', () => {
    let compared = 0;
    let narrowedOnes = 0;
    fc.assert(fc.property(guard, (g) => {
      const narrowing = new KindNarrowing(g, MINOR, KINDS);
      for (const [i, { label }] of KINDS.entries()) {
        const value = evaluate(g, label);
        if (value === 'error') continue; // an error may become a value: the kind's schema rules the erring part out
        const text = narrowing.forKind(i);
        compared++;
        if (text !== undefined) narrowedOnes++;
        expect([g, label, evaluate(text ?? g, label)]).toEqual([g, label, value]);
      }
    }), { numRuns: 300 });
    // Not vacuous: most expressions evaluate, and most of those are narrowed.
    expect(compared).toBeGreaterThan(600);
    expect(narrowedOnes).toBeGreaterThan(compared / 2);
  });
});
