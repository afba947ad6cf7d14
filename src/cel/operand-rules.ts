import { CelEvaluator, CelNode, CelScope, engine } from './engine';
import { NamedFormat } from './libraries/named-formats';
import { CidrPrefix, IpAddress } from './libraries/net-address';
import { Quantity } from './libraries/quantity';
import { Semver } from './libraries/semver';
import { CelUrl } from './libraries/urls';
import { celError } from './libraries/values';

/**
 * Run-time rules of cel-go's binary operators that the engine lacks, checked on the operands'
 * values before the engine's own evaluation (its evaluateBinary: both operands, then the overload
 * the checker chose):
 * - `<`, `<=`, `>` and `>=` with a NaN operand fail ("NaN values cannot be ordered",
 *   common/types/double.go Compare; measured: `double('NaN') > 1u`); the engine answers false.
 *   Equality is not an ordering: `double('NaN') == double('NaN')` stays false.
 * - `x == y` where x is a Kubernetes value (an IP, a CIDR, a quantity, a semantic version, a URL,
 *   a named format) and y a value of another type, not null, fails: the type's Equal refuses it
 *   ("no such overload", types.MaybeNoSuchOverloadErr). Measured: `ip('1.2.3.4') == dyn('1.2.3.4')`
 *   fails, `cidr('::/0') == null` is false, and `!=` answers true for the same operands.
 */
type Refusal = (left: unknown, right: unknown) => string | undefined;
type Handle = (left: unknown, right: unknown, ast: CelNode, ev: CelEvaluator) => unknown;
type BinaryNode = CelNode & { left: CelNode; right: CelNode; handle: Handle };

const isNaNDouble = (v: unknown): boolean => typeof v === 'number' && Number.isNaN(v);

const unorderedNaN: Refusal = (left, right) => (isNaNDouble(left) || isNaNDouble(right) ? 'NaN values cannot be ordered' : undefined);

const KUBERNETES_VALUES: ReadonlyArray<new (...args: never[]) => object> = [IpAddress, CidrPrefix, Quantity, Semver, CelUrl, NamedFormat];

const equalOnlyToItsType: Refusal = (left, right) => {
  const type = KUBERNETES_VALUES.find((t) => left instanceof t);
  return type && right !== null && !(right instanceof type) ? 'no such overload' : undefined;
};

function refusing(refusal: Refusal) {
  return (ev: CelEvaluator, ast: BinaryNode, ctx: CelScope): unknown => {
    const left = ev.run(ast.left, ctx);
    const right = ev.run(ast.right, ctx);
    const refused = refusal(left, right);
    if (refused) throw celError(refused);
    return ast.handle(left, right, ast, ev);
  };
}

const RULES: { readonly [op: string]: Refusal } = {
  '<': unorderedNaN,
  '<=': unorderedNaN,
  '>': unorderedNaN,
  '>=': unorderedNaN,
  '==': equalOnlyToItsType,
};

let installed = false;

/** Replaces the engine's evaluation of those operators (once per process). */
export function installOperandRules(): void {
  if (installed) return;
  installed = true;
  for (const [op, refusal] of Object.entries(RULES)) (engine.OPERATORS[op] as { evaluate: unknown }).evaluate = refusing(refusal);
}
