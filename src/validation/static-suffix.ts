// The name suffix reserved for the admission configurations an apiserver loads from the files of
// its staticManifestsDir (KEP-5793, feature gate ManifestBasedAdmissionControlConfig: alpha in
// 1.36, beta and on by default in 1.37). With the gate on, the registry strategies of all six
// admissionregistration kinds refuse an API object whose name ends with it (k8s.io/kubernetes
// pkg/registry/admissionregistration/*/strategy.go: Validate, calling ValidateStaticSuffix in
// pkg/apis/admissionregistration/validation/static_suffix.go); with it off they warn
// (WarningsOnCreate, WarningsForStaticSuffix).
import { FieldViolation, invalid, warning } from './field-errors';
import { FieldPath } from './field-path';
import { RuleContext } from './rule-context';
import { KubernetesVersion } from '../kubernetes-version';
import type { ObjectMeta } from '../wire/meta';

/** static_suffix.go: StaticConfigSuffix. */
export const STATIC_SUFFIX = '.static.k8s.io';

/** The first version whose apiserver has ManifestBasedAdmissionControlConfig on by default. */
const REFUSED_FROM = KubernetesVersion.V1_37;

const RENAME = `rename it: names ending with "${STATIC_SUFFIX}" are reserved for the configurations an apiserver loads from its `
  + 'staticManifestsDir';

/**
 * An API object's name with the static suffix: refused from 1.37 on (measured on the 1.37.2
 * apiserver), a warning before, where the apiserver warns (1.36) or a later upgrade would refuse it.
 * Only `metadata.name` counts: a generated name ends with random characters, never with the suffix.
 * Static manifests, which must have the suffix, are checked by static-manifests.ts instead.
 */
export function validateApiObjectName(meta: ObjectMeta | undefined, ctx: RuleContext): FieldViolation[] {
  if (ctx.staticManifests) return [];
  const version = ctx.kubernetesVersion;
  const name = meta?.name;
  if (typeof name !== 'string' || !name.endsWith(STATIC_SUFFIX)) return [];
  const path = FieldPath.root('metadata').child('name');
  if (version.isAtLeast(REFUSED_FROM)) {
    return [invalid(path, name, `names ending with "${STATIC_SUFFIX}" are reserved for static manifest-based configurations and cannot `
      + 'be managed via the API; rename it')];
  }
  return [warning(path, `${RENAME}, and from Kubernetes ${REFUSED_FROM} on the apiserver refuses such a name through the API`)];
}
