/**
 * Generates schemas/kubernetes.json: the OpenAPI v3 schemas of Kubernetes' built-in resources for
 * every minor the library targets, from Kubernetes' own published specs (`api/openapi-spec/v3/` in
 * the module `k8s.io/kubernetes`, which `go mod download` fetches from the Go module proxy), cut
 * down to what type checking, strict decoding and merging need, and shared across minors.
 *
 * Usage: `npx projen generate:schemas` (writes), `npx projen generate:schemas --check` (compares).
 *
 * The file (`schemas/README.md` describes it):
 *   { "kubernetes": { "<minor>": "v1.X.Y" },
 *     "schemas": [ <schema>, ... ],                      distinct definitions, every minor's together
 *     "minors": { "<minor>": {
 *        "definitions": { "<definition name>": <index into schemas> },
 *        "kinds": { "<group>/<version>/<Kind>": "<definition name>" },
 *        "resources": { "<group>/<version>/<resource>[/<subresource>]": ["<group>", "<version>", "<Kind>", <namespaced 0|1>] } } },
 *     "descriptions": { "<definition name>": { "description": "...", "properties": { "<property>": "..." } } } }
 * (a subresource's kind is the body it takes, of its own group and version: deployments/scale is autoscaling/v1 Scale).
 * A schema keeps the OpenAPI keys below; `$ref` is the definition's name, resolved in its minor.
 * `descriptions` holds the OpenAPI `description`s of the newest release's admissionregistration.k8s.io/v1
 * definitions only (the rest are dropped, to keep the file small): scripts/generate-wire-types.ts writes
 * the doc comments of src/wire/ from them.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** The newest patch release of each minor the module proxy serves (pinned, so the output is reproducible). */
export const RELEASES: { readonly [minor: string]: string } = {
  28: 'v1.28.15',
  29: 'v1.29.6',
  30: 'v1.30.14',
  31: 'v1.31.14',
  32: 'v1.32.13',
  33: 'v1.33.13',
  34: 'v1.34.4',
  35: 'v1.35.4',
  36: 'v1.36.3',
  37: 'v1.37.2',
};

/**
 * What is kept of a schema: types and structure, the Kubernetes extensions that change their
 * meaning, and scalar defaults (structured merge keys a list item by a key field's default when
 * the item omits it: a port's `protocol: TCP`).
 */
const KEPT = new Set([
  'type', 'format', 'enum', 'nullable', 'required', 'properties', 'items', 'additionalProperties', 'oneOf', 'allOf', '$ref', 'default',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource',
]);

const OUTPUT = path.join(__dirname, '..', 'schemas', 'kubernetes.json');
/** Kinds every group version lists for its options and events (one definition claims them all). */
const SHARED_KINDS = new Set(['DeleteOptions', 'WatchEvent', 'Status']);
const REF_PREFIX = '#/components/schemas/';
/** The definitions whose descriptions are kept (of the newest release): those src/wire/ is generated from. */
export const DESCRIBED_PREFIX = 'io.k8s.api.admissionregistration.v1.';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The kept part of a schema, `$ref`s as names and a lone `allOf: [{$ref}]` as the `$ref` itself. */
export function cut(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(cut);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(schema).sort()) {
    if (!KEPT.has(key)) continue;
    const value = schema[key];
    if (key === 'default' && (value === null || typeof value === 'object')) continue;
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      const properties: { [key: string]: Json } = {};
      for (const name of Object.keys(value).sort()) properties[name] = cut(value[name]);
      out.properties = properties;
    } else if (key === '$ref' && typeof value === 'string') {
      out.$ref = value.startsWith(REF_PREFIX) ? value.slice(REF_PREFIX.length) : value;
    } else {
      out[key] = cut(value);
    }
  }
  const allOf = out.allOf;
  if (Array.isArray(allOf) && allOf.length === 1 && typeof allOf[0] === 'object' && allOf[0] !== null && !Array.isArray(allOf[0])) {
    delete out.allOf;
    return { ...(allOf[0] as { [key: string]: Json }), ...out };
  }
  return out;
}

/** A definition's OpenAPI `description` and those of its properties (a property without one is left out). */
function describe(schema: any): Json {
  const properties: { [name: string]: Json } = {};
  for (const name of Object.keys(schema.properties ?? {}).sort()) {
    const description = schema.properties[name].description;
    if (typeof description === 'string') properties[name] = description;
  }
  return { description: typeof schema.description === 'string' ? schema.description : '', properties };
}

interface MinorSchemas {
  definitions: { [name: string]: number };
  kinds: { [gvk: string]: string };
  resources: { [gvr: string]: [string, string, string, number] };
}

function specDirectory(release: string): string {
  const out = execFileSync('go', ['mod', 'download', '-json', `k8s.io/kubernetes@${release}`], { encoding: 'utf8', cwd: __dirname });
  const dir = JSON.parse(out).Dir as string;
  return path.join(dir, 'api', 'openapi-spec', 'v3');
}

/** The group/version of a path such as `/apis/apps/v1/namespaces/{namespace}/deployments`, `/api/v1/pods`. */
const RESOURCE_PATH = /^\/(?:api|apis\/([^/]+))\/([^/]+)\/(namespaces\/\{namespace\}\/)?([a-z0-9]+)(?:\/\{name\}\/([a-z0-9]+))?$/;

function addResources(spec: any, out: MinorSchemas): void {
  for (const [route, item] of Object.entries<any>(spec.paths ?? {})) {
    const m = RESOURCE_PATH.exec(route);
    if (!m) continue;
    const [, group = '', version, namespaced, resource, subresource] = m;
    for (const operation of Object.values<any>(item)) {
      const gvk = operation?.['x-kubernetes-group-version-kind'];
      const action = operation?.['x-kubernetes-action'];
      if (!gvk || !['post', 'put', 'get'].includes(action)) continue;
      const key = [group, version, resource, subresource].filter((p) => p !== undefined).join('/');
      // A subresource's kind is the body it takes (Scale, Binding, Eviction), so POST and PUT win over GET.
      if (out.resources[key] && action === 'get') continue;
      out.resources[key] = [gvk.group, gvk.version, gvk.kind, namespaced ? 1 : 0];
    }
  }
}

function generate(): string {
  const schemas: string[] = [];
  const index = new Map<string, number>();
  const minors: { [minor: string]: MinorSchemas } = {};
  const newest = Object.keys(RELEASES).sort((a, b) => Number(a) - Number(b)).pop();
  const described: { [name: string]: Json } = {};
  for (const [minor, release] of Object.entries(RELEASES)) {
    const dir = specDirectory(release);
    const out: MinorSchemas = { definitions: {}, kinds: {}, resources: {} };
    for (const file of fs.readdirSync(dir).sort()) {
      const spec = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      for (const [name, schema] of Object.entries<any>(spec.components?.schemas ?? {})) {
        const body = JSON.stringify(cut(schema));
        let i = index.get(body);
        if (i === undefined) {
          i = schemas.length;
          schemas.push(body);
          index.set(body, i);
        }
        // The same definition is in several files of a release; they must agree.
        if (out.definitions[name] !== undefined && out.definitions[name] !== i) throw new Error(`${release}: ${name} differs between the spec files`);
        out.definitions[name] = i;
        if (minor === newest && name.startsWith(DESCRIBED_PREFIX)) described[name] ??= describe(schema);
        for (const gvk of schema['x-kubernetes-group-version-kind'] ?? []) {
          const key = `${gvk.group}/${gvk.version}/${gvk.kind}`;
          if (out.kinds[key] !== undefined && out.kinds[key] !== name && !SHARED_KINDS.has(gvk.kind)) {
            throw new Error(`${release}: ${key} is both ${out.kinds[key]} and ${name}`);
          }
          out.kinds[key] ??= name;
        }
      }
      addResources(spec, out);
    }
    minors[minor] = {
      definitions: sortedObject(out.definitions),
      kinds: sortedObject(out.kinds),
      resources: sortedObject(out.resources),
    };
    console.log(`${release}: ${Object.keys(out.definitions).length} definitions, ${Object.keys(out.kinds).length} kinds, ${Object.keys(out.resources).length} resources`);
  }
  // One schema per line, so that a regeneration's diff shows what changed.
  return [
    '{',
    `"kubernetes": ${JSON.stringify(RELEASES)},`,
    '"schemas": [',
    schemas.join(',\n'),
    '],',
    `"minors": {\n${Object.entries(minors).map(([minor, m]) => `${JSON.stringify(minor)}: ${JSON.stringify(m)}`).join(',\n')}\n},`,
    `"descriptions": {\n${Object.entries(sortedObject(described)).map(([name, d]) => `${JSON.stringify(name)}: ${JSON.stringify(d)}`).join(',\n')}\n}`,
    '}',
    '',
  ].join('\n');
}

function sortedObject<T>(value: { [key: string]: T }): { [key: string]: T } {
  const out: { [key: string]: T } = {};
  for (const key of Object.keys(value).sort()) out[key] = value[key];
  return out;
}

if (require.main === module) {
  const text = generate();
  if (process.argv.includes('--check')) {
    if (fs.readFileSync(OUTPUT, 'utf8') !== text) {
      console.error(`${path.relative(process.cwd(), OUTPUT)} differs from what the script generates: run npx projen generate:schemas`);
      process.exit(1);
    }
    console.log(`${path.relative(process.cwd(), OUTPUT)} is up to date`);
  } else {
    fs.mkdirSync(path.dirname(OUTPUT), { recursive: true });
    fs.writeFileSync(OUTPUT, text);
    console.log(`wrote ${path.relative(process.cwd(), OUTPUT)} (${text.length} bytes)`);
  }
}
