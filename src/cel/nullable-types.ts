import { CelChecker, CelEvaluator, CelNode, CelScope, CelType, engine } from './engine';

/**
 * cel-go keeps the legacy rule that null is assignable to messages, opaque values, optionals,
 * durations and timestamps (checker/types.go isLegacyNullable); primitives, lists and maps are
 * not nullable (`'a' == null` is an error in both). The engine has no such rule, so:
 * - `x == null` and `x != null` with such an x (`namespaceObject == null`, `quantity('1') != null`)
 *   compile, as on the apiserver, and are true only when both sides are null (cel-go's
 *   heterogeneous equality);
 * - a variable of such a type may hold null (the apiserver's `namespaceObject` of a cluster-scoped
 *   request, or in a match condition), where the engine insists on the declared type;
 * - a ternary's null branch joins the other branch's type when it is such a type (below).
 */
function isLegacyNullable(type: CelType | undefined): boolean {
  return type !== undefined && (type.kind === 'message' || type.kind === 'optional');
}

function isNull(type: CelType | undefined): boolean {
  return type !== undefined && type.kind !== 'dyn' && type.type === 'null';
}

type Check = (chk: CelChecker, ast: CelNode & { handle?: unknown }, ctx: CelScope) => CelType;

/**
 * A binary operator's check that, where the engine finds no overload, gives bool when one operand
 * is null and the other is of a type `nullableAgainst` allows, as cel-go's checker does. `handle`,
 * if given, replaces the evaluation; otherwise the engine's binary handler (set before its check
 * failed) runs, and raises "no such overload" for operands no overload takes.
 */
function withNullOperand(check: Check, nullableAgainst: (type: CelType | undefined) => boolean, handle?: (a: unknown, b: unknown) => unknown): Check {
  return (chk, ast, ctx) => {
    try {
      return check(chk, ast, ctx);
    } catch (error) {
      const [left, right] = [ast.args[0]?.checkedType, ast.args[1]?.checkedType];
      if (!(isNull(left) && nullableAgainst(right)) && !(nullableAgainst(left) && isNull(right))) throw error;
      if (handle) ast.handle = handle;
      return chk.boolType;
    }
  };
}

/** Types an ordering operator's null operand may stand against: those with a nullable ordering overload, and dyn and null. */
const ORDERED_NULLABLE = new Set(['google.protobuf.Timestamp', 'google.protobuf.Duration']);

/**
 * `<`, `<=`, `>` and `>=` with a null operand: cel-go lets null stand for the timestamp or
 * duration of their overloads, so `null < null`, `timestamp(...) < null` and `dyn(x) <= null` (a
 * variable whose expression is null, compared) compile to bool, and fail when they run; with an
 * int, string, bytes, bool, double, uint, list or quantity they stay errors. Measured on the 1.37.2
 * apiserver.
 */
function orderableWithNull(type: CelType | undefined): boolean {
  return type !== undefined && (type.kind === 'dyn' || isNull(type) || ORDERED_NULLABLE.has(type.name));
}

type Evaluate = (ev: CelEvaluator, ast: CelNode, ctx: CelScope) => unknown;

/** A variable read that lets a nullable variable be null (the engine's type check fails on it first). */
function withNullableValue(evaluate: Evaluate): Evaluate {
  return (ev, ast, ctx) => {
    try {
      return evaluate(ev, ast, ctx);
    } catch (error) {
      if (ctx.getValue(ast.args) === null && isLegacyNullable(ast.checkedType)) return null;
      throw error;
    }
  };
}

/**
 * A branch of null joins the other branch's type when that type is one cel-go keeps nullable
 * (checker/types.go isLegacyNullable: messages, opaque values such as optionals and quantities,
 * durations, timestamps), which the engine refuses to unify. A primitive, list, map or type with
 * null stays an error, as on the apiserver: a 1.37 apiserver refuses
 * `object.spec.replicas > 50 ? 'replicas: ' + string(object.spec.replicas) : null` with "found no
 * matching overload for '_?_:_' applied to '(bool, string, null)'" (measured; the eval suite draws
 * a ternary of null with every type).
 */
function installNullableTernary(): void {
  const ternary = engine.OPERATORS['?:'] as { check: (chk: CelChecker, ast: any, ctx: CelScope) => CelType };
  const check = ternary.check;
  ternary.check = function checkTernary(chk: CelChecker, ast: any, ctx: CelScope): CelType {
    try {
      return check.call(this, chk, ast, ctx);
    } catch (e) {
      const left: CelType | undefined = ast.left?.checkedType;
      const right: CelType | undefined = ast.right?.checkedType;
      if ((e as { code?: string }).code !== 'incompatible_ternary_branches' || !left || !right) throw e;
      if (right.name === 'null' && isLegacyNullable(left)) return left;
      if (left.name === 'null' && isLegacyNullable(right)) return right;
      throw e;
    }
  };
}

let installed = false;

/** Extends the engine's `==`, `!=` and ordering checks, its ternary check and its variable reads (once per process). */
export function installNullableTypes(): void {
  if (installed) return;
  installed = true;
  for (const [op, equal] of [['==', true], ['!=', false]] as const) {
    const operator = engine.OPERATORS[op] as { check: Check };
    operator.check = withNullOperand(operator.check, isLegacyNullable, (a, b) => (a === null && b === null) === equal);
  }
  for (const op of ['<', '<=', '>', '>=']) {
    const operator = engine.OPERATORS[op] as { check: Check };
    operator.check = withNullOperand(operator.check, orderableWithNull);
  }
  const id = engine.OPERATORS.id as { evaluate: Evaluate };
  id.evaluate = withNullableValue(id.evaluate);
  installNullableTernary();
}
