import { CelNode } from './engine';
import { StructArgs } from './struct-literals';

/** The direct sub-expressions of a parsed node, in source order. */
export function children(node: CelNode): CelNode[] {
  const args = node.args;
  switch (node.op) {
    case 'value':
    case 'id':
      return [];
    case '.':
    case '.?':
      return [args[0]];
    case 'call':
      return args[1];
    case 'rcall':
      return [args[1], ...args[2]];
    case 'map':
      return (args as CelNode[][]).flat();
    case 'struct':
      return (args as StructArgs).fields.map((f) => f.value);
    case '!_':
    case '-_':
      return [args];
    default:
      return Array.isArray(args) ? args.filter(isNode) : [];
  }
}

function isNode(value: unknown): value is CelNode {
  return typeof value === 'object' && value !== null && typeof (value as CelNode).op === 'string';
}

/**
 * Visits every node in source order with its ancestors, outermost first (`ancestors.at(-1)` is
 * the parent). The array is reused during the walk: copy it to keep it.
 */
export function walk(root: CelNode, visit: (node: CelNode, ancestors: readonly CelNode[]) => void): void {
  const ancestors: CelNode[] = [];
  const go = (node: CelNode): void => {
    visit(node, ancestors);
    ancestors.push(node);
    for (const child of children(node)) go(child);
    ancestors.pop();
  };
  go(root);
}

/** The function name of a call node (`matches` for both `s.matches(re)` and `matches(s, re)`). */
export function functionName(node: CelNode): string | undefined {
  return node.op === 'call' || node.op === 'rcall' ? (node.args[0] as string) : undefined;
}

/** A call's arguments as cel-go counts them: the receiver of a member call is not one. */
export function callArguments(node: CelNode): CelNode[] {
  if (node.op === 'call') return node.args[1];
  if (node.op === 'rcall') return node.args[2];
  return [];
}
