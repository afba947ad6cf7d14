import { CelEnvironment } from '../engine';
import { CelLibrary } from '../library';
import { asList, celCompare, celEquals, celError } from './values';

/**
 * The Kubernetes lists library (k8s.io/apiserver/pkg/cel/library/lists.go):
 * `isSorted()`, `sum()`, `min()`, `max()`, `indexOf(e)`, `lastIndexOf(e)` on lists.
 */
const COMPARABLE = ['int', 'uint', 'double', 'bool', 'google.protobuf.Duration', 'google.protobuf.Timestamp', 'string', 'bytes'];
const SUMMABLE: Record<string, () => unknown> = {
  int: () => 0n,
  double: () => 0,
};

export const KUBERNETES_LISTS: CelLibrary = {
  name: 'lists',
  install(env: CelEnvironment) {
    for (const t of COMPARABLE) {
      env.registerFunction(`list<${t}>.isSorted(): bool`, (list: unknown) => {
        const items = asList(list) ?? [];
        for (let i = 1; i < items.length; i++) if (celCompare(items[i - 1], items[i]) > 0) return false;
        return true;
      });
      env.registerFunction(`list<${t}>.min(): ${t}`, (list: unknown) => extreme(list, -1, 'min'));
      env.registerFunction(`list<${t}>.max(): ${t}`, (list: unknown) => extreme(list, 1, 'max'));
    }
    for (const t of ['int', 'uint', 'double', 'google.protobuf.Duration']) {
      env.registerFunction(`list<${t}>.sum(): ${t}`, (list: unknown) => {
        const items = asList(list) ?? [];
        if (items.length === 0) {
          const zero = SUMMABLE[t];
          if (zero) return zero();
        }
        return items.reduce((acc: any, x: any) => (acc === undefined ? x : addValues(acc, x)), undefined);
      });
    }
    env.registerFunction('list<A>.indexOf(A): int', (list: unknown, item: unknown) => {
      const items = asList(list) ?? [];
      return BigInt(items.findIndex((x) => celEquals(x, item)));
    });
    env.registerFunction('list<A>.lastIndexOf(A): int', (list: unknown, item: unknown) => {
      const items = asList(list) ?? [];
      for (let i = items.length - 1; i >= 0; i--) if (celEquals(items[i], item)) return BigInt(i);
      return -1n;
    });
  },
};

function extreme(list: unknown, sign: number, name: string): unknown {
  const items = asList(list) ?? [];
  if (items.length === 0) throw celError(`${name} called on empty list`);
  return items.reduce((best, x) => (celCompare(x, best) * sign > 0 ? x : best));
}

function addValues(a: any, b: any): unknown {
  if (typeof a === 'bigint' || typeof a === 'number') return a + b;
  if (typeof a?.add === 'function') return a.add(b);
  if (typeof a?.valueOf === 'function') return a.valueOf() + b.valueOf();
  throw celError('sum: unsupported element type');
}
