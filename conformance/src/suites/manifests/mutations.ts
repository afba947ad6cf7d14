/**
 * Field-by-field mutations of valid manifests: wrong JSON types, empty and huge values,
 * duplicates, unknown fields, bad names, labels, URLs, selectors and limits. A mutation is data
 * (a path and a new value, or a removal), so every case prints as the input it is.
 */
type Segment = string | number;

export interface Mutation {
  readonly path: readonly Segment[];
  /** undefined: remove the field (or list entry). */
  readonly value?: unknown;
  readonly remove?: boolean;
}

/** `spec.validations[0].expression`, the apiserver's spelling of a path. */
export function pathText(path: readonly Segment[]): string {
  let out = '';
  for (const s of path) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

export function describe(m: Mutation): string {
  const value = JSON.stringify(m.value);
  const shown = value !== undefined && value.length > 60 ? `${value.slice(0, 40)}…(${value.length} chars)` : value;
  return m.remove ? `remove ${pathText(m.path)}` : `${pathText(m.path)} = ${shown}`;
}

export function applyMutation(manifest: any, m: Mutation): any {
  const copy = JSON.parse(JSON.stringify(manifest));
  if (m.path.length === 0) return copy;
  let parent = copy;
  for (const s of m.path.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return copy;
    if (parent[s] === undefined) parent[s] = typeof s === 'number' ? [] : {};
    parent = parent[s];
  }
  if (parent === null || typeof parent !== 'object') return copy;
  const last = m.path[m.path.length - 1];
  if (m.remove) {
    if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
    else delete parent[last];
  } else {
    parent[last] = m.value;
  }
  return copy;
}

/** Every path of a JSON value (objects and lists included), with the value at it. */
export function pathsOf(value: unknown, prefix: Segment[] = []): Array<{ path: Segment[]; value: unknown }> {
  const out: Array<{ path: Segment[]; value: unknown }> = [];
  if (prefix.length > 0) out.push({ path: prefix, value });
  if (Array.isArray(value)) {value.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));} else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  }
  return out;
}

const HUGE = 'x'.repeat(70_000);
const BAD_NAMES = ['', 'UPPER', 'under_score', '-lead', 'trail-', 'trail.', 'a..b', 'a/b', 'a:b', '1abc', 'dots.are.ok', 'x'.repeat(63), 'x'.repeat(64), 'x'.repeat(253), 'x'.repeat(254), ' space', 'ünicode', 'a.static.k8s.io'];
const LABEL_KEYS = ['', 'a', '-a', 'a-', 'a/b/c', 'example.com/', '/a', 'Example.com/a', 'example.com/a', 'x'.repeat(63), 'x'.repeat(64), `${'x'.repeat(254)}/a`, 'kubernetes.io/metadata.name', 'a b'];
const LABEL_VALUES = ['', 'a', '-a', 'a-', 'a b', 'a.b_c-d', 'x'.repeat(63), 'x'.repeat(64), 'a/b'];
const URLS = [
  'https://example.com', 'http://example.com', 'https://', 'example.com', 'https://example.com:99999', 'https://example.com:0',
  'https://user:pw@example.com', 'https://example.com/#frag', 'https://example.com/?q=1', 'https://[::1]:8443/x', 'https://exa mple.com',
  'HTTPS://EXAMPLE.COM', 'https:///path', 'https://:443', 'ftp://example.com', 'https://example.com/%zz', '//example.com', 'https://localhost',
];
const SERVICE_PATHS = ['', '/', 'relative', '/a//b', '/a/../b', '/a/./b', '/ok/path', '/with space', '/UPPER', '/a_b', '/a.b', '/trailing/'];
const EXPRESSIONS = [
  '', ' ', 'true', 'false', '1', "'s'", '1 +', 'object', 'object.spec', 'request.userInfo.username', 'params', 'variables',
  'namespaceObject', 'authorizer', 'oldObject == null', 'x', 'object.foo.bar == 1', "object.metadata.name.matches('[')",
  'has(object.spec)', 'size(object.metadata.name) > 3', 'null', '[1, 2].all(x, x > 0)', "{'a': 1}", 'Object{}',
  '[JSONPatch{op: "add", path: "/metadata/labels/x", value: "y"}]', 'int("1")', `'${'x'.repeat(5000)}' != ''`,
];
const NUMBERS = [0, 1, -1, 5, 29, 30, 31, 65535, 65536, 2147483647, 2147483648, 1.5, 1e30];
const WRONG_TYPES: unknown[] = [null, 7, true, 'text', [], {}, [1], { x: 1 }];

const STRING_POOLS: Array<[RegExp, readonly unknown[]]> = [
  [/(^|\.)metadata\.name$|\.name$|policyName$|\.namespace$/, BAD_NAMES],
  [/url$/, URLS],
  [/service\.path$/, SERVICE_PATHS],
  [/(expression|Expression)$/, EXPRESSIONS],
  [/\.key$/, LABEL_KEYS],
  [/values\[\d+\]$/, LABEL_VALUES],
  [/operator$/, ['In', 'NotIn', 'Exists', 'DoesNotExist', 'in', 'Equals', '']],
  [/(failurePolicy|matchPolicy|sideEffects|reinvocationPolicy|parameterNotFoundAction|patchType|reason)$/, ['', 'fail', 'Fail', 'Ignore', 'None', 'NoneOnDryRun', 'Some', 'Unknown', 'IfNeeded', 'Never', 'Exact', 'Equivalent', 'Allow', 'Deny', 'JSONPatch', 'ApplyConfiguration', 'Invalid', 'Forbidden', 'Unauthorized', 'RequestEntityTooLarge', 'BadRequest']],
  [/scope$/, ['', '*', 'Cluster', 'Namespaced', 'cluster', 'All']],
  [/operations\[\d+\]$/, ['', '*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT', 'create', 'PATCH']],
  [/validationActions\[\d+\]$/, ['', 'Deny', 'Warn', 'Audit', 'deny', 'Block']],
  [/resources\[\d+\]$/, ['', '*', '*/*', 'pods', 'pods/*', '*/status', 'pods/status', 'Pods', 'pods/', '/status', 'a/b/c', 'pods/log/x', 'tokenreviews', 'subjectaccessreviews']],
  [/apiGroups\[\d+\]$/, ['', '*', 'apps', 'Apps', 'example.com', 'a/b', 'authentication.k8s.io', 'authorization.k8s.io']],
  [/apiVersions\[\d+\]$/, ['', '*', 'v1', 'V1', 'v1/x']],
  [/admissionReviewVersions\[\d+\]$/, ['', 'v1', 'v1beta1', 'v2', 'V1']],
  [/caBundle$/, ['', 'not base64!', 'QUJD', 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t']],
  [/(apiVersion)$/, ['', 'v1', 'apps/v1', 'v1/x', 'example.com/v1', 'V1', '/v1']],
  [/(kind)$/, ['', 'ConfigMap', 'configmap', 'Config Map', 'Secret']],
  [/message$/, ['', ' ', 'a\nb', 'x'.repeat(1024), 'x'.repeat(1025)]],
];

/** The candidate mutations at one path, given the value there now. */
export function mutationsAt(path: Segment[], current: unknown): Mutation[] {
  const text = pathText(path);
  const out: Mutation[] = [{ path, remove: true }];
  for (const v of WRONG_TYPES) out.push({ path, value: v });
  if (typeof current === 'string') {
    const pool = STRING_POOLS.find(([re]) => re.test(text));
    for (const v of pool ? pool[1] : ['', ' ', 'x', 'UPPER', current.toLowerCase(), current.toUpperCase(), `${current}x`, 'x'.repeat(300)]) {
      out.push({ path, value: v });
    }
    out.push({ path, value: HUGE });
  } else if (typeof current === 'number') {
    for (const v of NUMBERS) out.push({ path, value: v });
    out.push({ path, value: String(current) });
  } else if (Array.isArray(current)) {
    out.push({ path, value: [] });
    if (current.length > 0) {
      out.push({ path, value: [...current, current[0]] });
      out.push({ path, value: Array.from({ length: 70 }, (_, i) => renamed(current[0], i)) });
    }
  } else if (current !== null && typeof current === 'object') {
    out.push({ path, value: { ...current, unknownField: 'x' } });
    out.push({ path, value: {} });
    const labelMap = text === 'metadata' ? ['labels'] : text.endsWith('Selector') ? ['matchLabels'] : text.endsWith('matchLabels') ? [] : undefined;
    if (labelMap) {
      for (const key of LABEL_KEYS) out.push({ path: [...path, ...labelMap, key], value: 'v' });
    }
    if (text.endsWith('matchLabels') || text.endsWith('labels')) {
      for (const value of LABEL_VALUES) out.push({ path: [...path, 'k'], value });
    }
    if (text === 'metadata') {
      out.push({ path: [...path, 'generateName'], value: 'gen-' });
      out.push({ path: [...path, 'namespace'], value: 'default' });
      out.push({ path: [...path, 'finalizers'], value: ['example.com/f', 'bad_finalizer'] });
      out.push({ path: [...path, 'ownerReferences'], value: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: '' }] });
    }
  }
  return out;
}

/** A copy of a list entry with its name (if any) made unique, so that long lists are not duplicates. */
function renamed(entry: unknown, i: number): unknown {
  if (entry !== null && typeof entry === 'object' && !Array.isArray(entry) && 'name' in entry) {
    const name = (entry as { name: unknown }).name;
    return { ...entry, name: typeof name === 'string' && name.includes('.') ? `n${i}.${name}` : `n${i}` };
  }
  if (entry !== null && typeof entry === 'object' && !Array.isArray(entry) && 'key' in entry) {
    return { ...entry, key: `k${i}` };
  }
  return typeof entry === 'string' ? `${entry}${i}` : entry;
}
