import { CelEnvironment } from '../engine';
import { CelLibrary } from '../library';
import { re2 } from '../re2';

/**
 * The Kubernetes regex library (library/regex.go): `<string>.find(re)`, `<string>.findAll(re)`,
 * `<string>.findAll(re, limit)`, with RE2 semantics; and the standard global form
 * `matches(s, re)`, which the engine lacks (the member form is routed to RE2 in routes.ts).
 */
export const REGEX: CelLibrary = {
  name: 'regex',
  install(env: CelEnvironment) {
    env.registerFunction('matches(string, string): bool', (s: string, pattern: string) => re2(pattern).matcher(s).find());
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
