import { setDataKey } from './data-keys';
import { CelChecker, CelEvaluator, CelNode, CelScope, CelType, engine } from './engine';

/**
 * Optional entries in list and map literals (`[?a, b]`, `{?'k': v}`), part of CEL's optional
 * types, which the engine's parser lacks: an entry whose optional value is empty is left out.
 * The parser's public `parseList` and `parseProperty` steps are extended, and the list and map
 * operators learn the marked entries (once per process, before any parse).
 */
const TOKEN = { LBRACKET: 23, RBRACKET: 24, COMMA: 28, QUESTION: 30 } as const;

/** The indices of a list literal's optional elements. */
export const OPTIONAL_INDICES = Symbol('optionalIndices');
/** Set on a map literal entry (`[key, value]`) written `?key: value`. */
export const OPTIONAL_ENTRY = Symbol('optionalEntry');

export function optionalIndices(list: CelNode): ReadonlySet<number> | undefined {
  return (list.args as { [OPTIONAL_INDICES]?: Set<number> })[OPTIONAL_INDICES];
}

export function isOptionalEntry(entry: readonly CelNode[]): boolean {
  return (entry as { [OPTIONAL_ENTRY]?: boolean })[OPTIONAL_ENTRY] === true;
}

function unwrapOptional(chk: CelChecker, node: CelNode, type: CelType): CelType {
  if (type.kind === 'optional') return type.valueType!;
  if (type.kind === 'dyn') return chk.dynType;
  throw chk.createError('optional_expected', `expected type 'optional_type' but found '${chk.formatType(type)}'`, node);
}

function present(value: any): boolean {
  if (!value || typeof value.hasValue !== 'function') throw new engine.EvaluationError({ code: 'optional_expected', message: 'optional entry must be an optional value' });
  return value.hasValue();
}

let installed = false;

export function installOptionalEntries(): void {
  if (installed) return;
  installed = true;
  const proto = engine.Parser.prototype;

  proto.parseList = function parseListWithOptionals(this: any): CelNode {
    const start: number = this.consume(TOKEN.LBRACKET);
    const elements: CelNode[] & { [OPTIONAL_INDICES]?: Set<number> } = [];
    const optional = new Set<number>();
    let remaining: number = this.limits.maxListElements;
    while (!this.match(TOKEN.RBRACKET)) {
      if (this.match(TOKEN.QUESTION) && this.registry.enableOptionalTypes) {
        this.consume(TOKEN.QUESTION);
        optional.add(elements.length);
      }
      elements.push(this.parseExpression());
      if (remaining-- <= 0) throw new engine.ParseError({ code: 'limit_exceeded', message: `Exceeded maxListElements (${this.limits.maxListElements})` });
      if (!this.match(TOKEN.COMMA)) break;
      this.consume(TOKEN.COMMA);
    }
    const end: number = this.lexer.pos;
    this.consume(TOKEN.RBRACKET);
    if (optional.size > 0) elements[OPTIONAL_INDICES] = optional;
    if (this.astNodesRemaining-- <= 0) throw new engine.ParseError({ code: 'limit_exceeded', message: 'Exceeded maxAstNodes' });
    return new engine.ASTNode(this.input, start, start, end, engine.OPERATORS.list, elements);
  };

  const parseProperty = proto.parseProperty;
  proto.parseProperty = function parsePropertyWithOptionals(this: any): CelNode[] {
    if (!(this.match(TOKEN.QUESTION) && this.registry.enableOptionalTypes)) return parseProperty.call(this);
    this.consume(TOKEN.QUESTION);
    const entry = parseProperty.call(this);
    entry[OPTIONAL_ENTRY] = true;
    return entry;
  };

  const list = engine.OPERATORS.list as any;
  const listCheck = list.check;
  const listEvaluate = list.evaluate;
  list.check = function checkList(chk: CelChecker, ast: CelNode, ctx: CelScope): CelType {
    const optional = optionalIndices(ast);
    if (!optional) return listCheck.call(this, chk, ast, ctx);
    let element: CelType | undefined;
    (ast.args as CelNode[]).forEach((node, i) => {
      let type = chk.check(node, ctx);
      if (optional.has(i)) type = unwrapOptional(chk, node, type);
      element = element === undefined || element.name === type.name ? type : chk.dynType;
    });
    return chk.registry.getListType(element ?? chk.dynType);
  };
  list.evaluate = function evaluateList(ev: CelEvaluator, ast: CelNode, ctx: CelScope): unknown {
    const optional = optionalIndices(ast);
    if (!optional) return listEvaluate.call(this, ev, ast, ctx);
    const out: unknown[] = [];
    (ast.args as CelNode[]).forEach((node, i) => {
      const value = ev.run(node, ctx);
      if (!optional.has(i)) out.push(value);
      else if (present(value)) out.push(value.value());
    });
    return out;
  };

  const map = engine.OPERATORS.map as any;
  const mapCheck = map.check;
  const hasOptional = (ast: CelNode) => (ast.args as CelNode[][]).some(isOptionalEntry);
  map.check = function checkMap(chk: CelChecker, ast: CelNode, ctx: CelScope): CelType {
    if (!hasOptional(ast)) return mapCheck.call(this, chk, ast, ctx);
    let key: CelType | undefined;
    let value: CelType | undefined;
    for (const entry of ast.args as CelNode[][]) {
      const k = chk.check(entry[0], ctx);
      let v = chk.check(entry[1], ctx);
      if (isOptionalEntry(entry)) v = unwrapOptional(chk, entry[1], v);
      key = key === undefined || key.name === k.name ? k : chk.dynType;
      value = value === undefined || value.name === v.name ? v : chk.dynType;
    }
    return chk.registry.getMapType(key ?? chk.dynType, value ?? chk.dynType);
  };
  // Every map literal, not only those with optional entries: the engine's own evaluation drops
  // the keys `__proto__`, `constructor` and `prototype`, which cel-go keeps as data, and stores
  // other keys than strings by their text, so that `{0: true}.all(k, k == 0)` saw a string key.
  // A map of string keys is a plain object, as in the engine; one with other keys a Map.
  map.evaluate = function evaluateMap(ev: CelEvaluator, ast: CelNode, ctx: CelScope): unknown {
    const entries: Array<[unknown, unknown]> = [];
    for (const entry of ast.args as CelNode[][]) {
      const k = ev.run(entry[0], ctx);
      const v = ev.run(entry[1], ctx);
      if (!isOptionalEntry(entry)) entries.push([k, v]);
      else if (present(v)) entries.push([k, v.value()]);
    }
    if (entries.every(([k]) => typeof k === 'string')) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of entries) setDataKey(out, k as string, v);
      return out;
    }
    return keyedMap(entries);
  };
}

/**
 * A map literal with keys other than strings (ints, uints, bools), as a Map (the engine knows a
 * value's type by its constructor, so not a subclass). A uint is an object in the engine: when the
 * keys hold one, a key equal to another instance of the same uint finds the entry (the checker
 * only lets a map be indexed by its key type).
 */
function keyedMap(entries: ReadonlyArray<[unknown, unknown]>): Map<unknown, unknown> {
  const map = new Map<unknown, unknown>();
  if (!entries.some(([k]) => typeof k === 'object' && k !== null)) {
    for (const [k, v] of entries) map.set(k, v);
    return map;
  }
  const stored = (key: unknown): unknown => {
    if (typeof key !== 'object' || key === null || Map.prototype.has.call(map, key)) return key;
    for (const k of map.keys()) {
      if (typeof k === 'object' && k !== null && k.constructor === key.constructor && String(k) === String(key)) return k;
    }
    return key;
  };
  for (const [k, v] of entries) map.set(stored(k), v);
  map.get = (key: unknown) => Map.prototype.get.call(map, stored(key));
  map.has = (key: unknown) => Map.prototype.has.call(map, stored(key));
  return map;
}
