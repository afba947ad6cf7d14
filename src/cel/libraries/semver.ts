import { CelEnvironment } from '../engine';
import { CelLibrary, registerOpaqueType } from '../library';
import { celError } from './values';

/** The Kubernetes semver library (library/semverlib.go): `semver(s[, normalize])`, `isSemver(s[, normalize])`. */
export const SEMVER_TYPE = 'kubernetes.Semver';

const STRICT = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

export class Semver {
  public static parse(text: string, normalize = false): Semver | undefined {
    let s = text;
    if (normalize) {
      if (s.startsWith('v')) s = s.slice(1);
      const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(.*)$/.exec(s);
      if (m) s = `${BigInt(m[1])}.${BigInt(m[2] ?? '0')}.${BigInt(m[3] ?? '0')}${m[4]}`;
    }
    const m = STRICT.exec(s);
    if (!m) return undefined;
    const pre = m[4] ? m[4].split('.') : [];
    if (pre.some((p) => /^\d+$/.test(p) && p.length > 1 && p.startsWith('0'))) return undefined;
    return new Semver(BigInt(m[1]), BigInt(m[2]), BigInt(m[3]), pre);
  }

  public constructor(public readonly major: bigint, public readonly minor: bigint, public readonly patch: bigint, private readonly pre: string[]) {}

  public compareTo(o: Semver): number {
    for (const k of ['major', 'minor', 'patch'] as const) {
      if (this[k] !== o[k]) return this[k] < o[k] ? -1 : 1;
    }
    if (this.pre.length === 0 || o.pre.length === 0) return o.pre.length - this.pre.length === 0 ? 0 : (this.pre.length === 0 ? 1 : -1);
    for (let i = 0; i < Math.min(this.pre.length, o.pre.length); i++) {
      const a = this.pre[i];
      const b = o.pre[i];
      if (a === b) continue;
      const an = /^\d+$/.test(a);
      const bn = /^\d+$/.test(b);
      if (an && bn) return BigInt(a) < BigInt(b) ? -1 : 1;
      if (an !== bn) return an ? -1 : 1;
      return a < b ? -1 : 1;
    }
    return Math.sign(this.pre.length - o.pre.length);
  }

  public equals(o: unknown): boolean {
    return o instanceof Semver && this.compareTo(o) === 0;
  }
}

function parse(s: string, normalize = false): Semver {
  const v = Semver.parse(s, normalize);
  if (!v) throw celError(`could not parse semver: ${s}`);
  return v;
}

export const SEMVER: CelLibrary = {
  name: 'semver',
  install(env: CelEnvironment) {
    const S = SEMVER_TYPE;
    registerOpaqueType(env, S, Semver);
    env.registerFunction(`semver(string): ${S}`, (s: string) => parse(s));
    env.registerFunction(`semver(string, bool): ${S}`, (s: string, n: boolean) => parse(s, n));
    env.registerFunction('isSemver(string): bool', (s: string) => Semver.parse(s) !== undefined);
    env.registerFunction('isSemver(string, bool): bool', (s: string, n: boolean) => Semver.parse(s, n) !== undefined);
    env.registerFunction(`${S}.major(): int`, (v: Semver) => v.major);
    env.registerFunction(`${S}.minor(): int`, (v: Semver) => v.minor);
    env.registerFunction(`${S}.patch(): int`, (v: Semver) => v.patch);
    env.registerFunction(`${S}.isGreaterThan(${S}): bool`, (a: Semver, b: Semver) => a.compareTo(b) > 0);
    env.registerFunction(`${S}.isLessThan(${S}): bool`, (a: Semver, b: Semver) => a.compareTo(b) < 0);
    env.registerFunction(`${S}.compareTo(${S}): int`, (a: Semver, b: Semver) => BigInt(a.compareTo(b)));
    env.registerOperator(`${S} == ${S}`, (a: Semver, b: Semver) => a.equals(b));
  },
};
