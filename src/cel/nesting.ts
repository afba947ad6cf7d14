import { children } from './ast-walk';
import { CelNode } from './engine';

/**
 * How deep cel-go's parser recurses for an expression: the number of operators, calls, selections
 * and aggregate literals on the longest path from the root to a leaf. cel-go balances chains of
 * `&&` and `||` into trees, so a chain of k operands counts ⌈log2 k⌉ levels, not k - 1.
 * (Measured against the apiserver: 250 levels pass, 251 do not.)
 *
 * Iterative, since it runs before the limit is known to hold: `1 + 1 + ...` within the
 * expression size limit is a tree 50,000 levels deep.
 */
export function nestingDepth(root: CelNode): number {
  const depths = new Map<CelNode, number>();
  const stack: Array<{ node: CelNode; operands?: CelNode[] }> = [{ node: root }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (!frame.operands) {
      frame.operands = operandsOf(frame.node);
      for (const operand of frame.operands) stack.push({ node: operand });
      continue;
    }
    stack.pop();
    depths.set(frame.node, levels(frame.node, frame.operands.map((o) => depths.get(o)!)));
  }
  return depths.get(root)!;
}

function operandsOf(node: CelNode): CelNode[] {
  return node.op === '&&' || node.op === '||' ? flattenChain(node, node.op) : children(node);
}

function levels(node: CelNode, operandDepths: number[]): number {
  const deepest = operandDepths.length === 0 ? 0 : Math.max(...operandDepths);
  if (node.op === '&&' || node.op === '||') return Math.ceil(Math.log2(operandDepths.length)) + deepest;
  if (operandDepths.length === 0 && node.op !== 'list' && node.op !== 'map' && node.op !== 'call' && node.op !== 'rcall') return 0;
  return 1 + deepest;
}

/** The operands of a chain of one logical operator, in order. */
function flattenChain(node: CelNode, op: string): CelNode[] {
  const out: CelNode[] = [];
  const stack: CelNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.op === op) stack.push(...[...children(n)].reverse());
    else out.push(n);
  }
  return out;
}
