import { Operation, RuleScope } from './enums';
import { ADMISSION_RESOURCE_OPTIONS, checkStructKeys } from './private/struct-keys';
import type * as wire from './wire/admissionregistration';

/** Which requests a policy matches or excludes: groups × versions × resources × operations. */
export interface ResourceRule {
  /** API groups; `''` is the core group, `'*'` all groups. */
  readonly apiGroups: string[];
  /** API versions; `'*'` all versions. */
  readonly apiVersions: string[];
  /** Resources, optionally with a subresource (`pods/status`, `pods/*`, `*`, `*\/*`). */
  readonly resources: string[];
  /** Operations; `Operation.ALL` for all of them. */
  readonly operations: Operation[];
  /**
   * Only objects with these names.
   * @default - any name
   */
  readonly resourceNames?: string[];
  /**
   * Only cluster-scoped or namespaced resources.
   * @default RuleScope.ALL
   */
  readonly scope?: RuleScope;
}

/** Options of `AdmissionResource.custom`. */
export interface AdmissionResourceOptions {
  /** The API group; `''` for the core group. */
  readonly apiGroup: string;
  /** The API version, e.g. `v1`. */
  readonly apiVersion: string;
  /** The plural resource name, optionally with `/subresource`. */
  readonly resource: string;
  /**
   * Whether the resource is cluster-scoped or namespaced.
   * @default RuleScope.ALL
   */
  readonly scope?: RuleScope;
}

/**
 * A resource of the Kubernetes API, to build `ResourceRule`s that read like what they match:
 * `AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE, Operation.UPDATE)`.
 */
export class AdmissionResource {
  public static readonly PODS = AdmissionResource.core('pods', RuleScope.NAMESPACED);
  public static readonly SERVICES = AdmissionResource.core('services', RuleScope.NAMESPACED);
  public static readonly CONFIG_MAPS = AdmissionResource.core('configmaps', RuleScope.NAMESPACED);
  public static readonly SECRETS = AdmissionResource.core('secrets', RuleScope.NAMESPACED);
  public static readonly SERVICE_ACCOUNTS = AdmissionResource.core('serviceaccounts', RuleScope.NAMESPACED);
  public static readonly PERSISTENT_VOLUME_CLAIMS = AdmissionResource.core('persistentvolumeclaims', RuleScope.NAMESPACED);
  public static readonly NAMESPACES = AdmissionResource.core('namespaces', RuleScope.CLUSTER);
  public static readonly NODES = AdmissionResource.core('nodes', RuleScope.CLUSTER);
  public static readonly DEPLOYMENTS = AdmissionResource.apps('deployments');
  public static readonly STATEFUL_SETS = AdmissionResource.apps('statefulsets');
  public static readonly DAEMON_SETS = AdmissionResource.apps('daemonsets');
  public static readonly REPLICA_SETS = AdmissionResource.apps('replicasets');
  public static readonly JOBS = new AdmissionResource('batch', 'v1', 'jobs', RuleScope.NAMESPACED);
  public static readonly CRON_JOBS = new AdmissionResource('batch', 'v1', 'cronjobs', RuleScope.NAMESPACED);
  public static readonly INGRESSES = new AdmissionResource('networking.k8s.io', 'v1', 'ingresses', RuleScope.NAMESPACED);
  public static readonly NETWORK_POLICIES = new AdmissionResource('networking.k8s.io', 'v1', 'networkpolicies', RuleScope.NAMESPACED);
  public static readonly ROLES = AdmissionResource.rbac('roles', RuleScope.NAMESPACED);
  public static readonly ROLE_BINDINGS = AdmissionResource.rbac('rolebindings', RuleScope.NAMESPACED);
  public static readonly CLUSTER_ROLES = AdmissionResource.rbac('clusterroles', RuleScope.CLUSTER);
  public static readonly CLUSTER_ROLE_BINDINGS = AdmissionResource.rbac('clusterrolebindings', RuleScope.CLUSTER);

  /** Any other resource, e.g. a custom resource. */
  public static custom(options: AdmissionResourceOptions): AdmissionResource {
    checkStructKeys('AdmissionResource.custom', options, ADMISSION_RESOURCE_OPTIONS);
    return new AdmissionResource(options.apiGroup, options.apiVersion, options.resource, options.scope ?? RuleScope.ALL);
  }

  private static core(resource: string, scope: RuleScope): AdmissionResource {
    return new AdmissionResource('', 'v1', resource, scope);
  }

  private static apps(resource: string): AdmissionResource {
    return new AdmissionResource('apps', 'v1', resource, RuleScope.NAMESPACED);
  }

  private static rbac(resource: string, scope: RuleScope): AdmissionResource {
    return new AdmissionResource('rbac.authorization.k8s.io', 'v1', resource, scope);
  }

  private constructor(
    /** The API group (`''` for core). */
    public readonly apiGroup: string,
    /** The API version. */
    public readonly apiVersion: string,
    /** The plural resource name, with its subresource if any. */
    public readonly resource: string,
    /** Whether it is cluster-scoped or namespaced. */
    public readonly scope: RuleScope,
  ) {}

  /** The same resource's subresource, e.g. `AdmissionResource.PODS.subresource('exec')` for `pods/exec`. */
  public subresource(name: string): AdmissionResource {
    const base = this.resource.split('/')[0];
    if (typeof name !== 'string' || name === '' || name.includes('/')) {
      throw new Error(`AdmissionResource.subresource: ${JSON.stringify(name)} is not a subresource name (\`${base}/${name}\` would match nothing): `
        + `give one such as 'status', 'scale' or 'exec', or '*' for all of ${base}'s subresources`);
    }
    return new AdmissionResource(this.apiGroup, this.apiVersion, `${base}/${name}`, this.scope);
  }

  /** A rule matching this resource for the given operations (all operations if none are given). */
  public rule(...operations: Operation[]): ResourceRule {
    return {
      apiGroups: [this.apiGroup],
      apiVersions: [this.apiVersion],
      resources: [this.resource],
      operations: operations.length > 0 ? operations : [Operation.ALL],
      scope: this.scope,
    };
  }
}

/** The wire form of a rule, with the apiserver's default scope written out. */
export function renderResourceRule(rule: ResourceRule): wire.NamedRuleWithOperations {
  return {
    apiGroups: [...rule.apiGroups],
    apiVersions: [...rule.apiVersions],
    resources: [...rule.resources],
    operations: [...rule.operations],
    ...(rule.resourceNames && rule.resourceNames.length > 0 ? { resourceNames: [...rule.resourceNames] } : {}),
    scope: rule.scope ?? RuleScope.ALL,
  };
}
