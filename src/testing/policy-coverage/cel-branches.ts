// CEL branch coverage of one expression: the branches its syntax tree has, and the ones an
// evaluation's trace took. Branches are keyed by their node's source range and operator, so the
// syntax tree of a later compilation (another tester, another program cache) names the same ones.
import { children, functionName, walk } from '../../cel/ast-walk';
import { CelNode } from '../../cel/engine';
import { EvaluationTrace, NodeEvaluation } from '../explain/evaluation-trace';

/**
 * What a branch is: a boolean sub-expression seen `true` or `false`, a ternary's `then` or `else`
 * arm taken, a macro's `body` reached, the `left` or the `right` operand of `&&` or `||` deciding
 * its value.
 */
export type BranchKind = 'true' | 'false' | 'then' | 'else' | 'body' | 'left' | 'right';

/** One branch of an expression: where it is in the source, and what taking it means. */
export interface Branch {
  readonly start: number;
  readonly end: number;
  readonly op: string;
  readonly kind: BranchKind;
}

/** Operators whose value is a bool whatever their operands. */
const BOOLEAN_OPERATORS = new Set(['&&', '||', '!_', '==', '!=', '<', '<=', '>', '>=', 'in']);
/** Functions and macros whose result is a bool (the Kubernetes libraries' predicates among them). */
const BOOLEAN_FUNCTIONS = new Set([
  'has', 'all', 'exists', 'exists_one', 'existsOne', 'startsWith', 'endsWith', 'contains', 'matches', 'isSorted',
  'isURL', 'isIP', 'isCIDR', 'isQuantity', 'isSemver', 'isFormatted', 'isGreaterThan', 'isLessThan', 'containsIP', 'containsCIDR',
  'allowed', 'errored', 'isLoopback', 'isUnspecified', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast', 'hasValue',
]);
/** Macros whose body runs once per element. */
const MACROS = new Set(['all', 'exists', 'exists_one', 'existsOne', 'map', 'filter', 'transformList', 'transformMap', 'transformMapEntry']);

function isBoolean(node: CelNode): boolean {
  if (BOOLEAN_OPERATORS.has(node.op)) return true;
  const name = functionName(node);
  return name !== undefined && BOOLEAN_FUNCTIONS.has(name);
}

/** The macro's body: the last argument of an expanded call (`list.all(x, body)`). */
function macroBody(node: CelNode): CelNode | undefined {
  if (node.op !== 'rcall' || !node.meta.alternate || !MACROS.has(functionName(node)!)) return undefined;
  const args = node.args[2] as CelNode[];
  return args.length >= 2 ? args[args.length - 1] : undefined;
}

function branch(node: CelNode, kind: BranchKind): Branch {
  return { start: node.start, end: node.end, op: node.op, kind };
}

/** Every branch of an expression's syntax tree, in source order. */
export function branchesOf(root: CelNode): Branch[] {
  const out: Branch[] = [];
  walk(root, (node) => {
    if (isBoolean(node)) out.push(branch(node, 'true'), branch(node, 'false'));
    if (node.op === '?:') out.push(branch(node, 'then'), branch(node, 'else'));
    if (node.op === '&&' || node.op === '||') out.push(branch(node, 'left'), branch(node, 'right'));
    if (macroBody(node)) out.push(branch(node, 'body'));
  });
  return out;
}

export function branchKey(b: Branch): string {
  return `${b.start}:${b.end}:${b.op}:${b.kind}`;
}

/** The branches one evaluation took, each with how many times (once per evaluation of its node). */
export function branchesTaken(trace: EvaluationTrace): Map<string, number> {
  const byNode = new Map<CelNode, NodeEvaluation[]>();
  for (const e of trace.evaluations) {
    const list = byNode.get(e.node);
    if (list) list.push(e);
    else byNode.set(e.node, [e]);
  }
  const within = (node: CelNode, e: NodeEvaluation) => (byNode.get(node) ?? []).filter((x) => x.start >= e.start && x.end <= e.end);
  const taken = new Map<string, number>();
  const take = (node: CelNode, kind: BranchKind) => {
    const key = branchKey(branch(node, kind));
    taken.set(key, (taken.get(key) ?? 0) + 1);
  };
  for (const e of trace.evaluations) {
    const node = e.node;
    if (isBoolean(node) && !e.failed && typeof e.value === 'boolean') take(node, e.value ? 'true' : 'false');
    if (node.op === '?:') {
      const [, then, otherwise] = children(node);
      if (within(then, e).length > 0) take(node, 'then');
      else if (within(otherwise, e).length > 0) take(node, 'else');
    }
    if (node.op === '&&' || node.op === '||') {
      // The left operand decides when it alone gives the result: false for &&, true for ||.
      const left = within(children(node)[0], e).at(-1);
      const decisive = node.op === '||';
      if (left && !left.failed && left.value === decisive) take(node, 'left');
      else if (!e.failed) take(node, 'right');
    }
    const body = macroBody(node);
    if (body && within(body, e).length > 0) take(node, 'body');
  }
  return taken;
}
