import { CelEnvironment } from '../engine';
import { CelLibrary, registerNamespace } from '../library';
import { asList, celEquals } from './values';

/** cel-go's sets extension: `sets.contains`, `sets.equivalent`, `sets.intersects` on lists. */
export const SETS: CelLibrary = {
  name: 'sets',
  install(env: CelEnvironment) {
    const ns = registerNamespace(env, 'sets');
    const has = (list: unknown[], x: unknown) => list.some((y) => celEquals(x, y));
    env.registerFunction(`${ns}.contains(list<A>, list<A>): bool`, (_: unknown, a: unknown, b: unknown) => {
      const la = asList(a) ?? [];
      return (asList(b) ?? []).every((x) => has(la, x));
    });
    env.registerFunction(`${ns}.equivalent(list<A>, list<A>): bool`, (_: unknown, a: unknown, b: unknown) => {
      const la = asList(a) ?? [];
      const lb = asList(b) ?? [];
      return la.every((x) => has(lb, x)) && lb.every((x) => has(la, x));
    });
    env.registerFunction(`${ns}.intersects(list<A>, list<A>): bool`, (_: unknown, a: unknown, b: unknown) => {
      const la = asList(a) ?? [];
      return (asList(b) ?? []).some((x) => has(la, x));
    });
  },
};
