import { FieldViolation, invalid, invalidEach, required, tooLong, warning } from './field-errors';
import { FieldPath } from './field-path';
import { isDns1123Subdomain, isQualifiedName, isValidLabelValue } from '../shared/name-formats';
import type { ObjectMeta, OwnerReference } from '../wire/meta';

const METADATA = FieldPath.root('metadata');
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
/** A generated name is the prefix, cut to this length, and five random characters. */
const MAX_GENERATED_PREFIX = 58;

/**
 * ObjectMeta of a cluster-scoped admissionregistration object (k8s.io/apimachinery
 * pkg/api/validation/objectmeta.go: ValidateObjectMeta with NameIsDNSSubdomain).
 */
export function validateObjectMeta(meta: ObjectMeta | undefined): FieldViolation[] {
  const m = meta ?? {};
  const out: FieldViolation[] = [];
  if (m.name === undefined || m.name === '') {
    if (m.generateName === undefined || m.generateName === '') {
      out.push(required(METADATA.child('name'), 'name or generateName is required'));
    }
  } else {
    out.push(...invalidEach(METADATA.child('name'), m.name, isDns1123Subdomain(m.name)));
  }
  if (m.generateName) {
    out.push(...invalidEach(METADATA.child('generateName'), m.generateName, isDns1123Subdomain(maskTrailingDash(m.generateName))));
    if (!m.name) {
      // The apiserver validates the name it generates too: the prefix (cut to 58 characters) and 5 random ones.
      const generated = `${m.generateName.slice(0, MAX_GENERATED_PREFIX)}xxxxx`;
      out.push(...invalidEach(METADATA.child('name'), generated, isDns1123Subdomain(generated)));
      out.push(warning(METADATA.child('generateName'),
        'kubectl apply, Argo CD and Flux cannot apply an object without metadata.name (generateName only works with kubectl create): set metadata.name'));
    }
  }
  if (m.namespace !== undefined && m.namespace !== '') {
    out.push(warning(METADATA.child('namespace'),
      'this kind is cluster-scoped: the apiserver drops metadata.namespace, so GitOps tools show a permanent diff; remove it'));
  }
  out.push(...validateLabels(m.labels ?? {}, METADATA.child('labels')));
  out.push(...validateAnnotations(m.annotations ?? {}, METADATA.child('annotations')));
  out.push(...validateOwnerReferences(m.ownerReferences ?? [], METADATA.child('ownerReferences')));
  out.push(...validateFinalizers(m.finalizers ?? [], METADATA.child('finalizers')));
  return out;
}

/** Only one Kubernetes kind may never own objects (apimachinery's BannedOwners). */
const BANNED_OWNERS: ReadonlySet<string> = new Set(['/v1, Kind=Event']);

function validateOwnerReferences(refs: readonly OwnerReference[], path: FieldPath): FieldViolation[] {
  const out: FieldViolation[] = [];
  let firstController: string | undefined;
  refs.forEach((ref, i) => {
    const p = path.index(i);
    const apiVersion = ref.apiVersion ?? '';
    const parts = apiVersion.split('/');
    if (apiVersion === '') out.push(required(p.child('apiVersion'), 'must not be empty'));
    else if (parts.length > 2 || parts[parts.length - 1] === '') out.push(invalid(p.child('apiVersion'), apiVersion, 'must be <group>/<version> or <version>'));
    for (const key of ['kind', 'name', 'uid'] as const) {
      if ((ref[key] ?? '') === '') out.push(required(p.child(key), 'must not be empty'));
    }
    const [group, version] = parts.length === 2 ? parts : ['', parts[0]];
    const gvk = `${group}/${version}, Kind=${ref.kind ?? ''}`;
    if (BANNED_OWNERS.has(gvk)) out.push(invalid(p, ref, `${gvk} is disallowed from being an owner`));
    if (ref.controller === true) {
      const name = `${ref.kind ?? ''}/${ref.name ?? ''}`;
      if (firstController === undefined) firstController = name;
      else out.push(invalid(path, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${name}`));
    }
  });
  return out;
}

const ORPHAN_DEPENDENTS = 'orphan';
const DELETE_DEPENDENTS = 'foregroundDeletion';

function validateFinalizers(finalizers: readonly string[], path: FieldPath): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const finalizer of finalizers) out.push(...invalidEach(path, finalizer, isQualifiedName(finalizer)));
  if (finalizers.includes(ORPHAN_DEPENDENTS) && finalizers.includes(DELETE_DEPENDENTS)) {
    out.push(invalid(path, finalizers, `finalizer ${ORPHAN_DEPENDENTS} and ${DELETE_DEPENDENTS} cannot be both set`));
  }
  return out;
}

/** apimachinery checks generateName as a prefix: a trailing '-' is allowed. */
function maskTrailingDash(prefix: string): string {
  return prefix.length > 1 && prefix.endsWith('-') ? prefix.slice(0, -1) + 'a' : prefix;
}

/** Label keys are qualified names, values are label values; errors at the map's path, as apimachinery does. */
export function validateLabels(labels: { readonly [key: string]: string }, path: FieldPath): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const [key, value] of Object.entries(labels)) {
    out.push(...invalidEach(path, key, isQualifiedName(key)));
    out.push(...invalidEach(path, value, isValidLabelValue(value)));
  }
  return out;
}

function validateAnnotations(annotations: { readonly [key: string]: string }, path: FieldPath): FieldViolation[] {
  const out: FieldViolation[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations)) {
    out.push(...invalidEach(path, key, isQualifiedName(key.toLowerCase())));
    size += Buffer.byteLength(key) + Buffer.byteLength(value);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
    out.push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT, 'bytes'));
  }
  return out;
}
