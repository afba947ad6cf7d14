import type { TypedResource } from './environment';
import type { KnownRequest } from './request-guards';
import type { KubernetesVersion } from '../kubernetes-version';
import type { ExpressionField } from '../shared/expression-field';

/** What an expression may see, as the apiserver declares it for the field. */
export interface ExpressionEnvironment {
  readonly field: ExpressionField;
  /** The policy has a paramKind, so `params` is declared. */
  readonly hasParams: boolean;
  /**
   * The variables declared before this expression (`variables.<name>`), in order. Read during the
   * call only: the validator appends to the same list as it goes.
   */
  readonly variables: readonly string[];
  readonly kubernetesVersion: KubernetesVersion;
  /** The schemas to type-check against, when the policy's rules name resources that have one. */
  readonly types?: ExpressionTypes;
}

/** What `object`, `oldObject` and `params` are, from the policy's rules and paramKind. */
export interface ExpressionTypes {
  /** Each resource kind the rules match that has a schema: the expression is checked against each in turn. */
  readonly objects: readonly TypedKind[];
  /** The paramKind's type, when it has a schema. */
  readonly params?: TypedKind;
}

export interface TypedKind {
  /** As the apiserver's type checker names it: `apps/v1, Kind=Deployment`. */
  readonly label: string;
  readonly resource: TypedResource;
  /**
   * What every request of the kind shares (kind, apiVersion, group, resource), for the guards that
   * tell a policy's kinds apart (kind-narrowing.ts). Not given for params.
   */
  readonly request?: KnownRequest;
}

/**
 * What checking an expression found: errors (the apiserver refuses the manifest) and warnings
 * (type errors against the schemas of the resources the policy is for: accepted, but wrong).
 */
export interface ExpressionProblems {
  readonly errors: string[];
  readonly warnings: string[];
}

/**
 * The seam where CEL checking plugs into the manifest validator (CelExpressionChecker, checker.ts,
 * implements it). `check` returns error details
 * (e.g. `compilation failed: ERROR: <input>:1:5: undeclared reference to 'x'`), empty when the
 * expression is accepted, and type warnings; the validator reports each at the expression's path.
 */
export interface ExpressionChecker {
  check(expression: string, environment: ExpressionEnvironment): ExpressionProblems;
}
