import type { ExpressionTypes, TypedKind } from '../cel/expression-checker';
import { KubernetesVersion } from '../kubernetes-version';
import { BuiltinSchemas } from '../schemas/builtin-schemas';
import { builtinObjectTypes, customResourceObjectTypes } from '../schemas/cel-object-types';
import { CustomResourceSchemas } from '../schemas/custom-resources';
import type { MatchResources, ParamKind } from '../wire/admissionregistration';

/**
 * What a policy's expressions are type-checked against, as the apiserver's type checker chooses
 * (k8s.io/apiserver validating/typechecking.go, typesToCheck): every group/version/resource of
 * matchConstraints.resourceRules whose schema is known, except rules with a wildcard group or
 * version, and wildcard and subresource entries; params as the paramKind. Unlike the apiserver
 * (at most 10 kinds), every kind is checked. Built-in resources have the target version's schemas,
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
    if (groups.some((g) => typeof g !== 'string' || g.includes('*')) || versions.some((v) => typeof v !== 'string' || v.includes('*'))) continue;
    const resources = (rule?.resources ?? []).filter((r) => typeof r === 'string' && !/[*/]/.test(r));
    for (const group of groups) {
      for (const v of versions) {
        for (const resource of resources) {
          const found = schemas.resource(group, v, resource);
          const custom = found ? undefined : customResources.resource(group, v, resource);
          const typed = found
            ? typedKind(schemas, found.group, found.version, found.kind)
            : custom && customKind(schemas, custom.group, custom.version, custom.kind, customResources);
          if (typed) objects.set(typed.label, typed);
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
