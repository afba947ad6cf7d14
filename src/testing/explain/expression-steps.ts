// The sub-expressions of one evaluated expression with the values they had, read from its trace:
// what an explanation shows under an expression that was false or failed. Pure over the trace.
import { celErrorLine, celValueText } from './cel-value-text';
import { EvaluationTrace, NodeEvaluation } from './evaluation-trace';
import { children, functionName } from '../../cel/ast-walk';
import { CelNode } from '../../cel/engine';

/** One sub-expression as an explanation shows it. */
export interface Step {
  /** The sub-expression's source text. */
  readonly expression: string;
  /** Its value as a CEL literal, or its error; absent when it was not evaluated. */
  readonly value?: string;
  readonly error?: string;
  /** False when evaluation never reached it (a short-circuited operand, a ternary arm not taken). */
  readonly evaluated: boolean;
  /** How deep it sits in macro iterations (0 outside any macro). */
  readonly depth: number;
  /** For a binary operator, the operation on its operands' values (`6 <= 5`). */
  readonly operation?: string;
  /** For a macro's iteration, which one: `all(c, ...) at index 1, c = {...}`. */
  readonly iteration?: string;
}

/** The macros whose deciding iteration an explanation shows, and how an iteration decides. */
const DECIDING: { readonly [macro: string]: (value: unknown) => boolean } = {
  all: (v) => v !== true,
  exists: (v) => v === true,
  exists_one: (v) => v === true,
};

/** Operators shown with their operands' values. */
const BINARY = new Set(['==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', 'in']);

/** Nodes that select from their first argument: of a chain, only the outermost is shown. */
const SELECTIONS = new Set(['.', '.?', '[]', '[?]']);

interface Window {
  readonly start: number;
  readonly end: number;
}

/**
 * The steps of an expression, in evaluation order (operands before their operator), without the
 * literals and variables it names (their values are in the steps that use them), and without the
 * inner links of a selection chain (`object.spec` of `object.spec.replicas`). Inside a macro,
 * the iteration that decided it (the first false element of `all`, the first true of `exists`)
 * is shown with the steps of that iteration only.
 */
export function expressionSteps(trace: EvaluationTrace): Step[] {
  const byNode = new Map<CelNode, NodeEvaluation[]>();
  for (const e of trace.evaluations) {
    const list = byNode.get(e.node);
    if (list) list.push(e);
    else byNode.set(e.node, [e]);
  }
  const steps: Step[] = [];
  // The same sub-expression with the same value, twice in one iteration (`c.image` in `c.image != ""
  // && c.image.contains(":")`), is shown once.
  const seen = new Set<string>();
  const push = (step: Step, w: Window) => {
    const key = JSON.stringify([w.start, step.depth, step.expression, step.value ?? null, step.error ?? null, step.evaluated,
      step.iteration ?? null]);
    if (seen.has(key)) return;
    seen.add(key);
    steps.push(step);
  };
  const within = (node: CelNode, w: Window) => (byNode.get(node) ?? []).filter((e) => e.start >= w.start && e.end <= w.end);
  const visit = (node: CelNode, parent: CelNode | undefined, w: Window, depth: number): void => {
    const evaluations = within(node, w);
    if (evaluations.length === 0) {
      if (shown(node, parent)) push({ expression: source(node), evaluated: false, depth }, w);
      return;
    }
    const last = evaluations[evaluations.length - 1];
    const macro = macroParts(node);
    if (macro) {
      visit(macro.receiver, node, w, depth);
      const iterations = within(macro.body, { start: last.start, end: last.end });
      const decide = DECIDING[macro.name];
      const index = iterations.findIndex((e) => e.failed || (decide !== undefined && decide(e.value)));
      if (index >= 0) {
        const deciding = iterations[index];
        const receiver = within(macro.receiver, w).at(-1);
        // The iteration first (it heads the steps under it), with the body's value.
        push({ ...outcome(macro.body, deciding, depth + 1), iteration: iterationText(macro, index, receiver?.value) }, w);
        for (const child of children(macro.body)) visit(child, macro.body, { start: deciding.start, end: deciding.end }, depth + 1);
      }
      push(outcome(node, last, depth), w);
      return;
    }
    for (const child of children(node)) visit(child, node, w, depth);
    if (shown(node, parent)) push({ ...outcome(node, last, depth), ...operation(node, last, within, w) }, w);
  };
  visit(trace.root, undefined, { start: -Infinity, end: Infinity }, 0);
  return steps;
}

function outcome(node: CelNode, e: NodeEvaluation, depth: number): Step {
  return {
    expression: source(node),
    evaluated: true,
    depth,
    ...(e.failed ? { error: celErrorLine(e.error) } : { value: celValueText(e.value) }),
  };
}

/** `6 <= 5` for a binary operator whose operands both have a value. */
function operation(
  node: CelNode, e: NodeEvaluation, within: (node: CelNode, w: Window) => NodeEvaluation[], w: Window,
): { operation?: string } {
  if (!BINARY.has(node.op) || !Array.isArray(node.args) || node.args.length !== 2) return {};
  const operands = (node.args as CelNode[]).map((a) => within(a, { start: e.start, end: e.end }).at(-1) ?? within(a, w).at(-1));
  if (operands.some((o) => o === undefined || o.failed)) return {};
  return { operation: `${celValueText(operands[0]!.value, 40)} ${node.op} ${celValueText(operands[1]!.value, 40)}` };
}

/** Literals and names are not steps; nor is a selection another selection is made from. */
function shown(node: CelNode, parent: CelNode | undefined): boolean {
  if (node.op === 'value' || node.op === 'id') return false;
  if (parent && SELECTIONS.has(node.op) && SELECTIONS.has(parent.op) && children(parent)[0] === node) return false;
  return true;
}

interface MacroParts {
  readonly name: string;
  readonly receiver: CelNode;
  readonly variable: string;
  readonly body: CelNode;
}

/** `list.all(x, body)` and its kin (the engine expands them; the original call keeps receiver and body). */
function macroParts(node: CelNode): MacroParts | undefined {
  if (node.op !== 'rcall' || !node.meta.alternate) return undefined;
  const args = node.args[2] as CelNode[];
  if (args.length < 2 || args[0].op !== 'id') return undefined;
  return { name: functionName(node)!, receiver: node.args[1], variable: String(args[0].args), body: args[args.length - 1] };
}

function iterationText(macro: MacroParts, index: number, range: unknown): string {
  const element = Array.isArray(range) ? range[index] : range instanceof Map ? [...range.keys()][index]
    : range && typeof range === 'object' ? Object.keys(range)[index] : undefined;
  const value = element === undefined ? '' : `, ${macro.variable} = ${celValueText(element, 60)}`;
  return `${macro.name}(${macro.variable}, ...) at ${Array.isArray(range) ? 'index' : 'entry'} ${index}${value}`;
}

function source(node: CelNode): string {
  return node.input.slice(node.start, node.end);
}
