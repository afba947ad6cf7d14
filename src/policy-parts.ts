// The parts ValidatingAdmissionPolicy and MutatingAdmissionPolicy (and their bindings) share.
import { MatchPolicy, ParameterNotFoundAction } from './enums';
import { LabelSelector, renderLabelSelector } from './label-selector';
import { renderResourceRule, ResourceRule } from './resource-rule';
import type * as wire from './wire/admissionregistration';

/** A CEL condition a request must meet for the policy (or webhook) to run at all. */
export interface MatchCondition {
  /** A name unique among the conditions (a qualified name such as `exclude-leases`). */
  readonly name: string;
  /** A CEL expression that evaluates to a bool. */
  readonly expression: string;
}

/** A named CEL expression, available to later expressions as `variables.<name>`. */
export interface Variable {
  /** A CEL identifier, unique among the policy's variables. */
  readonly name: string;
  /** A CEL expression of any type. */
  readonly expression: string;
}

/** The kind of the resources holding a policy's parameters, e.g. `{ apiVersion: 'v1', kind: 'ConfigMap' }`. */
export interface ParamKind {
  /** `group/version`, or `version` for the core group. */
  readonly apiVersion: string;
  /** The kind, e.g. `ConfigMap`. */
  readonly kind: string;
}

/** How a binding finds the parameter resources of its policy: by name or by selector. */
export interface ParamRef {
  /**
   * The name of one parameter resource. Exactly one of `name` and `selector`.
   * @default - use `selector`
   */
  readonly name?: string;
  /**
   * Every parameter resource matching this selector, each evaluated in turn (`{}` selects all).
   * Exactly one of `name` and `selector`.
   * @default - use `name`
   */
  readonly selector?: LabelSelector;
  /**
   * The namespace of the parameter resources, for a namespaced paramKind.
   * @default - the namespace of the request, for a namespaced paramKind
   */
  readonly namespace?: string;
  /** What to do when no parameter resource is found. */
  readonly parameterNotFoundAction: ParameterNotFoundAction;
}

/** Further restricts which requests a binding applies its policy to. */
export interface MatchResources {
  /**
   * Only these requests (within the policy's own constraints).
   * @default - all requests the policy matches
   */
  readonly resourceRules?: ResourceRule[];
  /**
   * Never these requests.
   * @default - none
   */
  readonly excludeResourceRules?: ResourceRule[];
  /**
   * Only objects in namespaces matching this selector.
   * @default - all namespaces
   */
  readonly namespaceSelector?: LabelSelector;
  /**
   * Only objects matching this selector.
   * @default - all objects
   */
  readonly objectSelector?: LabelSelector;
  /**
   * How rules match requests through other versions of the same resource.
   * @default MatchPolicy.EQUIVALENT
   */
  readonly matchPolicy?: MatchPolicy;
}

export function renderMatchResources(match: MatchResources): wire.MatchResources {
  return {
    ...nonEmpty('resourceRules', (match.resourceRules ?? []).map(renderResourceRule)),
    ...nonEmpty('excludeResourceRules', (match.excludeResourceRules ?? []).map(renderResourceRule)),
    namespaceSelector: renderLabelSelector(match.namespaceSelector),
    objectSelector: renderLabelSelector(match.objectSelector),
    matchPolicy: match.matchPolicy ?? MatchPolicy.EQUIVALENT,
  };
}

export function renderParamRef(ref: ParamRef): wire.ParamRef {
  return {
    ...(ref.name !== undefined ? { name: ref.name } : {}),
    ...(ref.selector !== undefined ? { selector: renderLabelSelector(ref.selector) } : {}),
    ...(ref.namespace !== undefined ? { namespace: ref.namespace } : {}),
    parameterNotFoundAction: ref.parameterNotFoundAction,
  };
}

/** `{ [key]: items }` when there are items, `{}` otherwise: empty lists are left out of manifests. */
export function nonEmpty<K extends string, T>(key: K, items: T[]): { [k in K]?: T[] } {
  return (items.length > 0 ? { [key]: items } : {}) as { [k in K]?: T[] };
}
