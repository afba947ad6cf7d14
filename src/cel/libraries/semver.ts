import { CelEnvironment } from '../engine';
import { CelLibrary, registerOpaqueType } from '../library';
import { celError } from './values';

/** The Kubernetes semver library (library/semverlib.go): `semver(s[, normalize])`, `isSemver(s[, normalize])`. */
export const SEMVER_TYPE = 'kubernetes.Semver';

const MAX_UINT64 = 2n ** 64n - 1n;
const NUMBERS = /^[0-9]*$/;
const ALPHANUMERIC = /^[0-9A-Za-z-]*$/;

/** Go's `%q` of a string, for the texts of blang/semver's errors. */
const quoted = (s: string): string => JSON.stringify(s);

/** strconv.ParseUint(s, 10, 64), with its error texts. */
function parseUint(s: string): bigint {
  if (s === '') throw new Error('strconv.ParseUint: parsing "": invalid syntax');
  const n = BigInt(s);
  if (n > MAX_UINT64) throw new Error(`strconv.ParseUint: parsing ${quoted(s)}: value out of range`);
  return n;
}

const hasLeadingZeroes = (s: string): boolean => s.length > 1 && s.startsWith('0');

/** A number part of a version: digits only, no leading zero (blang/semver's rules and messages). */
function versionNumber(part: string, name: 'major' | 'minor' | 'patch'): bigint {
  if (!NUMBERS.test(part)) throw new Error(`Invalid character(s) found in ${name} number ${quoted(part)}`);
  if (hasLeadingZeroes(part)) throw new Error(`${name[0].toUpperCase()}${name.slice(1)} number must not contain leading zeroes ${quoted(part)}`);
  return parseUint(part);
}

/** blang/semver's NewPRVersion: a prerelease identifier. */
function prereleaseIdentifier(s: string): string {
  if (s === '') throw new Error('Prerelease is empty');
  if (NUMBERS.test(s)) {
    if (hasLeadingZeroes(s)) throw new Error(`Numeric PreRelease version must not contain leading zeroes ${quoted(s)}`);
    return parseUint(s).toString();
  }
  if (!ALPHANUMERIC.test(s)) throw new Error(`Invalid character(s) found in prerelease ${quoted(s)}`);
  return s;
}

/** blang/semver v4's Parse, step by step, so that an error names what it names there. */
function parseStrict(s: string): Semver {
  if (s === '') throw new Error('Version string empty');
  const parts = splitN(s, '.', 3);
  if (parts.length !== 3) throw new Error('No Major.Minor.Patch elements found');
  const major = versionNumber(parts[0], 'major');
  const minor = versionNumber(parts[1], 'minor');
  let patchText = parts[2];
  let build: string[] = [];
  let pre: string[] = [];
  const buildIndex = patchText.indexOf('+');
  if (buildIndex !== -1) {
    build = patchText.slice(buildIndex + 1).split('.');
    patchText = patchText.slice(0, buildIndex);
  }
  const preIndex = patchText.indexOf('-');
  if (preIndex !== -1) {
    pre = patchText.slice(preIndex + 1).split('.');
    patchText = patchText.slice(0, preIndex);
  }
  const patch = versionNumber(patchText, 'patch');
  pre = pre.map(prereleaseIdentifier);
  for (const b of build) {
    if (b === '') throw new Error('Build meta data is empty');
    if (!ALPHANUMERIC.test(b)) throw new Error(`Invalid character(s) found in build meta data ${quoted(b)}`);
  }
  return new Semver(major, minor, patch, pre, build);
}

/** strings.SplitN. */
function splitN(s: string, separator: string, n: number): string[] {
  const parts = s.split(separator);
  return parts.length <= n ? parts : [...parts.slice(0, n - 1), parts.slice(n - 1).join(separator)];
}

/** The Kubernetes library's normalizeAndParse (semverlib.go): no `v`, no leading zeros, missing parts 0. */
function normalized(text: string): string {
  // Lengths and the first character are Go's: bytes of UTF-8.
  const parts = splitN(text.startsWith('v') ? text.slice(1) : text, '.', 3).map((p) => {
    if (Buffer.byteLength(p) <= 1) return p;
    const trimmed = p.replace(/^0+/, '');
    return trimmed === '' || !/^[0-9]/.test(trimmed) ? `0${trimmed}` : trimmed;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1])) throw new Error('short version cannot contain PreRelease/Build meta data');
    while (parts.length < 3) parts.push('0');
  }
  return parts.join('.');
}

export class Semver {
  /** The version, or an error with the apiserver's text. */
  public static parseOrError(text: string, normalize = false): Semver | Error {
    try {
      return parseStrict(normalize ? normalized(text) : text);
    } catch (e) {
      return e as Error;
    }
  }

  public static parse(text: string, normalize = false): Semver | undefined {
    const v = Semver.parseOrError(text, normalize);
    return v instanceof Error ? undefined : v;
  }

  public constructor(
    public readonly major: bigint,
    public readonly minor: bigint,
    public readonly patch: bigint,
    private readonly pre: string[],
    private readonly build: string[] = [],
  ) {}

  /** blang/semver's Compare: build metadata does not count. */
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

  /** blang/semver's String. */
  public toString(): string {
    return `${this.major}.${this.minor}.${this.patch}${this.pre.length ? `-${this.pre.join('.')}` : ''}${this.build.length ? `+${this.build.join('.')}` : ''}`;
  }
}

function parse(s: string, normalize = false): Semver {
  const v = Semver.parseOrError(s, normalize);
  if (v instanceof Error) throw celError(v.message);
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
