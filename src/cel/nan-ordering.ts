import { CelEvaluator, CelNode, CelScope, engine } from './engine';
import { celError } from './libraries/values';

/**
 * `<`, `<=`, `>` and `>=` with a NaN operand fail in cel-go ("NaN values cannot be ordered",
 * common/types/double.go Compare, measured on the apiserver: `double('NaN') > 1u`); the engine
 * answers false. Equality is not an ordering: `double('NaN') == double('NaN')` stays false.
 */
type Evaluate = (ev: CelEvaluator, ast: CelNode & { left: CelNode; right: CelNode; handle: Handle }, ctx: CelScope) => unknown;
type Handle = (left: unknown, right: unknown, ast: CelNode, ev: CelEvaluator) => unknown;

const isNaNDouble = (v: unknown): boolean => typeof v === 'number' && Number.isNaN(v);

const orderingWithNaN: Evaluate = (ev, ast, ctx) => {
  const left = ev.run(ast.left, ctx);
  const right = ev.run(ast.right, ctx);
  if (isNaNDouble(left) || isNaNDouble(right)) throw celError('NaN values cannot be ordered');
  return ast.handle(left, right, ast, ev);
};

let installed = false;

/** Replaces the engine's evaluation of the orderings (once per process). */
export function installNanOrdering(): void {
  if (installed) return;
  installed = true;
  for (const op of ['<', '<=', '>', '>=']) (engine.OPERATORS[op] as { evaluate: unknown }).evaluate = orderingWithNaN;
}
