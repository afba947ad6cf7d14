import { children, walk } from './ast-walk';
import { CelNode } from './engine';
import { environment, guardValueOf, KnownRequest } from './request-guards';
import { SourceExtents } from './source-extents';
import { testedField } from './typed-check';
import type { CelObjectTypes } from '../schemas/cel-object-types';

/** One of the kinds a policy's expressions are type-checked against. */
export interface NarrowedKind {
  /** As warnings name it: `apps/v1 Deployment`. */
  readonly label: string;
  /** What every request of the kind shares: its kind, apiVersion, group and resource (none: nothing is ruled out for it). */
  readonly request?: KnownRequest;
  readonly types: CelObjectTypes;
  /** Names the types in caches (TypedResource.key). */
  readonly key: string;
  /** The policy's variables whose value the kind decides (one holding `object.kind == 'Pod'`), by name. */
  readonly guards?: Readonly<Record<string, boolean>>;
}

/** What narrowing found for an expression: the text each kind sees (undefined: as written), and the untestable fields. */
export interface Narrowings {
  readonly texts: ReadonlyArray<string | undefined>;
  readonly untestable: readonly UntestableField[];
}

/**
 * KindNarrowing's results for every kind, cached per (target minor, kinds, expression): the
 * validator checks an expression again in every synthesis pass.
 */
export function narrowings(expression: string, minor: number, kinds: readonly NarrowedKind[]): Narrowings {
  const kindKeys = kinds.map((k) => `${k.key}@${k.request?.apiVersion ?? ''}/${k.request?.resource ?? ''}${JSON.stringify(k.guards ?? {})}`);
  const key = `${minor}\u0000${kindKeys.join(',')}\u0000${expression}`;
  let found = cache.get(key);
  if (!found) {
    const narrowing = new KindNarrowing(expression, minor, kinds);
    found = { texts: kinds.map((_, i) => narrowing.forKind(i)), untestable: narrowing.untestableFields() };
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, found);
  }
  return found;
}

const CACHE_LIMIT = 50_000;
const cache = new Map<string, Narrowings>();

/** A `has(x.f)` or `x.?f` whose x is typed for some kinds and f a field of none of them: a misspelled test. */
export interface UntestableField {
  /** Where cel-go reports it: a has() at its `(`, an optional selection at its `.?`. */
  readonly offset: number;
  readonly field: string;
  /** The fields x has in the kinds where it is typed, for the near-miss hint. */
  readonly known: readonly string[];
  /** Those kinds' labels. */
  readonly labels: readonly string[];
}

/**
 * An expression as each kind of a policy sees it: the sub-expressions a guard rules out for the
 * kind are taken away, so that type-checking against the kind's schema does not warn of fields
 * that the kind never reaches. A lint layer above the apiserver's type checker, which checks every
 * branch against every kind (k8s.io/apiserver validating/typechecking.go) and so warns of
 * `object.kind == 'Pod' ? object.spec.containers : object.spec.template.spec.containers` twice.
 *
 * What a guard can rule out, for one kind:
 * - the kind, apiVersion, group or resource (`object.kind == 'Pod'`, `object.kind in [...]`,
 *   `object.apiVersion != 'apps/v1'`, `request.kind.kind == 'Pod'`; request-guards.ts), through
 *   `!`, `&&`, `||` and the ternary;
 * - `has(x.f)` where the kind's x lacks f (false: its objects cannot hold it), or has f while
 *   another kind's x lacks it (true: the test tells the kinds apart, as a kind test would);
 * - `x.?f.hasValue()` alike, and `x.?f` where the kind's x lacks f, which is `optional.none()`;
 * - a variable whose expression one of these decides for the kind (`variables.isPod`).
 *
 * The rewritten text keeps every line and column of what is left (what is taken away is blanked
 * with spaces, or replaced by a constant that fits in its place), so the type checker's errors
 * are at their place in the expression as written.
 */
export class KindNarrowing {
  private readonly ast?: CelNode;
  private readonly extents: SourceExtents;
  /** Per node: whether it selects from a variable guards decide (selectsVariable). */
  private readonly selecting = new Map<CelNode, boolean>();

  public constructor(private readonly expression: string, private readonly minor: number, private readonly kinds: readonly NarrowedKind[]) {
    this.extents = new SourceExtents(expression);
    // Without a word a guard needs, nothing is ruled out: most expressions are not parsed again.
    if (!GUARD_WORDS.test(expression) && !(expression.includes('variables') && kinds.some((k) => k.guards))) return;
    try {
      this.ast = environment(minor).parse(expression).ast;
    } catch {
      this.ast = undefined; // the untyped check reports it
    }
  }

  /** The expression as `kinds[index]` sees it; undefined when no guard rules anything out for it. */
  public forKind(index: number): string | undefined {
    if (!this.ast || !this.kinds[index].request) return undefined;
    const edits: Edit[] = [];
    this.narrow(this.ast, index, edits, new Map());
    if (edits.length === 0) return undefined;
    const text = applyEdits(this.expression, edits);
    try {
      environment(this.minor).parse(text);
    } catch {
      return undefined; // a rewrite this layer got wrong must not turn into a warning
    }
    return text;
  }

  /**
   * Every `has(x.f)` and `x.?f` that no kind can satisfy: taken as false for each kind, they
   * would otherwise be warned of nowhere.
   */
  public untestableFields(): UntestableField[] {
    const found: UntestableField[] = [];
    if (!this.ast) return found;
    walk(this.ast, (node, ancestors) => {
      const tested = testedField(node, ancestors.at(-1));
      const links = tested && selectionLinks(tested.receiver);
      if (!tested || !links) return;
      const typed = this.kinds.map((k) => ({ label: k.label, fields: fieldsAt(k.types, links) })).filter((k) => k.fields !== undefined);
      if (typed.length === 0 || typed.some((k) => hasOwn(k.fields!, tested.field))) return;
      found.push({
        offset: tested.offset,
        field: tested.field,
        known: [...new Set(typed.flatMap((k) => Object.keys(k.fields!)))],
        labels: typed.map((k) => k.label),
      });
    });
    return found;
  }

  private narrow(node: CelNode, index: number, edits: Edit[], values: Map<CelNode, boolean | undefined>): void {
    const value = (n: CelNode) => {
      if (!values.has(n)) values.set(n, guardValueOf(n, this.minor, this.kinds[index].request!, (t) => this.tested(t, index)));
      return values.get(n);
    };
    if ((DECIDED_OPERATORS.has(node.op) || isHas(node) || isHasValue(node)) && this.selectsVariable(node)) {
      const known = value(node);
      if (known !== undefined && this.replace(node, String(known), edits)) return;
    }
    const args = node.args as CelNode[];
    if (node.op === '?:') {
      const condition = value(args[0]);
      const kept = condition === undefined ? undefined : condition ? args[1] : args[2];
      if (kept && this.keep(node, kept, edits)) return this.narrow(kept, index, edits, values);
    }
    if (node.op === '&&' || node.op === '||') {
      // The operand that does not decide (true for &&, false for ||) leaves the other's value.
      const neutral = node.op === '&&';
      const kept = value(args[0]) === neutral ? args[1] : value(args[1]) === neutral ? args[0] : undefined;
      if (kept && this.keep(node, kept, edits)) return this.narrow(kept, index, edits, values);
    }
    if (node.op === '.?' && this.presence(index, node.args[0], node.args[1]) === false && this.replace(node, NO_VALUE, edits)) return;
    for (const child of children(node)) this.narrow(child, index, edits, values);
  }

  /** Whether the node selects from `object`, `oldObject`, `request` or `variables`, which guards decide (others are left to the type checker). */
  private selectsVariable(node: CelNode): boolean {
    let known = this.selecting.get(node);
    if (known === undefined) {
      known = node.op === 'id'
        ? node.args === 'object' || node.args === 'oldObject' || node.args === 'request' || node.args === 'variables'
        : children(node).some((c) => this.selectsVariable(c));
      this.selecting.set(node, known);
    }
    return known;
  }

  /** has() and hasValue() as the kind's schema decides them, and the variables that hold a guard, for the guards. */
  private tested(node: CelNode, index: number): boolean | undefined {
    if (node.op === '.' && node.args[0].op === 'id' && node.args[0].args === 'variables' && typeof node.args[1] === 'string') {
      const guards = this.kinds[index].guards;
      return guards && hasOwn(guards, node.args[1]) ? guards[node.args[1]] : undefined;
    }
    if (isHas(node)) {
      const selection = (node.args[1] as CelNode[])[0];
      return selection.op === '.' ? this.presence(index, selection.args[0], selection.args[1]) : undefined;
    }
    if (!isHasValue(node)) return undefined;
    const links: CelNode[] = [];
    for (let n: CelNode = node.args[1]; n.op === '.' || n.op === '.?'; n = n.args[0]) links.unshift(n);
    const optional = links.filter((l) => l.op === '.?').map((l) => this.presence(index, l.args[0], l.args[1]));
    if (optional.includes(false)) return false;
    return links.at(-1)?.op === '.?' && optional.at(-1) === true ? true : undefined;
  }

  /** Whether the kind's `receiver` holds `field` (see the class comment); undefined when the schemas do not tell. */
  private presence(index: number, receiver: CelNode, field: unknown): boolean | undefined {
    const links = selectionLinks(receiver);
    if (!links || typeof field !== 'string') return undefined;
    const here = fieldsAt(this.kinds[index].types, links);
    if (!here) return undefined;
    if (!hasOwn(here, field)) return false;
    const lacking = this.kinds.some((k, i) => {
      const there = i === index ? undefined : fieldsAt(k.types, links);
      return there !== undefined && !hasOwn(there, field);
    });
    return lacking ? true : undefined;
  }

  /** Replaces the node with a constant that fits in its place; false when it cannot. */
  private replace(node: CelNode, text: string, edits: Edit[]): boolean {
    const [start, end] = this.extents.outer(node);
    if (!this.extents.balanced(start, end)) return false;
    const segments = this.expression.slice(start, end).split(/[\r\n]/);
    if (!segments.some((s) => [...s].length >= text.length)) return false;
    edits.push({ start, end, text });
    return true;
  }

  /** Blanks the node except `kept`; false when the parts taken away are not whole. */
  private keep(node: CelNode, kept: CelNode, edits: Edit[]): boolean {
    const [start, end] = this.extents.inner(node);
    const [keptStart, keptEnd] = this.extents.outer(kept);
    if (!this.extents.balanced(start, keptStart) || !this.extents.balanced(keptEnd, end)) return false;
    if (start < keptStart) edits.push({ start, end: keptStart, text: '' });
    if (keptEnd < end) edits.push({ start: keptEnd, end, text: '' });
    return true;
  }
}

/**
 * What a dead optional selection becomes: of type optional(dyn), in no more characters than the
 * shortest such selection (`object.?f`). It is only type-checked, never evaluated.
 */
const NO_VALUE = 'dyn(0).?a';

/** What every guard has in its text. */
const GUARD_WORDS = /kind|apiVersion|resource|has\(|\.\?/;

/** The operators whose boolean value a guard may decide as a whole. */
const DECIDED_OPERATORS = new Set(['!_', '&&', '||', '?:', '==', '!=', 'in']);

interface Edit {
  readonly start: number;
  readonly end: number;
  /** Put in the place of the range's first code points (the rest blanked); '' blanks it all. */
  readonly text: string;
}

/** The expression with each edit's range blanked (line breaks kept, one space per code point) and its text put in. */
function applyEdits(expression: string, edits: readonly Edit[]): string {
  let out = '';
  let at = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    out += expression.slice(at, edit.start);
    const points: string[] = [...expression.slice(edit.start, edit.end)].map((p) => (p === '\n' || p === '\r' ? p : ' '));
    if (edit.text !== '') {
      const i = points.findIndex((_, j) => j + edit.text.length <= points.length && points.slice(j, j + edit.text.length).every((p) => p === ' '));
      points.splice(i, edit.text.length, ...edit.text);
    }
    out += points.join('');
    at = edit.end;
  }
  return out + expression.slice(at);
}

function isHas(node: CelNode): boolean {
  return node.op === 'call' && node.args[0] === 'has' && Array.isArray(node.args[1]) && node.args[1].length === 1;
}

function isHasValue(node: CelNode): boolean {
  return node.op === 'rcall' && node.args[0] === 'hasValue' && node.args[2].length === 0;
}


/** The field names of a selection chain from `object` or `oldObject` (`object.spec.?template`), or undefined. */
function selectionLinks(node: CelNode): string[] | undefined {
  if (node.op === 'id') return node.args === 'object' || node.args === 'oldObject' ? [] : undefined;
  if ((node.op === '.' || node.op === '.?') && typeof node.args[1] === 'string') {
    const parent = selectionLinks(node.args[0]);
    return parent && [...parent, node.args[1]];
  }
  return undefined;
}

/** The fields of the message type at the end of `links` in a kind's types, when every link is a field of one. */
function fieldsAt(types: CelObjectTypes, links: readonly string[]): Readonly<Record<string, string>> | undefined {
  let type = types.root;
  for (const link of links) {
    const fields = types.types.get(type);
    if (!fields || !hasOwn(fields, link)) return undefined;
    type = fields[link];
  }
  return types.types.get(type);
}

function hasOwn(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}
