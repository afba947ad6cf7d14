import { children } from './ast-walk';
import { CelEnvironment, CelNode } from './engine';
import { isGoDuration, isRfc3339 } from './literal-checks';
import { celErrorText } from './runtime-errors';

/**
 * cel-go plans programs with OptOptimize, as the apiserver builds them: a type conversion
 * (`int`, `uint`, `double`, `string`, `bool`, `bytes`, `duration`, `timestamp`) of a constant
 * (a literal, a list or map of constants, or an earlier such conversion) is evaluated when the
 * program is made, and an error there rejects the expression on create
 * (`program instantiation failed: type conversion error from 'string' to 'bool'`), where any
 * other failing call fails only when it runs. Returns the first such error, innermost first.
 */
export function constantFoldingError(root: CelNode, env: CelEnvironment): string | undefined {
  if (!MENTIONS_CONVERSION.test(root.input ?? '')) return undefined;
  let error: string | undefined;
  const isConstant = (node: CelNode): boolean => {
    switch (node.op) {
      case 'value':
        return true;
      case 'list':
      case 'map':
        return children(node).every(isConstant);
      case 'call': {
        const [name, args] = node.args as [string, CelNode[]];
        // Every argument is visited, so that conversions nested anywhere below are folded too.
        const argsConstant = args.map(isConstant);
        if (error || !TYPE_CONVERSIONS.has(name) || args.length !== 1 || !argsConstant[0]) return false;
        error = evaluationError(env, node);
        return error === undefined;
      }
      default:
        children(node).forEach(isConstant);
        return false;
    }
  };
  isConstant(root);
  return error;
}

/**
 * cel-go's type conversion functions (overloads.IsTypeConversionFunction), which its planner
 * evaluates on constants: `dyn` and `type` too (`bool(dyn(null))` fails when the program is made).
 */
export const TYPE_CONVERSIONS: ReadonlySet<string> = new Set(['bool', 'bytes', 'double', 'duration', 'dyn', 'int', 'string', 'timestamp', 'type', 'uint']);
const MENTIONS_CONVERSION = /\b(bool|bytes|double|duration|int|string|timestamp|uint)\s*\(/;

function evaluationError(env: CelEnvironment, node: CelNode): string | undefined {
  // The engine's parsers of durations and timestamps differ from Go's (it refuses "0"): use Go's rules.
  const [name, [arg]] = node.args as [string, CelNode[]];
  if ((name === 'duration' || name === 'timestamp') && arg.op === 'value' && typeof arg.args === 'string') {
    const valid = name === 'duration' ? isGoDuration(arg.args) : isRfc3339(arg.args);
    return valid ? undefined : `type conversion error from 'string' to '${name === 'duration' ? 'google.protobuf.Duration' : 'google.protobuf.Timestamp'}'`;
  }
  try {
    env.evaluate(node.input.slice(node.start, node.end));
    return undefined;
  } catch (e) {
    return celErrorText(e);
  }
}
