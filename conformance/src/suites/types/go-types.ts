/**
 * The CEL types kube-controller-manager's policy type checker declares `object` as, for every
 * built-in kind (`oracle --cel-types`, offline): a table of types shared by a hash of their shape,
 * with cel-go's spellings, and how to read it beside the library's type names.
 */
import { execFileSync } from 'child_process';
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';
import { ORACLE_BINARY } from '../../oracle/oracle';

export interface GoTypeTable {
  readonly kinds: Record<string, string>;
  readonly types: Record<string, GoType>;
}

type GoType = { object: Record<string, string> } | { list: string } | { map: string; key: string } | { simple: string };

export function loadGoTypes(): GoTypeTable {
  return JSON.parse(execFileSync(ORACLE_BINARY, ['--cel-types'], { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' })) as GoTypeTable;
}

/** cel-go's field name escaping (k8s.io/apiserver/pkg/cel escaping.go), undone. */
export function unescape(name: string): string {
  const reserved = /^__([a-z]+)__$/.exec(name);
  if (reserved && !['dash', 'dot', 'slash', 'underscores'].includes(reserved[1])) return reserved[1];
  return name.replace(/__(underscores|dot|dash|slash)__/g, (_, w: string) => ({ underscores: '__', dot: '.', dash: '-', slash: '/' }[w] ?? w));
}

export const GO_SIMPLE: Record<string, string> = {
  'string': 'string',
  'int': 'int',
  'double': 'double',
  'bool': 'bool',
  'dyn': 'dyn',
  'google.protobuf.Timestamp': 'timestamp',
  'google.protobuf.Duration': 'duration',
  'bytes': 'bytes',
};

export function parseList(t: string): string | undefined {
  return /^list<(.*)>$/.exec(t)?.[1];
}

export function parseMap(t: string): string | undefined {
  return /^map<string, (.*)>$/.exec(t)?.[1];
}

export function describe(goId: string, go: GoTypeTable): string {
  const g = go.types[goId];
  if (!g) return goId;
  if ('simple' in g) return g.simple;
  if ('list' in g) return `list<${describe(g.list, go)}>`;
  if ('map' in g) return `map<string, ${describe(g.map, go)}>`;
  return `object{${Object.keys(g.object).length} fields}`;
}

/** The kinds requests carry as `object`: the bodies of the resources and subresources the apiserver serves. */
export function requestKinds(schemas: BuiltinSchemas): Set<string> {
  const out = new Set<string>();
  for (const r of schemas.resources()) out.add(`${r.group}/${r.version}/${r.kind}`);
  return out;
}
