import { CelEnvironment, CelNode, engine } from './engine';
import { CelLibrary } from './library';
import { re2 } from './re2';

/**
 * Engine built-ins whose behaviour differs from cel-go's and which the engine does not let us
 * override: `<string>.matches(re)` uses JavaScript's RegExp (no `(?i)`, lookaheads accepted), and
 * `lowerAscii()` / `upperAscii()` also change non-ASCII letters. Before type-checking, each such
 * member call is routed (as the node's alternate) to an overload with cel-go's semantics under an
 * internal name; errors print the user's name again (errors.ts), and writing an internal name in
 * an expression is an undeclared reference (literal-checks.ts).
 */
const ROUTES: Record<string, { readonly name: string; readonly arity: number }> = {
  matches: { name: '__re2_matches', arity: 1 },
  lowerAscii: { name: '__cel_lowerAscii', arity: 0 },
  upperAscii: { name: '__cel_upperAscii', arity: 0 },
};

export const INTERNAL_NAMES: ReadonlyMap<string, string> = new Map(Object.entries(ROUTES).map(([user, r]) => [r.name, user]));

export function routeToCelSemantics(node: CelNode): void {
  if (node.op !== 'rcall') return;
  const route = ROUTES[node.args[0] as string];
  if (route && (node.args[2] as CelNode[]).length === route.arity) {
    node.setMeta('alternate', node.clone(engine.OPERATORS.rcall, [route.name, node.args[1], node.args[2]]));
  }
}

/** The user's name for an internal one in an engine message. */
export function userNames(message: string): string {
  return message.replace(/__(re2_matches|cel_lowerAscii|cel_upperAscii)/g, (m) => INTERNAL_NAMES.get(m) ?? m);
}

export const ROUTED_BUILTINS: CelLibrary = {
  name: 'routedBuiltins',
  install(env: CelEnvironment) {
    env.registerFunction(`string.${ROUTES.matches.name}(string): bool`, (s: string, pattern: string) => re2(pattern).matcher(s).find());
    env.registerFunction(`string.${ROUTES.lowerAscii.name}(): string`, (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase()));
    env.registerFunction(`string.${ROUTES.upperAscii.name}(): string`, (s: string) => s.replace(/[a-z]+/g, (m) => m.toUpperCase()));
  },
};
