import { CelEnvironment } from '../engine';
import { CelLibrary, registerOpaqueType } from '../library';
import { celError } from './values';
import { isDns1123Label, isDns1123Subdomain } from '../../shared/name-formats';

/**
 * The Kubernetes authz library (library/authz.go): the `authorizer` variable's type and the
 * checks built from it. Selectors (`fieldSelector`, `labelSelector`) are a separate, later library.
 */
export const AUTHORIZER_TYPE = 'kubernetes.authorization.Authorizer';
export const PATH_CHECK_TYPE = 'kubernetes.authorization.PathCheck';
export const GROUP_CHECK_TYPE = 'kubernetes.authorization.GroupCheck';
export const RESOURCE_CHECK_TYPE = 'kubernetes.authorization.ResourceCheck';
export const DECISION_TYPE = 'kubernetes.authorization.Decision';

/** What an authorization check asks: the request attributes of a SubjectAccessReview. */
export interface AuthorizationAttributes {
  readonly user?: string;
  readonly verb: string;
  readonly path?: string;
  readonly group?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly fieldSelector?: string;
  readonly labelSelector?: string;
}

export interface AuthorizationDecision {
  readonly decision: 'allow' | 'deny' | 'noOpinion';
  readonly reason?: string;
  readonly error?: string;
}

export type Authorize = (attributes: AuthorizationAttributes) => AuthorizationDecision;

export class CelDecision {
  public constructor(public readonly result: AuthorizationDecision) {}
}

export class CelResourceCheck {
  public constructor(private readonly authorizer: CelAuthorizer, public readonly attributes: Omit<AuthorizationAttributes, 'verb'>) {}

  public with(change: Partial<AuthorizationAttributes>): CelResourceCheck {
    return new CelResourceCheck(this.authorizer, { ...this.attributes, ...change });
  }

  public check(verb: string): CelDecision {
    return new CelDecision(this.authorizer.authorize({ ...this.attributes, verb }));
  }
}

export class CelPathCheck {
  public constructor(private readonly authorizer: CelAuthorizer, private readonly path: string) {}

  public check(verb: string): CelDecision {
    return new CelDecision(this.authorizer.authorize({ path: this.path, verb }));
  }
}

export class CelGroupCheck {
  public constructor(private readonly authorizer: CelAuthorizer, private readonly group: string) {}

  public resource(resource: string): CelResourceCheck {
    return new CelResourceCheck(this.authorizer, { group: this.group, resource });
  }
}

/** The runtime value of `authorizer`; `requestResource` is the check for the request's own resource. */
export class CelAuthorizer {
  public readonly requestResource: CelResourceCheck;

  public constructor(private readonly decide: Authorize, private readonly user?: string, request: Omit<AuthorizationAttributes, 'verb'> = {}) {
    this.requestResource = new CelResourceCheck(this, request);
  }

  public authorize(attributes: AuthorizationAttributes): AuthorizationDecision {
    return this.decide({ ...attributes, user: this.user });
  }

  public forServiceAccount(namespace: string, name: string): CelAuthorizer {
    return new CelAuthorizer(this.decide, `system:serviceaccount:${namespace}:${name}`);
  }
}

export const AUTHZ: CelLibrary = {
  name: 'authz',
  install(env: CelEnvironment) {
    registerOpaqueType(env, DECISION_TYPE, CelDecision);
    registerOpaqueType(env, PATH_CHECK_TYPE, CelPathCheck);
    registerOpaqueType(env, GROUP_CHECK_TYPE, CelGroupCheck);
    registerOpaqueType(env, RESOURCE_CHECK_TYPE, CelResourceCheck);
    env.registerType(AUTHORIZER_TYPE, { ctor: CelAuthorizer, fields: { requestResource: RESOURCE_CHECK_TYPE } });
    const A = AUTHORIZER_TYPE;
    const R = RESOURCE_CHECK_TYPE;
    env.registerFunction(`${A}.path(string): ${PATH_CHECK_TYPE}`, (a: CelAuthorizer, p: string) => new CelPathCheck(a, p));
    env.registerFunction(`${A}.group(string): ${GROUP_CHECK_TYPE}`, (a: CelAuthorizer, g: string) => new CelGroupCheck(a, g));
    env.registerFunction(`${A}.serviceAccount(string, string): ${A}`, (a: CelAuthorizer, ns: string, n: string) => {
      // authz.go authorizerServiceAccount: the name is checked first, as a service account's
      // (a DNS-1123 subdomain), then the namespace, as a namespace's (a DNS-1123 label).
      if (isDns1123Subdomain(n).length > 0) throw celError('Invalid service account name');
      if (isDns1123Label(ns).length > 0) throw celError('Invalid service account namespace');
      return a.forServiceAccount(ns, n);
    });
    env.registerFunction(`${GROUP_CHECK_TYPE}.resource(string): ${R}`, (g: CelGroupCheck, r: string) => g.resource(r));
    env.registerFunction(`${R}.subresource(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ subresource: s }));
    env.registerFunction(`${R}.namespace(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ namespace: s }));
    env.registerFunction(`${R}.name(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ name: s }));
    env.registerFunction(`${R}.check(string): ${DECISION_TYPE}`, (r: CelResourceCheck, verb: string) => r.check(verb));
    env.registerFunction(`${PATH_CHECK_TYPE}.check(string): ${DECISION_TYPE}`, (p: CelPathCheck, verb: string) => p.check(verb));
    const D = DECISION_TYPE;
    env.registerFunction(`${D}.allowed(): bool`, (d: CelDecision) => d.result.decision === 'allow');
    env.registerFunction(`${D}.errored(): bool`, (d: CelDecision) => d.result.error !== undefined);
    env.registerFunction(`${D}.error(): string`, (d: CelDecision) => d.result.error ?? '');
    env.registerFunction(`${D}.reason(): string`, (d: CelDecision) => d.result.reason ?? '');
  },
};

export const AUTHZ_SELECTORS: CelLibrary = {
  name: 'authzSelectors',
  install(env: CelEnvironment) {
    const R = RESOURCE_CHECK_TYPE;
    env.registerFunction(`${R}.fieldSelector(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ fieldSelector: s }));
    env.registerFunction(`${R}.labelSelector(string): ${R}`, (r: CelResourceCheck, s: string) => r.with({ labelSelector: s }));
  },
};
