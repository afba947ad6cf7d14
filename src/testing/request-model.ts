import { CelAuthorizer } from '../cel/libraries/authz';
import { Operation } from '../enums';
import { AdmissionRequest } from './admission-request';
import { Activation } from './cel-runtime';
import { RequestAttributes } from './matching';
import { apiVersionOf } from './object-pipeline';
import { decideWith } from './permissions';
import { builtInResource, groupVersionKind } from './resource-table';
import { BuiltinSchemas } from '../schemas/builtin-schemas';
import { CustomResourceSchemas } from '../schemas/custom-resources';

/**
 * A request as the apiserver's admission sees it: its attributes (admission.Attributes: resource,
 * namespace, name, and the labels the selectors read) and the variables its CEL expressions run
 * with (`object`, `oldObject`, `request`, `namespaceObject`, `authorizer`: CreateAdmissionRequest
 * and the activation in k8s.io/apiserver pkg/admission/plugin/cel/filter.go).
 */
export class RequestModel {
  constructor(
    private readonly minor: number,
    private readonly customResources: CustomResourceSchemas,
    private readonly manifests: readonly any[],
    private readonly decide: ReturnType<typeof decideWith>,
  ) {}

  /** The request's attributes; its resource inferred from the object's kind when not given. */
  public attributes(request: AdmissionRequest): RequestAttributes {
    const object = request.object ?? request.oldObject;
    const gvk = groupVersionKind(object);
    const known = gvk ? builtInResource(gvk) ?? BuiltinSchemas.of(this.minor).resourceOfKind(gvk.group, gvk.version, gvk.kind)
      ?? this.customResources.kind(gvk.group, gvk.version, gvk.kind) : undefined;
    const resource = request.resource ?? (gvk && known ? { group: gvk.group, version: gvk.version, resource: known.resource } : undefined);
    if (!resource) {
      const what = gvk ? `${apiVersionOf(gvk)} ${gvk.kind}` : object ? 'an object without apiVersion and kind' : 'a request without an object';
      throw new Error(`review: cannot infer the resource of ${what}: give \`resource: { group, version, resource }\` in the request, `
        + 'or the custom resource\'s CustomResourceDefinition among the tester\'s manifests');
    }
    if (request.operation === Operation.ALL) throw new Error('review: a request has one operation: CREATE, UPDATE, DELETE or CONNECT, not *');
    // For a Namespace itself, the apiserver's request namespace is the Namespace's name.
    const namespace = request.namespace ?? (isNamespace(object) ? object?.metadata?.name : object?.metadata?.namespace) ?? '';
    const namespaced = known ? known.namespaced : namespace !== '';
    const givenNamespace = request.namespaceObject?.metadata?.name;
    if (givenNamespace !== undefined && givenNamespace !== namespace) {
      throw new Error(namespaced
        ? `review: namespaceObject is Namespace '${givenNamespace}', but the request is in namespace '${namespace}'`
        : `review: a ${resource.resource} request is cluster-scoped: it has no namespaceObject (give the Namespace among the manifests if a policy reads it)`);
    }
    return {
      operation: request.operation,
      group: resource.group,
      version: resource.version,
      resource: resource.resource,
      subResource: request.subResource ?? '',
      name: request.name ?? object?.metadata?.name ?? '',
      namespace,
      namespaced,
      isNamespaceObject: resource.group === '' && resource.resource === 'namespaces',
      objectLabels: isNamespace(object)
        ? withNameLabel(request.object)?.metadata?.labels
        : request.object?.metadata?.labels ?? (request.object ? {} : undefined),
      oldObjectLabels: request.oldObject?.metadata?.labels ?? (request.oldObject ? {} : undefined),
      namespaceLabels: this.namespaceObject(request, namespace)?.metadata?.labels ?? {},
    };
  }

  /** The kind of the request's resource, for an object that does not say its own. */
  public kindOfResource(a: RequestAttributes): { group: string; version: string; kind: string } | undefined {
    const builtin = BuiltinSchemas.of(this.minor).resource(a.group, a.version, a.resource, a.subResource);
    if (builtin) return builtin;
    const custom = this.customResources.resource(a.group, a.version, a.resource);
    return custom && a.subResource === '' ? { group: custom.group, version: custom.version, kind: custom.kind } : undefined;
  }

  /** The variables of the request's expressions, with `object` as the policies at hand see it. */
  public activation(request: AdmissionRequest, a: RequestAttributes, object: unknown): Activation {
    const u = request.userInfo ?? {};
    const username = u.username ?? 'test-user';
    return {
      authorizer: new CelAuthorizer(this.decide, username,
        { group: a.group, resource: a.resource, subresource: a.subResource, namespace: a.namespace, name: a.name }),
      object: object ?? null,
      oldObject: request.oldObject ?? null,
      namespaceObject: a.namespaced ? this.namespaceObject(request, a.namespace) : null,
      request: {
        kind: requestKind(request, object),
        resource: { group: a.group, version: a.version, resource: a.resource },
        subResource: a.subResource,
        requestKind: requestKind(request, object),
        requestResource: { group: a.group, version: a.version, resource: a.resource },
        requestSubResource: a.subResource,
        name: a.name,
        namespace: a.namespace,
        operation: a.operation,
        userInfo: { username, uid: u.uid ?? '', groups: u.groups ?? ['system:authenticated'], extra: u.extra ?? {} },
        dryRun: request.dryRun ?? false,
        options: null,
      },
    };
  }

  /** The request's Namespace: given, found among the manifests, or one without labels; with the label the apiserver always sets. */
  private namespaceObject(request: AdmissionRequest, namespace: string): any {
    if (!namespace) return null;
    const found = request.namespaceObject
      ?? this.manifests.find((m) => m.kind === 'Namespace' && m.metadata?.name === namespace)
      ?? { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } };
    return withNameLabel(found);
  }
}

/** `CREATE apps/v1 deployments/scale team-a/web by alice`. */
export function requestLine(a: RequestAttributes, username: string | undefined): string {
  const resource = `${a.group ? `${a.group}/` : ''}${a.version} ${a.resource}${a.subResource ? `/${a.subResource}` : ''}`;
  const name = a.namespace ? `${a.namespace}/${a.name}` : a.name;
  return `${a.operation} ${resource}${name ? ` ${name}` : ''} by ${username ?? 'test-user'}`;
}

function requestKind(request: AdmissionRequest, object: unknown) {
  const gvk = groupVersionKind(object ?? request.oldObject);
  return gvk ? { group: gvk.group, version: gvk.version, kind: gvk.kind } : { group: '', version: '', kind: '' };
}

function isNamespace(object: unknown): boolean {
  const gvk = groupVersionKind(object);
  return gvk?.group === '' && gvk.kind === 'Namespace';
}

/** The apiserver labels every Namespace with `kubernetes.io/metadata.name: <name>`. */
function withNameLabel(namespace: any): any {
  const name = namespace?.metadata?.name;
  if (!name) return namespace;
  return { ...namespace, metadata: { ...namespace.metadata, labels: { ...namespace.metadata.labels, 'kubernetes.io/metadata.name': name } } };
}
