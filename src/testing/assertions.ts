// What a test asserts about a review, once: the jest matchers (src/jest.ts) and PolicyTester's
// assert* methods (for Python, Java, Go and .NET) both call these. Each returns why the
// assertion fails, or undefined when it holds; none passes on a review that no policy acted on
// unless it says so (assertNoPolicyMatched), so a policy that matches nothing cannot make a test
// pass for the wrong reason.
import { AdmissionResult, PolicyDenial } from './admission-result';

/** What a denial must be like; every field given must match one and the same denial. */
export interface DenialExpectation {
  /**
   * The name of the policy that denied.
   * @default - any policy
   */
  readonly policy?: string;
  /**
   * The name of the binding it denied through.
   * @default - any binding
   */
  readonly binding?: string;
  /**
   * Text the denial's message contains (the whole message the apiserver returns).
   * @default - any message
   */
  readonly message?: string;
  /**
   * A regular expression (JavaScript syntax) the denial's message matches.
   * @default - any message
   */
  readonly messagePattern?: string;
  /**
   * The reason of the response: `Invalid`, `Forbidden`, `Unauthorized`, `RequestEntityTooLarge`.
   * @default - any reason
   */
  readonly reason?: string;
  /**
   * The HTTP status code: 422, 403, 401 or 413.
   * @default - any code
   */
  readonly code?: number;
}

/** The policies that acted, for messages: `'p' (binding 'b')`. */
function acted(result: AdmissionResult): string[] {
  return result.policies.filter((p) => p.matched).map((p) => `${p.policyKind} '${p.policy}' (binding '${p.binding}')`);
}

/** Why a review proves nothing about the policies (none acted on it), or undefined when one did. */
export function vacuousReview(result: AdmissionResult): string | undefined {
  if (acted(result).length > 0) return undefined;
  return result.policies.length === 0
    ? 'no policy matched the request: the tester has no admission policies'
    : 'no policy matched the request, so nothing was checked (if that is what the test means, assert that no policy matched)';
}

export function allowedFailure(result: AdmissionResult): string | undefined {
  if (!result.allowed) return `expected the request to be allowed, but it was denied:\n${result.denials.map((d) => `  ${d.message}`).join('\n')}`;
  const vacuous = vacuousReview(result);
  return vacuous ? `expected the request to be allowed by the policies, but ${vacuous}` : undefined;
}

export function noPolicyMatchedFailure(result: AdmissionResult): string | undefined {
  const names = acted(result);
  return names.length === 0 ? undefined : `expected no policy to match the request, but ${names.join(', ')} acted`;
}

export function deniedFailure(result: AdmissionResult, expected: DenialExpectation = {}): string | undefined {
  if (result.allowed) {
    const vacuous = vacuousReview(result);
    return `expected the request to be denied, but it was allowed${vacuous ? `: ${vacuous}` : ''}`;
  }
  const pattern = expected.messagePattern !== undefined ? new RegExp(expected.messagePattern) : undefined;
  const matches = (d: PolicyDenial) => (expected.policy === undefined || d.policy === expected.policy)
    && (expected.binding === undefined || d.binding === expected.binding)
    && (expected.message === undefined || d.message.includes(expected.message))
    && (pattern === undefined || pattern.test(d.message))
    && (expected.reason === undefined || d.reason === expected.reason)
    && (expected.code === undefined || d.code === expected.code);
  if (result.denials.some(matches)) return undefined;
  const wanted = Object.entries(expected).filter(([, v]) => v !== undefined).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ');
  const got = result.denials.map((d) => `  ${d.message} (policy '${d.policy}', binding '${d.binding}', ${d.reason}, ${d.code})`).join('\n');
  return `expected a denial with ${wanted}, but the denials were:\n${got}`;
}

export function warnedFailure(result: AdmissionResult, messagePattern?: string): string | undefined {
  const pattern = messagePattern !== undefined ? new RegExp(messagePattern) : undefined;
  if (result.warnings.some((w) => pattern === undefined || pattern.test(w))) return undefined;
  const vacuous = vacuousReview(result);
  const got = result.warnings.length === 0 ? 'there were no warnings' : `the warnings were:\n${result.warnings.map((w) => `  ${w}`).join('\n')}`;
  return `expected a warning${pattern ? ` matching ${pattern}` : ''}, but ${got}${vacuous ? `; ${vacuous}` : ''}`;
}

export function auditedFailure(result: AdmissionResult, key: string, valuePattern?: string): string | undefined {
  const value = result.auditAnnotations[key];
  const pattern = valuePattern !== undefined ? new RegExp(valuePattern) : undefined;
  if (value !== undefined && (pattern === undefined || pattern.test(value))) return undefined;
  const keys = Object.keys(result.auditAnnotations);
  const got = value !== undefined ? `its value was ${JSON.stringify(value)}`
    : keys.length === 0 ? 'there were no audit annotations' : `the audit annotations were ${keys.map((k) => JSON.stringify(k)).join(', ')}`;
  return `expected the audit annotation ${JSON.stringify(key)}${pattern ? ` matching ${pattern}` : ''}, but ${got}`;
}

/**
 * The mutated object must contain `expected`: a partial object (objects by their given keys,
 * arrays whole, as jest's toMatchObject), or a JSON patch whose operations the object satisfies
 * (`add`/`replace` put their value at their path, `remove` left nothing there).
 */
export function mutatedFailure(result: AdmissionResult, expected: unknown): string | undefined {
  if (result.patchedObject === undefined) {
    if (!result.allowed) return `expected the object to be mutated, but the request was denied:\n${result.denials.map((d) => `  ${d.message}`).join('\n')}`;
    const vacuous = vacuousReview(result);
    return `expected the object to be mutated, but no mutating policy changed it${vacuous ? `: ${vacuous}` : ''}`;
  }
  const differences = Array.isArray(expected) ? patchDifferences(result.patchedObject, expected) : partialDifferences(result.patchedObject, expected, '');
  return differences.length === 0 ? undefined : `expected the mutated object to contain what the test gives, but:\n${differences.map((d) => `  ${d}`).join('\n')}`;
}

export function matchedByFailure(result: AdmissionResult, policy: string, binding?: string): string | undefined {
  const entries = result.policies.filter((p) => p.policy === policy && (binding === undefined || p.binding === binding));
  const who = `policy '${policy}'${binding !== undefined ? ` with binding '${binding}'` : ''}`;
  if (entries.length === 0) {
    return `expected ${who} to match, but the tester has no such ${binding !== undefined ? 'policy and binding' : 'policy'} (it has ${
      [...new Set(result.policies.map((p) => `'${p.policy}'`))].join(', ') || 'none'})`;
  }
  if (entries.some((p) => p.matched)) return undefined;
  return `expected ${who} to match, but it did not:\n${entries.map((p) => `  ${p.reason}`).join('\n')}`;
}

/** Where `actual` differs from the partial `expected`, as `path: expected X, got Y`. */
function partialDifferences(actual: unknown, expected: unknown, path: string): string[] {
  const at = path === '' ? '(the object)' : path;
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
    return Object.entries(expected).flatMap(([k, v]) => partialDifferences((actual as Record<string, unknown>)[k], v, path === '' ? k : `${path}.${k}`));
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
    return expected.flatMap((v, i) => partialDifferences(actual[i], v, `${path}[${i}]`));
  }
  return actual === expected ? [] : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

/** Where the object does not satisfy a JSON patch's operations. */
function patchDifferences(object: unknown, patch: readonly unknown[]): string[] {
  return patch.flatMap((operation, i) => {
    const { op, path, value } = (operation ?? {}) as { op?: string; path?: string; value?: unknown };
    if (typeof path !== 'string' || (path !== '' && !path.startsWith('/'))) return [`operation ${i}: a JSON patch path starts with '/', got ${JSON.stringify(path)}`];
    const found = pointer(object, path);
    if (op === 'remove') return found.exists ? [`${path}: expected nothing (remove), got ${JSON.stringify(found.value)}`] : [];
    if (op === 'add' || op === 'replace') {
      if (!found.exists) return [`${path}: expected ${JSON.stringify(value)} (${op}), got nothing`];
      return JSON.stringify(found.value) === JSON.stringify(value) ? [] : [`${path}: expected ${JSON.stringify(value)} (${op}), got ${JSON.stringify(found.value)}`];
    }
    return [`operation ${i}: only add, replace and remove describe a result; got ${JSON.stringify(op)}`];
  });
}

/** The value at a JSON pointer (RFC 6901; `-` is the last element of an array, where add put it). */
function pointer(object: unknown, path: string): { exists: boolean; value?: unknown } {
  let current = object;
  for (const raw of path === '' ? [] : path.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      const index = token === '-' ? current.length - 1 : Number(token);
      if (!Number.isInteger(index) || index < 0 || index >= current.length) return { exists: false };
      current = current[index];
    } else if (current !== null && typeof current === 'object' && Object.prototype.hasOwnProperty.call(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return { exists: false };
    }
  }
  return { exists: true, value: current };
}
