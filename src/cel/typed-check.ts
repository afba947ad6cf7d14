import { walk } from './ast-walk';
import { compileProgram } from './checker';
import { CelNode } from './engine';
import { environmentFor, environmentKey, EnvironmentSpec } from './environment';
import { issueOffset } from './errors';
import { StructArgs } from './struct-literals';
import { closestName } from '../shared/closest-name';

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
  const key = `${environmentKey(spec)}\u0000${expression}`;
  if (problems.has(key)) return problems.get(key);
  const problem = findTypeProblem(expression, spec);
  if (problems.size >= CACHE_LIMIT) problems.clear();
  problems.set(key, problem);
  return problem;
}

/** The problem of a field `has()` or `.?` tests that the message type (with `known` fields) lacks, as typeProblem words it. */
export function untestableFieldProblem(expression: string, offset: number, field: string, known: readonly string[]): string {
  return `ERROR: ${position(expression, offset)}: undefined field '${field}'${hintFor(field, known)}`;
}

const CACHE_LIMIT = 50_000;
const VARIABLES = 'variables';
/** Per (environment key, expression): a policy's expressions repeat across kinds, policies and synthesis passes. */
const problems = new Map<string, string | undefined>();

function findTypeProblem(expression: string, spec: EnvironmentSpec): string | undefined {
  const result = compileProgram(expression, spec);
  const lookup = fieldsLookup(spec);
  if (result.errors.length > 0) {
    const first = result.errors[0].replace(/^compilation failed: /, '').split('\n')[0];
    return withHint(first, expression, spec, lookup);
  }
  if (!result.program) return undefined;
  const missing = testedFieldProblem(result.program.ast, lookup);
  if (missing) return untestableFieldProblem(expression, missing.offset, missing.field, missing.known);
  const literal = spec.objectType ? objectLiteralProblem(result.program.ast, spec.objectType.types.root, lookup) : undefined;
  return literal ? `ERROR: ${position(expression, literal.offset)}: ${literal.message}` : undefined;
}

/**
 * The first field of an apply configuration's `Object{...}` literal that the object's schema does
 * not have, or whose value is of another type: the expression compiles (the apiserver types
 * `Object` dynamically), but server-side apply refuses the result when the policy runs.
 */
function objectLiteralProblem(ast: CelNode, root: string, lookup: FieldsLookup): { offset: number; message: string } | undefined {
  let found: { offset: number; message: string } | undefined;
  walk(ast, (node) => {
    if (found || node.op !== 'struct') return;
    const { typeName, fields } = node.args as StructArgs;
    if (typeName !== 'Object' && !typeName.startsWith('Object.')) return;
    const path = typeName.split('.').slice(1);
    let type: string | undefined = root;
    for (const [i, segment] of path.entries()) {
      const declared: string | undefined = lookup(type!)?.[segment];
      if (declared === undefined) {
        const at = ['Object', ...path.slice(0, i)].join('.');
        found = { offset: node.start, message: `${typeName}: '${segment}' is not a field of ${at} in the schema${hintFor(segment, Object.keys(lookup(type!) ?? {}))}` };
        return;
      }
      type = elementType(declared);
      if (!lookup(type)) return; // dyn, or a map or list of scalars: nothing to check below
    }
    const known = lookup(type!);
    if (!known) return;
    for (const field of fields) {
      const misnamed = misplacedLiteral(field.value, `${typeName}.${field.name}`);
      if (misnamed) {
        found = {
          offset: misnamed.start,
          message: `type name ${(misnamed.args as StructArgs).typeName} where ${typeName}{${field.name}: ...} takes ${typeName}.${field.name}: `
          + 'the apiserver refuses the result (type mismatch: the name must be the field path from Object)',
        };
        return;
      }
      const declared = Object.prototype.hasOwnProperty.call(known, field.name) ? known[field.name] : undefined;
      if (declared === undefined) {
        found = { offset: field.pos, message: `${typeName}{${field.name}: ...}: '${field.name}' is not a field of ${typeName} in the schema${hintFor(field.name, Object.keys(known))}` };
        return;
      }
      const provided = (field.value as { checkedType?: { name: string } }).checkedType?.name;
      if (provided !== undefined && !assignable(provided, declared, lookup)) {
        found = { offset: field.pos, message: `${typeName}{${field.name}: ...}: the schema's type is ${describeType(declared, lookup)}, the value's is ${provided}` };
        return;
      }
    }
  });
  return found;
}

/** A literal (or a list literal's item) in a field that takes `Object.<path>`, named otherwise. */
function misplacedLiteral(value: CelNode, expected: string): CelNode | undefined {
  const candidates = value.op === 'list' && Array.isArray(value.args) ? (value.args as CelNode[]) : [value];
  return candidates.find((n) => n?.op === 'struct' && (n.args as StructArgs).typeName.startsWith('Object') && (n.args as StructArgs).typeName !== expected);
}

/** The type of a field's items (lists) or values (maps), or the field's own. */
function elementType(type: string): string {
  const m = /^(?:list<(.*)>|map<string, (.*)>)$/.exec(type);
  return m ? elementType(m[1] ?? m[2]) : type;
}

const SCALARS = new Set(['string', 'int', 'double', 'bool', 'bytes']);

/** A type's kind for assignment: a scalar's name, list, map, object, or dyn (anything). */
function kindOf(type: string, isObject: (t: string) => boolean): string {
  if (SCALARS.has(type)) return type;
  if (type.startsWith('list<')) return 'list';
  if (type.startsWith('map<')) return 'map';
  return isObject(type) ? 'object' : 'dyn';
}

/**
 * Whether a value of `provided` type can be what the schema declares: only definite mismatches
 * are not, as server-side apply converts them (`expected numeric (int or float), got string`).
 */
function assignable(provided: string, declared: string, lookup: FieldsLookup): boolean {
  if (provided === 'null' || provided.startsWith('dyn')) return true;
  const declaredKind = kindOf(declared, (t) => lookup(t) !== undefined);
  const providedKind = kindOf(provided, (t) => t.startsWith('Object'));
  if (declaredKind === 'dyn' || providedKind === 'dyn') return true;
  // A number is a number: ints and doubles go into either.
  if ((declaredKind === 'double' || declaredKind === 'int') && (providedKind === 'int' || providedKind === 'double')) return true;
  // An object literal is also how a map is written (`Object.metadata{labels: {...}}` takes a map literal).
  if (declaredKind === 'map' && providedKind === 'object') return true;
  if (declaredKind !== providedKind) return false;
  if (declaredKind === 'list' || declaredKind === 'map') return assignable(elementOf(provided), elementOf(declared), lookup);
  return true;
}

/** The item type of a list, the value type of a map. */
function elementOf(type: string): string {
  const m = /^(?:list<(.*)>|map<[^,]+, (.*)>)$/.exec(type);
  return m ? m[1] ?? m[2] : 'dyn';
}

function describeType(type: string, lookup: FieldsLookup): string {
  return lookup(type) ? 'an object' : type;
}

/** ` (did you mean 'replicas'?)` for the known name closest to a misspelled one, if any. */
function hintFor(name: string, known: readonly string[]): string {
  // A name of one or two letters is within two edits of too many others to hint at one.
  const candidates = known.filter((f) => f !== name && (name.length > 2 || f.toLowerCase() === name.toLowerCase()));
  const suggestion = closestName(name, candidates);
  return suggestion ? ` (did you mean '${suggestion}'?)` : '';
}

interface FieldsLookup {
  (typeName: string): Readonly<Record<string, string>> | undefined;
  /** The type of a variable the environment declares typed (`object`, `params`, `variables.podSpec`). */
  readonly variable: (name: string) => string | undefined;
  /** Every field name of every message type, for a hint where the type selected from is not known. */
  readonly allFields: () => string[];
}

function fieldsLookup(spec: EnvironmentSpec): FieldsLookup {
  const object = spec.objectType?.types;
  const params = spec.paramsType?.types;
  const lookup = (name: string) => object?.types.get(name) ?? params?.types.get(name);
  const variable = (name: string) => {
    if (name === 'object' || name === 'oldObject') return object?.root;
    if (name === 'params') return params?.root;
    return spec.variables.find((v) => `${VARIABLES}.${v.name}` === name)?.type;
  };
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
    const receiver = node.args[0] as CelNode;
    if (receiver.op === 'id' && receiver.args === VARIABLES) {
      const declared = lookup.variable(`${VARIABLES}.${node.args[1]}`);
      return declared !== undefined && lookup(declared) ? declared : undefined;
    }
    const parent = messageTypeOf(receiver, lookup);
    const field = parent === undefined ? undefined : lookup(parent)?.[node.args[1]];
    return field !== undefined && lookup(field) ? field : undefined;
  }
  return undefined;
}

/**
 * The field a selection tests, `has(x.f)` or `x.?f`, and where cel-go reports it when x lacks
 * it: a has() at its `(`, an optional selection at its `.?`. Undefined for other nodes.
 */
export function testedField(node: CelNode, parent: CelNode | undefined): { receiver: CelNode; field: string; offset: number } | undefined {
  if (typeof node.args?.[1] !== 'string') return undefined;
  if (node.op === '.?') return { receiver: node.args[0], field: node.args[1], offset: issueOffset(node, node.start) };
  if (node.op === '.' && parent?.op === 'call' && parent.args[0] === 'has') return { receiver: node.args[0], field: node.args[1], offset: issueOffset(parent, node.start) };
  return undefined;
}

/** The first `has(x.f)` or `x.?f` whose x is a message type without f, with the fields it has. */
function testedFieldProblem(ast: CelNode, lookup: FieldsLookup): { offset: number; field: string; known: string[] } | undefined {
  let found: { offset: number; field: string; known: string[] } | undefined;
  walk(ast, (node, ancestors) => {
    const tested = found ? undefined : testedField(node, ancestors.at(-1));
    if (!tested) return;
    const type = messageTypeOf(tested.receiver, lookup);
    const fields = type === undefined ? undefined : lookup(type);
    if (fields && !Object.prototype.hasOwnProperty.call(fields, tested.field)) {
      found = { offset: tested.offset, field: tested.field, known: Object.keys(fields) };
    }
  });
  return found;
}

const UNDEFINED_FIELD = /^ERROR: <input>:(\d+):(\d+): undefined field '([^']+)'$/;

/** For an undefined field, the field of the same message type closest in spelling. */
function withHint(problem: string, expression: string, spec: EnvironmentSpec, lookup: FieldsLookup): string {
  const m = UNDEFINED_FIELD.exec(problem);
  if (!m) return problem;
  const known = fieldsAt(expression, Number(m[1]), Number(m[2]), m[3], spec, lookup) ?? lookup.allFields();
  return `${problem}${hintFor(m[3], known)}`;
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
