// The parts of k8s.io/apimachinery meta/v1 that admissionregistration objects use (ObjectMeta,
// ListMeta, LabelSelector, Condition), written by hand after their OpenAPI definitions
// (io.k8s.apimachinery.pkg.apis.meta.v1.* in schemas/kubernetes.json). The generated
// admissionregistration*.ts beside it (scripts/generate-wire-types.ts) refer to them.
import type { TypeSchema } from './schema-types';

export interface ObjectMeta {
  readonly name?: string;
  readonly generateName?: string;
  readonly namespace?: string;
  readonly labels?: { readonly [key: string]: string };
  readonly annotations?: { readonly [key: string]: string };
  readonly finalizers?: string[];
  readonly ownerReferences?: OwnerReference[];
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly creationTimestamp?: string;
  readonly deletionTimestamp?: string;
  readonly deletionGracePeriodSeconds?: number;
  readonly managedFields?: ManagedFieldsEntry[];
  readonly selfLink?: string;
}

export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  readonly apiVersion?: string;
  readonly fieldsType?: string;
  readonly fieldsV1?: unknown;
  readonly manager?: string;
  readonly operation?: string;
  readonly subresource?: string;
  readonly time?: string;
}

export interface ListMeta {
  readonly continue?: string;
  readonly remainingItemCount?: number;
  readonly resourceVersion?: string;
  readonly selfLink?: string;
}

export interface LabelSelector {
  readonly matchLabels?: { readonly [key: string]: string };
  readonly matchExpressions?: LabelSelectorRequirement[];
}

export interface LabelSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: string[];
}

export interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime: string;
  readonly observedGeneration?: number;
}

const str = { kind: 'string' } as const;
const strings = { kind: 'array', items: str } as const;
const stringMap = { kind: 'stringMap' } as const;
const int64 = { kind: 'integer', format: 'int64' } as const;
const bool = { kind: 'boolean' } as const;
const ref = (name: string) => ({ kind: 'object', ref: name }) as const;
const listOf = (name: string) => ({ kind: 'array', items: ref(name) }) as const;

/** The meta/v1 types as data, alongside ADMISSION_TYPES. */
export const META_TYPES: { readonly [typeName: string]: TypeSchema } = {
  ObjectMeta: {
    name: { type: str, required: false },
    generateName: { type: str, required: false },
    namespace: { type: str, required: false },
    labels: { type: stringMap, required: false },
    annotations: { type: stringMap, required: false },
    finalizers: { type: strings, required: false },
    ownerReferences: { type: listOf('OwnerReference'), required: false },
    uid: { type: str, required: false },
    resourceVersion: { type: str, required: false },
    generation: { type: int64, required: false },
    creationTimestamp: { type: str, required: false },
    deletionTimestamp: { type: str, required: false },
    deletionGracePeriodSeconds: { type: int64, required: false },
    managedFields: { type: listOf('ManagedFieldsEntry'), required: false },
    selfLink: { type: str, required: false },
  },
  OwnerReference: {
    apiVersion: { type: str, required: true },
    kind: { type: str, required: true },
    name: { type: str, required: true },
    uid: { type: str, required: true },
    controller: { type: bool, required: false },
    blockOwnerDeletion: { type: bool, required: false },
  },
  ManagedFieldsEntry: {
    apiVersion: { type: str, required: false },
    fieldsType: { type: str, required: false },
    fieldsV1: { type: { kind: 'json' }, required: false },
    manager: { type: str, required: false },
    operation: { type: str, required: false },
    subresource: { type: str, required: false },
    time: { type: str, required: false },
  },
  ListMeta: {
    continue: { type: str, required: false },
    remainingItemCount: { type: int64, required: false },
    resourceVersion: { type: str, required: false },
    selfLink: { type: str, required: false },
  },
  LabelSelector: {
    matchLabels: { type: stringMap, required: false },
    matchExpressions: { type: listOf('LabelSelectorRequirement'), required: false },
  },
  LabelSelectorRequirement: {
    key: { type: str, required: true },
    operator: { type: str, required: true },
    values: { type: strings, required: false },
  },
  Condition: {
    type: { type: str, required: true },
    status: { type: str, required: true },
    reason: { type: str, required: true },
    message: { type: str, required: true },
    lastTransitionTime: { type: str, required: true },
    observedGeneration: { type: int64, required: false },
  },
};
