// What PolicyTester accepts as input: requests the apiserver could receive, and manifests that are
// objects the apiserver would store. Anything else is an error naming what is wrong, never input
// that is quietly ignored.
import { parseAllDocuments } from 'yaml';
import { AdmissionRequest } from './admission-request';
import { groupVersionKind } from './resource-table';
import { ADMISSION_GROUP } from '../admission-kind';
import { setDataKey } from '../cel/data-keys';
import { Operation } from '../enums';
import { KubernetesVersion } from '../kubernetes-version';
import { ADMISSION_REQUEST, checkStructKeys } from '../private/struct-keys';
import { BuiltinSchemas } from '../schemas/builtin-schemas';
import { CustomResourceSchemas } from '../schemas/custom-resources';
import { customResourceDecodingProblems, decodingProblems } from '../schemas/strict-decoding';
import { renderValue } from '../validation/field-errors';
import { MAX_REQUEST_BYTES } from '../validation/json-data';
import { ManifestValidator } from '../validation/manifest-validator';
import { ViolationSeverity } from '../validation/violation';

/**
 * The deepest nesting PolicyTester takes. The apiserver decodes up to 10,000 levels (Go's
 * encoding/json), but the tester's conversions are recursive JavaScript, which a jest worker's
 * stack does not hold that deep; no Kubernetes object comes near either limit.
 */
export const MAX_JSON_DEPTH = 1_000;

const OPERATIONS: ReadonlySet<string> = new Set([Operation.CREATE, Operation.UPDATE, Operation.DELETE, Operation.CONNECT]);

/**
 * A JSON copy of `value`, or an error naming `where`, the path in it, and what there is not JSON.
 * With `maxBytes`, the copy stops as soon as the compact JSON encoding passes that size, so that
 * a huge object costs no more than the limit's worth of work.
 */
export function copyJson(value: unknown, where: string, maxBytes = Infinity): unknown {
  if (value === undefined) return undefined;
  const keys: Array<string | number> = [];
  const ancestors = new Set<object>();
  const at = () => where + keys.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('');
  let bytes = 0;
  const count = (n: number) => {
    bytes += n;
    if (bytes > maxBytes) {
      throw new Error(`${where}: its JSON is over ${maxBytes.toLocaleString('en-US')} bytes, the apiserver's request size limit `
        + `(it answers 413 Request entity too large: limit is ${maxBytes}); a test object this large cannot reach admission`);
    }
  };
  const jsonBytes = (s: string) => Buffer.byteLength(JSON.stringify(s));
  const copy = (v: unknown): unknown => {
    switch (typeof v) {
      case 'string':
        count(jsonBytes(v));
        return v;
      case 'boolean':
        count(v ? 4 : 5);
        return v;
      case 'number':
        if (!Number.isFinite(v)) throw new Error(`${at()}: ${v} is not a JSON number`);
        count(JSON.stringify(v).length);
        return v;
      case 'object':
        break;
      default:
        throw new Error(`${at()}: a ${typeof v} is not JSON data`);
    }
    if (v === null) {
      count(4);
      return null;
    }
    if (keys.length >= MAX_JSON_DEPTH) throw new Error(`${where}: nested deeper than ${MAX_JSON_DEPTH} levels, the most PolicyTester takes`);
    if (ancestors.has(v)) throw new Error(`${at()}: a cycle (the object contains itself), which JSON cannot hold`);
    const prototype = Object.getPrototypeOf(v);
    if (!Array.isArray(v) && prototype !== Object.prototype && prototype !== null) {
      throw new Error(`${at()}: a ${prototype?.constructor?.name ?? 'non-plain object'} is not JSON data (give plain objects, arrays, strings, numbers, booleans and null)`);
    }
    ancestors.add(v);
    let out: unknown;
    if (Array.isArray(v)) {
      const list = new Array(v.length);
      count(2 + Math.max(0, v.length - 1));
      for (let i = 0; i < v.length; i++) {
        keys.push(i);
        list[i] = copy(v[i] === undefined ? null : v[i]);
        keys.pop();
      }
      out = list;
    } else {
      const object: { [key: string]: unknown } = {};
      count(2);
      let entries = 0;
      for (const key of Object.keys(v)) {
        const item = (v as { [key: string]: unknown })[key];
        // As JSON.stringify does: an undefined property is absent. Any key is data (`__proto__` too).
        if (item === undefined) continue;
        count(jsonBytes(key) + 1 + (entries++ > 0 ? 1 : 0));
        keys.push(key);
        setDataKey(object, key, copy(item));
        keys.pop();
      }
      out = object;
    }
    ancestors.delete(v);
    return out;
  };
  return copy(value);
}

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value} (${renderValue(value).slice(0, 40)})`;
}

const DNS_LABELISH = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** The request's problems as the apiserver could never receive it; the request with its objects copied. */
export function checkedRequest(input: AdmissionRequest): AdmissionRequest {
  if (!isObject(input)) throw new Error(`review: the request must be an object with an operation, got ${describe(input)}`);
  // Its objects are checked for JSON data as they are copied, within the request size limit.
  checkStructKeys('review', input, ADMISSION_REQUEST, { jsonData: false });
  const operation = input.operation as string;
  if (operation === Operation.ALL) throw new Error('review: a request has one operation: CREATE, UPDATE, DELETE or CONNECT, not *');
  if (!OPERATIONS.has(operation)) {
    const hint = typeof operation === 'string' && OPERATIONS.has(operation.toUpperCase()) ? ` (operations are upper case: Operation.${operation.toUpperCase()})` : '';
    throw new Error(`review: unknown operation ${renderValue(operation).slice(0, 60)}${hint}: a request's operation is CREATE, UPDATE, DELETE or CONNECT`);
  }
  for (const key of ['object', 'oldObject', 'namespaceObject'] as const) {
    const value = input[key];
    if (value !== undefined && value !== null && !isObject(value)) throw new Error(`review: ${key} must be a JSON object, got ${describe(value)}`);
  }
  const present = (v: unknown) => v !== undefined && v !== null;
  if ((operation === Operation.CREATE || operation === Operation.UPDATE) && !present(input.object)) {
    throw new Error(`review: a ${operation} request has an object: give \`object\``);
  }
  if (operation === Operation.UPDATE && !present(input.oldObject)) throw new Error('review: an UPDATE request has the existing object: give `oldObject`');
  if (operation === Operation.DELETE && present(input.object)) {
    throw new Error('review: a DELETE request has no object (the apiserver sends the object being deleted as oldObject): give it as `oldObject`');
  }
  if (operation === Operation.CREATE && present(input.oldObject)) throw new Error('review: a CREATE request has no oldObject (nothing exists yet)');
  checkResource(input);
  checkUserExtra(input.userInfo?.extra);
  const namespaceObject = input.namespaceObject;
  if (present(namespaceObject)) checkNamespaceObject(namespaceObject);
  return {
    ...input,
    // A stored object (oldObject, namespaceObject) came through such a request too, so none can be larger.
    object: copyJson(input.object, 'review: object', MAX_REQUEST_BYTES),
    oldObject: copyJson(input.oldObject, 'review: oldObject', MAX_REQUEST_BYTES),
    namespaceObject: copyJson(namespaceObject, 'review: namespaceObject', MAX_REQUEST_BYTES),
  };
}

/**
 * The request's objects as the apiserver decodes them with strict field validation (kubectl's
 * default): a fixture with a misspelled field or a value of the wrong type is an error naming it,
 * not a review of an object the apiserver would never have admitted. Built-in kinds against the
 * target version's schemas, custom resources against the schemas of the CRDs the tester was
 * given; other kinds are not checked.
 */
export function checkDecodable(request: AdmissionRequest, minor: number, customResources: CustomResourceSchemas): void {
  const schemas = BuiltinSchemas.of(minor);
  for (const field of ['object', 'oldObject', 'namespaceObject'] as const) {
    const value: unknown = request[field];
    if (!isObject(value) || typeof value.apiVersion !== 'string' || typeof value.kind !== 'string') continue;
    const kind = schemas.kind(value.apiVersion, value.kind);
    const gvk = groupVersionKind(value)!;
    const custom = kind ? undefined : customResources.kind(gvk.group, gvk.version, gvk.kind);
    if (!kind && !custom) continue;
    const problems = kind ? decodingProblems(value, kind.name, schemas) : customResourceDecodingProblems(value, custom!.schema, schemas);
    if (problems.length === 0) continue;
    const shown = problems.slice(0, 10).map((p) => p.message).join('; ');
    const more = problems.length > 10 ? `; and ${problems.length - 10} more` : '';
    const against = kind ? `the apiserver of Kubernetes 1.${minor} decodes` : 'the apiserver takes for this CustomResourceDefinition\'s schema';
    throw new Error(`review: ${field} (${value.apiVersion} ${value.kind}) is not what ${against} `
      + `with strict field validation (kubectl's default): ${shown}${more}`);
  }
}

/** `userInfo.extra` (its other fields have the types of UserInfo's, checked with the request's keys). */
function checkUserExtra(extra: unknown): void {
  const isStringList = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');
  if (extra !== undefined && (!isObject(extra) || !Object.values(extra).every(isStringList))) {
    throw new Error(`review: userInfo.extra must map keys to lists of strings (e.g. { scopes: ['a'] }), got ${describe(extra)}`);
  }
}

function checkResource(input: AdmissionRequest): void {
  // An object with string fields, as the request's key check made sure.
  const resource = input.resource;
  if (resource === undefined) return;
  const { group, version, resource: name } = resource;
  if (typeof group !== 'string' || (group !== '' && !DNS_LABELISH.test(group))) {
    throw new Error(`review: resource.group must be an API group ('' for the core group, 'apps', ...), got ${describe(group)}`);
  }
  if (typeof version !== 'string' || !/^[a-z0-9]+$/.test(version)) throw new Error(`review: resource.version must be an API version such as 'v1', got ${describe(version)}`);
  if (typeof name !== 'string' || !DNS_LABELISH.test(name) || name.includes('/')) {
    const hint = typeof name === 'string' && /[A-Z]/.test(name) ? ` ('${name}' looks like a kind: resources are lower-case plurals, such as 'deployments')` : '';
    throw new Error(`review: resource.resource must be a lower-case plural resource name${hint}, got ${describe(name)}`);
  }
}

function checkNamespaceObject(namespace: unknown): void {
  const ns = namespace as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } };
  if (ns.kind !== 'Namespace' || ns.apiVersion !== 'v1') {
    throw new Error(`review: namespaceObject must be a v1 Namespace, got apiVersion ${renderValue(ns.apiVersion).slice(0, 60)} and kind ${renderValue(ns.kind).slice(0, 60)}`);
  }
  if (typeof ns.metadata?.name !== 'string' || ns.metadata.name === '') throw new Error('review: namespaceObject has no metadata.name');
}

/** Manifests as given to `fromManifests`: every entry an object (or a YAML/JSON text, parsed by the caller). */
export function checkedManifests(manifests: readonly unknown[], source: string): unknown[] {
  if (!Array.isArray(manifests)) throw new Error(`${source}: manifests must be an array, got ${describe(manifests)}`);
  return manifests.map((m, i) => {
    if (!isObject(m)) throw new Error(`${source}: manifest ${i} is ${describe(m)}, not a Kubernetes object`);
    return copyJson(m, `${source}: manifest ${i} (${String(m.kind ?? 'no kind')} ${String((m.metadata as any)?.name ?? '')})`.trim());
  });
}

/**
 * Rejects admissionregistration manifests the apiserver would refuse to create (a CEL expression
 * that does not compile, a failurePolicy of 'fail'): no cluster holds such a configuration, so a
 * review of it would answer a question no request can ask.
 */
export function checkAdmissible(manifests: readonly unknown[], version: KubernetesVersion, source: string): void {
  const problems = manifests.flatMap((m, i) => {
    const apiVersion = (m as { apiVersion?: unknown }).apiVersion;
    if (typeof apiVersion !== 'string' || !apiVersion.startsWith(`${ADMISSION_GROUP}/`)) return [];
    return ManifestValidator.validate(m, { kubernetesVersion: version })
      .filter((v) => v.severity === ViolationSeverity.ERROR)
      .map((v) => `manifest ${i} (${v.kind ?? 'no kind'} '${v.name ?? ''}'): ${v.path}: ${v.message}`);
  });
  if (problems.length > 0) {
    throw new Error(`${source}: the apiserver (Kubernetes ${version}) would reject these manifests; fix them before reviewing:\n- ${problems.join('\n- ')}`);
  }
}

/**
 * Rejects a static set the apiserver would refuse to start with (its loader's rules, and API
 * validation of each object), every problem at once.
 */
export function checkStaticAdmissible(manifests: readonly unknown[], version: KubernetesVersion, source: string): void {
  if (manifests.length === 0) return;
  const problems = ManifestValidator.validateAll([...manifests], { kubernetesVersion: version, staticManifests: true })
    .filter((v) => v.severity === ViolationSeverity.ERROR)
    .map((v) => `static manifest ${v.manifestIndex ?? '-'} (${v.kind ?? 'no kind'} '${v.name ?? ''}'): ${v.path}: ${v.message}`);
  if (problems.length > 0) {
    throw new Error(`${source}: the apiserver (Kubernetes ${version}) would refuse to start with this static set; fix it before reviewing:\n- ${problems.join('\n- ')}`);
  }
}

/** The documents of a YAML (or JSON) text; empty documents are skipped, and a text that does not parse is an error. */
export function yamlDocuments(text: string, source: string): unknown[] {
  const documents = parseAllDocuments(text);
  const list = Array.isArray(documents) ? documents : [];
  return list.flatMap((d, i) => {
    const error = d.errors[0];
    if (error) throw new Error(`${source}: document ${i} is not valid YAML: ${error.message.split('\n')[0]}`);
    const value = d.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}
