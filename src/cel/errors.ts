import { CelError, CelNode } from './engine';
import { userNames } from './routes';
import { celTypeName } from './type-names';

/**
 * Compile errors rendered the way cel-go's `Issues.String()` renders them, which is what the
 * apiserver puts after `compilation failed: `:
 *
 *     ERROR: <input>:1:5: undeclared reference to 'params' (in container '')
 *      | 1 + params.x
 *      | ....^
 *
 * Lines are 1-based, columns 1-based in the header and counted in code points.
 */
export interface CelIssue {
  /** UTF-16 offset into the expression; `NO_LOCATION` for an error about the whole expression. */
  readonly offset: number;
  readonly message: string;
}

/** cel-go reports limits of the whole expression at `<input>:-1:0`, with no snippet. */
export const NO_LOCATION = -1;

export function renderIssue(expression: string, issue: CelIssue): string {
  if (issue.offset === NO_LOCATION) return `ERROR: <input>:-1:0: ${issue.message}`;
  const before = expression.slice(0, Math.max(0, Math.min(issue.offset, expression.length)));
  const lineStart = before.lastIndexOf('\n') + 1;
  const line = before.split('\n').length;
  const columnChars = [...before.slice(lineStart)];
  const lineEnd = expression.indexOf('\n', lineStart);
  const snippet = expression.slice(lineStart, lineEnd === -1 ? undefined : lineEnd).replace(/\t/g, ' ');
  const header = `ERROR: <input>:${line}:${columnChars.length + 1}: ${issue.message}`;
  const wide = (ch: string) => Buffer.byteLength(ch) > 1;
  const indicator = columnChars.map((ch) => (wide(ch) ? '\uff0e' : '.')).join('');
  const at = [...expression.slice(issue.offset)][0];
  return `${header}\n | ${snippet}\n | ${indicator}${at !== undefined && wide(at) ? '\uff3e' : '^'}`;
}

/** The apiserver's detail for an expression that does not compile. */
export function compilationFailed(expression: string, issues: readonly CelIssue[]): string {
  return `compilation failed: ${issues.map((i) => renderIssue(expression, i)).join('\n')}`;
}

/** cel-go's parser limits, which the apiserver keeps at their defaults. */
export const MAX_RECURSION_DEPTH = 250;
export const MAX_EXPRESSION_CODE_POINTS = 100_000;

const OPERATOR_FUNCTIONS: Record<string, string> = {
  '==': '_==_',
  '!=': '_!=_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  'in': '@in',
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  '!': '!_',
  '&&': '_&&_',
  '||': '_||_',
};

function typeList(list: string): string {
  if (list.trim() === '') return '';
  return splitArgs(list).map(operandName).join(', ');
}

function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '<' || ch === '(') depth++;
    if (ch === '>' || ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  out.push(current.trim());
  return out;
}

/** Where cel-go puts the error of a node: operators at their token, calls at `(`, selections at `.`. */
export function issueOffset(node: CelNode | undefined, fallback: number): number {
  if (!node || typeof node.pos !== 'number') return fallback;
  const input = node.input ?? '';
  const args = node.args;
  if (Array.isArray(args) && args.length === 2 && isNode(args[0]) && isNode(args[1]) && OPERATOR_FUNCTIONS[node.op]) {
    const at = input.indexOf(node.op, args[0].end);
    if (at !== -1 && at < args[1].start) return at;
  }
  if (node.op === '!_' || node.op === '-_') return node.start;
  // cel-go types `c ? a : b` and `x[i]` as overloaded functions: their errors are at `?` and `[`.
  if (node.op === '?:' && Array.isArray(args) && isNode(args[0])) {
    const at = input.indexOf('?', args[0].end);
    if (at !== -1) return at;
  }
  if (node.op === '[]' && Array.isArray(args) && isNode(args[0])) {
    const at = input.indexOf('[', args[0].end);
    if (at !== -1) return at;
  }
  if (node.op === 'call' || node.op === 'rcall') {
    const nameEnd = node.op === 'call' ? node.start : (args[1] as CelNode).end;
    const at = input.indexOf('(', nameEnd);
    if (at !== -1) return at;
  }
  if (node.op === '.' || node.op === '.?') {
    const at = input.lastIndexOf('.', node.pos);
    if (at !== -1) return at;
  }
  return node.pos;
}

function isNode(value: unknown): value is CelNode {
  return typeof value === 'object' && value !== null && typeof (value as CelNode).op === 'string' && typeof (value as CelNode).start === 'number';
}

/** The engine's error as cel-go would word it, at the position cel-go would report. */
/** A type in an overload error, as cel-go's FormatCheckedType prints it: the null type is `null` there. */
function operandName(type: string): string {
  return celTypeName(type).replace(/\bnull_type\b/g, 'null');
}

export function translateEngineError(error: CelError): CelIssue {
  const node = error.node as CelNode | undefined;
  const offset = issueOffset(node?.op ? node : undefined, error.range?.start ?? node?.pos ?? 0);
  // Routed built-ins (routes.ts) carry internal names; the user wrote the public one.
  const summary = userNames(error.summary ?? error.message);
  let m: RegExpExecArray | null;
  if (error.name === 'ParseError' && /^Exceeded maxDepth\b/.test(summary)) {
    return { offset: NO_LOCATION, message: `expression recursion limit exceeded: ${MAX_RECURSION_DEPTH}` };
  }
  if (error.name === 'ParseError') return { offset, message: `Syntax error: ${summary}` };
  if (/^Ternary condition must be bool/.test(summary) && node && typeof node.end === 'number') {
    // The engine points at the condition; cel-go at the `?` after it.
    const at = (node.input ?? '').indexOf('?', node.end);
    return { offset: at === -1 ? offset : at, message: summary };
  }
  if ((m = /^Unknown variable: (.+)$/.exec(summary))) {
    return { offset, message: `undeclared reference to '${m[1]}' (in container '')` };
  }
  if ((m = /^No such key: (.+)$/.exec(summary))) return { offset, message: `undefined field '${m[1]}'` };
  if ((m = /^no such overload: (.+) (==|!=|<=|>=|<|>|\+|-|\*|\/|%|in) (.+)$/.exec(summary)) && OPERATOR_FUNCTIONS[m[2]]) {
    return { offset, message: `found no matching overload for '${OPERATOR_FUNCTIONS[m[2]]}' applied to '(${operandName(m[1])}, ${operandName(m[3])})'` };
  }
  if ((m = /^no such overload: ([!-])(.+)$/.exec(summary))) {
    return { offset, message: `found no matching overload for '${m[1]}_' applied to '(${operandName(m[2])})'` };
  }
  if (summary === 'has() invalid argument') return { offset, message: 'invalid argument to has() macro' };
  if ((m = /^found no matching overload for '(?:(.+)\.)?(\w+)\((.*)\)'$/.exec(summary))) {
    const [, receiver, name, args] = m;
    const applied = receiver ? `${operandName(receiver)}.(${typeList(args)})` : `(${typeList(args)})`;
    return { offset, message: `found no matching overload for '${name}' applied to '${applied}'` };
  }
  if ((m = /^Logical operator requires bool operands, got '(.+)'$/.exec(summary))) {
    // cel-go reports it at the operand that is not a bool.
    const operands = node && Array.isArray(node.args) ? (node.args as unknown[]).filter(isNode) : [];
    const operand = operands.find((o) => o.checkedType && !['bool', 'dyn'].includes(o.checkedType.name)) ?? operands[0];
    return { offset: operand ? issueOffset(operand, operand.pos) : offset, message: `expected type 'bool' but found '${celTypeName(m[1])}'` };
  }
  return { offset, message: summary };
}
