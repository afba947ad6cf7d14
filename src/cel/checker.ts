import { walk } from './ast-walk';
import { constantFoldingError } from './constant-folding';
import { CelEnvironment, CelError, CelNode, CelParsed } from './engine';
import { declaresVariables, environmentFor, environmentKey, EnvironmentSpec, TypedVariable } from './environment';
import { CelIssue, compilationFailed, issueOffset, MAX_EXPRESSION_CODE_POINTS, MAX_RECURSION_DEPTH, NO_LOCATION, translateEngineError } from './errors';
import type { ExpressionChecker, ExpressionEnvironment, ExpressionProblems, TypedKind } from './expression-checker';
import { narrowings } from './kind-narrowing';
import { postCheckIssues } from './literal-checks';
import { nestingDepth } from './nesting';
import { routeToCelSemantics } from './routes';
import { celTypeName, splitTopLevel } from './type-names';
import { typeProblem, untestableFieldProblem } from './typed-check';
import { ExpressionField } from '../shared/expression-field';

/**
 * Compiles admission expressions as the apiserver does on create: parse and type-check in the
 * field's environment (environment.ts), run the post-check validators (literal-checks.ts), then
 * require the field's result type. Results are cached per (expression, environment key).
 */
export interface CompiledExpression {
  /** Error details, as the apiserver words them (`compilation failed: ERROR: <input>:1:5: ...`). */
  readonly errors: readonly string[];
  /** The engine's name of the output type, when the expression type-checks. */
  readonly outputType?: string;
  /** The parsed and checked program, for evaluation, when the expression compiles (not kept in the cache). */
  readonly program?: CelParsed;
}

/** The result types each field accepts (cel-go names); undefined = any. */
const RESULT_TYPES: Partial<Record<ExpressionField, readonly string[]>> = {
  [ExpressionField.WEBHOOK_MATCH_CONDITION]: ['bool'],
  [ExpressionField.MATCH_CONDITION]: ['bool'],
  [ExpressionField.VALIDATION]: ['bool'],
  [ExpressionField.MESSAGE_EXPRESSION]: ['string'],
  [ExpressionField.AUDIT_ANNOTATION_VALUE]: ['string', 'null_type'],
  [ExpressionField.APPLY_CONFIGURATION]: ['Object'],
  [ExpressionField.JSON_PATCH]: ['list(JSONPatch)'],
};

const CACHE_LIMIT = 50_000;
const compiled = new Map<string, CompiledExpression>();

/**
 * The errors and output type of an expression, cached per (expression, environment key). Only
 * the outcome is cached, not the program, so that a large app's cache stays small.
 */
export function compileExpression(expression: string, spec: EnvironmentSpec): CompiledExpression {
  const key = `${environmentKey(spec)}\u0000${expression}`;
  let result = compiled.get(key);
  if (!result) {
    const { errors, outputType } = compileProgram(expression, spec);
    result = { errors, outputType };
    if (compiled.size >= CACHE_LIMIT) compiled.clear();
    compiled.set(key, result);
  }
  return result;
}

/** Compiles an expression for evaluation: the outcome and, when it compiles, the program (not cached). */
export function compileProgram(expression: string, spec: EnvironmentSpec): CompiledExpression {
  let result: CompiledExpression;
  try {
    result = compileIn(environmentFor(spec), expression, spec.minor);
  } catch (e) {
    // The validator never throws: an engine failure on odd input is reported as a compile error.
    return { errors: [failure(expression, [{ offset: 0, message: e instanceof Error ? e.message : String(e) }])] };
  }
  if (result.errors.length > 0 || !result.outputType) return result;
  const wrongType = resultTypeError(spec, result.outputType);
  return wrongType ? { errors: [wrongType], outputType: result.outputType } : result;
}

/**
 * Parses, type-checks and validates an expression in an environment built by this layer
 * (environmentFor, or kubernetesEnvironment for other declarations), without a result-type rule.
 */
export function compileIn(env: CelEnvironment, expression: string, minor: number): CompiledExpression {
  const size = [...expression].length;
  if (size > MAX_EXPRESSION_CODE_POINTS) {
    return { errors: [failure(expression, [{ offset: NO_LOCATION, message: `expression code point size exceeds limit: size: ${size}, limit ${MAX_EXPRESSION_CODE_POINTS}` }])] };
  }
  let program: CelParsed;
  try {
    program = env.parse(expression);
  } catch (e) {
    return { errors: [failure(expression, [issueOf(e, env)])] };
  }
  // Every level of nesting takes at least one character: short expressions cannot be too deep.
  if (expression.length > MAX_RECURSION_DEPTH && nestingDepth(program.ast) > MAX_RECURSION_DEPTH) {
    return { errors: [failure(expression, [{ offset: NO_LOCATION, message: 'max recursion depth exceeded' }])] };
  }
  walk(program.ast, routeToCelSemantics);
  const checked = program.check();
  if (!checked.valid) return { errors: [failure(expression, [issueOf(checked.error, env)])] };
  const issues = postCheckIssues(program.ast, minor);
  if (issues.length > 0) return { errors: [failure(expression, issues)], outputType: checked.type };
  const folded = constantFoldingError(program.ast, env);
  if (folded) return { errors: [`program instantiation failed: ${folded}`], outputType: checked.type };
  return { errors: [], outputType: program.ast.checkedType?.name ?? checked.type ?? 'dyn', program };
}

function failure(expression: string, issues: readonly CelIssue[]): string {
  return compilationFailed(expression, issues);
}

function issueOf(error: unknown, env: CelEnvironment): CelIssue {
  if (!(error && typeof error === 'object' && 'summary' in error)) {
    return { offset: 0, message: error instanceof Error ? error.message : String(error) };
  }
  const issue = translateEngineError(error as CelError);
  // cel-go reports a function the environment does not declare at all as an undeclared reference.
  const m = /^found no matching overload for '(\w+)' applied to/.exec(issue.message);
  if (m && !functionNames(env).has(m[1])) {
    // cel-go reports an undeclared function at the call's '('.
    const node = (error as CelError).node as CelNode | undefined;
    const offset = node?.op === 'call' || node?.op === 'rcall' ? issueOffset(node, issue.offset) : node?.start ?? issue.offset;
    return { offset, message: `undeclared reference to '${m[1]}' (in container '')` };
  }
  return issue;
}

const declaredFunctions = new WeakMap<CelEnvironment, ReadonlySet<string>>();

function functionNames(env: CelEnvironment): ReadonlySet<string> {
  let names = declaredFunctions.get(env);
  if (!names) {
    const definitions = (env as unknown as { getDefinitions(): { functions: Array<{ name: string }> } }).getDefinitions();
    names = new Set(definitions.functions.map((f) => f.name));
    declaredFunctions.set(env, names);
  }
  return names;
}

/**
 * The apiserver requires the output type exactly (`dyn` is not `bool`). Its message gained the
 * actual type in 1.32: `must evaluate to bool but got dyn`; before, `must evaluate to bool`.
 */
function resultTypeError(spec: EnvironmentSpec, outputType: string): string | undefined {
  const allowed = RESULT_TYPES[spec.field];
  if (!allowed) return undefined;
  const actual = celTypeName(outputType);
  if (allowed.includes(actual)) return undefined;
  const want = allowed.length === 1 ? allowed[0] : `one of [${allowed.join(' ')}]`;
  return spec.minor >= 32 ? `must evaluate to ${want} but got ${actual}` : `must evaluate to ${want}`;
}

/** Engine spellings of the types the apiserver can declare a variable with as they are. */
const DECLARABLE_TYPES: ReadonlySet<string> = new Set([
  'bool', 'bytes', 'double', 'google.protobuf.Duration', 'int', 'null', 'string', 'google.protobuf.Timestamp', 'uint', 'dyn',
]);

/**
 * A variable's output type as later expressions see it (`variables.<name>`). The apiserver keeps
 * primitive types, and lists and maps of them (recursively); every other type (the authorizer,
 * URLs, quantities, optionals, `Object.<path>`, type parameters it could not bind) is declared as
 * dyn (convertCelTypeToDeclType in k8s.io/apiserver's CEL composition).
 */
export function storableType(outputType: string | undefined, isMessage: (name: string) => boolean = () => false): string {
  if (!outputType) return 'dyn';
  const generic = /^(list|map)<(.*)>$/.exec(outputType);
  if (generic) {
    const params = splitTopLevel(generic[2]).map((t) => storableType(t, isMessage));
    if (generic[1] === 'list' && params.length === 1) return `list<${params[0]}>`;
    if (generic[1] === 'map' && params.length === 2) return `map<${params[0]}, ${params[1]}>`;
    return 'dyn';
  }
  return DECLARABLE_TYPES.has(outputType) || isMessage(outputType) ? outputType : 'dyn';
}

/** What a variable is for one resource its policy matches. */
interface TypedVariableRecord {
  /**
   * Its output type with `object` typed as the resource: a message type of the resource's schema
   * is kept, as the apiserver's type checker keeps it.
   */
  readonly type: string;
  /** Its value, where a guard decides it for the resource (kind-narrowing.ts). */
  readonly guard?: boolean;
}

/** A variable that did not compile: typed `dyn`, decided by no guard. */
const UNTYPED_VARIABLE: TypedVariableRecord = { type: 'dyn' };

/**
 * The checker the manifest validator uses for one manifest. It remembers each variable's
 * output type, so that later expressions see `variables.<name>` typed, as the apiserver's
 * composited compiler does (the validator checks variables in order, before their users).
 */
export class CelExpressionChecker implements ExpressionChecker {
  /** Variable i's output type, and the name of the variable before it (to tell another list of variables apart). */
  private readonly variableTypes: Array<{ readonly previous: string | undefined; readonly type: string }> = [];

  /** What variable i is with `object` typed as a resource, by the resource's key. */
  private readonly typedVariables = new Map<string, TypedVariableRecord[]>();

  /** What the last list of variable names is known to hold, extended as the list grows (the validator appends to one list). */
  private view?: { names: readonly string[]; length: number; known: number; index: Map<string, number> };

  public check(expression: string, environment: ExpressionEnvironment): ExpressionProblems {
    const names = environment.variables;
    const view = this.viewOf(names);
    const typeAt = (i: number) => (i < view.known ? this.variableTypes[i].type : 'dyn');
    const chosen = this.variablesFor(expression, names, view);
    const variables: TypedVariable[] = chosen.map(({ name, index }) => ({ name, type: typeAt(index) }));
    const spec: EnvironmentSpec = {
      field: environment.field,
      hasParams: environment.hasParams,
      variables: declaresVariables({ field: environment.field, variables }) ? variables : [],
      minor: environment.kubernetesVersion.minor,
    };
    const result = compileExpression(expression, spec);
    const isVariable = environment.field === ExpressionField.VARIABLE;
    if (isVariable) {
      const previous = names.length === 0 ? undefined : names[names.length - 1];
      this.variableTypes[names.length] = { previous, type: result.errors.length === 0 ? storableType(result.outputType) : 'dyn' };
    }
    const types = environment.types;
    if (result.errors.length > 0 || !types || (types.objects.length === 0 && !types.params)) {
      if (isVariable) {
        for (const recorded of this.typedVariables.values()) recorded[names.length] = UNTYPED_VARIABLE;
      }
      return { errors: [...result.errors], warnings: [] };
    }
    return { errors: [], warnings: this.typeWarnings(expression, spec, chosen, types, view.known, isVariable ? names.length : undefined) };
  }

  /**
   * The expression checked with `object` and `oldObject` typed as each resource in turn (`params`
   * as the paramKind), without what the kind's guards rule out (kind-narrowing.ts), problems
   * alike grouped: `type checking against apps/v1 Deployment: ERROR: ...`.
   */
  private typeWarnings(
    expression: string, untyped: EnvironmentSpec, chosen: ReadonlyArray<{ name: string; index: number }>,
    types: NonNullable<ExpressionEnvironment['types']>, known: number, variableIndex: number | undefined,
  ): string[] {
    const byProblem = new Map<string, string[]>();
    const add = (problem: string, labels: readonly string[]) => byProblem.set(problem, [...(byProblem.get(problem) ?? []), ...labels]);
    const objects: ReadonlyArray<TypedKind | undefined> = types.objects.length > 0 ? types.objects : [undefined];
    const keyOf = (object: TypedKind | undefined) => `${object?.resource.key ?? ''};${types.params?.resource.key ?? ''}`;
    const kinds = types.objects.map((o) => ({
      label: o.label, request: o.request, types: o.resource.types, key: o.resource.key, guards: this.guardsOf(keyOf(o), chosen, known),
    }));
    const narrowed = kinds.length > 0 ? narrowings(expression, untyped.minor, kinds) : undefined;
    // A field no kind has, tested by has() or `.?`, is false for every kind: what the kinds then
    // see follows from the misspelling, which is the one problem to report.
    const untestable = narrowed?.untestable ?? [];
    for (const [index, object] of objects.entries()) {
      const key = keyOf(object);
      const recorded = this.typedVariables.get(key) ?? [];
      const variables = untyped.variables.length === 0 ? [] : chosen.map(({ name, index: i }) => ({ name, type: i < known ? recorded[i]?.type ?? 'dyn' : 'dyn' }));
      const spec: EnvironmentSpec = { ...untyped, variables, objectType: object?.resource, paramsType: types.params?.resource };
      // What the kind's guards rule out is not checked against it (kind-narrowing.ts).
      const seen = narrowed?.texts[index] ?? expression;
      const problem = typeProblem(seen, spec);
      if (variableIndex !== undefined) {
        const isMessage = (name: string) => !!(object?.resource.types.types.has(name) || types.params?.resource.types.types.has(name));
        const decided = seen.trim();
        recorded[variableIndex] = {
          type: problem === undefined ? storableType(compileExpression(seen, spec).outputType, isMessage) : 'dyn',
          guard: decided === 'true' ? true : decided === 'false' ? false : undefined,
        };
        this.typedVariables.set(key, recorded);
      }
      if (problem !== undefined && untestable.length === 0) add(problem, object ? [object.label] : []);
    }
    for (const field of untestable) add(untestableFieldProblem(expression, field.offset, field.field, field.known), field.labels);
    const params = types.params ? `params ${types.params.label}` : undefined;
    return [...mergedByPlace(byProblem)].map(([problem, labels]) => {
      const against = labels.length === 0 ? params : params ? `${labels.join(', ')} (${params})` : labels.join(', ');
      return `type checking against ${against}: ${problem}`;
    });
  }

  /** The chosen variables a guard decides for the resource of `key` (recorded while the variables' types hold), by name. */
  private guardsOf(key: string, chosen: ReadonlyArray<{ name: string; index: number }>, known: number): Record<string, boolean> | undefined {
    const recorded = this.typedVariables.get(key);
    if (!recorded) return undefined;
    const decided = chosen.filter(({ index }) => index < known && recorded[index]?.guard !== undefined);
    return decided.length === 0 ? undefined : Object.fromEntries(decided.map(({ name, index }) => [name, recorded[index].guard!]));
  }

  /**
   * The variables to declare, with their index in `names`. Declaring only the variables the
   * expression names keeps a policy of n variables at n small environments, rather than
   * environments of 1, 2, ..., n fields. Anything else (a name not declared yet, `variables` used
   * whole) is compiled against every visible variable, so that the errors are the apiserver's.
   */
  private variablesFor(expression: string, names: readonly string[], view: NonNullable<CelExpressionChecker['view']>): Array<{ name: string; index: number }> {
    const named = namedVariables(expression);
    const indices = named?.map((name) => view.index.get(name) ?? -1);
    return named && indices!.every((i) => i >= 0)
      ? named.map((name, j) => ({ name, index: indices![j] }))
      : names.map((name, index) => ({ name, index }));
  }

  /**
   * The index of each name in `names` (the last, for a repeated one) and how many of the recorded
   * types hold for it: a recorded type holds while every variable before it is the one it was
   * checked after. Kept for the list, so that a list that grows by one name costs one step.
   */
  private viewOf(names: readonly string[]): NonNullable<CelExpressionChecker['view']> {
    let view = this.view;
    if (!view || view.names !== names || view.length > names.length) {
      view = { names, length: 0, known: 0, index: new Map() };
      this.view = view;
    }
    for (let i = view.length; i < names.length; i++) {
      view.index.set(names[i], i);
      const recorded = this.variableTypes[i];
      if (view.known === i && recorded !== undefined && recorded.previous === (i === 0 ? undefined : names[i - 1])) view.known = i + 1;
    }
    view.length = names.length;
    return view;
  }
}

const HINT = / \(did you mean '[^']*'\?\)$/;

/**
 * Problems that differ only in their hint (one undefined field, at one place, in kinds of other
 * fields) as one, with the hint most kinds give: a misspelling is warned of once.
 */
function mergedByPlace(byProblem: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const byPlace = new Map<string, Array<[string, readonly string[]]>>();
  for (const entry of byProblem) {
    const place = entry[0].replace(HINT, '');
    byPlace.set(place, [...(byPlace.get(place) ?? []), entry]);
  }
  const merged = new Map<string, string[]>();
  for (const [place, entries] of byPlace) {
    const hinted = entries.filter(([p]) => HINT.test(p)).sort((a, b) => b[1].length - a[1].length);
    merged.set(hinted[0]?.[0] ?? place, entries.flatMap(([, labels]) => labels));
  }
  return merged;
}

const VARIABLE_USE = /\bvariables\b(?:\s*\.\s*\??\s*([A-Za-z_][A-Za-z0-9_]*))?/g;

/**
 * The names an expression selects from `variables` (`variables.a`, `variables.?b`), in order of
 * first use; undefined when it uses `variables` otherwise (whole, or indexed). Read from the text,
 * so a string that mentions `variables.x` adds x, which only makes the environment larger.
 */
function namedVariables(expression: string): string[] | undefined {
  if (!expression.includes('variables')) return [];
  const names = new Set<string>();
  for (const m of expression.matchAll(VARIABLE_USE)) {
    if (m[1] === undefined) return undefined;
    names.add(m[1]);
  }
  return [...names];
}
