// Evaluates admission expressions with the same CEL environments the validator compiles them in.
import { CostBudget, metered, PER_CALL_EXCEEDED, RUNTIME_COST_BUDGET } from './cost-meter';
import { compileProgram, CompiledExpression, storableType } from '../cel/checker';
import { setDataKey } from '../cel/data-keys';
import { CelNode } from '../cel/engine';
import { environmentKey, EnvironmentSpec, TypedVariable } from '../cel/environment';
import { celErrorText } from '../cel/runtime-errors';
import { objectLiteralTypeName, withObjectLiteralTypeName } from '../cel/struct-literals';
import { EvaluationTrace, outcomeOf, traced } from './explain/evaluation-trace';
import { ExpressionField } from '../shared/expression-field';
import type * as wire from '../wire/admissionregistration';

/** The variables of one evaluation (`object`, `request`, `params`, ...), as plain JSON. */
export interface Activation {
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly namespaceObject: unknown;
  readonly request: unknown;
  readonly params?: unknown;
  /** The `authorizer` (a runtime object, passed as is). */
  readonly authorizer?: unknown;
}

/**
 * The outcome of one expression: its value, a runtime error (which the caller words as
 * `expression '<e>' resulted in error: <error>`), or a compile error (reported as is).
 */
export type Evaluation =
  | { readonly value: unknown }
  | { readonly error: string; readonly compilation?: boolean };

/** The apiserver's error when a binding evaluation runs out of its budget. */
export const BUDGET_EXCEEDED = 'validation failed due to running out of cost budget, no further validation rules will be run';

/**
 * Told of every expression a scope evaluates, with the path of its field in the policy
 * (`spec.validations[0].expression`), its CEL value or error, and the trace of its nodes (absent
 * when it did not compile or the budget was spent before it ran).
 */
export type ExpressionObserver = (path: string, expression: string, outcome: Evaluation, trace: EvaluationTrace | undefined) => void;

/** One policy evaluation's expressions: variables are evaluated lazily, at most once. */
export class EvaluationScope {
  private readonly cache = new Map<string, Evaluation>();
  private readonly variablesObject: { [name: string]: unknown } = {};
  private readonly typed: readonly TypedVariable[];
  private celContext?: { [name: string]: unknown };

  public constructor(
    private readonly minor: number,
    private readonly variables: readonly wire.Variable[],
    private readonly hasParams: boolean,
    private readonly activation: Activation,
    private readonly budget: CostBudget,
    private readonly observer?: ExpressionObserver,
  ) {
    this.typed = variableTypes(variables, hasParams, minor);
    variables.forEach((v, i) => {
      Object.defineProperty(this.variablesObject, v.name, {
        enumerable: true,
        get: () => {
          const result = this.variable(i);
          if ('error' in result) throw new Error(`composited variable "${v.name}" fails to evaluate: ${result.error}`);
          return result.value;
        },
      });
    });
  }

  /**
   * The scope of match conditions: their own budget, and no `namespaceObject` (the apiserver's
   * matcher evaluates them without the namespace).
   */
  public forMatchConditions(budget: CostBudget): EvaluationScope {
    return new EvaluationScope(this.minor, this.variables, this.hasParams, { ...this.activation, namespaceObject: null }, budget, this.observer);
  }

  /** The expression's value as JSON (ints as numbers), or its error; `path` is its field's, for the observer. */
  public evaluate(expression: string, field: ExpressionField, path: string): Evaluation {
    const result = this.run(expression, field, this.typed, path);
    return 'error' in result ? result : { value: fromCel(result.value) };
  }

  /**
   * An expression of any result type, its CEL value unconverted (ints as bigints, the Kubernetes
   * types as their objects), as a variable's is: what the conformance evaluation suite compares
   * with the apiserver's values.
   */
  public evaluateCel(expression: string): Evaluation {
    return this.run(expression, ExpressionField.VARIABLE, this.typed, undefined);
  }

  /** The activation as CEL values, converted once per scope. */
  private context(): { [name: string]: unknown } {
    this.celContext ??= {
      object: toCel(this.activation.object),
      oldObject: toCel(this.activation.oldObject),
      namespaceObject: toCel(this.activation.namespaceObject),
      request: toCel(this.activation.request),
      ...(this.hasParams ? { params: toCel(this.activation.params ?? null) } : {}),
      ...(this.activation.authorizer ? { authorizer: this.activation.authorizer } : {}),
    };
    return this.celContext;
  }

  /** A variable's CEL value (not converted: later expressions see it with its CEL type), or its error. */
  private variable(index: number): Evaluation {
    const v = this.variables[index];
    const cached = this.cache.get(v.name);
    if (cached) return cached;
    const result = this.run(v.expression, ExpressionField.VARIABLE, this.typed.slice(0, index), `spec.variables[${index}].expression`);
    this.cache.set(v.name, result);
    return result;
  }

  private run(expression: string, field: ExpressionField, variables: readonly TypedVariable[], path: string | undefined): Evaluation {
    const usesVariables = field !== ExpressionField.MATCH_CONDITION && variables.length > 0;
    const spec = { field, hasParams: this.hasParams, variables: usesVariables ? variables : NO_VARIABLES, minor: this.minor };
    const compiled = program(expression, spec);
    const observer = path === undefined ? undefined : this.observer;
    if (!compiled.program) {
      const failed = { error: `compilation error: ${compiled.errors.join('; ')}`, compilation: true };
      observer?.(path!, expression, failed, undefined);
      return failed;
    }
    if (this.budget.remaining <= 0) {
      observer?.(path!, expression, { error: BUDGET_EXCEEDED }, undefined);
      return { error: BUDGET_EXCEEDED };
    }
    const base = this.context();
    const context = usesVariables ? { ...base, variables: this.variablesObject } : base;
    const root = compiled.program.ast;
    const evaluate = () => metered(this.budget, root, () => compiled.program!(context));
    if (!observer) return this.settle(evaluate);
    let trace: EvaluationTrace | undefined;
    const result = this.settle(() => {
      trace = traced(root, evaluate);
      const outcome = outcomeOf(trace);
      if (outcome.failed) throw outcome.error;
      return outcome.value;
    });
    observer(path!, expression, result, trace);
    return result;
  }

  /** The value of an evaluation, or its error as the apiserver words it (running out of the budget is one error for the whole binding). */
  private settle(evaluate: () => unknown): Evaluation {
    try {
      return { value: evaluate() };
    } catch (e) {
      return { error: this.budget.remaining <= 0 && celErrorText(e) === PER_CALL_EXCEEDED ? BUDGET_EXCEEDED : celErrorText(e) };
    }
  }
}

const typesByVariables = new WeakMap<readonly wire.Variable[], Map<string, readonly TypedVariable[]>>();

/**
 * Each variable typed by its expression's output type, as the apiserver's composited compiler
 * (and the validator's checker) types `variables.<name>` for the expressions after it.
 */
function variableTypes(variables: readonly wire.Variable[], hasParams: boolean, minor: number): readonly TypedVariable[] {
  const key = `${hasParams}/${minor}`;
  const known = typesByVariables.get(variables)?.get(key);
  if (known) return known;
  const typed: TypedVariable[] = [];
  for (const v of variables) {
    const compiled = program(v.expression, { field: ExpressionField.VARIABLE, hasParams, variables: [...typed], minor });
    typed.push({ name: v.name, type: compiled.errors.length === 0 ? storableType(compiled.outputType) : 'dyn' });
  }
  const forVariables = typesByVariables.get(variables) ?? new Map<string, readonly TypedVariable[]>();
  forVariables.set(key, typed);
  typesByVariables.set(variables, forVariables);
  return typed;
}

const PROGRAM_CACHE_LIMIT = 10_000;
const programs = new Map<string, CompiledExpression>();
const NO_VARIABLES: readonly TypedVariable[] = [];
/** The same, by the variables' list (a policy's typed variables are one array): no key text to build. */
const programsByVariables = new WeakMap<readonly TypedVariable[], Map<string, CompiledExpression>>();

/** A compiled program per (environment, expression): a tester evaluates the same few many times. */
function program(expression: string, spec: EnvironmentSpec): CompiledExpression {
  let byVariables = programsByVariables.get(spec.variables);
  if (!byVariables) {
    byVariables = new Map();
    programsByVariables.set(spec.variables, byVariables);
  }
  const shortKey = `${spec.minor}|${spec.field}|${spec.hasParams}|${expression}`;
  let compiled = spec.objectType || spec.paramsType ? undefined : byVariables.get(shortKey);
  if (compiled) return compiled;
  const key = `${environmentKey(spec)}\u0000${expression}`;
  compiled = programs.get(key);
  if (!compiled) {
    compiled = compileProgram(expression, spec);
    if (programs.size >= PROGRAM_CACHE_LIMIT) programs.clear();
    programs.set(key, compiled);
  }
  if (!spec.objectType && !spec.paramsType && byVariables.size < PROGRAM_CACHE_LIMIT) byVariables.set(shortKey, compiled);
  return compiled;
}

/** Creates evaluation scopes for a target Kubernetes minor. */
export class CelRuntime {
  public constructor(private readonly minor: number) {}

  /** A scope for one binding evaluation, spending from `budget` (a fresh RuntimeCELCostBudget by default). */
  public scope(
    variables: readonly wire.Variable[], hasParams: boolean, activation: Activation, budget = new CostBudget(RUNTIME_COST_BUDGET),
    observer?: ExpressionObserver,
  ): EvaluationScope {
    return new EvaluationScope(this.minor, variables, hasParams, activation, budget, observer);
  }

  /**
   * The syntax tree of an expression of a policy as its evaluation compiles it (the variables
   * before `variableIndex` in scope for a variable's), or undefined when it does not compile.
   */
  public syntaxTree(
    expression: string, field: ExpressionField, variables: readonly wire.Variable[], hasParams: boolean, variableIndex?: number,
  ): CelNode | undefined {
    const typed = variableTypes(variables, hasParams, this.minor);
    const visible = variableIndex === undefined ? typed : typed.slice(0, variableIndex);
    const usesVariables = field !== ExpressionField.MATCH_CONDITION && visible.length > 0;
    return program(expression, { field, hasParams, variables: usesVariables ? visible : NO_VARIABLES, minor: this.minor }).program?.ast;
  }
}

/**
 * Converted objects, by identity. The tester never changes an object it has converted, and it
 * copies what it is given (manifests once, a request's objects per review), so an object met
 * again (the same params or Namespace for every binding) is converted once.
 */
const converted = new WeakMap<object, unknown>();

/** JSON → CEL values: integral numbers are CEL ints (bigint), as the apiserver's unstructured objects have int64. */
export function toCel(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (!value || typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return value;
  let result = converted.get(value);
  if (result === undefined) {
    if (Array.isArray(value)) {
      result = Array.from(value, toCel);
    } else {
      const out: { [key: string]: unknown } = {};
      for (const key of Object.keys(value)) setDataKey(out, key, toCel((value as { [key: string]: unknown })[key]));
      result = out;
    }
    converted.set(value, result);
  }
  return result;
}

/** CEL → JSON values: ints back to numbers, maps and objects to plain objects. */
export function fromCel(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return Array.from(value, fromCel);
  // Maps, and the engine's struct values (lazy Map subclasses whose iterator reads every field).
  if (value instanceof Map) {
    return Object.fromEntries([...value].filter(([, v]) => v !== undefined).map(([k, v]) => [String(k), fromCel(v)]));
  }
  if (value && typeof value === 'object') {
    const inner = (value as { valueOf?: () => unknown }).valueOf?.();
    if (inner !== value && (typeof inner === 'bigint' || typeof inner === 'number')) return Number(inner);
    const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromCel(v)]));
    // An apply configuration's `Object.a.b{...}` literal keeps its type name for the apiserver's check of it.
    const typeName = objectLiteralTypeName(value);
    return typeName === undefined ? out : withObjectLiteralTypeName(out, typeName);
  }
  return value;
}


