import { children } from './ast-walk';
import { CelNode } from './engine';

/**
 * Where sub-expressions lie in an expression's text, parentheses included: the parser's spans
 * leave out the parentheses around an operand (`(a) && b` spans `a) && b`), so a span cut out of
 * the text alone may be unbalanced. Used to rewrite an expression without moving what is left.
 */
export class SourceExtents {
  /** The index of the `)` closing each `(` outside string literals and comments. */
  private readonly closing = new Map<number, number>();
  /** Every `(` and `)` outside string literals and comments, by index, with +1 or -1. */
  private readonly parentheses: Array<[number, number]> = [];
  private readonly inners = new Map<CelNode, [number, number]>();

  public constructor(private readonly text: string) {
    const open: number[] = [];
    for (const [i, ch] of codeUnits(text)) {
      if (ch === '(') {
        open.push(i);
        this.parentheses.push([i, 1]);
      } else if (ch === ')') {
        if (open.length > 0) this.closing.set(open.pop()!, i);
        this.parentheses.push([i, -1]);
      }
    }
  }

  /**
   * The node's text range `[start, end)` with its operands' (each with the parentheses that group
   * it), but not the parentheses that group the node itself: `(a) && b` for the `&&` of `((a) && b)`.
   */
  public inner(node: CelNode): [number, number] {
    const known = this.inners.get(node);
    if (known) return known;
    let [start, end] = [node.start, node.end];
    for (const child of children(node)) {
      const [s, e] = this.outer(child);
      start = Math.min(start, s);
      end = Math.max(end, e);
    }
    this.inners.set(node, [start, end]);
    return [start, end];
  }

  /** inner(node), with the parentheses that only group the node: `((a) && b)`. */
  public outer(node: CelNode): [number, number] {
    let [start, end] = this.inner(node);
    for (;;) {
      const before = this.previous(start);
      const after = this.next(end);
      if (before === undefined || after === undefined || this.closing.get(before) !== after || !this.groups(before)) return [start, end];
      [start, end] = [before, after + 1];
    }
  }

  /** Whether the text in `[start, end)` has as many `)` as `(`, none closed before it opens. */
  public balanced(start: number, end: number): boolean {
    let depth = 0;
    for (const [i, step] of this.parentheses) {
      if (i < start) continue;
      if (i >= end) break;
      depth += step;
      if (depth < 0) return false;
    }
    return depth === 0;
  }

  /** A `(` that groups, rather than opening a call's arguments (`f(`, `x.all(`). */
  private groups(open: number): boolean {
    const before = this.previous(open);
    return before === undefined || !/[A-Za-z0-9_)\]]/.test(this.text[before]);
  }

  private previous(index: number): number | undefined {
    let i = index - 1;
    while (i >= 0 && /\s/.test(this.text[i])) i--;
    return i >= 0 ? i : undefined;
  }

  private next(index: number): number | undefined {
    let i = index;
    while (i < this.text.length && /\s/.test(this.text[i])) i++;
    return i < this.text.length ? i : undefined;
  }
}

/**
 * The code units of `text` outside string and bytes literals (`'...'`, `"..."`, triple-quoted, raw)
 * and `//` comments, with their index: where parentheses count.
 */
function* codeUnits(text: string): Generator<[number, string]> {
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      i = literalEnd(text, i);
      continue;
    }
    yield [i, ch];
    i++;
  }
}

/** The index after the string literal opening at `i` (a raw literal's `r` prefix was yielded as a code unit, harmlessly). */
function literalEnd(text: string, i: number): number {
  const quote = text[i];
  const raw = i > 0 && /[rR]/.test(text[i - 1]) && (i < 2 || !/[A-Za-z0-9_]/.test(text[i - 2]) || /[bB]/.test(text[i - 2]));
  const triple = text.startsWith(quote.repeat(3), i);
  const close = triple ? quote.repeat(3) : quote;
  let j = i + close.length;
  while (j < text.length) {
    if (!raw && text[j] === '\\') {
      j += 2;
      continue;
    }
    if (text.startsWith(close, j)) return j + close.length;
    if (!triple && text[j] === '\n') return j;
    j++;
  }
  return j;
}
