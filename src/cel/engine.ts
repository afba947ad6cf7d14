/**
 * The CEL engine: @marcbachmann/cel-js and re2js, bundled into vendor/cel-engine.cjs at build
 * time (see scripts/bundle-cel-engine.ts). The path is the same from src/cel/ (ts-jest) and from
 * lib/cel/ (the published package). Everything here is internal: no engine type reaches the
 * public jsii API.
 *
 * The engine's own TypeScript types are not used (it is ESM-only, and its declarations do not
 * cover the parser and type classes); the minimal shapes below describe what src/cel/ relies on.
 */

/** A type as the engine's checker represents it. */
export interface CelType {
  readonly kind: string;
  readonly name: string;
  readonly type: string;
  readonly keyType?: CelType;
  readonly valueType?: CelType;
  readonly hasDynType: boolean;
  readonly hasPlaceholderType: boolean;
  readonly unwrappedType: CelType;
  matches(other: CelType): boolean;
  isDynOrBool(): boolean;
}

/** A parsed expression node. `args` depends on `op` (see ast-walk.ts). */
export interface CelNode {
  readonly op: string;
  readonly args: any;
  readonly pos: number;
  readonly start: number;
  readonly end: number;
  readonly input: string;
  readonly checkedType?: CelType;
  readonly meta: { macro?: unknown; alternate?: CelNode };
  setMeta(key: string, value: unknown): CelNode;
  clone(op: unknown, args: unknown): CelNode;
}

/** What the type checker hands to operators and macros. */
export interface CelChecker {
  readonly registry: CelRegistry;
  readonly dynType: CelType;
  readonly boolType: CelType;
  readonly intType: CelType;
  readonly stringType: CelType;
  check(node: CelNode, ctx: CelScope): CelType;
  getType(name: string): CelType;
  createError(code: string, message: string, node?: CelNode): Error;
  formatType(type: CelType): string;
}

/** What the evaluator hands to operators and macros. */
export interface CelEvaluator {
  readonly registry: CelRegistry;
  run(node: CelNode, ctx: CelScope): any;
  tryEval(node: CelNode, ctx: CelScope): any;
  debugType(value: unknown): CelType;
  createError(code: string, message: string, node?: CelNode): Error;
}

/** A variable scope (root context or a comprehension's overlay). */
export interface CelScope {
  forkWithVariable(name: string, type: CelType): CelScope;
  setIterValue(value: unknown, ev: CelEvaluator): CelScope;
  getValue(name: string): unknown;
}

export interface CelObjectType {
  readonly name: string;
  readonly type: CelType;
  readonly fields?: Record<string, CelType>;
  readonly ctor: new (...args: any[]) => unknown;
  readonly convert?: (value: unknown) => unknown;
}

export interface CelRegistry {
  readonly objectTypes: Map<string, CelObjectType>;
  getType(name: string): CelType;
  getListType(type: CelType): CelType;
  getMapType(key: CelType, value: CelType): CelType;
  getOptionalType(type: CelType): CelType;
}

export interface CelCheckResult {
  readonly valid: boolean;
  readonly type?: string;
  readonly error?: CelError;
}

export interface CelParsed {
  (context?: Record<string, unknown>): unknown;
  readonly ast: CelNode;
  check(): CelCheckResult;
}

export interface CelError extends Error {
  readonly code: string;
  readonly summary: string;
  readonly node?: { pos?: number; start?: number };
  readonly range?: { start: number; end: number };
}

export interface CelEnvironmentOptions {
  readonly unlistedVariablesAreDyn?: boolean;
  readonly limits?: {
    readonly maxAstNodes?: number;
    readonly maxDepth?: number;
    readonly maxListElements?: number;
    readonly maxMapEntries?: number;
    readonly maxCallArguments?: number;
  };
  readonly homogeneousAggregateLiterals?: boolean;
  readonly enableOptionalTypes?: boolean;
}

export interface CelEnvironment {
  registerFunction(signature: string, handler: (...args: any[]) => unknown, opts?: object): CelEnvironment;
  registerOperator(signature: string, handler: (...args: any[]) => unknown): CelEnvironment;
  registerType(name: string, declaration: object): CelEnvironment;
  registerVariable(name: string, type: string): CelEnvironment;
  registerConstant(name: string, type: string, value: unknown): CelEnvironment;
  hasVariable(name: string): boolean;
  clone(opts?: CelEnvironmentOptions): CelEnvironment;
  parse(expression: string): CelParsed;
  check(expression: string): CelCheckResult;
  evaluate(expression: string, context?: Record<string, unknown>): unknown;
}

export interface Re2Pattern {
  matcher(input: string): { find(): boolean; group(i?: number): string | null; start(i?: number): number; end(i?: number): number };
}

interface EngineModule {
  readonly Environment: new (opts?: CelEnvironmentOptions) => CelEnvironment;
  readonly ParseError: new (options: object) => CelError;
  readonly EvaluationError: new (options: object) => CelError;
  readonly TypeError: new (options: object) => CelError;
  readonly Optional: { of(value: unknown): any; none(): any };
  readonly UnsignedInt: new (value: bigint | string | number) => { valueOf(): bigint };
  readonly Duration: new (...args: any[]) => any;
  readonly Parser: { prototype: any };
  readonly ASTNode: new (input: string, pos: number, start: number, end: number, op: object, args: unknown) => CelNode;
  readonly OPERATORS: Record<string, object>;
  readonly TypeDeclaration: new (spec: { kind: string; name: string; type: string; keyType?: CelType; valueType?: CelType }) => CelType;
  readonly RE2JS: { compile(pattern: string, flags?: number): Re2Pattern };
  readonly RE2JSSyntaxException: new (...args: any[]) => Error;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const engine: EngineModule = require('../../vendor/cel-engine.cjs');

/** The evaluator's `run`, which evaluates every node of a program but its root. */
export interface EvaluatorPrototype {
  run(ast: CelNode, ctx: unknown): unknown;
}

let evaluator: EvaluatorPrototype | undefined;

/**
 * The prototype of the engine's evaluator, whose `run` the cost meter and the evaluation trace
 * wrap. The evaluator calls `ast.evaluate(evaluator, ast, ctx)` on a program's root: a probe on
 * the root reveals the evaluator's class.
 */
export function evaluatorPrototype(): EvaluatorPrototype {
  if (evaluator) return evaluator;
  const probe = new engine.Environment().parse('1');
  (probe.ast as unknown as { evaluate: (ev: object) => unknown }).evaluate = (ev: object) => {
    evaluator = Object.getPrototypeOf(ev);
    return BigInt(1);
  };
  probe();
  if (!evaluator) throw new Error('the CEL engine\'s evaluator was not found');
  return evaluator;
}
