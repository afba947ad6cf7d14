import { CelEnvironment, CelNode, engine } from '../engine';
import { CelLibrary } from '../library';
import { re2 } from '../re2';

/**
 * The Kubernetes regex library (library/regex.go): `<string>.find(re)`, `<string>.findAll(re)`,
 * `<string>.findAll(re, limit)`, with RE2 semantics; and the standard global form
 * `matches(s, re)`, which the engine lacks.
 */
/**
 * The engine's own `<string>.matches(re)` uses JavaScript's RegExp (no `(?i)`, lookaheads
 * accepted); it cannot be overridden, so each member call is routed to this RE2 overload by
 * `routeMatchesToRe2` before type-checking. Errors name it `matches` again (errors.ts).
 */
export const RE2_MATCHES = '__re2_matches';

export function routeMatchesToRe2(node: CelNode): void {
  if (node.op === 'rcall' && node.args[0] === 'matches' && (node.args[2] as CelNode[]).length === 1) {
    node.setMeta('alternate', node.clone(engine.OPERATORS.rcall, [RE2_MATCHES, node.args[1], node.args[2]]));
  }
}

export const REGEX: CelLibrary = {
  name: 'regex',
  install(env: CelEnvironment) {
    env.registerFunction('matches(string, string): bool', (s: string, pattern: string) => re2(pattern).matcher(s).find());
    env.registerFunction(`string.${RE2_MATCHES}(string): bool`, (s: string, pattern: string) => re2(pattern).matcher(s).find());
    env.registerFunction('string.find(string): string', (s: string, pattern: string) => {
      const m = re2(pattern).matcher(s);
      return m.find() ? m.group() ?? '' : '';
    });
    env.registerFunction('string.findAll(string): list<string>', (s: string, pattern: string) => findAll(s, pattern, -1));
    env.registerFunction('string.findAll(string, int): list<string>',
      (s: string, pattern: string, limit: bigint) => findAll(s, pattern, Number(limit)));
  },
};

function findAll(s: string, pattern: string, limit: number): string[] {
  if (limit === 0) return [];
  const m = re2(pattern).matcher(s);
  const out: string[] = [];
  while ((limit < 0 || out.length < limit) && m.find()) out.push(m.group() ?? '');
  return out;
}
