import { createHash } from 'crypto';
import { OpenApiSchema } from './builtin-schemas';

const CRD_API_VERSION = 'apiextensions.k8s.io/v1';

/** A custom resource's kind and schema, from its CustomResourceDefinition. */
export interface CustomResourceKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly resource: string;
  /** Whether the resource is namespaced (`spec.scope: Namespaced`). */
  readonly namespaced: boolean;
  /** The version's `schema.openAPIV3Schema`. */
  readonly schema: OpenApiSchema;
  /** Names this schema in caches: the kind and a hash of the schema. */
  readonly key: string;
}

/**
 * The schemas of custom resources, from CustomResourceDefinition manifests (apiextensions.k8s.io/v1):
 * each version with a `schema.openAPIV3Schema`, by group/version/plural and by group/version/kind.
 * Other manifests, and CRDs without what is needed (group, names, versions), are passed over: they
 * are not the library's to validate.
 */
export class CustomResourceSchemas {
  public static readonly NONE = new CustomResourceSchemas([]);

  /** The CRDs among `manifests`. */
  public static fromManifests(manifests: readonly unknown[]): CustomResourceSchemas {
    const kinds: CustomResourceKind[] = [];
    for (const m of manifests) kinds.push(...kindsOf(m));
    return kinds.length === 0 ? CustomResourceSchemas.NONE : new CustomResourceSchemas(kinds);
  }

  /** Identifies the set of schemas, for caches keyed by what was validated. */
  public readonly fingerprint: string;
  private readonly byResource = new Map<string, CustomResourceKind>();
  private readonly byKind = new Map<string, CustomResourceKind>();

  private constructor(public readonly kinds: readonly CustomResourceKind[]) {
    for (const k of kinds) {
      this.byResource.set(`${k.group}/${k.version}/${k.resource}`, k);
      this.byKind.set(`${k.group}/${k.version}/${k.kind}`, k);
    }
    this.fingerprint = kinds.map((k) => k.key).join(',');
  }

  /** Both sets' kinds; where both define one, `this` wins. */
  public with(other: CustomResourceSchemas): CustomResourceSchemas {
    if (other.kinds.length === 0) return this;
    if (this.kinds.length === 0) return other;
    const mine = new Set(this.kinds.map((k) => `${k.group}/${k.version}/${k.kind}`));
    return new CustomResourceSchemas([...this.kinds, ...other.kinds.filter((k) => !mine.has(`${k.group}/${k.version}/${k.kind}`))]);
  }

  public resource(group: string, version: string, resource: string): CustomResourceKind | undefined {
    return this.byResource.get(`${group}/${version}/${resource}`);
  }

  public kind(group: string, version: string, kind: string): CustomResourceKind | undefined {
    return this.byKind.get(`${group}/${version}/${kind}`);
  }
}

function kindsOf(manifest: unknown): CustomResourceKind[] {
  if (!isObject(manifest) || manifest.apiVersion !== CRD_API_VERSION || manifest.kind !== 'CustomResourceDefinition') return [];
  const spec = manifest.spec;
  if (!isObject(spec) || typeof spec.group !== 'string' || !isObject(spec.names) || !Array.isArray(spec.versions)) return [];
  const { kind, plural } = spec.names;
  if (typeof kind !== 'string' || typeof plural !== 'string') return [];
  const out: CustomResourceKind[] = [];
  for (const v of spec.versions) {
    if (!isObject(v) || typeof v.name !== 'string' || !isObject(v.schema) || !isObject(v.schema.openAPIV3Schema)) continue;
    const schema = v.schema.openAPIV3Schema as OpenApiSchema;
    const hash = createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 16);
    out.push({ group: spec.group, version: v.name, kind, resource: plural, namespaced: spec.scope !== 'Cluster', schema, key: `crd|${spec.group}/${v.name}/${kind}|${hash}` });
  }
  return out;
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
