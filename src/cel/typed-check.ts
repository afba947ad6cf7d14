import { walk } from './ast-walk';
import { compileProgram } from './checker';
import { CelNode } from './engine';
import { environmentFor, EnvironmentSpec } from './environment';
import { issueOffset } from './errors';
import { closestName } from '../validation/shape';

/**
 * An expression type-checked against the schemas of the resources it is for (`object`,
 * `oldObject` and `params` typed; environment.ts): the first problem, on one line, as cel-go
 * words it (`ERROR: <input>:1:12: undefined field 'replicsa'`), with the field likely meant for
 * a near miss (`(did you mean 'replicas'?)`); undefined when it checks.
 *
 * Besides the engine's checks, `has(x.f)` and `x.?f` of a field a message type lacks are refused,
 * as cel-go's checker refuses them (the engine does not look into them).
 */
export function typeProblem(expression: string, spec: EnvironmentSpec): string | undefined {
  const result = compileProgram(expression, spec);
  const lookup = fieldsLookup(spec);
  if (result.errors.length > 0) {
    const first = result.errors[0].replace(/^compilation failed: /, '').split('\n')[0];
    return withHint(first, expression, spec, lookup);
  }
  if (!result.program) return undefined;
  const missing = testedFieldProblem(result.program.ast, lookup);
  return missing ? withHint(`ERROR: ${position(expression, missing.offset)}: undefined field '${missing.field}'`, expression, spec, lookup) : undefined;
}

interface FieldsLookup {
  (typeName: string): Readonly<Record<string, string>> | undefined;
  /** The type of a variable the environment declares typed. */
  readonly variable: (name: string) => string | undefined;
  /** Every field name of every message type, for a hint where the type selected from is not known. */
  readonly allFields: () => string[];
}

function fieldsLookup(spec: EnvironmentSpec): FieldsLookup {
  const object = spec.objectType?.types;
  const params = spec.paramsType?.types;
  const lookup = (name: string) => object?.types.get(name) ?? params?.types.get(name);
  const variable = (name: string) => (name === 'object' || name === 'oldObject' ? object?.root : name === 'params' ? params?.root : undefined);
  const allFields = () => [...new Set([object, params].flatMap((t) => [...(t?.types.values() ?? [])].flatMap(Object.keys)))];
  return Object.assign(lookup, { variable, allFields });
}

/** The message type a node evaluates to, from the checker's annotations or the fields' declared types. */
function messageTypeOf(node: CelNode, lookup: FieldsLookup): string | undefined {
  const checked = (node as { checkedType?: { kind: string; name: string; valueType?: { kind: string; name: string } } }).checkedType;
  if (checked?.kind === 'message') return checked.name;
  if (checked?.kind === 'optional' && checked.valueType?.kind === 'message') return checked.valueType.name;
  if (node.op === 'id' && typeof node.args === 'string') return lookup.variable(node.args);
  if ((node.op === '.' || node.op === '.?') && typeof node.args[1] === 'string') {
    const parent = messageTypeOf(node.args[0] as CelNode, lookup);
    const field = parent === undefined ? undefined : lookup(parent)?.[node.args[1]];
    return field !== undefined && lookup(field) ? field : undefined;
  }
  return undefined;
}

/** The first `has(x.f)` or `x.?f` whose x is a message type without f. */
function testedFieldProblem(ast: CelNode, lookup: FieldsLookup): { offset: number; field: string } | undefined {
  let found: { offset: number; field: string } | undefined;
  walk(ast, (node, ancestors) => {
    if (found || typeof node.args?.[1] !== 'string') return;
    const parent = ancestors.at(-1);
    const tested = node.op === '.?' || (node.op === '.' && parent?.op === 'call' && parent.args[0] === 'has');
    if (!tested) return;
    const type = messageTypeOf(node.args[0] as CelNode, lookup);
    const fields = type === undefined ? undefined : lookup(type);
    // cel-go reports has() at its `(`, an optional selection at its `.`.
    const at = node.op === '.?' ? node : parent!;
    if (fields && !Object.prototype.hasOwnProperty.call(fields, node.args[1])) found = { offset: issueOffset(at, node.start), field: node.args[1] };
  });
  return found;
}

const UNDEFINED_FIELD = /^ERROR: <input>:(\d+):(\d+): undefined field '([^']+)'$/;

/** For an undefined field, the field of the same message type closest in spelling. */
function withHint(problem: string, expression: string, spec: EnvironmentSpec, lookup: FieldsLookup): string {
  const m = UNDEFINED_FIELD.exec(problem);
  if (!m) return problem;
  const known = fieldsAt(expression, Number(m[1]), Number(m[2]), m[3], spec, lookup) ?? lookup.allFields();
  // A name of one or two letters is within two edits of too many others to hint at one.
  const candidates = known.filter((name) => name !== m[3] && (m[3].length > 2 || name.toLowerCase() === m[3].toLowerCase()));
  const suggestion = closestName(m[3], candidates);
  return suggestion ? `${problem} (did you mean '${suggestion}'?)` : problem;
}

/** The fields of the message type selected from at a line and column (1-based, in code points). */
function fieldsAt(
  expression: string, line: number, column: number, field: string, spec: EnvironmentSpec, lookup: FieldsLookup,
): string[] | undefined {
  const lines = expression.split('\n');
  const offset = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + [...(lines[line - 1] ?? '')].slice(0, column - 1).join('').length;
  let fields: string[] | undefined;
  try {
    const program = environmentFor(spec).parse(expression);
    program.check(); // annotates the operands it got to
    walk(program.ast, (node) => {
      if (fields || (node.op !== '.' && node.op !== '.?') || node.args[1] !== field || issueOffset(node, node.pos) !== offset) return;
      const type = messageTypeOf(node.args[0] as CelNode, lookup);
      const known = type === undefined ? undefined : lookup(type);
      if (known) fields = Object.keys(known);
    });
  } catch {
    return undefined;
  }
  return fields;
}

function position(expression: string, offset: number): string {
  const before = expression.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return `<input>:${before.split('\n').length}:${[...before.slice(lineStart)].length + 1}`;
}
