import { CelNode, engine } from './engine';

/**
 * Where cel-go's grammar builds a different tree than the engine's parser, for operator chains:
 *
 * - `a && b && c ...` and `||` chains become balanced trees (cel-go's parser balances them), so
 *   a chain of 30,000 operands, which the apiserver accepts, is 15 levels deep rather than 30,000;
 * - a run of one unary operator collapses in pairs: `!!x` is `x` (whatever its type), `!!!x` is
 *   `!x` at the first `!`, and `--1` is the literal `1`. A run of 100,000 `!` is one node.
 *   A `-` followed by `!`, or a `!` followed by a `-` that is not a number's sign, is a syntax
 *   error in cel-go's grammar;
 * - the middle of `c ? a : b` is an `||` expression: `c ? d ? x : y : z` needs parentheses.
 *
 * Measured against the apiserver: a 10,000-operand `&&` chain and 10,000 `!` compile,
 * `!!1 == 1` and `--'a' == 'a'` compile, `!!!1` fails at column 1, `-!true` and `!-x` are
 * syntax errors at the token after the run, `true ? true ? true : false : false` is one at the
 * second `?`.
 */

// Token numbers of the engine's lexer (version pinned in .projenrc.ts).
const TOKEN = { NUMBER: 1, MINUS: 7, AND: 17, OR: 18, NOT: 19, COLON: 29, QUESTION: 30 } as const;

let installed = false;

export function installOperatorChains(): void {
  if (installed) return;
  installed = true;
  const proto = engine.Parser.prototype;
  const ops = engine.OPERATORS as Record<string, object>;

  proto.parseLogicalOr = function parseBalancedOr(this: any): CelNode {
    return parseChain(this, TOKEN.OR, ops['||'], () => this.parseLogicalAnd());
  };
  proto.parseLogicalAnd = function parseBalancedAnd(this: any): CelNode {
    return parseChain(this, TOKEN.AND, ops['&&'], () => this.parseEquality());
  };
  proto.parseUnary = function parseUnaryAsCelGo(this: any): CelNode {
    return parseUnaryRun(this, ops);
  };
  proto.parseExpression = function parseExpressionAsCelGo(this: any): CelNode {
    return parseConditional(this, ops);
  };
}

function node(p: any, pos: number, start: number, end: number, op: object, args: unknown): CelNode {
  if (!p.astNodesRemaining--) throw limitExceeded(p, 'maxAstNodes', pos);
  return new engine.ASTNode(p.input, pos, start, end, op, args);
}

function limitExceeded(p: any, key: string, pos: number): Error {
  return new engine.ParseError({ code: 'limit_exceeded', message: `Exceeded ${key} (${p.limits[key]})`, node: { pos, start: pos, end: pos, input: p.input } });
}

function syntaxError(p: any, message: string): Error {
  return new engine.ParseError({ code: 'syntax_error', message, node: { pos: p.pos, start: p.pos, end: p.lexer.pos, input: p.input } });
}

/** `t0 op t1 op ... tn`, split as cel-go's balancer splits it: the middle operator is the root. */
function parseChain(p: any, token: number, op: object, operand: () => CelNode): CelNode {
  const terms: CelNode[] = [operand()];
  while (p.match(token)) {
    p.consume(token);
    terms.push(operand());
  }
  if (terms.length === 1) return terms[0];
  // Iterative over the operator indices lo..hi (operator i joins terms i and i + 1).
  const build = (lo: number, hi: number): CelNode => {
    const mid = Math.floor((lo + hi + 1) / 2);
    const left = mid === lo ? terms[mid] : build(lo, mid - 1);
    const right = mid === hi ? terms[mid + 1] : build(mid + 1, hi);
    return node(p, left.start, left.start, right.end, op, [left, right]);
  };
  return build(0, terms.length - 2);
}

function parseUnaryRun(p: any, ops: Record<string, object>): CelNode {
  const token = p.type;
  if (token !== TOKEN.NOT && token !== TOKEN.MINUS) return p.parsePostfix();
  const first: number = p.pos;
  let last = first;
  let count = 0;
  while (p.match(token)) {
    last = p.pos;
    p.consume(token);
    count++;
  }
  let operand: CelNode;
  if (token === TOKEN.MINUS && p.match(TOKEN.NOT)) {
    throw syntaxError(p, `no viable alternative at input '${p.input.slice(last, p.lexer.pos)}'`);
  } else if (token === TOKEN.NOT && p.match(TOKEN.MINUS)) {
    // Only a number's sign may follow `!`: `!-1` is `!` of the literal -1.
    const sign: number = p.pos;
    p.consume(TOKEN.MINUS);
    if (!p.match(TOKEN.NUMBER)) throw syntaxError(p, `no viable alternative at input '${p.input.slice(sign, p.lexer.pos)}'`);
    const literal: CelNode = p.parsePostfix();
    operand = node(p, sign, sign, literal.end, ops.unaryMinus, literal);
  } else {
    operand = p.parsePostfix();
  }
  if (count % 2 === 0) return operand;
  return node(p, first, first, operand.end, token === TOKEN.NOT ? ops.unaryNot : ops.unaryMinus, operand);
}

function parseConditional(p: any, ops: Record<string, object>): CelNode {
  if (!p.maxDepthRemaining--) throw limitExceeded(p, 'maxDepth', p.pos);
  const condition: CelNode = p.parseLogicalOr();
  if (!p.match(TOKEN.QUESTION)) {
    p.maxDepthRemaining++;
    return condition;
  }
  p.consume(TOKEN.QUESTION);
  const consequent: CelNode = p.parseLogicalOr();
  if (!p.match(TOKEN.COLON)) {
    const found = p.input.slice(p.pos, p.lexer.pos) || '<EOF>';
    throw syntaxError(p, `mismatched input '${found}' expecting ':'`);
  }
  p.consume(TOKEN.COLON);
  const alternate: CelNode = p.parseExpression();
  p.maxDepthRemaining++;
  return node(p, condition.start, condition.start, alternate.end, ops.ternary, [condition, consequent, alternate]);
}
