/** The six kinds of admissionregistration.k8s.io, all cluster-scoped. */
export enum AdmissionKind {
  VALIDATING_ADMISSION_POLICY = 'ValidatingAdmissionPolicy',
  VALIDATING_ADMISSION_POLICY_BINDING = 'ValidatingAdmissionPolicyBinding',
  MUTATING_ADMISSION_POLICY = 'MutatingAdmissionPolicy',
  MUTATING_ADMISSION_POLICY_BINDING = 'MutatingAdmissionPolicyBinding',
  VALIDATING_WEBHOOK_CONFIGURATION = 'ValidatingWebhookConfiguration',
  MUTATING_WEBHOOK_CONFIGURATION = 'MutatingWebhookConfiguration',
}

export const ADMISSION_GROUP = 'admissionregistration.k8s.io';

/** One apiVersion of a kind and the Kubernetes minor that first serves it. */
export interface ServedVersion {
  /** `v1`, `v1beta1`, `v1alpha1`. */
  readonly version: string;
  /** First Kubernetes minor (1.x) serving it. */
  readonly sinceMinor: number;
  /**
   * First Kubernetes minor that no longer serves it (beta versions go 6 minors after they came,
   * alpha ones as the apiserver's deprecation warnings announce), if it has one.
   */
  readonly removedInMinor?: number;
  /** For beta and alpha versions: what the cluster needs enabled. */
  readonly gate?: string;
}

const VAP_VERSIONS: readonly ServedVersion[] = [
  { version: 'v1', sinceMinor: 30 },
  { version: 'v1beta1', sinceMinor: 28, removedInMinor: 34, gate: 'the ValidatingAdmissionPolicy feature gate and --runtime-config=admissionregistration.k8s.io/v1beta1=true' },
];
const MAP_VERSIONS: readonly ServedVersion[] = [
  { version: 'v1', sinceMinor: 36 },
  { version: 'v1beta1', sinceMinor: 34, removedInMinor: 40, gate: 'the MutatingAdmissionPolicy feature gate and --runtime-config=admissionregistration.k8s.io/v1beta1=true' },
  { version: 'v1alpha1', sinceMinor: 32, removedInMinor: 38, gate: 'the MutatingAdmissionPolicy feature gate and --runtime-config=admissionregistration.k8s.io/v1alpha1=true' },
];
const WEBHOOK_VERSIONS: readonly ServedVersion[] = [{ version: 'v1', sinceMinor: 16 }];

/**
 * The apiVersions this library supports per kind, newest first (as in DESIGN.md).
 * admissionregistration.k8s.io/v1beta1 webhook configurations were removed in 1.22, and
 * v1alpha1 ValidatingAdmissionPolicy (1.26-1.27) predates the versions this library targets.
 */
export const SERVED_VERSIONS: { readonly [kind in AdmissionKind]: readonly ServedVersion[] } = {
  [AdmissionKind.VALIDATING_ADMISSION_POLICY]: VAP_VERSIONS,
  [AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING]: VAP_VERSIONS,
  [AdmissionKind.MUTATING_ADMISSION_POLICY]: MAP_VERSIONS,
  [AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING]: MAP_VERSIONS,
  [AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION]: WEBHOOK_VERSIONS,
  [AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION]: WEBHOOK_VERSIONS,
};

const KINDS: ReadonlySet<string> = new Set(Object.values(AdmissionKind));

export function isAdmissionKind(kind: unknown): kind is AdmissionKind {
  return typeof kind === 'string' && KINDS.has(kind);
}

/** Whether Kubernetes 1.`minor` serves this version. */
export function isServedIn(served: ServedVersion, minor: number): boolean {
  return served.sinceMinor <= minor && (served.removedInMinor === undefined || minor < served.removedInMinor);
}

/** The newest apiVersion of `kind` served by Kubernetes 1.`minor`, if any. */
export function preferredApiVersion(kind: AdmissionKind, minor: number): string | undefined {
  const served = SERVED_VERSIONS[kind].find((v) => isServedIn(v, minor));
  return served ? `${ADMISSION_GROUP}/${served.version}` : undefined;
}
