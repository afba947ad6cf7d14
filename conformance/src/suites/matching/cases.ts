/**
 * The matching suite's cases: for each target object (a built-in kind the suite can create), rules
 * drawn from its group and resource by the mistakes people make (the kind for the resource, a
 * capital letter, the singular, another group, a dropped letter, an exclude rule that excludes
 * everything, a binding that selects another resource or excludes the policy's) and by what is
 * right or harmless (the resource, a wildcard group, a never-matching exclude rule beside a right
 * include rule, a namespaceSelector on a cluster-scoped resource); match conditions on the
 * object's kind, resource and group, and constant ones; CONNECT on each object's
 * resource, and for each connect subresource the apiserver serves, rules with CONNECT and without.
 */
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';
import { seededRandom } from '../../generators/seeded-random';
import { baseObjects } from '../objects/bases';

/** An object the suite sends, with the group and resource it is served as. */
export interface MatchTarget {
  readonly object: any;
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** A connect subresource (`exec`): the target is a CONNECT request to it, not a create of the object. */
  readonly connect?: string;
}

/** A rule's groups and resources (its versions are `*`; its operations CREATE unless given). */
export interface DrawnRule {
  readonly apiGroups: string[];
  readonly resources: string[];
  readonly operations?: string[];
}

export interface MatchCase {
  /** What was drawn: `exact`, `any group`, `kind`, `capitalized`, `singular`, `other group`, `dropped letter`, `exclude kind`, ... */
  readonly variant: string;
  readonly target: MatchTarget;
  readonly rule: DrawnRule;
  /** A rule that excludes, beside the include rule. */
  readonly exclude?: DrawnRule;
  /** The policy's namespaceSelector. */
  readonly namespaceSelector?: object;
  /** The policy's matchConditions' expressions. */
  readonly matchConditions?: string[];
  /** The binding's matchResources rules. */
  readonly binding?: { readonly include?: DrawnRule; readonly exclude?: DrawnRule };
}

/** The base objects of built-in kinds, once per kind, with their resources at the target version. */
export function matchTargets(schemas: BuiltinSchemas): MatchTarget[] {
  const seen = new Set<string>();
  const out: MatchTarget[] = [];
  for (const { object } of baseObjects()) {
    const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/', 2) : ['', object.apiVersion];
    const served = schemas.resourceOfKind(group, version, object.kind);
    if (!served || seen.has(`${group}/${object.kind}`)) continue;
    seen.add(`${group}/${object.kind}`);
    out.push({ object, group, resource: served.resource, kind: object.kind, namespaced: served.namespaced });
  }
  return out;
}

export function matchCases(targets: readonly MatchTarget[], schemas: BuiltinSchemas, seed: number): MatchCase[] {
  const random = seededRandom(seed);
  const served = new Set(schemas.resources().map((r) => `${r.group}/${r.resource}`));
  const groups = [...new Set(schemas.resources().map((r) => r.group))];
  const out: MatchCase[] = [];
  for (const target of targets) {
    const { group, resource, kind } = target;
    const add = (variant: string, apiGroups: string[], resources: string[], more: Partial<MatchCase> = {}) =>
      out.push({ variant, target, rule: { apiGroups, resources }, ...more });
    add('exact', [group], [resource]);
    add('any group', ['*'], [resource]);
    add('kind', [group], [kind]);
    add('kind, any group', ['*'], [kind]);
    add('capitalized', [group], [`${resource[0].toUpperCase()}${resource.slice(1)}`]);
    const singular = kind.toLowerCase();
    if (singular !== resource && !served.has(`${group}/${singular}`)) add('singular', [group], [singular]);
    const others = groups.filter((g) => g !== group && !served.has(`${g}/${resource}`));
    add('other group', [others[Math.floor(random() * others.length)]], [resource]);
    const at = Math.floor(random() * resource.length);
    const dropped = resource.slice(0, at) + resource.slice(at + 1);
    if (dropped !== '' && !served.has(`${group}/${dropped}`)) add('dropped letter', [group], [dropped]);
    add('exclude kind', [group], [resource], { exclude: { apiGroups: [group], resources: [kind] } });
    add('exclude all', [group], [resource], { exclude: { apiGroups: ['*'], resources: ['*'], operations: ['*'] } });
    if (!target.namespaced && resource !== 'namespaces') {
      add('selector on cluster-scoped', [group], [resource], { namespaceSelector: { matchLabels: { 'matching.example.com/never': 'set' } } });
    }
    const elsewhere = resource === 'secrets' ? 'configmaps' : 'secrets';
    add('binding selects another resource', [group], [resource], { binding: { include: { apiGroups: [''], resources: [elsewhere] } } });
    add('binding excludes all', [group], [resource], { binding: { exclude: { apiGroups: [group], resources: [resource], operations: ['*'] } } });
    add('CONNECT on the resource', [group], [resource], { rule: { apiGroups: [group], resources: [resource], operations: ['CONNECT'] } });
    const otherKind = kind === 'Pod' ? 'Service' : 'Pod';
    add('condition on its kind', [group], [resource], { matchConditions: [`object.kind == '${kind}'`] });
    add('condition on its resource', [group], [resource], { matchConditions: [`request.resource.resource in ['${resource}', 'widgets']`] });
    add('condition on another kind', [group], [resource], { matchConditions: [`object.kind == '${otherKind}' && object.metadata.name != ''`] });
    add('condition on another group', [group], [resource], { matchConditions: [`request.kind.group != '${group}'`] });
    add('constant false condition', [group], [resource], { matchConditions: ['1 == 2'] });
    add('constant true condition', [group], [resource], { matchConditions: ['true'] });
    add('CONNECT beside CREATE', [group], [resource], { rule: { apiGroups: [group], resources: [resource], operations: ['CREATE', 'CONNECT'] } });
  }
  return out;
}

/**
 * The connect subresources the apiserver serves, as CONNECT request targets: every path of its
 * OpenAPI whose operation is a connect one (`/api/v1/namespaces/{namespace}/pods/{name}/exec`),
 * read from the apiserver, not from the library's list.
 */
export function connectTargets(openapi: { paths: Record<string, Record<string, { operationId?: string }>> }): MatchTarget[] {
  const out = new Map<string, MatchTarget>();
  for (const [path, operations] of Object.entries(openapi.paths)) {
    const connect = Object.values(operations).some((op) => typeof op === 'object' && op.operationId?.startsWith('connect'));
    const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/(namespaces\/\{namespace\}\/)?([a-z0-9]+)\/\{name\}\/([a-z0-9]+)$/.exec(path);
    if (!connect || !m) continue;
    const [group, version] = m[1] ? ['', m[1]] : [m[2], m[3]];
    const label = `${m[5]}/${m[6]}`;
    out.set(`${group}/${label}`, {
      object: { apiVersion: group === '' ? version : `${group}/${version}`, kind: label },
      group,
      resource: m[5],
      kind: label,
      namespaced: m[4] !== undefined,
      connect: m[6],
    });
  }
  return [...out.values()];
}

/**
 * For a connect target: CONNECT to it, to any subresource of its resource, to it in any resource
 * (all act); other operations, CONNECT to the resource itself (neither acts).
 */
export function connectCases(targets: readonly MatchTarget[]): MatchCase[] {
  return targets.flatMap((target) => {
    const { group, resource, connect } = target;
    const entry = `${resource}/${connect}`;
    const c = (variant: string, resources: string[], operations: string[]): MatchCase =>
      ({ variant, target, rule: { apiGroups: [group], resources, operations } });
    return [
      c('connect', [entry], ['CONNECT']),
      c('connect, any subresource', [`${resource}/*`], ['CONNECT']),
      c('connect, any resource', [`*/${connect}`], ['CONNECT']),
      c('connect without CONNECT', [entry], ['CREATE', 'UPDATE', 'DELETE']),
      c('CONNECT on the resource only', [resource], ['CONNECT']),
    ];
  });
}
