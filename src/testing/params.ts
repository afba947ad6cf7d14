// How a binding finds the parameter objects of its policy (paramKind + paramRef).
import { selectorMatches } from './matching';
import type { ParamKind, ParamRef } from '../wire/admissionregistration';

/** The parameters to evaluate a binding with: one evaluation per object, or a configuration error. */
export type ParamResolution =
  | { readonly kind: 'none' }
  | { readonly kind: 'objects'; readonly objects: readonly unknown[] }
  | { readonly kind: 'notFound'; readonly action: string }
  | { readonly kind: 'error'; readonly message: string };

interface Meta { readonly name?: string; readonly namespace?: string; readonly labels?: { [key: string]: string } }
const meta = (o: unknown): Meta => ((o as { metadata?: Meta })?.metadata ?? {});

/**
 * Resolves a binding's params. A policy without paramKind has none; a binding without paramRef
 * of a policy with one evaluates once with `params` null. A namespaced paramKind (by the built-in
 * kinds' table, else when its objects have namespaces) is looked up in `paramRef.namespace`, else
 * in the request's namespace.
 */
export function resolveParams(
  paramKind: ParamKind | undefined, paramRef: ParamRef | undefined, candidates: readonly unknown[], requestNamespace: string,
  namespacedKind?: boolean,
): ParamResolution {
  if (!paramKind) return { kind: 'none' };
  if (!paramRef) return { kind: 'objects', objects: [null] };
  const ofKind = candidates.filter((o) => {
    const m = o as { apiVersion?: unknown; kind?: unknown };
    return m?.apiVersion === paramKind.apiVersion && m?.kind === paramKind.kind;
  });
  const namespaced = namespacedKind ?? ofKind.some((o) => !!meta(o).namespace);
  let namespace: string | undefined;
  if (paramRef.namespace) {
    namespace = paramRef.namespace;
  } else if (namespaced) {
    if (!requestNamespace) {
      return { kind: 'error', message: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' };
    }
    namespace = requestNamespace;
  }
  const inNamespace = ofKind.filter((o) => namespace === undefined || meta(o).namespace === namespace);
  const found = paramRef.name !== undefined
    ? inNamespace.filter((o) => meta(o).name === paramRef.name)
    : inNamespace.filter((o) => selectorMatches(paramRef.selector, meta(o).labels));
  if (found.length === 0) return { kind: 'notFound', action: paramRef.parameterNotFoundAction ?? 'Deny' };
  return { kind: 'objects', objects: found };
}
