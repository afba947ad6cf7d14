// What each node of an expression evaluated to, recorded only while an explanation or coverage
// asks for it: the engine's evaluator is wrapped once, and costs one test per node otherwise.
import { CelNode, evaluatorPrototype } from '../../cel/engine';

/** One evaluation of one node: its value or error, and when it started and ended (to nest evaluations). */
export interface NodeEvaluation {
  readonly node: CelNode;
  readonly start: number;
  readonly end: number;
  readonly value?: unknown;
  readonly error?: unknown;
  readonly failed: boolean;
}

/** The node evaluations of one expression, in the order they ended; the root's is last. */
export interface EvaluationTrace {
  readonly root: CelNode;
  readonly evaluations: readonly NodeEvaluation[];
}

let active: NodeEvaluation[] | undefined;
let clock = 0;
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  const prototype = evaluatorPrototype();
  const run = prototype.run;
  prototype.run = function (this: unknown, node: CelNode, ctx: unknown) {
    const into = active;
    if (!into) return run.call(this, node, ctx);
    const start = clock++;
    try {
      const value = run.call(this, node, ctx);
      into.push({ node, start, end: clock++, value, failed: false });
      return value;
    } catch (error) {
      into.push({ node, start, end: clock++, error, failed: true });
      throw error;
    }
  };
}

/**
 * Runs `evaluate` (the program of `root`) and records every node it evaluates; the root's
 * evaluation (last) holds the value or the error. Traces nest: an expression evaluated inside
 * another (a variable read by a validation) has a trace of its own. The root, which the engine
 * evaluates without its evaluator's `run`, is recorded here.
 */
export function traced(root: CelNode, evaluate: () => unknown): EvaluationTrace {
  install();
  const outer = active;
  const evaluations: NodeEvaluation[] = [];
  active = evaluations;
  const start = clock++;
  try {
    const value = evaluate();
    evaluations.push({ node: root, start, end: clock++, value, failed: false });
  } catch (error) {
    evaluations.push({ node: root, start, end: clock++, error, failed: true });
  } finally {
    active = outer;
  }
  return { root, evaluations };
}

/** The root's evaluation: the expression's value or error. */
export function outcomeOf(trace: EvaluationTrace): NodeEvaluation {
  return trace.evaluations[trace.evaluations.length - 1];
}
