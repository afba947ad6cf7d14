// The CEL runtime cost limits of the apiserver, enforced during PolicyTester evaluations.
// The engine has no cost tracking, so the meter wraps its evaluator and charges every evaluated
// node what cel-go's runtime cost tracker charges for it (interpreter/runtimecost.go, with the
// Kubernetes library's CallCost and the ext lists' trackers): identifiers and field selections 1,
// constants and logical operators 0, list, map and message literals 10, 30 and 40, a call 1, or by
// the size of its arguments where cel-go charges by size (string concatenation, equality,
// `matches`, `contains`, `in` a list, `split`, `join`, regex, list and string library functions,
// an authorization `check` at 350,000). Comprehensions are charged the loop condition and step of
// cel-go's macro expansion for each iteration.
import { celSize, RegisteredFunctionCosts } from './function-costs';
import { children } from '../cel/ast-walk';
import { TYPE_CONVERSIONS } from '../cel/constant-folding';
import { CelNode, engine, evaluatorPrototype } from '../cel/engine';
import { INTERNAL_NAMES } from '../cel/routes';

/** Per-expression limit (PerCallLimit). */
export const PER_CALL_LIMIT = 1_000_000;
/** Per policy-binding evaluation budget (RuntimeCELCostBudget). */
export const RUNTIME_COST_BUDGET = 10_000_000;
/** Budget of the match conditions of one binding (RuntimeCELCostBudgetMatchConditions). */
export const MATCH_CONDITIONS_BUDGET = 2_500_000;

export const PER_CALL_EXCEEDED = 'operation cancelled: actual cost limit exceeded';

/** What one evaluation (a binding's validations, or its match conditions) may still spend. */
export class CostBudget {
  public constructor(public remaining: number) {}
}

export interface Node {
  readonly op: string;
  readonly args: any;
  readonly meta: { readonly alternate?: unknown };
}

interface Meter {
  used: number;
  readonly limit: number;
  /** Where the node being evaluated collects its children's values, when its cost depends on them. */
  values: unknown[] | undefined;
}

let active: Meter | undefined;
let installed = false;

/** The cost of a node that does not depend on values, by operator; -1 for those that do. */
const FIXED_COST: { readonly [op: string]: number } = {
  'value': 0,
  'id': 1,
  '.': 1,
  '.?': 1,
  '[]': 1,
  '[?]': 1,
  '&&': 0,
  '||': 0,
  '?:': 0,
  'list': 10,
  'map': 30,
  'struct': 40,
  // `__result__`, `__result__ + 1` and `__result__ + [e]` of cel-go's expanded macros.
  'accuValue': 1,
  'accuInc': 2,
  'accuPush': 12,
  '!_': 1,
  '-_': 1,
  '-': 1,
  '*': 1,
  '/': 1,
  '%': 1,
  '+': -1,
  '==': -1,
  '!=': -1,
  '<': -1,
  '<=': -1,
  '>': -1,
  '>=': -1,
  'in': -1,
  'call': -1,
  'rcall': -1,
  'comprehension': -1,
};

const traverse = (size: number): number => Math.ceil(size * 0.1);

function isText(value: unknown): boolean {
  return typeof value === 'string' || value instanceof Uint8Array;
}

const PLANNED_CONSTANT = Symbol('celPlannedConstant');
/** Type names, which cel-go resolves to constants when it checks an expression (`type(x) == int`). */
const TYPE_IDENTIFIERS: ReadonlySet<string> = new Set(['bool', 'bytes', 'double', 'int', 'list', 'map', 'null_type', 'string', 'type', 'uint']);

/**
 * Whether cel-go's planner makes a node a constant, as the apiserver plans programs with
 * OptOptimize (interpreter/decorators.go, decOptimize): a literal, a list or map literal of
 * constants, a type conversion of a constant. A constant costs nothing at run time, and its
 * parts are not evaluated then (runtimecost.go: InterpretableConst).
 */
function plannedConstant(ast: Node): boolean {
  const known = (ast as unknown as { [PLANNED_CONSTANT]?: boolean })[PLANNED_CONSTANT];
  if (known !== undefined) return known;
  let constant = false;
  switch (ast.op) {
    case 'value':
      constant = true;
      break;
    case 'id':
      constant = TYPE_IDENTIFIERS.has(ast.args as string);
      break;
    case 'list':
    case 'map':
      constant = children(ast as unknown as CelNode).every((c) => plannedConstant(c as unknown as Node));
      break;
    case 'call': {
      const [name, args] = ast.args as [string, Node[]];
      constant = TYPE_CONVERSIONS.has(name) && args.length === 1 && plannedConstant(args[0]);
      break;
    }
    case 'in': {
      // Membership in an empty constant list is planned as false (maybeOptimizeSetMembership):
      // the element is not evaluated (measured: `object.metadata.name in []` costs nothing).
      const list = (ast.args as Node[])[1];
      constant = list.op === 'list' && (list.args as Node[]).length === 0;
      break;
    }
  }
  return ((ast as unknown as { [PLANNED_CONSTANT]: boolean })[PLANNED_CONSTANT] = constant);
}

/**
 * Calls cel-go does not charge: an optional's `or` and `orValue`, which it plans as
 * short-circuiting steps rather than calls (cel/library.go, evalOptionalOr and
 * evalOptionalOrValue), so the cost tracker charges only their operands.
 */
const FREE_CALLS: ReadonlySet<string> = new Set(['or', 'orValue']);

/**
 * `has(a.b.c)`: the field selections before the tested one, 1 each; the test itself is free, as
 * the apiserver turns presence tests' cost off (environment/base.go, PresenceTestHasCost(false)).
 * The engine reads those selections itself, not through the evaluator, so they are charged here
 * (the identifier is charged as it is read).
 */
function presenceTestCost(call: Node): number {
  let selections = 0;
  for (let n = (call.args as [string, Node[]])[1][0]; n && (n.op === '.' || n.op === '.?'); n = n.args[0]) selections++;
  return Math.max(0, selections - 1);
}

/** Field selections and indexes. */
const QUALIFIERS: ReadonlySet<string> = new Set(['.', '.?', '[]', '[?]']);
const NEGATION_COST = Symbol('celNegationCost');
/** Marks the node of a ternary's branch whose attribute cost cel-go does not charge. */
const UNCHARGED_ATTRIBUTE = Symbol('celUnchargedAttribute');
const ANNOTATED = new WeakSet<object>();

/**
 * Marks, once per program, the nodes cel-go's parser and planner shape differently from the
 * engine, so that they are charged as cel-go charges them:
 * - cel-go's parser reads `-1` as a negative literal, and drops an even run of minus signs (`--x`
 *   is `x`) and keeps one of an odd run (parser.go VisitNegate); the engine keeps a node per sign.
 *   So a run of minus signs written directly before a number literal is a constant, and any other
 *   run costs 1 when odd, nothing when even (measured: `-1 == 1` costs 1, `-(1) == 1` costs 2).
 *   Parentheses end a run, as they do in cel-go's grammar.
 * - cel-go plans a ternary as a conditional attribute (planner.go planConditional): a branch that
 *   is itself an attribute (a variable, a chain of selections) is resolved without the attribute's
 *   own charge; its qualifiers are still charged (measured: `(true ? object.data.s : 'x') == ''`
 *   costs 2; a filter's `__result__` branch costs nothing).
 */
function annotatePlan(root: Node): void {
  if (ANNOTATED.has(root)) return;
  ANNOTATED.add(root);
  const visit = (node: Node): void => {
    if (node.op === '-_' && (node as unknown as { [NEGATION_COST]?: number })[NEGATION_COST] === undefined) annotateNegation(node);
    if (node.op === '?:') (node.args as Node[]).slice(1).forEach(annotateAttributeBranch);
    for (const child of planChildren(node)) visit(child);
    const alternate = node.meta?.alternate as Node | undefined;
    if (alternate) visit(alternate);
  };
  visit(root);
}

/** A node's sub-expressions, those of the engine's comprehension steps included. */
function planChildren(node: Node): Node[] {
  if (node.op === 'accuPush') return [node.args as Node];
  if (node.op === 'comprehension') return Object.values(node.args as object).filter(isNode);
  return children(node as unknown as CelNode) as unknown as Node[];
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).op === 'string';
}

function annotateNegation(node: Node): void {
  const run: Node[] = [node];
  let operand = node.args as Node;
  while (operand.op === '-_' && adjacent(run[run.length - 1], operand)) {
    run.push(operand);
    operand = operand.args as Node;
  }
  const literal = operand.op === 'value' && (typeof operand.args === 'number' || typeof operand.args === 'bigint')
    && adjacent(run[run.length - 1], operand);
  for (const [i, sign] of run.entries()) {
    (sign as unknown as { [NEGATION_COST]: number })[NEGATION_COST] = i === 0 && !literal ? run.length % 2 : 0;
    if (literal) (sign as unknown as { [PLANNED_CONSTANT]: boolean })[PLANNED_CONSTANT] = true;
  }
}

/** The node that carries an attribute branch's own charge: its variable, or the first qualifier on another value. */
function annotateAttributeBranch(branch: Node): void {
  if (branch.op === 'accuValue' || branch.op === 'id') {
    (branch as unknown as { [UNCHARGED_ATTRIBUTE]: boolean })[UNCHARGED_ATTRIBUTE] = true;
    return;
  }
  if (!QUALIFIERS.has(branch.op)) return;
  let base = branch;
  while (QUALIFIERS.has((base.args as Node[])[0].op)) base = (base.args as Node[])[0];
  const operand = (base.args as Node[])[0];
  const carrier = operand.op === 'id' ? operand : base;
  (carrier as unknown as { [UNCHARGED_ATTRIBUTE]: boolean })[UNCHARGED_ATTRIBUTE] = true;
}

const uncharged = (ast: Node): number => ((ast as unknown as { [UNCHARGED_ATTRIBUTE]?: boolean })[UNCHARGED_ATTRIBUTE] ? 1 : 0);

/** Whether `inner` follows its minus sign with nothing but spaces between (no parenthesis). */
function adjacent(sign: Node, inner: Node): boolean {
  const { input, start } = sign as unknown as { input?: string; start: number };
  const innerStart = (inner as unknown as { start: number }).start;
  return typeof input === 'string' && input.slice(start + 1, innerStart).trim() === '';
}

/** cel-go's primitive types (types.IsPrimitiveType), bytes excepted: what a membership set holds. */
function isSetElement(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean'
    || value instanceof (engine as unknown as { UnsignedInt: new (v: bigint) => object }).UnsignedInt;
}

/** The type the checker gave a node (`dyn` when it has none). */
function checkedTypeName(node: Node | undefined): string {
  const type = (node as { checkedType?: { kind: string; type: string } } | undefined)?.checkedType;
  return type === undefined || type.kind === 'dyn' ? 'dyn' : type.type;
}

/**
 * Whether the checker resolved an ordering or `+` to its string or bytes overload. cel-go charges
 * by size only under the overload the checker chose (planner.go resolveFunction passes the overload
 * ID when exactly one overload matches, and runtimecost.go costCall switches on it); with two dyn
 * operands several overloads match, the call dispatches at run time, and it costs 1 whatever the
 * values are (measured: `object.data.s + object.data.s` costs 1 for the `+`, `object.data.s + "x"`
 * a tenth of the length). One string or bytes operand leaves that overload alone.
 */
function resolvedToText(node: Node | undefined): boolean {
  if (!node) return true;
  const [left, right] = node.args as Node[];
  return [checkedTypeName(left), checkedTypeName(right)].some((t) => t === 'string' || t === 'bytes');
}

/**
 * Functions whose charge by size is keyed by the overload the checker chose (costCall switches on
 * the overload ID, the ext lists' trackers are registered by it): given a dyn argument, several
 * overloads match, the call dispatches at run time and costs 1 (measured: `bytes(object.data.s)`
 * costs 1, `bytes('...')` of a string a tenth of its length).
 */
const SIZED_OVERLOAD: { readonly [name: string]: (types: readonly string[]) => boolean } = {
  string: ([arg]) => arg === 'bytes',
  bytes: ([arg]) => arg === 'string',
  reverse: ([receiver]) => receiver.startsWith('list'),
};

function resolvedToSizedOverload(node: Node, name: string): boolean {
  const resolved = SIZED_OVERLOAD[name];
  if (!resolved) return true;
  const args = (node.op === 'rcall' ? [node.args[1], ...node.args[2]] : node.args[1]) as Node[];
  return resolved(args.map(checkedTypeName));
}

/** The cost of a binary operator, from its operands (cel-go's Equals, comparisons, AddString/AddBytes, InList). */
function operatorCost(op: string, values: unknown[], result: unknown, node?: Node): number {
  const [left, right] = values;
  switch (op) {
    case '+':
      if (Array.isArray(result) && result.length > PER_CALL_LIMIT) {
        // cel-go concatenates lists lazily at a cost of 1; the engine copies them. A list this long
        // cannot be traversed within the per-call limit, so the meter stops it here rather than at
        // memory (a known difference: only size() and indexing of such a list work in cel-go).
        throw new Error(PER_CALL_EXCEEDED);
      }
      return isText(left) && isText(right) && resolvedToText(node) ? traverse(celSize(left) + celSize(right)) : 1;
    case 'in':
      // `x in [constants]` is planned as a set lookup (maybeOptimizeSetMembership), which the cost tracker does not charge.
      if (node && plannedConstant(node.args[1]) && Array.isArray(right) && right.every(isSetElement)) return 0;
      // InList by the list's size, when the checker chose it: a dyn container may be a list or a map.
      return Array.isArray(right) && (!node || checkedTypeName(node.args[1]).startsWith('list')) ? right.length : 1;
    case '==':
    case '!=':
      // One overload (`equals`): always by size.
      return traverse(Math.min(celSize(left), celSize(right)));
    default:
      // Ordering: by size for strings and bytes, 1 for scalars (ceil of a tenth of 1).
      return isText(left) && isText(right) && resolvedToText(node) ? traverse(Math.min(celSize(left), celSize(right))) : 1;
  }
}

/**
 * Loop condition and step costs of cel-go's macro expansion, per iteration, and of its result.
 * A quantifier that stops early evaluates its loop condition once more, the time it comes out
 * false (measured: `[1, 2, 3].exists(x, x == 1)` costs 10).
 */
function comprehensionCost(args: any, iterations: number, range: unknown): number {
  // map and filter: the result `__result__`; their steps are charged as accuPush and accuValue.
  if (args.kind !== 'quantifier') return 1;
  if (args.errorsAreFatal) return 2; // exists_one: steps charged as accuInc/accuValue; result `__result__ == 1`
  // all: `@not_strictly_false(__result__)` (2) and `__result__ && p` (1); exists: `!__result__` too (3 + 1).
  const all = args.init?.args === true;
  const condition = all ? 2 : 3;
  const stopped = iterations < celSize(range) ? condition : 0;
  return (condition + 1) * iterations + stopped + 1;
}

/**
 * The node the engine evaluates in place of `ast`: a constant for an identifier that names one (a
 * library namespace such as `lists`), the comprehension of a macro, the routed overload of a
 * built-in (routes.ts). The engine evaluates it directly, not through `run`.
 */
function effective(ast: Node): Node {
  return (ast.meta.alternate as Node | undefined) ?? ast;
}

const userName = (name: string): string => INTERNAL_NAMES.get(name) ?? name;

/** How a node is charged: a fixed cost, or a function of its children's values and its result. */
type Pricing = number | ((values: unknown[], result: unknown) => number);

function pricingOf(ast: Node): Pricing {
  const node = effective(ast);
  const fixed = FIXED_COST[node.op];
  if (fixed !== undefined && fixed >= 0) return fixed;
  switch (node.op) {
    case 'call':
    case 'rcall': {
      const name = userName(node.args[0]);
      if (name === 'has') return presenceTestCost(node);
      if (FREE_CALLS.has(name)) return 0;
      if (!RegisteredFunctionCosts.bySize(name) || !resolvedToSizedOverload(node, name)) return RegisteredFunctionCosts.cost(name, [], undefined);
      // The engine evaluates arguments last to first.
      return (values, result) => RegisteredFunctionCosts.cost(name, values.reverse(), result);
    }
    case 'comprehension':
      // Children: the range, the accumulator's init, then one step per iteration.
      return (values) => comprehensionCost(node.args, Math.max(0, values.length - 2), values[0]);
    default:
      return fixed === undefined ? (node.op === undefined ? 0 : 1) : (values, result) => operatorCost(node.op, values, result, node);
  }
}

const PRICING = Symbol('celCost');
/** The pricing of a planned constant: nothing, for it and everything in it. */
const CONSTANT = Symbol('celConstant');

/**
 * A node's pricing: the most frequent nodes by their operator alone; the others worked out on
 * their first evaluation and kept on the node.
 */
function pricing(ast: Node): Pricing | typeof CONSTANT {
  switch (ast.op) {
    case 'list':
    case 'map':
    case 'call':
    case 'in':
      return plannedConstant(ast) ? CONSTANT : cachedPricing(ast);
    case 'accuPush':
      // `__result__ + [f]`: the list literal is a constant when f is (`map(x, true)`).
      return plannedConstant(ast.args) ? FIXED_COST.accuPush - FIXED_COST.list : FIXED_COST.accuPush;
    case '-_':
      return plannedConstant(ast) ? CONSTANT : (ast as unknown as { [NEGATION_COST]?: number })[NEGATION_COST] ?? 1;
    case 'value':
    case '&&':
    case '||':
    case '?:':
      return 0;
    case '.':
    case '.?':
    case '[]':
    case '[?]':
      return qualifierCost(ast);
    case 'id':
      return ast.meta.alternate || plannedConstant(ast) ? 0 : 1 - uncharged(ast);
    case 'accuValue':
      return FIXED_COST.accuValue - uncharged(ast);
    default:
      return cachedPricing(ast);
  }
}

function cachedPricing(ast: Node): Pricing {
  const known = (ast as unknown as { [PRICING]?: Pricing })[PRICING];
  if (known !== undefined) return known;
  return ((ast as unknown as { [PRICING]: Pricing })[PRICING] = pricingOf(ast));
}

/**
 * A field selection or index: 1. cel-go plans a chain of them on a variable as one attribute (1)
 * with a qualifier each (1 each, the first one included in the attribute's), and a chain on any
 * other value (a literal, a call's result) as a relative attribute, which costs 1 more (measured:
 * `[1, 2][0] == 1` costs 3, `object.data.s` 3).
 */
function qualifierCost(ast: Node): number {
  const operand = (ast.args as Node[])[0];
  return (operand.op === 'id' || QUALIFIERS.has(operand.op) ? 1 : 2) - uncharged(ast);
}

/** Errors a field selection or index has already been charged for. */
const CHARGED_AT_QUALIFIER = new WeakSet<object>();

/**
 * What a step that ends in an error costs. cel-go observes every step it evaluates, an error
 * result included: a call or operator whose argument failed is charged (1, its arguments' sizes
 * being those of errors), and so is the field selection that failed, but not the selections after
 * it in the same chain, which are never applied (measured: `object.metadata.missing` costs 3,
 * `object.missing.x` 2, `size(object.data.missing)` 4).
 */
function failedStepCost(ast: Node, price: Pricing, error: unknown, values: unknown[] | undefined): number {
  if (QUALIFIERS.has(ast.op)) {
    if (typeof error !== 'object' || error === null) return qualifierCost(ast);
    if (CHARGED_AT_QUALIFIER.has(error)) return 0;
    CHARGED_AT_QUALIFIER.add(error);
    return qualifierCost(ast);
  }
  if (typeof price === 'number') return price;
  // A call that failed on arguments it received is charged by them (`semver('v1.2.3-rc.1')`: a
  // tenth of the text); one whose argument failed, 1.
  const node = effective(ast);
  const arity = node.op === 'call' ? node.args[1].length : node.op === 'rcall' ? node.args[2].length + 1 : -1;
  if (values && values.length === arity) {
    try {
      return price([...values], undefined);
    } catch {
      return 1;
    }
  }
  return 1;
}

/** Wraps the engine's evaluator once, so that every evaluated node is charged while a meter is active. */
function install(): void {
  if (installed) return;
  installed = true;
  const prototype = evaluatorPrototype();
  const run = prototype.run;
  prototype.run = function (this: unknown, ast: CelNode, ctx: unknown) {
    const meter = active;
    if (!meter) return run.call(this, ast, ctx);
    const price = pricing(ast);
    if (price === CONSTANT) {
      // Evaluated here, but made when the program was planned: nothing in it is charged.
      active = undefined;
      let value: unknown;
      try {
        value = run.call(this, ast, ctx);
      } finally {
        active = meter;
      }
      meter.values?.push(value);
      return value;
    }
    const parent = meter.values;
    const own = typeof price === 'function' ? [] : undefined;
    let result: unknown;
    try {
      if (parent === undefined && own === undefined) {
        result = run.call(this, ast, ctx);
      } else {
        meter.values = own;
        try {
          result = run.call(this, ast, ctx);
        } finally {
          meter.values = parent;
        }
        parent?.push(result);
      }
    } catch (error) {
      meter.used += failedStepCost(ast, price, error, own);
      throw error;
    }
    meter.used += typeof price === 'number' ? price : price(own!, result);
    if (meter.used > meter.limit) throw new Error(PER_CALL_EXCEEDED);
    return result;
  };
}

/**
 * Runs one expression evaluation under the per-call limit and the budget; returns its result and
 * charges what it used to the budget. `root` is the program's root node, which the engine
 * evaluates directly rather than through its evaluator's `run`.
 */
export function metered<T>(budget: CostBudget, root: Node, evaluate: () => T): T {
  install();
  annotatePlan(root);
  const outer = active;
  const price = pricing(root);
  const meter: Meter = { used: 0, limit: Math.min(PER_CALL_LIMIT, budget.remaining), values: typeof price === 'function' ? [] : undefined };
  // A constant program costs nothing.
  active = price === CONSTANT ? undefined : meter;
  try {
    let result: T;
    try {
      result = evaluate();
    } catch (error) {
      if (price !== CONSTANT) meter.used += failedStepCost(root, price, error, meter.values);
      throw error;
    }
    if (price !== CONSTANT) meter.used += typeof price === 'number' ? price : price(meter.values!, result);
    if (meter.used > meter.limit) throw new Error(PER_CALL_EXCEEDED);
    return result;
  } finally {
    // Charged once, to the budget: a variable evaluated inside another expression is not also
    // counted against that expression.
    active = outer;
    budget.remaining -= meter.used;
  }
}
