// What the target version serves, for the lints of rules that name what nothing serves
// (served-resources.ts, connect-operations.ts, match-reach.ts): the built-in resources of the
// schemas, the one the schemas lack, and the custom resources of the CRDs at hand.
import { RuleContext } from './rule-context';
import { BuiltinSchemas } from '../schemas/builtin-schemas';

/** A resource some API group serves at the target version. */
export interface ServedResource {
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/**
 * Served by the apiserver but absent from its OpenAPI schemas: on the 1.37 apiserver, the one
 * resource of its discovery (/api/v1 and every /apis group version) that the schemas lack.
 */
const SERVED_WITHOUT_SCHEMA: readonly ServedResource[] = [{ group: '', resource: 'componentstatuses', kind: 'ComponentStatus', namespaced: false }];

/**
 * The connect subresources of the built-in API, `group/resource/subresource`: on the 1.37
 * apiserver, every path of its OpenAPI whose operation is a connect one (connectCoreV1...), the
 * same since 1.28. They have no schema, so the schemas' resources lack them. Custom resources have
 * none; an aggregated API may have its own, so groups not known here are not judged.
 */
export const CONNECT_SUBRESOURCES: readonly string[] = [
  '/pods/attach', '/pods/exec', '/pods/portforward', '/pods/proxy', '/services/proxy', '/nodes/proxy',
];

/** What the target version serves: the built-in resources and the custom resources of the CRDs at hand. */
export class Discovery {
  public readonly served: readonly ServedResource[];
  /** The groups whose resources are all known here: built-in groups, and the groups of the CRDs at hand. */
  public readonly knownGroups: ReadonlySet<string>;

  /** The subresources of each built-in resource, by `group/resource`, in every version served. */
  private readonly builtinSubresources = new Map<string, Set<string>>();

  public constructor(ctx: RuleContext) {
    const schemas = BuiltinSchemas.of(ctx.kubernetesVersion.minor);
    const builtin = [...schemas.subresources(), ...CONNECT_SUBRESOURCES.map((e) => {
      const [group, resource, subresource] = e.split('/');
      return { group, resource, subresource };
    })];
    for (const r of schemas.resources()) {
      if (!this.builtinSubresources.has(`${r.group}/${r.resource}`)) this.builtinSubresources.set(`${r.group}/${r.resource}`, new Set());
    }
    for (const { group, resource, subresource } of builtin) this.builtinSubresources.get(`${group}/${resource}`)?.add(subresource);
    const byKey = new Map<string, ServedResource>();
    for (const r of [...schemas.resources(), ...SERVED_WITHOUT_SCHEMA]) {
      const key = `${r.group}/${r.resource}`;
      if (!byKey.has(key)) byKey.set(key, { group: r.group, resource: r.resource, kind: r.kind, namespaced: r.namespaced });
    }
    for (const k of ctx.customResources.kinds) {
      const key = `${k.group}/${k.resource}`;
      if (!byKey.has(key)) byKey.set(key, { group: k.group, resource: k.resource, kind: k.kind, namespaced: k.namespaced });
    }
    this.served = [...byKey.values()];
    this.knownGroups = new Set(this.served.map((r) => r.group));
  }

  /**
   * The subresources of a built-in resource of that group (sorted), or undefined for a resource
   * the built-in API does not serve there (a custom resource's come from its CRD, not judged here).
   */
  public builtinSubresourcesOf(group: string, resource: string): string[] | undefined {
    const found = this.builtinSubresources.get(`${group}/${resource}`);
    return found ? [...found].sort() : undefined;
  }

  /** The served resource of that group and name, if any. */
  public find(group: string, resource: string): ServedResource | undefined {
    return this.served.find((r) => r.group === group && r.resource === resource);
  }
}

const discoveries = new WeakMap<RuleContext, Discovery>();

/** What `ctx`'s target version serves, computed once per context. */
export function discoveryOf(ctx: RuleContext): Discovery {
  let found = discoveries.get(ctx);
  if (!found) {
    found = new Discovery(ctx);
    discoveries.set(ctx, found);
  }
  return found;
}
