/**
 * Typed CEL, against kube-controller-manager's policy type checker (run offline by the oracle:
 * `oracle --cel-types` prints the CEL type it declares `object` as for every built-in kind,
 * `oracle --type-check` type-checks expressions with validating.TypeChecker and the same schema
 * resolver).
 *
 * - Type tables: every kind's type tree from schemas/kubernetes.json (src/schemas/cel-object-types.ts)
 *   against the type checker's, node by node. Where they differ by design (the library types what
 *   an expression sees at run time), the difference is named by its category and listed in
 *   known-differences.json; any other difference fails.
 * - Expressions: generated from the fields both sides type alike, half with a misspelled field,
 *   as plain selections, `has()`, optional selections, comprehensions and comparisons with a
 *   literal; the verdict and the first error (position and text, without the library's hint) must
 *   agree.
 */
import { execFileSync } from 'child_process';
import { ORACLE_BINARY } from './oracle';
import { seededRandom } from './seeded-random';
import { CaseOutcome, percent, SuiteResult } from './suite';
import { typeProblem } from '../../src/cel/typed-check';
import { BuiltinSchemas } from '../../src/schemas/builtin-schemas';
import { builtinObjectTypes, CelObjectTypes } from '../../src/schemas/cel-object-types';
import { ExpressionField } from '../../src/shared/expression-field';

interface GoTypeTable {
  readonly kinds: Record<string, string>;
  readonly types: Record<string, GoType>;
}

type GoType = { object: Record<string, string> } | { list: string } | { map: string; key: string } | { simple: string };

export function loadGoTypes(): GoTypeTable {
  return JSON.parse(execFileSync(ORACLE_BINARY, ['--cel-types'], { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' })) as GoTypeTable;
}

/** cel-go's field name escaping (k8s.io/apiserver/pkg/cel escaping.go), undone. */
function unescape(name: string): string {
  const reserved = /^__([a-z]+)__$/.exec(name);
  if (reserved && !['dash', 'dot', 'slash', 'underscores'].includes(reserved[1])) return reserved[1];
  return name.replace(/__(underscores|dot|dash|slash)__/g, (_, w: string) => ({ underscores: '__', dot: '.', dash: '-', slash: '/' }[w] ?? w));
}

const GO_SIMPLE: Record<string, string> = {
  'string': 'string',
  'int': 'int',
  'double': 'double',
  'bool': 'bool',
  'dyn': 'dyn',
  'google.protobuf.Timestamp': 'timestamp',
  'google.protobuf.Duration': 'duration',
  'bytes': 'bytes',
};

/** The categories of difference the library keeps on purpose (cel-object-types.ts). */
type Category = 'date-time' | 'byte' | 'not exposed' | 'raw JSON' | 'not selectable' | 'recursive schema';

interface TreeDifference {
  readonly path: string;
  readonly library: string;
  readonly apiserver: string;
  readonly category?: Category;
}

function parseList(t: string): string | undefined {
  return /^list<(.*)>$/.exec(t)?.[1];
}

function parseMap(t: string): string | undefined {
  return /^map<string, (.*)>$/.exec(t)?.[1];
}

/** The differences between the library's type and the type checker's, below `path`. */
function compareTrees(
  ours: string, goId: string, lib: CelObjectTypes, go: GoTypeTable, path: string, out: TreeDifference[], seen: Set<string>,
  ancestors: readonly string[] = [],
): void {
  if (out.length > 200) return;
  const key = `${ours}|${goId}`;
  if (seen.has(key)) return;
  seen.add(key);
  const g = go.types[goId];
  const fields = lib.types.get(ours);
  const goName = g && 'simple' in g ? GO_SIMPLE[g.simple] ?? g.simple : undefined;
  const differ = (category?: Category): void => {
    out.push({ path, library: ours, apiserver: describe(goId, go), category });
  };
  if (goId === 'none') {
    differ(ours === 'dyn' || ours === 'map<string, dyn>' ? 'not exposed' : undefined);
    return;
  }
  if (fields) {
    if (!g || !('object' in g)) return differ();
    const goFields = new Map(Object.entries(g.object).map(([name, id]) => [unescape(name), id]));
    for (const [name, type] of Object.entries(fields)) {
      const goField = goFields.get(name);
      if (goField === undefined && ancestors.includes(ours)) {
        // The resolver stops at a definition that refers to itself (PopulateRefs); the run time has what the schema allows.
        out.push({ path: `${path}.${name}`, library: type, apiserver: 'absent', category: 'recursive schema' });
        continue;
      }
      if (goField === undefined) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.replace(/[-./]/g, '_'))) out.push({ path: `${path}.${name}`, library: type, apiserver: 'absent', category: 'not selectable' });
        else out.push({ path: `${path}.${name}`, library: type, apiserver: 'absent', category: /^(dyn|map<string, dyn>|list<dyn>)$/.test(type) ? 'not exposed' : undefined });
        continue;
      }
      compareTrees(type, goField, lib, go, `${path}.${name}`, out, seen, [...ancestors, ours]);
    }
    for (const name of goFields.keys()) {
      if (!(name in fields)) out.push({ path: `${path}.${name}`, library: 'absent', apiserver: describe(goFields.get(name)!, go) });
    }
    return;
  }
  const item = parseList(ours);
  if (item !== undefined) {
    if (!g || !('list' in g)) return differ();
    return compareTrees(item, g.list, lib, go, `${path}[]`, out, seen, ancestors);
  }
  const value = parseMap(ours);
  if (value !== undefined) {
    if (!g || !('map' in g)) return differ();
    return compareTrees(value, g.map, lib, go, `${path}{}`, out, seen, ancestors);
  }
  if (ours === 'dyn' && g && 'object' in g && Object.keys(g.object).length === 0) return differ('raw JSON');
  if (ours === 'string' && goName === 'timestamp') return differ('date-time');
  if (ours === 'string' && goName === 'bytes') return differ('byte');
  if (ours !== goName) differ();
}

function describe(goId: string, go: GoTypeTable): string {
  const g = go.types[goId];
  if (!g) return goId;
  if ('simple' in g) return g.simple;
  if ('list' in g) return `list<${describe(g.list, go)}>`;
  if ('map' in g) return `map<string, ${describe(g.map, go)}>`;
  return `object{${Object.keys(g.object).length} fields}`;
}

/** The kinds requests carry as `object`: the bodies of the resources and subresources the apiserver serves. */
function requestKinds(schemas: BuiltinSchemas): Set<string> {
  const out = new Set<string>();
  for (const r of schemas.resources()) out.add(`${r.group}/${r.version}/${r.kind}`);
  return out;
}

export function typeTableOutcomes(go: GoTypeTable, schemas: BuiltinSchemas): CaseOutcome[] {
  const outcomes: CaseOutcome[] = [];
  const served = requestKinds(schemas);
  for (const [gvk, goId] of Object.entries(go.kinds).sort()) {
    if (!served.has(gvk)) continue;
    const [group, version, kind] = gvk.split('/');
    const found = schemas.kind(group ? `${group}/${version}` : version, kind);
    if (!found) continue; // kinds the published spec does not serve (internal, List-only types)
    const lib = builtinObjectTypes(schemas, found.name);
    const differences: TreeDifference[] = [];
    compareTrees(lib.root, goId, lib, go, '', differences, new Set());
    const byCategory = new Map<string, TreeDifference[]>();
    for (const d of differences) byCategory.set(d.category ?? 'unexplained', [...(byCategory.get(d.category ?? 'unexplained') ?? []), d]);
    if (byCategory.size === 0) {
      outcomes.push({ name: `type table: ${gvk}`, apiserverAccepted: true, verdictAgrees: true, library: 'same type', apiserver: 'same type' });
    }
    for (const [category, list] of byCategory) {
      const shown = list.slice(0, 3).map((d) => d.path || '(root)').join(', ') + (list.length > 3 ? `, and ${list.length - 3} more` : '');
      outcomes.push({
        name: `type table: ${gvk}: ${category}: ${shown}`,
        apiserverAccepted: true,
        verdictAgrees: false,
        library: list.slice(0, 3).map((d) => `${d.path}: ${d.library}`).join('; '),
        apiserver: list.slice(0, 3).map((d) => `${d.path}: ${d.apiserver}`).join('; '),
      });
    }
  }
  return outcomes;
}

/** A field path both sides type alike, ending in a field of the given type. */
interface Path {
  /** The comprehensions opened on the way (`object.spec.containers.all(x0, `), the leaf's parent (`x0`), and what closes them. */
  readonly open: string;
  readonly prefix: string;
  readonly closers: string;
  readonly parentType: string;
  readonly field: string;
  readonly leafType: string;
}

function randomPath(lib: CelObjectTypes, go: GoTypeTable, goRoot: string, rnd: () => number): Path | undefined {
  let expr = 'object';
  let open = '';
  let closers = '';
  let ours = lib.root;
  let goId = goRoot;
  let depth = 0;
  for (let steps = 0; steps < 12; steps++) {
    const fields = lib.types.get(ours);
    const g = go.types[goId];
    if (!fields || !g || !('object' in g)) return undefined;
    const goFields = new Map(Object.entries(g.object).map(([n, id]) => [unescape(n), id]));
    const candidates = Object.entries(fields).filter(([name, type]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && goFields.has(name)
      && agreesShallow(type, goFields.get(name)!, go));
    if (candidates.length === 0) return undefined;
    const [field, type] = candidates[Math.floor(rnd() * candidates.length)];
    const stop = rnd() < 0.3 || (!lib.types.has(type) && !lib.types.has(parseList(type) ?? ''));
    if (stop) return { open, prefix: expr, closers, parentType: ours, field, leafType: type };
    const item = parseList(type);
    if (item !== undefined && lib.types.has(item)) {
      const v = `x${depth++}`;
      open = `${open}${expr}.${field}.all(${v}, `;
      expr = v;
      closers += ')';
      ours = item;
      const listGo = go.types[goFields.get(field)!];
      goId = listGo && 'list' in listGo ? listGo.list : 'none';
    } else if (lib.types.has(type)) {
      expr = `${expr}.${field}`;
      ours = type;
      goId = goFields.get(field)!;
    } else {
      return { open, prefix: expr, closers, parentType: ours, field, leafType: type };
    }
  }
  return undefined;
}

/** The two sides type a field alike at its top (deeper differences are found when descending). */
function agreesShallow(ours: string, goId: string, go: GoTypeTable): boolean {
  const g = go.types[goId];
  if (!g) return false;
  if ('object' in g) return !ours.startsWith('list<') && !ours.startsWith('map<') && ours !== 'dyn' && Object.keys(g.object).length > 0;
  if ('list' in g) return parseList(ours) !== undefined && agreesShallow(parseList(ours)!, g.list, go);
  if ('map' in g) return parseMap(ours) !== undefined && agreesShallow(parseMap(ours)!, g.map, go);
  return GO_SIMPLE[g.simple] === ours;
}

function misspell(field: string, rnd: () => number): string {
  const i = Math.floor(rnd() * field.length);
  switch (Math.floor(rnd() * 3)) {
    case 0: return field.length > 2 ? field.slice(0, i) + field.slice(i + 1) : `${field}s`;
    case 1: return i + 1 < field.length ? field.slice(0, i) + field[i + 1] + field[i] + field.slice(i + 2) : `${field}x`;
    default: return field.slice(0, i) + (field[i] === field[i].toUpperCase() ? field[i].toLowerCase() : field[i].toUpperCase()) + field.slice(i + 1);
  }
}

function literalFor(type: string): string | undefined {
  switch (type) {
    case 'string': return "'x'";
    case 'int': return '1';
    case 'double': return '1.5';
    case 'bool': return 'true';
    default: return undefined;
  }
}

interface ExpressionCase {
  readonly kind: string;
  readonly goKind: { Group: string; Version: string; Kind: string };
  readonly expression: string;
  readonly types: CelObjectTypes;
  readonly definition: string;
}

function expressionFor(p: Path, field: string, form: number, fields: Readonly<Record<string, string>>): string {
  return `${p.open}${testOf(p, field, form, fields)}${p.closers}`;
}

function testOf(p: Path, field: string, form: number, fields: Readonly<Record<string, string>>): string {
  const sel = `${p.prefix}.${field}`;
  const known = Object.prototype.hasOwnProperty.call(fields, field);
  const leafType = known ? fields[field] : p.leafType;
  switch (form) {
    case 0: return `has(${sel})`;
    case 1: return `${p.prefix}.?${field}.hasValue()`;
    case 2: {
      const literal = literalFor(leafType);
      return literal ? `${sel} == ${literal}` : `${sel} == ${sel}`;
    }
    case 3: {
      // A literal of another type than the field's: a type error on both sides.
      const other = leafType === 'string' ? '1' : "'x'";
      return literalFor(leafType) ? `${sel} == ${other}` : `has(${sel})`;
    }
    default: {
      const item = parseList(leafType);
      return item !== undefined ? `size(${sel}) > 0` : `${sel} != null`;
    }
  }
}

/** Expressions right at run time that the type checker refuses, one per category of difference. */
const DIFFERENCE_CASES: ReadonlyArray<[string, string]> = [
  ['/v1/Pod', "object.spec.containers.all(c, !has(c.resources.limits) || 'cpu' in c.resources.limits)"],
  ['apps/v1/Deployment', "object.spec.template.spec.containers.all(c, quantity(c.resources.requests.memory).isLessThan(quantity('1Gi')))"],
  ['/v1/Pod', "object.metadata.creationTimestamp.startsWith('2026')"],
  ['/v1/Secret', "object.data.all(k, object.data[k].startsWith('LS0t'))"],
];

export function expressionCases(go: GoTypeTable, schemas: BuiltinSchemas, count: number, seed: number): ExpressionCase[] {
  const rnd = seededRandom(seed);
  const served = requestKinds(schemas);
  const kinds = Object.entries(go.kinds).filter(([gvk]) => served.has(gvk)).sort();
  const out: ExpressionCase[] = DIFFERENCE_CASES.map(([gvk, expression]) => {
    const [group, version, kind] = gvk.split('/');
    const found = schemas.kind(group ? `${group}/${version}` : version, kind)!;
    const types = builtinObjectTypes(schemas, found.name);
    return { kind: gvk, goKind: { Group: group, Version: version, Kind: kind }, expression, types, definition: found.name };
  });
  for (let attempts = 0; out.length < count + DIFFERENCE_CASES.length && attempts < count * 20; attempts++) {
    const [gvk, goRoot] = kinds[Math.floor(rnd() * kinds.length)];
    const [group, version, kind] = gvk.split('/');
    const found = schemas.kind(group ? `${group}/${version}` : version, kind)!;
    const lib = builtinObjectTypes(schemas, found.name);
    const p = randomPath(lib, go, goRoot, rnd);
    if (!p) continue;
    const fields = lib.types.get(p.parentType)!;
    const field = rnd() < 0.5 ? misspell(p.field, rnd) : p.field;
    out.push({
      kind: gvk,
      goKind: { Group: group, Version: version, Kind: kind },
      expression: expressionFor(p, field, Math.floor(rnd() * 5), fields),
      types: lib,
      definition: found.name,
    });
  }
  return out;
}

/** The first error line without the type checker's kind prefix: `ERROR: <input>:1:12: undefined field 'x'`. */
function apiserverProblem(issues: string): string | undefined {
  if (issues === '') return undefined;
  const first = issues.split('\n')[0];
  return first.replace(/^[^:]*, Kind=[^:]*: /, '');
}

export function expressionOutcomes(cases: readonly ExpressionCase[], minor: number): CaseOutcome[] {
  const input = cases.map((c) => JSON.stringify({ kind: c.goKind, expression: c.expression })).join('\n') + '\n';
  const answers = execFileSync(ORACLE_BINARY, ['--type-check'], { input, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }).trim().split('\n');
  return cases.map((c, i) => {
    const issues = (JSON.parse(answers[i]) as { issues: string }).issues;
    const theirs = apiserverProblem(issues);
    const spec = {
      field: ExpressionField.VALIDATION,
      hasParams: false,
      variables: [],
      minor,
      objectType: { key: `${minor}|${c.definition}`, types: c.types },
    };
    const problem = typeProblem(c.expression, spec);
    // The library's own additions: the hint, and the result type (the type checker requires none).
    const ours = problem === undefined || /^must evaluate to /.test(problem) ? undefined : problem.replace(/ \(did you mean '[^']*'\?\)$/, '');
    return {
      name: `expression: ${c.kind}: ${c.expression}`,
      apiserverAccepted: theirs === undefined,
      verdictAgrees: (ours === undefined) === (theirs === undefined),
      locationAgrees: ours === undefined || theirs === undefined ? undefined : ours === theirs,
      library: ours ?? 'checks',
      apiserver: theirs ?? 'checks',
    };
  });
}

export function runTypesSuite(minor: number, count: number, seed: number, applyLiterals: readonly CaseOutcome[] = []): SuiteResult {
  const go = loadGoTypes();
  const schemas = BuiltinSchemas.of(minor);
  const tables = typeTableOutcomes(go, schemas);
  const cases = expressionCases(go, schemas, count, seed);
  const expressions = expressionOutcomes(cases, minor);
  const outcomes = [...tables, ...expressions, ...applyLiterals];
  const agree = (list: readonly CaseOutcome[]) => list.filter((o) => o.verdictAgrees && o.locationAgrees !== false).length;
  const kindsCompared = new Set(tables.map((t) => t.name.split(': ')[1])).size;
  const unexplained = new Set(tables.filter((t) => t.name.includes(': unexplained: ')).map((t) => t.name.split(': ')[1])).size;
  return {
    suite: 'types',
    outcomes,
    rows: [
      ['kinds compared (type tables)', String(kindsCompared)],
      ['  with a difference not kept on purpose', String(unexplained)],
      ['  differences kept on purpose (kind × category)', String(tables.length - agree(tables))],
      ['expressions', String(expressions.length)],
      ['  the type checker refuses', String(expressions.filter((o) => !o.apiserverAccepted).length)],
      ['  agreeing (verdict and first error)', `${agree(expressions)}/${expressions.length} (${percent(agree(expressions), expressions.length)})`],
      ['apply-configuration literals (against the running apiserver)', String(applyLiterals.length)],
      ['  the apiserver denies', String(applyLiterals.filter((o) => !o.apiserverAccepted).length)],
      ['  warned exactly where denied', `${agree(applyLiterals)}/${applyLiterals.length}`],
    ],
  };
}
