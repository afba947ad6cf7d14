import { CelEvaluator, CelNode, CelScope, engine } from './engine';

/**
 * `||` and `&&` with cel-go's error semantics (interpreter evalOr/evalAnd): the operand that
 * decides (true for `||`, false for `&&`) wins over an error on the other side, and when neither
 * decides, the first error is the one reported: the left operand's, else the right's. The engine
 * reports the right operand's error when both fail.
 */
function logicalOperator(decides: boolean) {
  return function evaluate(ev: CelEvaluator, ast: CelNode & { left: CelNode; right: CelNode }, ctx: CelScope): boolean {
    const left = ev.tryEval(ast.left, ctx);
    if (left === decides) return decides;
    const right = ev.tryEval(ast.right, ctx);
    if (right === decides) return decides;
    if (typeof left !== 'boolean') throw operandError(ev, left, ast.left);
    if (typeof right !== 'boolean') throw operandError(ev, right, ast.right);
    return right;
  };
}

function operandError(ev: CelEvaluator, value: unknown, node: CelNode): Error {
  if (value instanceof Error) return value;
  return ev.createError('invalid_logical_operand', `Logical operator requires bool operands, got '${ev.debugType(value)}'`, node);
}

let installed = false;

/** Replaces the engine's `||` and `&&` evaluation (once per process). */
export function installLogicalOperators(): void {
  if (installed) return;
  installed = true;
  (engine.OPERATORS['||'] as { evaluate: unknown }).evaluate = logicalOperator(true);
  (engine.OPERATORS['&&'] as { evaluate: unknown }).evaluate = logicalOperator(false);
}
