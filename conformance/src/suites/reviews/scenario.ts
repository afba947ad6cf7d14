/**
 * A review scenario: an admission configuration (policies, bindings, params, Namespaces) and one
 * request, installed in the real apiserver and given to PolicyTester alike. Scenario `i` lives in
 * its own Namespace, and every policy it installs is scoped to it by a namespace selector on
 * `SCOPE_LABEL`, so that many scenarios can be installed at once without seeing each other's requests.
 */
import type { Permission } from '../../../../src';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

/** Who makes the request: the oracle's own user, or one impersonated. */
export interface ScenarioUser {
  readonly username: string;
  /** The groups impersonated (the apiserver adds `system:authenticated`). */
  readonly groups: readonly string[];
  readonly uid?: string;
  readonly extra?: { readonly [key: string]: readonly string[] };
}

/** A resource requests are made to. */
export interface ScenarioResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespaced: boolean;
}

export interface ReviewScenario {
  readonly name: string;
  /** The Namespaces to create (with their labels) before anything else. */
  readonly namespaces: ReadonlyArray<{ readonly name: string; readonly labels: { readonly [key: string]: string } }>;
  /** Objects created for real before the policies: params, and the stored object of UPDATE and DELETE. */
  readonly objects: readonly any[];
  /** ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their bindings. */
  readonly policies: readonly any[];
  readonly operation: Operation;
  /** The object sent (CREATE, UPDATE), or the stored object to delete (DELETE). */
  readonly object: any;
  /** The user the request is made as; the oracle's own (in `system:masters`) when absent. */
  readonly user?: ScenarioUser;
  /** The resource of the request: ConfigMaps when absent. */
  readonly resource?: ScenarioResource;
  /** What the tester's authorizer may allow beyond the suite's own grants: RBAC objects among `objects` grant the same. */
  readonly permissions?: readonly Permission[];
  /**
   * Installed in a batch of its own, once the batch before is gone: a cluster-scoped request,
   * which no namespaceSelector keeps from other scenarios' policies.
   */
  readonly solo?: boolean;
  /** CustomResourceDefinitions the scenario's resources need, created before any batch. */
  readonly definitions?: readonly any[];
}

/** The label every Namespace has (its name), by which a scenario's policies are scoped to its Namespace. */
export const SCOPE_LABEL = 'kubernetes.io/metadata.name';
