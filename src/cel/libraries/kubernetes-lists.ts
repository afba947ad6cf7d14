import { CelEnvironment, engine } from '../engine';
import { CelLibrary } from '../library';
import { asList, celCompare, celEquals, celError } from './values';

/**
 * The Kubernetes lists library (k8s.io/apiserver/pkg/cel/library/lists.go):
 * `isSorted()`, `sum()`, `min()`, `max()`, `indexOf(e)`, `lastIndexOf(e)` on lists.
 */
const COMPARABLE = ['int', 'uint', 'double', 'bool', 'google.protobuf.Duration', 'google.protobuf.Timestamp', 'string', 'bytes'];
const MAX_INT64 = 2n ** 63n - 1n;
const BILLION = BigInt(1_000_000_000);

/**
 * `sum()` by element type, from the type's zero as lists.go sums (zeroValuesOfSummableTypes, then
 * each element added with the type's `+`): ints and durations fail on overflow ("integer
 * overflow"), uints too ("unsigned integer overflow"), and the sum keeps the element type.
 */
const SUMS: Record<string, (items: readonly any[]) => unknown> = {
  'int': (items) => items.reduce((acc: bigint, x: bigint) => checkedInt(acc + x), BigInt(0)),
  'uint': (items) => new engine.UnsignedInt(items.reduce((acc: bigint, x: { valueOf(): bigint }) => acc + x.valueOf(), BigInt(0))),
  'double': (items) => items.reduce((acc: number, x: number) => acc + x, 0),
  'google.protobuf.Duration': (items) => {
    const nanos = (d: { seconds: bigint; nanos: number }): bigint => BigInt(d.seconds) * BILLION + BigInt(d.nanos);
    const total = checkedInt(items.reduce((acc: bigint, d) => acc + nanos(d), BigInt(0)));
    return new engine.Duration(total / BILLION, Number(total % BILLION));
  },
};

function checkedInt(v: bigint): bigint {
  if (v > MAX_INT64 || v < -MAX_INT64 - BigInt(1)) throw celError('integer overflow');
  return v;
}

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
      env.registerFunction(`list<${t}>.sum(): ${t}`, (list: unknown) => SUMS[t](asList(list) ?? []));
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
