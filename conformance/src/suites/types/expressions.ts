/**
 * Typed expressions: generated from the fields both sides type alike, half with a misspelled field,
 * as plain selections, `has()`, optional selections, comprehensions and comparisons with a literal,
 * and type-checked by both sides (`oracle --type-check`: validating.TypeChecker with the same schema
 * resolver); the verdict and the first error (position and text, without the library's hint) must agree.
 */
import { execFileSync } from 'child_process';
import { GO_SIMPLE, GoTypeTable, parseList, parseMap, requestKinds, unescape } from './go-types';
import { typeProblem } from '../../../../src/cel/typed-check';
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';
import { builtinObjectTypes, CelObjectTypes } from '../../../../src/schemas/cel-object-types';
import { ExpressionField } from '../../../../src/shared/expression-field';
import { seededRandom } from '../../generators/seeded-random';
import { ORACLE_BINARY } from '../../oracle/oracle';
import { CaseOutcome } from '../../outcomes/suite-result';

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

export interface ExpressionCase {
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
