import { engine } from '../engine';

/**
 * CEL value semantics the library functions share: equality (numbers compare across int, uint
 * and double, as cel-go's heterogeneous equality does) and ordering.
 */
export function isUint(value: unknown): boolean {
  return value instanceof engine.UnsignedInt;
}

function numeric(value: unknown): number | bigint | undefined {
  if (typeof value === 'bigint' || typeof value === 'number') return value;
  if (isUint(value)) return (value as { valueOf(): bigint }).valueOf();
  return undefined;
}

export function celEquals(a: unknown, b: unknown): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined) {
    if (na === undefined || nb === undefined) return false;
    // eslint-disable-next-line eqeqeq
    return typeof na === typeof nb ? na === nb : na == nb;
  }
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  const la = asList(a);
  const lb = asList(b);
  if (la || lb) return !!la && !!lb && la.length === lb.length && la.every((x, i) => celEquals(x, lb[i]));
  const ma = asEntries(a);
  const mb = asEntries(b);
  if (ma && mb) {
    if (ma.length !== mb.length) return false;
    return ma.every(([k, v]) => mb.some(([k2, v2]) => celEquals(k, k2) && celEquals(v, v2)));
  }
  const eq = (a as { equals?: (o: unknown) => boolean }).equals;
  return typeof eq === 'function' ? eq.call(a, b) : false;
}

export function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value instanceof Set) return [...value];
  return undefined;
}

export function asEntries(value: unknown): Array<[unknown, unknown]> | undefined {
  if (value instanceof Map) return [...value.entries()];
  if (value && typeof value === 'object' && (value.constructor === Object || value.constructor === undefined)) {
    return Object.entries(value);
  }
  return undefined;
}

/** Ordering of comparable CEL values: negative, zero or positive. */
export function celCompare(a: unknown, b: unknown): number {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) {
    // eslint-disable-next-line eqeqeq
    return na < nb ? -1 : (na == nb ? 0 : 1);
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : (a === b ? 0 : 1);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  if (a instanceof engine.Duration && b instanceof engine.Duration) {
    const d = BigInt(a.seconds) * 1_000_000_000n + BigInt(a.nanos) - (BigInt(b.seconds) * 1_000_000_000n + BigInt(b.nanos));
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  }
  const cmp = (a as { compareTo?: (o: unknown) => number }).compareTo;
  if (typeof cmp === 'function') return Number(cmp.call(a, b));
  throw new Error('values are not comparable');
}

/** A CEL runtime error raised by a library function. */
export function celError(message: string): Error {
  return new engine.EvaluationError({ code: 'library_error', message });
}
