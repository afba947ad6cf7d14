import type { ExpressionTypes, TypedKind } from '../cel/expression-checker';
import { KubernetesVersion } from '../kubernetes-version';
import { BuiltinSchemas } from '../schemas/builtin-schemas';
import { builtinObjectTypes, customResourceObjectTypes } from '../schemas/cel-object-types';
import { CustomResourceSchemas } from '../schemas/custom-resources';
import type { MatchResources, ParamKind } from '../wire/admissionregistration';

/**
 * What a policy's expressions are type-checked against, as the apiserver's type checker chooses
 * (k8s.io/apiserver validating/typechecking.go, typesToCheck): every group/version/resource of
 * matchConstraints.resourceRules whose schema is known, except rules with a wildcard group, and
 * wildcard and subresource entries; params as the paramKind. Unlike the apiserver, every kind is
 * checked (it checks at most 10), and a rule of `apiVersions: ['*']` (which it skips) is checked
 * against every version of its group that serves the resource. Built-in resources have the target version's schemas,
 * custom resources those of the CRDs given; other resources stay dynamic.
 */
export function policyTypes(
  spec: { readonly matchConstraints?: MatchResources; readonly paramKind?: ParamKind },
  version: KubernetesVersion,
  customResources: CustomResourceSchemas = CustomResourceSchemas.NONE,
): ExpressionTypes | undefined {
  const schemas = BuiltinSchemas.of(version.minor);
  const objects = new Map<string, TypedKind>();
  for (const rule of spec.matchConstraints?.resourceRules ?? []) {
    const groups = rule?.apiGroups ?? [];
    const versions = rule?.apiVersions ?? [];
    if (groups.some((g) => typeof g !== 'string' || g.includes('*'))) continue;
    if (versions.some((v) => typeof v !== 'string' || (v !== '*' && v.includes('*')))) continue;
    const resources = (rule?.resources ?? []).filter((r) => typeof r === 'string' && !/[*/]/.test(r));
    for (const group of groups) {
      for (const v of versions) {
        for (const resource of resources) {
          for (const served of v === '*' ? servedVersions(schemas, customResources, group, resource) : [v]) {
            const typed = resourceKind(schemas, customResources, group, served, resource);
            if (!typed) continue;
            const seen = objects.get(typed.label);
            // One kind through two resources: a guard on the resource cannot tell which.
            objects.set(typed.label, seen && seen.request?.resource !== resource ? { ...typed, request: undefined } : seen ?? typed);
          }
        }
      }
    }
  }
  const paramKind = spec.paramKind;
  const params = typeof paramKind?.apiVersion === 'string' && typeof paramKind.kind === 'string'
    ? typedKind(schemas, ...splitApiVersion(paramKind.apiVersion), paramKind.kind)
      ?? customKind(schemas, ...splitApiVersion(paramKind.apiVersion), paramKind.kind, customResources)
    : undefined;
  if (objects.size === 0 && !params) return undefined;
  return { objects: [...objects.values()].sort((a, b) => compare(a.label, b.label)), params };
}

/**
 * The versions of a group that serve a resource at the target version (`apiVersions: ['*']`),
 * built-in or of the CRDs given. The apiserver's type checker skips such rules; the object a
 * policy sees is then in whichever of them the request was made, so each is checked.
 */
function servedVersions(schemas: BuiltinSchemas, customResources: CustomResourceSchemas, group: string, resource: string): string[] {
  const builtin = schemas.resources().filter((r) => r.group === group && r.resource === resource).map((r) => r.version);
  const custom = customResources.kinds.filter((k) => k.group === group && k.resource === resource).map((k) => k.version);
  return [...new Set([...builtin, ...custom])];
}

/** The typed kind of a resource of a group and version, with what its requests share. */
function resourceKind(
  schemas: BuiltinSchemas, customResources: CustomResourceSchemas, group: string, version: string, resource: string,
): TypedKind | undefined {
  const found = schemas.resource(group, version, resource);
  const custom = found ? undefined : customResources.resource(group, version, resource);
  const typed = found
    ? typedKind(schemas, found.group, found.version, found.kind)
    : custom && customKind(schemas, custom.group, custom.version, custom.kind, customResources);
  const kind = found?.kind ?? custom?.kind;
  if (!typed || kind === undefined) return undefined;
  const apiVersion = group === '' ? version : `${group}/${version}`;
  return { ...typed, request: { group, resource, kind, apiVersion, objectIsTheResource: true } };
}

function typedKind(schemas: BuiltinSchemas, group: string, version: string, kind: string): TypedKind | undefined {
  const apiVersion = group === '' ? version : `${group}/${version}`;
  const found = schemas.kind(apiVersion, kind);
  if (!found) return undefined;
  return { label: `${apiVersion} ${kind}`, resource: { key: `${schemas.minor}|${found.name}`, types: builtinObjectTypes(schemas, found.name) } };
}

function customKind(
  schemas: BuiltinSchemas, group: string, version: string, kind: string, customResources: CustomResourceSchemas,
): TypedKind | undefined {
  const found = customResources.kind(group, version, kind);
  if (!found) return undefined;
  return { label: `${group}/${version} ${kind}`, resource: { key: `${schemas.minor}|${found.key}`, types: customResourceObjectTypes(schemas, found) } };
}

function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
