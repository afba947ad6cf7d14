import { CelChecker, CelEnvironment, CelEvaluator, CelNode, CelScope, CelType, engine } from '../engine';
import { CelLibrary } from '../library';
import { asEntries, asList, celEquals } from './values';

/**
 * The parts of cel-go's optional types the engine lacks: `optional.ofNonZeroValue(v)`, the
 * `optMap(var, expr)` and `optFlatMap(var, expr)` macros, equality of optional values, and the
 * list functions that come with them: `first()`, `last()`, `unwrapOpt()` and `optional.unwrap(list)`.
 */
/** Go's zero time (0001-01-01T00:00:00Z), a timestamp's zero value. */
const ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');

function isZero(value: unknown): boolean {
  if (value === null || value === false || value === 0 || value === 0n || value === '') return true;
  if (value instanceof Date) return value.getTime() === ZERO_TIME;
  if (value instanceof Uint8Array) return value.length === 0;
  if (value && typeof value === 'object' && typeof (value as { valueOf(): unknown }).valueOf() === 'bigint') return (value as { valueOf(): bigint }).valueOf() === 0n;
  const list = asList(value);
  if (list) return list.length === 0;
  const entries = asEntries(value);
  return entries !== undefined && entries.length === 0;
}

function optionalMacro(flat: boolean) {
  const name = flat ? 'optFlatMap' : 'optMap';
  return ({ args, receiver }: { args: CelNode[]; receiver: CelNode }) => {
    if (args[0].op !== 'id') throw new engine.ParseError({ code: 'invalid_macro_argument', message: `${name}() variable name must be a simple identifier` });
    return {
      receiver,
      variable: args[0].args as string,
      body: args[1],
      valueType: undefined as CelType | undefined,
      typeCheck(chk: CelChecker, m: any, ctx: CelScope): CelType {
        const receiverType = chk.check(m.receiver, ctx);
        if (receiverType.kind !== 'optional' && receiverType.kind !== 'dyn') {
          throw chk.createError('optional_expected', `${name}() receiver must be optional, got '${chk.formatType(receiverType)}'`, m.receiver);
        }
        m.valueType = receiverType.kind === 'optional' ? receiverType.valueType : chk.dynType;
        const bodyType = chk.check(m.body, ctx.forkWithVariable(m.variable, m.valueType));
        if (!flat) return chk.registry.getOptionalType(bodyType);
        if (bodyType.kind !== 'optional' && bodyType.kind !== 'dyn') {
          throw chk.createError('optional_expected', `optFlatMap() expression must be optional, got '${chk.formatType(bodyType)}'`, m.body);
        }
        return bodyType.kind === 'optional' ? bodyType : chk.registry.getOptionalType(chk.dynType);
      },
      evaluate(ev: CelEvaluator, m: any, ctx: CelScope): unknown {
        const optional = ev.run(m.receiver, ctx);
        if (!optional.hasValue()) return engine.Optional.none();
        const result = ev.run(m.body, ctx.forkWithVariable(m.variable, m.valueType).setIterValue(optional.value(), ev));
        return flat ? result : engine.Optional.of(result);
      },
    };
  };
}

export const OPTIONAL_EXTRAS: CelLibrary = {
  name: 'optionalTypes',
  install(env: CelEnvironment) {
    env.registerFunction('OptionalNamespace.ofNonZeroValue(A): optional<A>', (_: unknown, value: unknown) =>
      (isZero(value) ? engine.Optional.none() : engine.Optional.of(value)));
    env.registerFunction('optional.optMap(ast, ast): optional<dyn>', optionalMacro(false));
    env.registerFunction('optional.optFlatMap(ast, ast): optional<dyn>', optionalMacro(true));
    env.registerFunction('list<A>.first(): optional<A>', (list: unknown) => {
      const items = asList(list) ?? [];
      return items.length > 0 ? engine.Optional.of(items[0]) : engine.Optional.none();
    });
    env.registerFunction('list<A>.last(): optional<A>', (list: unknown) => {
      const items = asList(list) ?? [];
      return items.length > 0 ? engine.Optional.of(items[items.length - 1]) : engine.Optional.none();
    });
    const unwrap = (list: unknown) => (asList(list) ?? []).filter((o: any) => o.hasValue()).map((o: any) => o.value());
    env.registerFunction('list<optional<A>>.unwrapOpt(): list<A>', unwrap);
    env.registerFunction('OptionalNamespace.unwrap(list<optional<A>>): list<A>', (_: unknown, list: unknown) => unwrap(list));
    env.registerOperator('optional<A> == optional<A>', (a: any, b: any) =>
      (a.hasValue() && b.hasValue() ? celEquals(a.value(), b.value()) : a.hasValue() === b.hasValue()));
  },
};
