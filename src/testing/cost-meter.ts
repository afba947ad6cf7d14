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
import { engine } from '../cel/engine';
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

/** The cost of a binary operator, from its operands (cel-go's Equals, comparisons, AddString/AddBytes, InList). */
function operatorCost(op: string, values: unknown[], result: unknown): number {
  const [left, right] = values;
  switch (op) {
    case '+':
      if (Array.isArray(result) && result.length > PER_CALL_LIMIT) {
        // cel-go concatenates lists lazily at a cost of 1; the engine copies them. A list this long
        // cannot be traversed within the per-call limit, so the meter stops it here rather than at
        // memory (a known difference: only size() and indexing of such a list work in cel-go).
        throw new Error(PER_CALL_EXCEEDED);
      }
      return isText(left) && isText(right) ? traverse(celSize(left) + celSize(right)) : 1;
    case 'in':
      return Array.isArray(right) ? right.length : 1;
    case '==':
    case '!=':
      return traverse(Math.min(celSize(left), celSize(right)));
    default:
      // Ordering: by size for strings and bytes, 1 for scalars (ceil of a tenth of 1).
      return isText(left) && isText(right) ? traverse(Math.min(celSize(left), celSize(right))) : 1;
  }
}

/** Loop condition and step costs of cel-go's macro expansion, per iteration, and of its result. */
function comprehensionCost(args: any, iterations: number): number {
  // map and filter: the result `__result__`; their steps are charged as accuPush and accuValue.
  if (args.kind !== 'quantifier') return 1;
  if (args.errorsAreFatal) return 2; // exists_one: steps charged as accuInc/accuValue; result `__result__ == 1`
  // all: `@not_strictly_false(__result__)` (2) and `__result__ && p` (1); exists: `!__result__` too (3 + 1).
  const perIteration = args.init?.args === true ? 3 : 4;
  return perIteration * iterations + 1;
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
      if (!RegisteredFunctionCosts.bySize(name)) return RegisteredFunctionCosts.cost(name, [], undefined);
      // The engine evaluates arguments last to first.
      return (values, result) => RegisteredFunctionCosts.cost(name, values.reverse(), result);
    }
    case 'comprehension':
      // Children: the range, the accumulator's init, then one step per iteration.
      return (values) => comprehensionCost(node.args, Math.max(0, values.length - 2));
    default:
      return fixed === undefined ? (node.op === undefined ? 0 : 1) : (values, result) => operatorCost(node.op, values, result);
  }
}

const PRICING = Symbol('celCost');

/**
 * A node's pricing: the most frequent nodes by their operator alone; the others worked out on
 * their first evaluation and kept on the node.
 */
function pricing(ast: Node): Pricing {
  switch (ast.op) {
    case 'value':
    case '&&':
    case '||':
    case '?:':
      return 0;
    case '.':
    case '.?':
    case '[]':
    case '[?]':
      return 1;
    case 'id':
      return ast.meta.alternate ? 0 : 1;
    default:
      return cachedPricing(ast);
  }
}

function cachedPricing(ast: Node): Pricing {
  const known = (ast as unknown as { [PRICING]?: Pricing })[PRICING];
  if (known !== undefined) return known;
  return ((ast as unknown as { [PRICING]: Pricing })[PRICING] = pricingOf(ast));
}

/** Wraps the engine's evaluator once, so that every evaluated node is charged while a meter is active. */
function install(): void {
  if (installed) return;
  installed = true;
  const probe = new engine.Environment().parse('1');
  let prototype: { run(ast: unknown, ctx: unknown): unknown } | undefined;
  // The evaluator calls `ast.evaluate(evaluator, ast, ctx)`: a probe on the root reveals the evaluator's class.
  (probe.ast as unknown as { evaluate: (ev: object) => unknown }).evaluate = (ev: object) => {
    prototype = Object.getPrototypeOf(ev);
    return BigInt(1);
  };
  probe();
  if (!prototype) throw new Error('cannot meter CEL evaluation: the engine evaluator was not found');
  const run = prototype.run;
  prototype.run = function (this: unknown, ast: Node, ctx: unknown) {
    const meter = active;
    if (!meter) return run.call(this, ast, ctx);
    const price = pricing(ast);
    const parent = meter.values;
    const own = typeof price === 'number' ? undefined : [];
    let result: unknown;
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
  const outer = active;
  const price = pricing(root);
  const meter: Meter = { used: 0, limit: Math.min(PER_CALL_LIMIT, budget.remaining), values: typeof price === 'number' ? undefined : [] };
  active = meter;
  try {
    const result = evaluate();
    meter.used += typeof price === 'number' ? price : price(meter.values!, result);
    if (meter.used > meter.limit) throw new Error(PER_CALL_EXCEEDED);
    return result;
  } finally {
    // Charged once, to the budget: a variable evaluated inside another expression is not also
    // counted against that expression.
    active = outer;
    budget.remaining -= meter.used;
  }
}
