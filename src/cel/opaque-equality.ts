import { CelEvaluator, CelNode, CelScope, engine } from './engine';
import { NamedFormat } from './libraries/named-formats';
import { CidrPrefix, IpAddress } from './libraries/net-address';
import { Quantity } from './libraries/quantity';
import { Semver } from './libraries/semver';
import { CelUrl } from './libraries/urls';
import { celError } from './libraries/values';

/**
 * `x == y` where x is a Kubernetes value type (an IP, a CIDR, a quantity, a semantic version, a
 * URL, a named format) and y a value of another type (not null) fails in cel-go: the type's Equal refuses it
 * ("no such overload", types.MaybeNoSuchOverloadErr). The engine answers false. Measured on the
 * apiserver: `ip('1.2.3.4') == dyn('1.2.3.4')` fails, `cidr('::/0') == null` is false, and `!=`
 * answers true for the same operands.
 */
const KUBERNETES_VALUES: ReadonlyArray<new (...args: never[]) => object> = [IpAddress, CidrPrefix, Quantity, Semver, CelUrl, NamedFormat];

type Handle = (left: unknown, right: unknown, ast: CelNode, ev: CelEvaluator) => unknown;

/** The engine's binary evaluation (evaluateBinary), with the refusal first. */
function equalsRefusingOtherTypes(ev: CelEvaluator, ast: CelNode & { left: CelNode; right: CelNode; handle: Handle }, ctx: CelScope): unknown {
  const left = ev.run(ast.left, ctx);
  const right = ev.run(ast.right, ctx);
  const type = KUBERNETES_VALUES.find((t) => left instanceof t);
  if (type && right !== null && !(right instanceof type)) throw celError('no such overload');
  return ast.handle(left, right, ast, ev);
}

let installed = false;

/** Replaces the engine's evaluation of `==` (once per process). */
export function installOpaqueEquality(): void {
  if (installed) return;
  installed = true;
  (engine.OPERATORS['=='] as { evaluate: unknown }).evaluate = equalsRefusingOtherTypes;
}
