/**
 * One manifest created with `dryRun=All&fieldValidation=Strict`: what the apiserver decided,
 * the field paths of its causes, and its warnings.
 */
import { Oracle } from './oracle';

const PLURALS: Record<string, string> = {
  ValidatingAdmissionPolicy: 'validatingadmissionpolicies',
  ValidatingAdmissionPolicyBinding: 'validatingadmissionpolicybindings',
  MutatingAdmissionPolicy: 'mutatingadmissionpolicies',
  MutatingAdmissionPolicyBinding: 'mutatingadmissionpolicybindings',
  ValidatingWebhookConfiguration: 'validatingwebhookconfigurations',
  MutatingWebhookConfiguration: 'mutatingwebhookconfigurations',
};

export interface ApiserverVerdict {
  readonly accepted: boolean;
  readonly status: number;
  /** Rejected while decoding (unknown or duplicate fields, wrong JSON types): validation did not run. */
  readonly decodeError: boolean;
  /** The causes' field paths, in the apiserver's spelling. */
  readonly paths: string[];
  /** The causes' messages, or the status message when there are none. */
  readonly messages: string[];
  readonly warnings: string[];
}

/** The collection URL a manifest is created at; `kind` and `apiVersion` are those of the case's base. */
export function collectionPath(kind: string, apiVersion: string): string {
  return `/apis/${apiVersion}/${PLURALS[kind]}?dryRun=All&fieldValidation=Strict`;
}

export async function dryRunCreate(oracle: Oracle, url: string, manifest: unknown): Promise<ApiserverVerdict> {
  const res = await oracle.request('POST', url, manifest);
  if (res.status === 200 || res.status === 201) {
    return { accepted: true, status: res.status, decodeError: false, paths: [], messages: [], warnings: res.warnings };
  }
  if (res.status >= 500 || res.status === 404 || res.status === 401 || res.status === 403) {
    throw new Error(`the apiserver answered ${res.status} to ${url}: ${JSON.stringify(res.body).slice(0, 500)}`);
  }
  const body = typeof res.body === 'object' && res.body !== null ? res.body : { message: String(res.body) };
  const causes: Array<{ field?: string; message?: string }> = body.details?.causes ?? [];
  const message: string = body.message ?? '';
  // A body over the request limit (413) is refused before it is decoded, like a decoding error: no field paths.
  const decodeError = res.status === 400 || res.status === 413 || /strict decoding error|cannot be handled as a|json: cannot unmarshal/.test(message);
  let paths = causes.map((c) => c.field ?? '');
  if (decodeError && paths.length === 0) paths = decodePaths(message);
  return {
    accepted: false,
    status: res.status,
    decodeError,
    paths,
    messages: causes.length > 0 ? causes.map((c) => c.message ?? '') : [message],
    warnings: res.warnings,
  };
}

/**
 * Field paths named by a decoding error: `unknown field "spec.foo"`, `duplicate field "x"`, and
 * Go's `cannot unmarshal X into Go struct field T.spec.failurePolicy of type ...` (which drops
 * list indices).
 */
export function decodePaths(message: string): string[] {
  const out: string[] = [];
  for (const m of message.matchAll(/(?:unknown|duplicate) field "([^"]+)"/g)) out.push(m[1]);
  for (const m of message.matchAll(/into Go struct field [A-Za-z0-9_]+\.([A-Za-z0-9_.-]+) of type/g)) {
    // Embedded structs appear by their type name (`resourceRules.RuleWithOperations.Rule.apiGroups`).
    out.push(m[1].split('.').filter((s) => !/^[A-Z]/.test(s)).join('.'));
  }
  // A value of the wrong type for the whole object names no field.
  if (/into Go value of type/.test(message)) out.push('(object)');
  return out;
}
