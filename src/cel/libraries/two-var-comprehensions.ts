import { CelChecker, CelEnvironment, CelEvaluator, CelNode, CelScope, CelType } from '../engine';
import { CelLibrary } from '../library';
import { asEntries, asList, celEquals, celError } from './values';

/**
 * cel-go's two-variable comprehensions (ext.TwoVarComprehensions), as engine macros:
 * `all(i, v, p)`, `exists(i, v, p)`, `existsOne(i, v, p)`, `transformList(i, v, [filter,] e)`,
 * `transformMap(i, v, [filter,] e)`, `transformMapEntry(i, v, [filter,] e)`. Over a list, the
 * variables are the index and the element; over a map, the key and the value.
 */
interface TwoVarMacro {
  readonly name: string;
  readonly receiver: CelNode;
  readonly first: string;
  readonly second: string;
  readonly filter?: CelNode;
  readonly body: CelNode;
  types?: [CelType, CelType];
}

function identifier(node: CelNode, name: string): string {
  if (node.op !== 'id') throw celError(`${name}() variable name must be a simple identifier`);
  return node.args as string;
}

function iterationTypes(chk: CelChecker, receiver: CelType, node: CelNode): [CelType, CelType] {
  if (receiver.kind === 'list') return [chk.intType, receiver.valueType!];
  if (receiver.kind === 'map') return [receiver.keyType!, receiver.valueType!];
  if (receiver.kind === 'dyn') return [chk.dynType, chk.dynType];
  throw chk.createError('invalid_comprehension_range',
    `expression of type '${chk.formatType(receiver)}' cannot be the range of a comprehension (must be list, map, or dynamic)`, node);
}

function scope(ctx: CelScope, m: TwoVarMacro): [CelScope, CelScope] {
  const outer = ctx.forkWithVariable(m.first, m.types![0]);
  return [outer, outer.forkWithVariable(m.second, m.types![1])];
}

function checkBool(chk: CelChecker, node: CelNode, ctx: CelScope, what: string): void {
  const t = chk.check(node, ctx);
  if (!t.isDynOrBool()) throw chk.createError('invalid_predicate', `${what} must evaluate to bool, got '${chk.formatType(t)}'`, node);
}

function entriesOf(value: unknown): Array<[unknown, unknown]> {
  const list = asList(value);
  if (list) return list.map((v, i) => [BigInt(i), v]);
  const entries = asEntries(value);
  if (entries) return entries;
  throw celError('comprehension range must be a list or a map');
}

function* iterate(ev: CelEvaluator, m: TwoVarMacro, ctx: CelScope): Generator<[unknown, unknown, CelScope]> {
  const [outer, inner] = scope(ctx, m);
  for (const [k, v] of entriesOf(ev.run(m.receiver, ctx))) {
    outer.setIterValue(k, ev);
    inner.setIterValue(v, ev);
    if (m.filter) {
      const keep = ev.run(m.filter, inner);
      if (keep !== true && keep !== false) throw celError('filter must evaluate to bool');
      if (!keep) continue;
    }
    yield [k, v, inner];
  }
}

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

function expander(kind: Kind, withFilter: boolean) {
  return ({ args, receiver }: { args: CelNode[]; receiver: CelNode }) => {
    const m: TwoVarMacro = {
      name: kind,
      receiver,
      first: identifier(args[0], kind),
      second: identifier(args[1], kind),
      filter: withFilter ? args[2] : undefined,
      body: withFilter ? args[3] : args[2],
    };
    if (m.first === m.second) throw celError(`${kind}() second variable must be different from the first variable`);
    return {
      ...m,
      typeCheck(chk: CelChecker, macro: TwoVarMacro, ctx: CelScope): CelType {
        macro.types = iterationTypes(chk, chk.check(macro.receiver, ctx), macro.receiver);
        const [, inner] = scope(ctx, macro);
        if (macro.filter) checkBool(chk, macro.filter, inner, `${kind}() filter`);
        const bodyType = chk.check(macro.body, inner);
        switch (kind) {
          case 'all':
          case 'exists':
          case 'existsOne':
            if (!bodyType.isDynOrBool()) {
              throw chk.createError('invalid_predicate', `${kind}() predicate must evaluate to bool, got '${chk.formatType(bodyType)}'`, macro.body);
            }
            return chk.boolType;
          case 'transformList':
            return chk.registry.getListType(bodyType);
          case 'transformMap':
            return chk.registry.getMapType(macro.types[0], bodyType);
          case 'transformMapEntry':
            if (bodyType.kind !== 'map' && bodyType.kind !== 'dyn') {
              throw chk.createError('invalid_transform', `transformMapEntry() expression must evaluate to a map, got '${chk.formatType(bodyType)}'`, macro.body);
            }
            return bodyType.kind === 'map' ? bodyType : chk.registry.getMapType(chk.dynType, chk.dynType);
        }
      },
      evaluate(ev: CelEvaluator, macro: TwoVarMacro, ctx: CelScope): unknown {
        return evaluate(kind, ev, macro, ctx);
      },
    };
  };
}

function evaluate(kind: Kind, ev: CelEvaluator, m: TwoVarMacro, ctx: CelScope): unknown {
  switch (kind) {
    case 'all':
    case 'exists': {
      const decisive = kind === 'exists';
      let error: unknown;
      for (const [, , inner] of iterate(ev, m, ctx)) {
        const r = ev.tryEval(m.body, inner);
        if (r === decisive) return decisive;
        if (r !== !decisive) error ??= r instanceof Error ? r : celError(`${kind}() predicate must evaluate to bool`);
      }
      if (error) throw error;
      return !decisive;
    }
    case 'existsOne': {
      let count = 0;
      for (const [, , inner] of iterate(ev, m, ctx)) if (ev.run(m.body, inner) === true) count++;
      return count === 1;
    }
    case 'transformList': {
      const out: unknown[] = [];
      for (const [, , inner] of iterate(ev, m, ctx)) out.push(ev.run(m.body, inner));
      return out;
    }
    case 'transformMap': {
      const out = new Map<unknown, unknown>();
      for (const [k, , inner] of iterate(ev, m, ctx)) out.set(k, ev.run(m.body, inner));
      return out;
    }
    case 'transformMapEntry': {
      const out = new Map<unknown, unknown>();
      for (const [, , inner] of iterate(ev, m, ctx)) {
        for (const [k, v] of asEntries(ev.run(m.body, inner)) ?? []) {
          if ([...out.keys()].some((existing) => celEquals(existing, k))) throw celError(`insert failed: key ${String(k)} already exists`);
          out.set(k, v);
        }
      }
      return out;
    }
  }
}

export const TWO_VAR_COMPREHENSIONS: CelLibrary = {
  name: 'twoVarComprehensions',
  install(env: CelEnvironment) {
    for (const kind of ['all', 'exists', 'existsOne'] as const) {
      env.registerFunction(`list.${kind}(ast, ast, ast): bool`, expander(kind, false));
    }
    for (const kind of ['transformList', 'transformMap', 'transformMapEntry'] as const) {
      env.registerFunction(`list.${kind}(ast, ast, ast): dyn`, expander(kind, false));
      env.registerFunction(`list.${kind}(ast, ast, ast, ast): dyn`, expander(kind, true));
    }
  },
};
