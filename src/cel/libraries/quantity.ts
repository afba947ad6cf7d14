import { CelEnvironment } from '../engine';
import { CelLibrary, registerOpaqueType } from '../library';
import { celError } from './values';

/**
 * The Kubernetes quantity library (library/quantity.go): `quantity(s)`, `isQuantity(s)` and the
 * `kubernetes.Quantity` methods. Values are exact rationals, so `quantity("200M") == quantity("0.2G")`.
 */
export const QUANTITY_TYPE = 'kubernetes.Quantity';

const BINARY: Record<string, bigint> = { Ki: 2n ** 10n, Mi: 2n ** 20n, Gi: 2n ** 30n, Ti: 2n ** 40n, Pi: 2n ** 50n, Ei: 2n ** 60n };
const DECIMAL: Record<string, number> = { 'n': -9, 'u': -6, 'm': -3, '': 0, 'k': 3, 'M': 6, 'G': 9, 'T': 12, 'P': 15, 'E': 18 };
const QUANTITY_RE = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;
const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  while (b) [a, b] = [b, a % b];
  return a;
}

export class Quantity {
  public static parse(text: string): Quantity | undefined {
    const m = QUANTITY_RE.exec(text);
    if (!m) return undefined;
    const [, sign, digits, suffix = ''] = m;
    const [whole, fraction = ''] = digits.split('.');
    let num = BigInt(`${whole || '0'}${fraction}`);
    let den = 10n ** BigInt(fraction.length);
    if (BINARY[suffix]) {
      num *= BINARY[suffix];
    } else {
      const exponent = suffix in DECIMAL ? DECIMAL[suffix] : Number(suffix.slice(1));
      if (Math.abs(exponent) > 1000) return undefined;
      if (exponent >= 0) num *= 10n ** BigInt(exponent);
      else den *= 10n ** BigInt(-exponent);
    }
    return new Quantity(sign === '-' ? -num : num, den, text);
  }

  public constructor(public readonly num: bigint, public readonly den: bigint, private readonly text?: string) {
    const g = gcd(num, den) || 1n;
    this.num = num / g;
    this.den = den / g;
  }

  public isInteger(): boolean {
    return this.num % this.den === 0n;
  }

  public asInteger(): bigint {
    if (!this.isInteger()) throw celError('cannot convert value to integer');
    const v = this.num / this.den;
    if (v > MAX_INT64 || v < MIN_INT64) throw celError('cannot convert value to integer');
    return v;
  }

  public asApproximateFloat(): number {
    return Number(this.num) / Number(this.den);
  }

  public sign(): bigint {
    return this.num > 0n ? 1n : (this.num < 0n ? -1n : 0n);
  }

  public add(other: Quantity | bigint): Quantity {
    const o = typeof other === 'bigint' ? new Quantity(other, 1n) : other;
    return new Quantity(this.num * o.den + o.num * this.den, this.den * o.den);
  }

  public sub(other: Quantity | bigint): Quantity {
    const o = typeof other === 'bigint' ? new Quantity(other, 1n) : other;
    return new Quantity(this.num * o.den - o.num * this.den, this.den * o.den);
  }

  public compareTo(other: Quantity): number {
    const d = this.num * other.den - other.num * this.den;
    return d > 0n ? 1 : (d < 0n ? -1 : 0);
  }

  public equals(other: unknown): boolean {
    return other instanceof Quantity && this.compareTo(other) === 0;
  }

  public toString(): string {
    return this.text ?? (this.isInteger() ? String(this.num / this.den) : String(this.asApproximateFloat()));
  }
}

export const QUANTITY: CelLibrary = {
  name: 'quantity',
  install(env: CelEnvironment) {
    const Q = QUANTITY_TYPE;
    registerOpaqueType(env, Q, Quantity);
    env.registerFunction(`quantity(string): ${Q}`, (s: string) => {
      const q = Quantity.parse(s);
      if (!q) throw celError('quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'');
      return q;
    });
    env.registerFunction('isQuantity(string): bool', (s: string) => Quantity.parse(s) !== undefined);
    env.registerFunction(`${Q}.isInteger(): bool`, (q: Quantity) => q.isInteger());
    env.registerFunction(`${Q}.asInteger(): int`, (q: Quantity) => q.asInteger());
    env.registerFunction(`${Q}.asApproximateFloat(): double`, (q: Quantity) => q.asApproximateFloat());
    // The apiserver declares sign as a global function only: `sign(q)`, not `q.sign()`.
    env.registerFunction(`sign(${Q}): int`, (q: Quantity) => q.sign());
    env.registerFunction(`${Q}.add(${Q}): ${Q}`, (q: Quantity, o: Quantity) => q.add(o));
    env.registerFunction(`${Q}.add(int): ${Q}`, (q: Quantity, o: bigint) => q.add(o));
    env.registerFunction(`${Q}.sub(${Q}): ${Q}`, (q: Quantity, o: Quantity) => q.sub(o));
    env.registerFunction(`${Q}.sub(int): ${Q}`, (q: Quantity, o: bigint) => q.sub(o));
    env.registerFunction(`${Q}.isGreaterThan(${Q}): bool`, (q: Quantity, o: Quantity) => q.compareTo(o) > 0);
    env.registerFunction(`${Q}.isLessThan(${Q}): bool`, (q: Quantity, o: Quantity) => q.compareTo(o) < 0);
    env.registerFunction(`${Q}.compareTo(${Q}): int`, (q: Quantity, o: Quantity) => BigInt(q.compareTo(o)));
    env.registerOperator(`${Q} == ${Q}`, (a: Quantity, b: Quantity) => a.equals(b));
  },
};
