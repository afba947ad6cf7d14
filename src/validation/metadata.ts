import { FieldViolation, invalidEach, required, tooLong, warning } from './field-errors';
import { FieldPath } from './field-path';
import { isDns1123Subdomain, isQualifiedName, isValidLabelValue } from './formats';
import type { ObjectMeta } from '../wire/meta';

const METADATA = FieldPath.root('metadata');
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** C1: ObjectMeta of a cluster-scoped admissionregistration object. */
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
