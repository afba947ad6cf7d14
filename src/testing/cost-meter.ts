// The CEL runtime cost limits of the apiserver, enforced during PolicyTester evaluations.
// The engine has no cost tracking, so the meter counts evaluated operations (one per evaluated
// expression node, comprehension bodies once per iteration): close to cel-go's cost for most
// expressions; cel-go also charges string and list functions by size, so size-heavy expressions
// reach the limits later here than on a cluster.
import { engine } from '../cel/engine';

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

let active: { used: number; limit: number } | undefined;
let installed = false;

/** Wraps the engine's evaluator once, so that every evaluated node is counted while a meter is active. */
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
  prototype.run = function (this: unknown, ast: unknown, ctx: unknown) {
    if (active && ++active.used > active.limit) throw new Error(PER_CALL_EXCEEDED);
    return run.call(this, ast, ctx);
  };
}

/**
 * Runs one expression evaluation under the per-call limit and the budget; returns its result and
 * charges what it used to the budget.
 */
export function metered<T>(budget: CostBudget, evaluate: () => T): T {
  install();
  const outer = active;
  const meter = { used: 0, limit: Math.min(PER_CALL_LIMIT, budget.remaining) };
  active = meter;
  try {
    return evaluate();
  } finally {
    // Charged once, to the budget: a variable evaluated inside another expression is not also
    // counted against that expression.
    active = outer;
    budget.remaining -= meter.used;
  }
}
