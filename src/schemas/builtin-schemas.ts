import * as fs from 'fs';
import * as path from 'path';

/**
 * The OpenAPI v3 schemas of Kubernetes' built-in resources, per target minor, as
 * scripts/generate-resource-schemas.ts writes them into schemas/kubernetes.json (read on first use).
 */
export interface OpenApiSchema {
  readonly 'type'?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  readonly 'format'?: string;
  readonly 'enum'?: readonly unknown[];
  /** Scalar defaults only (what structured merge keys a list item by when it omits a key field). */
  readonly 'default'?: string | number | boolean;
  readonly 'nullable'?: boolean;
  readonly 'required'?: readonly string[];
  readonly 'properties'?: { readonly [name: string]: OpenApiSchema };
  readonly 'items'?: OpenApiSchema;
  readonly 'additionalProperties'?: OpenApiSchema | boolean;
  readonly 'oneOf'?: readonly OpenApiSchema[];
  readonly 'allOf'?: readonly OpenApiSchema[];
  /** The name of a definition of the same minor. */
  readonly '$ref'?: string;
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-map-type'?: 'atomic' | 'granular';
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
}

interface MinorEntry {
  readonly definitions: { readonly [name: string]: number };
  readonly kinds: { readonly [groupVersionKind: string]: string };
  /** `group/version/resource[/subresource]` → [the kind's group, version, kind, namespaced]. */
  readonly resources: { readonly [groupVersionResource: string]: readonly [string, string, string, number] };
}

interface SchemaFile {
  readonly kubernetes: { readonly [minor: string]: string };
  readonly schemas: readonly OpenApiSchema[];
  readonly minors: { readonly [minor: string]: MinorEntry };
}

/** From src/schemas/ and from lib/schemas/ alike. */
const SCHEMA_FILE = path.join(__dirname, '..', '..', 'schemas', 'kubernetes.json');

let file: SchemaFile | undefined;
const byMinor = new Map<number, BuiltinSchemas>();

/** The kind a built-in resource takes, and whether it is namespaced. */
export interface ResourceKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/** A built-in kind's schema: the definition's name and the schema itself. */
export interface KindSchema {
  readonly name: string;
  readonly schema: OpenApiSchema;
}

export class BuiltinSchemas {
  /** The schemas of a target minor; a minor newer than the newest generated uses the newest. */
  public static of(minor: number): BuiltinSchemas {
    let schemas = byMinor.get(minor);
    if (!schemas) {
      file ??= JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')) as SchemaFile;
      const known = Object.keys(file.minors).map(Number);
      const chosen = Math.min(minor, Math.max(...known));
      const entry = file.minors[String(chosen)];
      if (!entry) throw new Error(`no built-in schemas for Kubernetes 1.${minor}`);
      schemas = new BuiltinSchemas(chosen, file.kubernetes[String(chosen)], entry, file.schemas);
      byMinor.set(minor, schemas);
    }
    return schemas;
  }

  private constructor(
    public readonly minor: number,
    /** The Kubernetes release the schemas come from, such as `v1.37.2`. */
    public readonly release: string,
    private readonly entry: MinorEntry,
    private readonly schemas: readonly OpenApiSchema[],
  ) {}

  /** A definition by name (`io.k8s.api.apps.v1.Deployment`). */
  public definition(name: string): OpenApiSchema | undefined {
    const i = Object.prototype.hasOwnProperty.call(this.entry.definitions, name) ? this.entry.definitions[name] : undefined;
    return i === undefined ? undefined : this.schemas[i];
  }

  /** The schema of a built-in kind (`apps/v1`, `Deployment`; `v1` for the core group), if the minor has it. */
  public kind(apiVersion: string, kind: string): KindSchema | undefined {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
    const key = `${group}/${version}/${kind}`;
    const name = Object.prototype.hasOwnProperty.call(this.entry.kinds, key) ? this.entry.kinds[key] : undefined;
    const schema = name === undefined ? undefined : this.definition(name);
    return name !== undefined && schema ? { name, schema } : undefined;
  }

  /**
   * The kind (with its group and version: a subresource's body may be of another, such as
   * deployments/scale's autoscaling/v1 Scale) and scope of a built-in resource.
   */
  public resource(group: string, version: string, resource: string, subresource = ''): ResourceKind | undefined {
    const key = [group, version, resource, ...(subresource ? [subresource] : [])].join('/');
    const found = Object.prototype.hasOwnProperty.call(this.entry.resources, key) ? this.entry.resources[key] : undefined;
    return found ? { group: found[0], version: found[1], kind: found[2], namespaced: found[3] === 1 } : undefined;
  }

  /** The resource (not a subresource) whose objects are of a kind, if the minor serves one. */
  public resourceOfKind(group: string, version: string, kind: string): ({ resource: string } & ResourceKind) | undefined {
    return this.resources().find((r) => r.group === group && r.version === version && r.kind === kind);
  }

  /** Every built-in resource without a subresource. */
  public resources(): Array<{ resource: string } & ResourceKind> {
    return Object.entries(this.entry.resources)
      .filter(([key]) => key.split('/').length === 3)
      .map(([key, [group, version, kind, namespaced]]) => ({ resource: key.split('/')[2], group, version, kind, namespaced: namespaced === 1 }));
  }

  /** Every built-in subresource with a schema (`apps/deployments/scale`, `/pods/log`): not the connect ones, which have none. */
  public subresources(): Array<{ group: string; resource: string; subresource: string }> {
    return Object.keys(this.entry.resources)
      .map((key) => key.split('/'))
      .filter((parts) => parts.length === 4)
      .map(([group, , resource, subresource]) => ({ group, resource, subresource }));
  }

  /** `schema` itself, or the definition its `$ref` names. */
  public resolve(schema: OpenApiSchema): OpenApiSchema {
    let current = schema;
    for (let hops = 0; current.$ref !== undefined && hops < 8; hops++) {
      const target = this.definition(current.$ref);
      if (!target) throw new Error(`built-in schemas of Kubernetes 1.${this.minor}: no definition ${current.$ref}`);
      current = target;
    }
    return current;
  }
}
