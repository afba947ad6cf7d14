import { CelChecker, CelEnvironment, CelEvaluator, CelNode, CelScope, CelType } from '../engine';
import { CelLibrary, registerNamespace } from '../library';
import { asList, celCompare, celEquals, celError } from './values';

/**
 * cel-go's lists extension at version 3 (ext.Lists): `slice`, `flatten`, `distinct`, `reverse`,
 * `sort`, `sortBy` (a macro) and `lists.range(n)`.
 */
/** The largest `lists.range(n)` whose cost (n + 11) fits in the apiserver's per-expression limit of 1,000,000. */
const RANGE_LIMIT = BigInt(1_000_000 - 11);
/** The largest size ext/lists.go's `lists.range` takes at all. */
const RANGE_MAXIMUM = BigInt(1_000_000);

function flatten(list: unknown[], depth: number): unknown[] {
  if (depth < 0) throw celError('level must be non-negative');
  const out: unknown[] = [];
  for (const item of list) {
    const inner = asList(item);
    if (inner && depth > 0) out.push(...flatten(inner, depth - 1));
    else out.push(item);
  }
  return out;
}

function sortedCopy(list: unknown[]): unknown[] {
  return [...list].sort(celCompare);
}

function sortByExpander({ args, receiver }: { args: CelNode[]; receiver: CelNode }) {
  if (args[0].op !== 'id') throw celError('sortBy(var, expr) variable name must be a simple identifier');
  const variable = args[0].args as string;
  const key = args[1];
  return {
    receiver,
    variable,
    key,
    elementType: undefined as CelType | undefined,
    typeCheck(chk: CelChecker, m: any, ctx: CelScope): CelType {
      const listType = chk.check(m.receiver, ctx);
      if (listType.kind !== 'list' && listType.kind !== 'dyn') {
        throw chk.createError('no_matching_overload', `found no matching overload for 'sortBy' applied to '${chk.formatType(listType)}.(dyn, dyn)'`, m.receiver);
      }
      m.elementType = listType.kind === 'list' ? listType.valueType : chk.dynType;
      chk.check(m.key, ctx.forkWithVariable(m.variable, m.elementType));
      return listType.kind === 'list' ? listType : chk.registry.getListType(chk.dynType);
    },
    evaluate(ev: CelEvaluator, m: any, ctx: CelScope): unknown {
      const items = asList(ev.run(m.receiver, ctx)) ?? [];
      const scope = ctx.forkWithVariable(m.variable, m.elementType);
      const keyed = items.map((item) => {
        scope.setIterValue(item, ev);
        return [ev.run(m.key, scope), item] as const;
      });
      return keyed.sort((a, b) => celCompare(a[0], b[0])).map(([, item]) => item);
    },
  };
}

const SORTABLE = ['int', 'uint', 'double', 'bool', 'bytes', 'string', 'google.protobuf.Duration', 'google.protobuf.Timestamp'];

export const EXT_LISTS: CelLibrary = {
  name: 'extLists',
  install(env: CelEnvironment) {
    env.registerFunction('list<A>.slice(int, int): list<A>', (list: unknown, from: bigint, to: bigint) => {
      const items = asList(list) ?? [];
      if (from < 0n || to < 0n) throw celError(`cannot slice(${from}, ${to}), negative indexes not supported`);
      if (from > to) throw celError(`cannot slice(${from}, ${to}), start index must be less than or equal to end index`);
      if (to > BigInt(items.length)) throw celError(`cannot slice(${from}, ${to}), list is length ${items.length}`);
      return items.slice(Number(from), Number(to));
    });
    env.registerFunction('list<list<A>>.flatten(): list<A>', (list: unknown) => flatten(asList(list) ?? [], 1));
    env.registerFunction('list<dyn>.flatten(int): list<dyn>', (list: unknown, depth: bigint) => flatten(asList(list) ?? [], Number(depth)));
    env.registerFunction('list<A>.distinct(): list<A>', (list: unknown) => {
      const out: unknown[] = [];
      for (const item of asList(list) ?? []) if (!out.some((x) => celEquals(x, item))) out.push(item);
      return out;
    });
    env.registerFunction('list<A>.reverse(): list<A>', (list: unknown) => [...(asList(list) ?? [])].reverse());
    // Only lists of comparable types sort, as cel-go declares one overload per element type.
    for (const element of SORTABLE) {
      env.registerFunction(`list<${element}>.sort(): list<${element}>`, (list: unknown) => sortedCopy(asList(list) ?? []));
    }
    env.registerFunction('list.sortBy(ast, ast): list<dyn>', sortByExpander);
    const ns = registerNamespace(env, 'lists');
    env.registerFunction(`${ns}.range(int): list<int>`, (_: unknown, n: bigint) => {
      // cel-go charges n + 11 for the list it allocates: beyond the per-expression limit
      // (PerCallLimit), the evaluation is cancelled, here before allocating it.
      // ext/lists.go range refuses a negative size, and a size above its maximum before any cost.
      if (n < 0n) throw celError(`lists.range: size must be non-negative, got ${n}`);
      if (n > RANGE_MAXIMUM) throw celError(`lists.range: size ${n} exceeds maximum allowed (${RANGE_MAXIMUM})`);
      if (n > RANGE_LIMIT) throw celError('operation cancelled: actual cost limit exceeded');
      const out: bigint[] = [];
      for (let i = 0n; i < n; i++) out.push(i);
      return out;
    });
  },
};
