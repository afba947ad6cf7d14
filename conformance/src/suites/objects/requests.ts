/** How an objects-suite case is sent: its collection URL (with a dry run and strict field validation) and its body. */
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';

export const NAMESPACE = 'default';

export function urlOf(object: any, schemas: BuiltinSchemas): string | undefined {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/', 2) : ['', object.apiVersion];
  const resource = schemas.resources().find((r) => r.group === group && r.version === version && r.kind === object.kind);
  if (!resource) return undefined;
  const prefix = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  return `${prefix}${resource.namespaced ? `/namespaces/${NAMESPACE}` : ''}/${resource.resource}?dryRun=All&fieldValidation=Strict`;
}

/** What is sent: in the suite's namespace, without what only a stored object has. */
export function sendable(object: any, schemas: BuiltinSchemas): any {
  const copy = structuredClone(object);
  if (copy.metadata && typeof copy.metadata === 'object' && !Array.isArray(copy.metadata)) {
    const namespaced = urlOf(object, schemas)?.includes(`/namespaces/${NAMESPACE}/`);
    if (namespaced) copy.metadata.namespace = NAMESPACE;
    else delete copy.metadata.namespace;
    delete copy.metadata.resourceVersion;
    delete copy.metadata.uid;
  }
  return copy;
}
