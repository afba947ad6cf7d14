// The rules an apiserver applies to the admission configurations it loads from a
// staticManifestsDir (KEP-5793, ManifestBasedAdmissionControlConfig), on top of the API validation
// it runs on each object after defaulting it:
// - k8s.io/apiserver@v0.37.2 pkg/admission/plugin/manifest/validation.go: ValidateManifestName;
// - pkg/admission/plugin/policy/manifest/loader/loader.go: validatePolicyManifestConstraints,
//   validateBindingConstraints, validateBindingReferences, acceptFileObject;
// - pkg/admission/plugin/webhook/manifest/loader/loader.go: ValidateWebhookClientConfig;
// - k8s.io/kubernetes@v1.37.2 pkg/admission/plugin/{policy,webhook}/manifest/loader: the decoder
//   (strict, every admissionregistration version known) and the accept functions, which take only
//   the v1 types and their Lists, so that any other version is an "unsupported resource type".
// Any of these failing at start stops the apiserver (StaticPolicySource.LoadInitial returns the
// error); at a reload the apiserver logs it and keeps the previous set.
import { ADMISSION_GROUP, AdmissionKind } from '../admission-kind';
import { FieldViolation, forbidden, invalid, required, warning } from './field-errors';
import { FieldPath } from './field-path';
import { STATIC_SUFFIX } from './static-suffix';
import { KubernetesVersion } from '../kubernetes-version';

/** The only apiVersion the loaders accept. */
export const STATIC_API_VERSION = `${ADMISSION_GROUP}/v1`;

/** The first version whose apiserver can load static manifests (alpha, gate off by default), and the first where the gate is on by default. */
const FIRST_VERSION = KubernetesVersion.V1_36;
const ON_BY_DEFAULT = KubernetesVersion.V1_37;

const NAME = FieldPath.root('metadata').child('name');
const SPEC = FieldPath.root('spec');

/** Static manifests at a target version: refused before 1.36, behind an alpha gate in 1.36. */
export function validateStaticVersion(version: KubernetesVersion): FieldViolation[] {
  const root = FieldPath.root('');
  if (!version.isAtLeast(FIRST_VERSION)) {
    return [invalid(root, version.toString(), `apiservers load admission configurations from a staticManifestsDir from Kubernetes ${FIRST_VERSION} `
      + `(feature gate ManifestBasedAdmissionControlConfig); the target is ${version}: target ${ON_BY_DEFAULT} or later, or create the objects through the API`)];
  }
  if (!version.isAtLeast(ON_BY_DEFAULT)) {
    return [warning(root, `a Kubernetes ${version} apiserver loads a staticManifestsDir only with the alpha feature gate `
      + `ManifestBasedAdmissionControlConfig on (--feature-gates=ManifestBasedAdmissionControlConfig=true); it is beta and on by default from ${ON_BY_DEFAULT}`)];
  }
  return [];
}

/**
 * What the loaders refuse in one object that API validation accepts: another apiVersion than v1,
 * a name without the static suffix, parameters, a binding of a policy outside the static set,
 * and webhooks called through a Service.
 */
export function validateStaticObject(kind: AdmissionKind, apiVersion: unknown, value: any): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (apiVersion !== STATIC_API_VERSION) {
    out.push(invalid(FieldPath.root('apiVersion'), apiVersion,
      `the apiserver loads only ${STATIC_API_VERSION} objects from a staticManifestsDir and refuses this one as an unsupported resource type; use ${STATIC_API_VERSION}`));
  }
  out.push(...validateStaticName(value?.metadata?.name));
  const spec = typeof value?.spec === 'object' && value.spec !== null ? value.spec : {};
  switch (kind) {
    case AdmissionKind.VALIDATING_ADMISSION_POLICY:
    case AdmissionKind.MUTATING_ADMISSION_POLICY:
      if (spec.paramKind !== undefined && spec.paramKind !== null) {
        out.push(forbidden(SPEC.child('paramKind'), 'spec.paramKind is not supported for static manifests: a static policy takes no parameters; '
          + 'write the values into its expressions or variables'));
      }
      break;
    case AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING:
    case AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING:
      out.push(...validateStaticBinding(spec));
      break;
    case AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION:
    case AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION:
      out.push(...validateStaticWebhooks(value?.webhooks));
      break;
  }
  return out;
}

/** manifest/validation.go: ValidateManifestName (uniqueness is checked across the set, per kind). */
function validateStaticName(name: unknown): FieldViolation[] {
  if (typeof name !== 'string' || name === '') {
    return [required(NAME, 'the apiserver refuses a static manifest without a name (generateName does not apply to files)')];
  }
  if (!name.endsWith(STATIC_SUFFIX)) {
    return [invalid(NAME, name, `the name of a static manifest must end with "${STATIC_SUFFIX}": rename it, e.g. to "${name}${STATIC_SUFFIX}"`)];
  }
  return [];
}

/** loader.go: validateBindingConstraints (an empty policyName is already refused by API validation, which runs first). */
function validateStaticBinding(spec: { policyName?: unknown; paramRef?: unknown }): FieldViolation[] {
  const out: FieldViolation[] = [];
  const policyName = spec.policyName;
  if (typeof policyName === 'string' && policyName !== '' && !policyName.endsWith(STATIC_SUFFIX)) {
    out.push(invalid(SPEC.child('policyName'), policyName, `a static binding binds only a policy of its own static set, whose name ends with "${STATIC_SUFFIX}"`));
  }
  if (spec.paramRef !== undefined && spec.paramRef !== null) {
    out.push(forbidden(SPEC.child('paramRef'), 'spec.paramRef is not supported for static manifests: static policies take no parameters; remove it'));
  }
  return out;
}

/** webhook/manifest/loader/loader.go: ValidateWebhookClientConfig, for each webhook. */
function validateStaticWebhooks(webhooks: unknown): FieldViolation[] {
  if (!Array.isArray(webhooks)) return [];
  return webhooks.flatMap((webhook, i) => {
    const clientConfig = (webhook as { clientConfig?: { service?: unknown; url?: unknown } } | null)?.clientConfig;
    if (clientConfig?.service === undefined || clientConfig.service === null) return [];
    return [forbidden(FieldPath.root('webhooks').index(i).child('clientConfig').child('service'),
      'clientConfig.service is not supported for static manifests; use clientConfig.url instead (Webhook.forUrl)')];
  });
}

/** What the loaders say of a binding whose policy is not in the set: loader.go, validateBindingReferences. */
export function missingStaticPolicy(policyName: string): FieldViolation {
  return invalid(SPEC.child('policyName'), policyName,
    'the bound policy is not in the static set: the apiserver refuses a static binding whose policy is not in the same staticManifestsDir; '
    + 'add the policy to the set, or bind it through the API');
}

/**
 * An API binding whose policyName has the static suffix: the apiserver pairs API bindings with API
 * policies only (policy/generic/policy_source.go), and no API policy can have that name, so the
 * binding never acts.
 */
export function apiBindingOfStaticPolicy(kind: AdmissionKind, policyName: unknown): FieldViolation[] {
  if (kind !== AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING && kind !== AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING) return [];
  if (typeof policyName !== 'string' || !policyName.endsWith(STATIC_SUFFIX)) return [];
  return [warning(SPEC.child('policyName'), `names a static policy ("${STATIC_SUFFIX}"), but the apiserver pairs a binding created through the API only `
    + 'with policies created through the API: this binding never acts; bind a static policy with a binding of its own static set')];
}
