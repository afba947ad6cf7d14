import { ADMISSION_GROUP, AdmissionKind, isAdmissionKind, preferredApiVersion, SERVED_VERSIONS } from '../admission-kind';
import { KubernetesVersion, toKubernetesVersion } from '../kubernetes-version';
import { validateCrossObject } from './cross-object';
import { FieldViolation, invalid, notSupported, required, warning } from './field-errors';
import { FieldPath } from './field-path';
import { inspectJson, MAX_JSON_DEPTH, MAX_REQUEST_BYTES } from './json-data';
import { validateMutatingPolicy } from './mutating-policy';
import { validateMutatingPolicyBinding } from './mutating-policy-binding';
import { RuleContext } from './rule-context';
import { checkShape } from './shape';
import { apiBindingOfStaticPolicy, validateStaticObject, validateStaticVersion } from './static-manifests';
import { staticEntries, unsupportedStaticObject, validateStaticRelations } from './static-set';
import { checkStructKeys, struct } from './struct-shape';
import { validateValidatingPolicy } from './validating-policy';
import { validateValidatingPolicyBinding } from './validating-policy-binding';
import { Violation, ViolationSeverity } from './violation';
import { validateWebhookConfiguration } from './webhook-configuration';
import { CelExpressionChecker } from '../cel/checker';
import { CustomResourceSchemas } from '../schemas/custom-resources';

/** Options of `ManifestValidator.validate` and `ManifestValidator.validateAll`. */
export interface ValidationOptions {
  /**
   * The Kubernetes version the manifests are for: which apiVersions exist, and (for CEL) which
   * libraries expressions may use.
   * @default KubernetesVersion.LATEST
   */
  readonly kubernetesVersion?: KubernetesVersion;

  /**
   * CustomResourceDefinition manifests (apiextensions.k8s.io/v1, as parsed JSON or YAML) of the
   * custom resources policies match: their expressions are type-checked against these schemas, as
   * against the built-in ones (warnings). `validateAll` also uses the CRDs among its manifests.
   * Other objects in the list are passed over.
   * @default - none: policies on custom resources are not type-checked
   */
  readonly customResourceDefinitions?: any[];

  /**
   * Validate the manifests as the files of an apiserver's `staticManifestsDir`, which it loads at
   * start (Kubernetes 1.36 alpha, 1.37 beta), rather than as objects created through the API: the
   * loader's rules apply (admissionregistration.k8s.io/v1 only, names ending with
   * `.static.k8s.io`, no paramKind or paramRef, webhooks by URL only), and `validateAll` also
   * requires every binding's policy in the list, refuses objects of other kinds, and reads the
   * items of a `v1 List` as the loader does.
   * @default false
   */
  readonly staticManifests?: boolean;
}

const API_VERSION = FieldPath.root('apiVersion');
const KIND = FieldPath.root('kind');

/** The keys of ValidationOptions, for the check of unknown keys. */
export const VALIDATION_OPTIONS = struct('ValidationOptions', ['kubernetesVersion', 'customResourceDefinitions', 'staticManifests:b']);

/**
 * Checks admissionregistration.k8s.io manifests against every rule the kube-apiserver applies
 * when they are created, plus strict field validation (unknown fields, wrong JSON types).
 * Works on plain JSON (parsed YAML), never throws on what a manifest holds, and reports every
 * problem at once.
 */
export class ManifestValidator {
  /**
   * Validates one object of the six admissionregistration kinds, in any apiVersion this library supports.
   * @param manifest the object, as parsed JSON or YAML
   */
  public static validate(manifest: any, options: ValidationOptions = {}): Violation[] {
    checkStructKeys('ManifestValidator.validate: options', options, VALIDATION_OPTIONS);
    const version = toKubernetesVersion(options?.kubernetesVersion, 'ManifestValidator.validate: options.kubernetesVersion');
    const crds = customResourcesOf(options.customResourceDefinitions, 'ManifestValidator.validate');
    const staticManifests = options.staticManifests === true;
    const versionProblems = staticManifests ? validateStaticVersion(version) : [];
    return guard(manifest, () => [...versionProblems, ...validateOne(manifest, version, crds, staticManifests)]);
  }

  /**
   * Validates every admissionregistration object in `manifests` and the relations between them:
   * duplicate names per kind, bindings whose policy in the set is of the other kind, and
   * param references that do not fit their policy's paramKind.
   * Objects of other API groups (Deployments, param objects, Namespaces) are skipped.
   * @throws if `manifests` is not a list, or the version is not a KubernetesVersion (or a `1.<minor>` string)
   */
  public static validateAll(manifests: any[], options: ValidationOptions = {}): Violation[] {
    checkStructKeys('ManifestValidator.validateAll: options', options, VALIDATION_OPTIONS);
    const version = toKubernetesVersion(options?.kubernetesVersion, 'ManifestValidator.validateAll: options.kubernetesVersion');
    if (!Array.isArray(manifests)) {
      const got = manifests === null ? 'null' : typeof manifests;
      throw new Error(`ManifestValidator.validateAll takes a list of manifests, got ${got}: pass [manifest], or use ManifestValidator.validate for one`);
    }
    const staticManifests = options.staticManifests === true;
    if (staticManifests) return validateStaticSet(manifests, version, customResourcesOf(options.customResourceDefinitions, 'ManifestValidator.validateAll'));
    const list: unknown[] = manifests;
    const crds = CustomResourceSchemas.fromManifests(list).with(customResourcesOf(options.customResourceDefinitions, 'ManifestValidator.validateAll'));
    const out: Violation[] = [];
    list.forEach((manifest, manifestIndex) => {
      if (!isInAdmissionGroup(manifest)) return;
      for (const v of guard(manifest, () => validateOne(manifest, version, crds, false))) out.push({ ...v, manifestIndex });
    });
    out.push(...guardAll(() => validateCrossObject(list)));
    return out;
  }

  private constructor() {}
}

/**
 * `ManifestValidator.validate` with the custom resources' schemas already read (the constructs'
 * checks). The static version check is the caller's (a StaticAdmissionChart makes it once).
 */
export function validateManifest(manifest: unknown, version: KubernetesVersion, crds: CustomResourceSchemas, staticManifests = false): Violation[] {
  return guard(manifest, () => validateOne(manifest, version, crds, staticManifests));
}

/**
 * `validateAll` for the files of a staticManifestsDir: the loader's reading of them (Lists
 * unwrapped, only admissionregistration objects), each object validated as static, and the
 * relations within the set, where a binding's policy must be present.
 */
function validateStaticSet(manifests: readonly unknown[], version: KubernetesVersion, crds: CustomResourceSchemas): Violation[] {
  const out: Violation[] = guard(undefined, () => validateStaticVersion(version));
  const entries = staticEntries(manifests);
  for (const { manifest, manifestIndex, prefix } of entries) {
    const located = (v: Violation): Violation => ({ ...v, path: v.path === '(object)' && prefix !== '' ? prefix.slice(0, -1) : prefix + v.path, manifestIndex });
    const violations = isInAdmissionGroup(manifest)
      ? guard(manifest, () => validateOne(manifest, version, crds, true))
      : guard(manifest, () => [unsupportedStaticObject(manifest)]);
    out.push(...violations.map(located));
  }
  out.push(...guardAll(() => validateStaticRelations(entries)));
  return out;
}


function customResourcesOf(crds: unknown, caller: string): CustomResourceSchemas {
  if (crds === undefined) return CustomResourceSchemas.NONE;
  if (!Array.isArray(crds)) throw new Error(`${caller}: options.customResourceDefinitions must be a list of CustomResourceDefinition manifests, got ${typeof crds}`);
  return CustomResourceSchemas.fromManifests(crds);
}

function isInAdmissionGroup(manifest: unknown): boolean {
  if (typeof manifest !== 'object' || manifest === null) return false;
  const apiVersion = (manifest as { apiVersion?: unknown }).apiVersion;
  return typeof apiVersion === 'string' && apiVersion.startsWith(`${ADMISSION_GROUP}/`);
}

function validateOne(manifest: unknown, version: KubernetesVersion, crds: CustomResourceSchemas, staticManifests: boolean): FieldViolation[] {
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    return [invalid(KIND, manifest, 'a manifest must be a JSON object with apiVersion and kind')];
  }
  const { problem: notJson, bytes } = inspectJson(manifest, { maxDepth: MAX_JSON_DEPTH });
  if (notJson) {
    const path = notJson.segments.reduce((p: FieldPath, k) => (typeof k === 'number' ? p.index(k) : p.child(k)), FieldPath.root(''));
    const detail = notJson.message.startsWith('nested deeper') ? 'the apiserver\'s JSON decoder refuses it (exceeded max depth)' : 'a manifest holds only JSON data';
    return [{ path, message: `Invalid value: ${notJson.message}: ${detail}`, severity: ViolationSeverity.ERROR }];
  }
  if (bytes > MAX_REQUEST_BYTES) {
    return [{
      path: FieldPath.root(''),
      message: `Too long: the manifest is ${bytes.toLocaleString('en-US')} bytes of JSON, over the apiserver's request limit of `
        + `${MAX_REQUEST_BYTES.toLocaleString('en-US')} (it answers 413 Request entity too large)`,
      severity: ViolationSeverity.ERROR,
    }];
  }
  const { apiVersion, kind } = manifest as { apiVersion?: unknown; kind?: unknown };
  if (!isAdmissionKind(kind)) {
    return kind === undefined || kind === ''
      ? [required(KIND, 'must be one of the admissionregistration.k8s.io kinds')]
      : [notSupported(KIND, kind, Object.values(AdmissionKind).sort())];
  }
  const versionProblems = validateApiVersion(apiVersion, kind, version);

  const shape = checkShape(manifest, kind, FieldPath.root(''));
  // One checker per manifest: it carries the manifest's variable types forward.
  const ctx = new RuleContext(version, new CelExpressionChecker(), crds, undefined, staticManifests);
  const rules = [
    ...validateKind(shape.value, kind, typeof apiVersion === 'string' ? apiVersion : '', ctx),
    ...(staticManifests
      ? validateStaticObject(kind, apiVersion, shape.value)
      : apiBindingOfStaticPolicy(kind, (shape.value as { spec?: { policyName?: unknown } }).spec?.policyName)),
  ].filter((v) => !shape.violations.some((s) => v.path.isWithin(s.path)));
  return [...versionProblems, ...shape.violations, ...rules];
}

function validateKind(value: any, kind: AdmissionKind, apiVersion: string, ctx: RuleContext): FieldViolation[] {
  switch (kind) {
    case AdmissionKind.VALIDATING_ADMISSION_POLICY:
      return validateValidatingPolicy(value, ctx);
    case AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING:
      return validateValidatingPolicyBinding(value, ctx);
    case AdmissionKind.MUTATING_ADMISSION_POLICY:
      return validateMutatingPolicy(value, ctx);
    case AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING:
      return validateMutatingPolicyBinding(value, apiVersion.endsWith('/v1alpha1'), ctx);
    case AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION:
    case AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION:
      return validateWebhookConfiguration(value, kind, ctx);
  }
}

/** The apiVersion must be one this library supports for the kind and the target cluster serves. */
function validateApiVersion(apiVersion: unknown, kind: AdmissionKind, version: KubernetesVersion): FieldViolation[] {
  const served = SERVED_VERSIONS[kind];
  const supported = served.map((s) => `${ADMISSION_GROUP}/${s.version}`);
  if (typeof apiVersion !== 'string' || apiVersion === '') return [required(API_VERSION, `one of ${supported.join(', ')}`)];
  const entry = served.find((s) => `${ADMISSION_GROUP}/${s.version}` === apiVersion);
  if (!entry) return [notSupported(API_VERSION, apiVersion, supported)];
  const preferred = preferredApiVersion(kind, version.minor);
  if (entry.sinceMinor > version.minor) {
    const alternative = preferred ? `: use ${preferred}, or target Kubernetes 1.${entry.sinceMinor}` : '';
    return [invalid(API_VERSION, apiVersion, `${kind} ${apiVersion} is served from Kubernetes 1.${entry.sinceMinor}; the target is ${version}${alternative}`)];
  }
  if (entry.removedInMinor !== undefined && version.minor >= entry.removedInMinor) {
    const alternative = preferred ? `: use ${preferred}` : '';
    return [invalid(API_VERSION, apiVersion, `${kind} ${apiVersion} is no longer served from Kubernetes 1.${entry.removedInMinor}; the target is ${version}${alternative}`)];
  }
  if (preferred && preferred !== apiVersion) {
    return [warning(API_VERSION, `${apiVersion} is superseded by ${preferred} on Kubernetes ${version}: use ${preferred}`)];
  }
  if (entry.gate) {
    return [warning(API_VERSION, `${apiVersion} is not served by default: the cluster needs ${entry.gate}`)];
  }
  return [];
}

function toViolation(v: FieldViolation, manifest: unknown): Violation {
  const m = (typeof manifest === 'object' && manifest !== null ? manifest : {}) as { kind?: unknown; metadata?: { name?: unknown } };
  const name = typeof m.metadata === 'object' && m.metadata !== null && typeof m.metadata.name === 'string' ? m.metadata.name : undefined;
  return {
    path: v.path.toString() || '(object)',
    message: v.message,
    severity: v.severity,
    ...(typeof m.kind === 'string' ? { kind: m.kind } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}

/** The validator never throws: an unexpected failure becomes a violation that asks for a bug report. */
function guard(manifest: unknown, run: () => FieldViolation[]): Violation[] {
  try {
    return run().map((v) => toViolation(v, manifest));
  } catch (e) {
    return [internalError(e)];
  }
}

function guardAll(run: () => Violation[]): Violation[] {
  try {
    return run();
  } catch (e) {
    return [internalError(e)];
  }
}

function internalError(e: unknown): Violation {
  return {
    path: '(object)',
    message: `Internal error: the validator failed (${e instanceof Error ? e.message : String(e)}); please report this with the manifest`,
    severity: ViolationSeverity.ERROR,
  };
}
