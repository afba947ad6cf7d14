// A static set read as the apiserver's loaders read the files of a staticManifestsDir
// (k8s.io/apiserver@v0.37.2 pkg/admission/plugin/policy/manifest/loader/loader.go: acceptFileObject,
// validateBindingReferences; manifest/validation.go: ValidateManifestName), for
// `ManifestValidator.validateAll` with `staticManifests`.
import { ADMISSION_GROUP, AdmissionKind } from '../admission-kind';
import { checkBindingAgainstPolicy, checkBindingPolicyName, ObjectEntry, readEntry } from './cross-object';
import { FieldViolation, invalid } from './field-errors';
import { FieldPath } from './field-path';
import { missingStaticPolicy } from './static-manifests';
import type { StaticPlugin } from './static-plugins';
import { Violation, ViolationSeverity } from './violation';

/** One object of the set, where it came from: a manifest of the list, or an item of a List in it. */
export interface StaticEntry {
  readonly manifest: unknown;
  readonly manifestIndex: number;
  /** `items[3].` for the fourth item of a List, else empty. */
  readonly prefix: string;
}

const BINDING_POLICY: { readonly [binding: string]: AdmissionKind } = {
  [AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING]: AdmissionKind.VALIDATING_ADMISSION_POLICY,
  [AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING]: AdmissionKind.MUTATING_ADMISSION_POLICY,
};

/**
 * The objects of the set: a `v1 List`, or a List of one of the kinds (ValidatingAdmissionPolicyList),
 * stands for its items, as in acceptFileObject and the accept functions.
 */
export function staticEntries(manifests: readonly unknown[]): StaticEntry[] {
  return manifests.flatMap((manifest, manifestIndex) => {
    const items = listItems(manifest);
    if (!items) return [{ manifest, manifestIndex, prefix: '' }];
    return items.map((item, i) => ({ manifest: item, manifestIndex, prefix: `items[${i}].` }));
  });
}

function listItems(manifest: unknown): unknown[] | undefined {
  if (typeof manifest !== 'object' || manifest === null) return undefined;
  const { apiVersion, kind, items } = manifest as { apiVersion?: unknown; kind?: unknown; items?: unknown };
  const isList = (apiVersion === 'v1' && kind === 'List')
    || (apiVersion === `${ADMISSION_GROUP}/v1` && typeof kind === 'string' && kind.endsWith('List')
      && (Object.values(AdmissionKind) as string[]).includes(kind.slice(0, -'List'.length)));
  if (!isList) return undefined;
  return Array.isArray(items) ? items : [];
}

/** A manifest of another kind than the four a staticManifestsDir may hold. */
export function unsupportedStaticObject(manifest: unknown): FieldViolation {
  const m = (typeof manifest === 'object' && manifest !== null ? manifest : {}) as { apiVersion?: unknown; kind?: unknown };
  return invalid(FieldPath.root('kind'), m.kind,
    `the apiserver refuses this ${typeof m.apiVersion === 'string' ? `${m.apiVersion} ` : ''}object in a staticManifestsDir as an unsupported resource type: `
    + 'a static set holds only admissionregistration.k8s.io/v1 policies, bindings and webhook configurations; apply other objects through the API');
}

/**
 * Names unique per kind (a directory holds one plugin's kinds, and its loader tracks policies and
 * bindings apart), and every binding's policy in the set, checked against it as in the API.
 */
export function validateStaticRelations(entries: readonly StaticEntry[]): Violation[] {
  const objects = entries.map((e, i) => readEntry(e.manifest, i)).filter((e): e is ObjectEntry => e !== undefined);
  const locate = (object: ObjectEntry, path: string, message: string, severity = ViolationSeverity.ERROR): Violation => ({
    path: entries[object.index].prefix + path,
    message,
    severity,
    kind: object.kind,
    name: object.name,
    manifestIndex: entries[object.index].manifestIndex,
  });
  const out: Violation[] = [];
  const first = new Map<string, ObjectEntry>();
  for (const object of objects) {
    const key = `${object.kind}/${object.name}`;
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, object);
      continue;
    }
    out.push(locate(object, 'metadata.name', `Duplicate value: ${JSON.stringify(object.name)}: manifest ${entries[earlier.index].manifestIndex} is a ${object.kind} `
      + 'with the same name, and the apiserver refuses a static set with a duplicate name; give one a different name'));
  }
  const find = (kind: AdmissionKind, name: string) => first.get(`${kind}/${name}`);
  for (const binding of objects) {
    const policyKind = BINDING_POLICY[binding.kind];
    const policyName = binding.spec.policyName;
    if (!policyKind || typeof policyName !== 'string' || policyName === '') continue;
    const policy = find(policyKind, policyName);
    // The params checks are left to the loader's own rule, which forbids paramKind and paramRef alike.
    const related = (policy ? checkBindingAgainstPolicy(binding, policy) : checkBindingPolicyName(binding, find)).filter((v) => v.path !== 'spec.paramRef');
    out.push(...related.map((v) => locate(binding, v.path, v.message, v.severity)));
    if (!policy) {
      const missing = missingStaticPolicy(policyName);
      out.push(locate(binding, missing.path.toString(), missing.message));
    }
  }
  return out;
}

/**
 * The objects of a directory that one of the plugins reading it does not take: each plugin's
 * loader refuses every kind but its own as an "unsupported resource type" (acceptFileObject), so a
 * directory holds the kinds of one plugin. Only where the plugins are known: the cdk8s CLI plugin
 * reads them from the AdmissionConfiguration that names the directory.
 */
export function validatePluginKinds(entries: readonly StaticEntry[], plugins: readonly StaticPlugin[]): Violation[] {
  const out: Violation[] = [];
  for (const entry of entries) {
    const m = entry.manifest as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } } | null;
    if (typeof m?.apiVersion !== 'string' || !m.apiVersion.startsWith(`${ADMISSION_GROUP}/`)) continue;
    const kind = m.kind as AdmissionKind;
    if (!(Object.values(AdmissionKind) as string[]).includes(kind)) continue;
    for (const plugin of plugins.filter((p) => !p.kinds.includes(kind))) {
      out.push({
        path: `${entry.prefix}kind`,
        message: `Invalid value: ${JSON.stringify(kind)}: the ${plugin.plugin} admission plugin reads this directory (its staticManifestsDir in the AdmissionConfiguration) `
          + `and refuses a ${kind} as an unsupported resource type, which stops the apiserver; a directory holds the objects of one plugin: `
          + `move this one to the staticManifestsDir of the plugin that reads ${kind}s`,
        severity: ViolationSeverity.ERROR,
        kind,
        ...(typeof m.metadata?.name === 'string' ? { name: m.metadata.name } : {}),
        manifestIndex: entry.manifestIndex,
      });
    }
  }
  return out;
}
