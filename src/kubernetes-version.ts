import { IConstruct } from 'constructs';
import { ADMISSION_GROUP, AdmissionKind, preferredApiVersion, SERVED_VERSIONS } from './admission-kind';

const OLDEST_MINOR = 28;
const NEWEST_MINOR = 37;

/**
 * The Kubernetes version a manifest is written for. It decides the apiVersion each kind is
 * emitted with, which kinds exist at all, and (for CEL) which libraries expressions may use.
 *
 * Constructs read it from the construct context key `cdk8s-admission:kubernetesVersion`
 * (a string such as `'1.30'`, set on the app or any scope above them), unless given explicitly.
 */
export class KubernetesVersion {
  /** The construct context key that sets the target version for every construct below a scope. */
  public static readonly CONTEXT_KEY = 'cdk8s-admission:kubernetesVersion';

  public static readonly V1_28 = new KubernetesVersion(28);
  public static readonly V1_29 = new KubernetesVersion(29);
  public static readonly V1_30 = new KubernetesVersion(30);
  public static readonly V1_31 = new KubernetesVersion(31);
  public static readonly V1_32 = new KubernetesVersion(32);
  public static readonly V1_33 = new KubernetesVersion(33);
  public static readonly V1_34 = new KubernetesVersion(34);
  public static readonly V1_35 = new KubernetesVersion(35);
  public static readonly V1_36 = new KubernetesVersion(36);
  public static readonly V1_37 = new KubernetesVersion(37);

  /** The newest version this library knows; the default target. */
  public static readonly LATEST = KubernetesVersion.V1_37;

  /**
   * A version from its `1.<minor>` spelling: `'1.30'`, `'v1.30'` or `'1.30.4'` (the patch is ignored).
   * Versions older than 1.28 are rejected; versions newer than the newest known are treated as it.
   */
  public static of(version: string): KubernetesVersion {
    const match = /^v?1\.(\d{1,3})(?:\.\d+)?$/.exec(typeof version === 'string' ? version.trim() : '');
    if (!match) {
      throw new Error(`invalid Kubernetes version ${JSON.stringify(version)}: expected "1.<minor>", e.g. "1.30"`);
    }
    const minor = Number(match[1]);
    if (minor < OLDEST_MINOR) {
      throw new Error(`Kubernetes 1.${minor} is not supported: cdk8s-admission targets 1.${OLDEST_MINOR} and newer (ValidatingAdmissionPolicy needs 1.28)`);
    }
    return new KubernetesVersion(Math.min(minor, NEWEST_MINOR));
  }

  /**
   * The target version for constructs under `scope`: the context value `cdk8s-admission:kubernetesVersion`
   * if set on it or any scope above, else `KubernetesVersion.LATEST`.
   */
  public static fromContext(scope: IConstruct): KubernetesVersion {
    const value = scope.node.tryGetContext(KubernetesVersion.CONTEXT_KEY);
    if (value === undefined || value === null) return KubernetesVersion.LATEST;
    try {
      return KubernetesVersion.of(String(value));
    } catch (e) {
      throw new Error(`context "${KubernetesVersion.CONTEXT_KEY}" at ${scope.node.path || '<app>'}: ${(e as Error).message}`);
    }
  }

  /** The minor version number (30 for 1.30). */
  public readonly minor: number;

  private constructor(minor: number) {
    this.minor = minor;
  }

  /** True if this version is `other` or newer. */
  public isAtLeast(other: KubernetesVersion): boolean {
    return this.minor >= other.minor;
  }

  /**
   * The apiVersion to write `kind` with for a cluster of this version: the newest one it serves.
   * @throws if the kind does not exist in this version, naming the version that introduced it
   */
  public apiVersionFor(kind: AdmissionKind): string {
    const apiVersion = preferredApiVersion(kind, this.minor);
    if (!apiVersion) {
      const oldest = SERVED_VERSIONS[kind][SERVED_VERSIONS[kind].length - 1];
      throw new Error(`${kind} is not served by Kubernetes ${this}: it needs Kubernetes 1.${oldest.sinceMinor} or newer (${ADMISSION_GROUP}/${oldest.version})`);
    }
    return apiVersion;
  }

  /** `1.30`. */
  public toString(): string {
    return `1.${this.minor}`;
  }
}

/**
 * A version given through an untyped door (JavaScript callers, parsed configuration): a
 * `KubernetesVersion` as it is, a `1.<minor>` string as `KubernetesVersion.of` reads it, nothing
 * (`undefined`/`null`) as `fallback()`; anything else is an error naming `where`.
 */
export function toKubernetesVersion(value: unknown, where: string, fallback = (): KubernetesVersion => KubernetesVersion.LATEST): KubernetesVersion {
  if (value === undefined || value === null) return fallback();
  if (value instanceof KubernetesVersion) return value;
  if (typeof value === 'string') {
    try {
      return KubernetesVersion.of(value);
    } catch (e) {
      throw new Error(`${where}: ${(e as Error).message}`);
    }
  }
  const shown = typeof value === 'object' ? JSON.stringify(value) ?? String(value) : String(value);
  throw new Error(`${where} must be a KubernetesVersion (for example KubernetesVersion.V1_30 or KubernetesVersion.of('1.30')), got ${typeof value} ${shown}`);
}
