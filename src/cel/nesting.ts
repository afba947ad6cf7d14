import { children } from './ast-walk';
import { CelNode } from './engine';

/**
 * How deep cel-go's parser recurses for an expression: the number of operators, calls, selections
 * and aggregate literals on the longest path from the root to a leaf. cel-go balances chains of
 * `&&` and `||` into trees, so a chain of k operands counts ⌈log2 k⌉ levels, not k - 1; the engine
 * nests them to the left. (Measured against the apiserver: 250 levels pass, 251 do not.)
 */
export function nestingDepth(root: CelNode): number {
  const depth = (node: CelNode): number => {
    const kids = children(node);
    if (kids.length === 0 && node.op !== 'list' && node.op !== 'map' && node.op !== 'call' && node.op !== 'rcall') return 0;
    if (node.op === '&&' || node.op === '||') {
      const operands = flattenChain(node, node.op);
      return Math.ceil(Math.log2(operands.length)) + Math.max(...operands.map(depth));
    }
    return 1 + (kids.length === 0 ? 0 : Math.max(...kids.map(depth)));
  };
  return depth(root);
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
