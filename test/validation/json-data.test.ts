import { Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { AdmissionResource, ManifestValidator, Operation, ValidatingPolicy } from '../../src';
import { inspectJson, jsonDataProblem, MAX_JSON_DEPTH, MAX_REQUEST_BYTES } from '../../src/validation/json-data';

const vap = (extra: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'p', ...extra },
  spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }] }, validations: [{ expression: 'true' }], ...spec },
});

function nested(depth: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe('jsonDataProblem', () => {
  test('counts the bytes of the compact JSON encoding exactly', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      expect(inspectJson(v, { maxDepth: 1_000 }).bytes).toBe(Buffer.byteLength(JSON.stringify(v)));
    }), { numRuns: 500 });
  });

  test('the depth limit counts the top-level value as one level, as Go\'s encoding/json does', () => {
    expect(jsonDataProblem(nested(MAX_JSON_DEPTH), { maxDepth: MAX_JSON_DEPTH })).toBeUndefined();
    expect(jsonDataProblem(nested(MAX_JSON_DEPTH + 1), { maxDepth: MAX_JSON_DEPTH })).toEqual(expect.objectContaining({ message: 'nested deeper than 10,000 levels' }));
  });
  test('names the path of what is not JSON', () => {
    const cyclic: any = { a: [1, { b: 2 }] };
    cyclic.a[1].c = cyclic;
    expect(jsonDataProblem(cyclic, { maxDepth: 100 })).toEqual({ path: 'a[1].c', segments: ['a', 1, 'c'], message: 'a cycle (the value contains itself), which JSON cannot hold' });
    expect(jsonDataProblem({ a: { n: 1n } }, { maxDepth: 100 })?.path).toBe('a.n');
    expect(jsonDataProblem({ a: [NaN] }, { maxDepth: 100 })?.message).toBe('NaN is not a JSON number');
    expect(jsonDataProblem({ d: new Date(0) }, { maxDepth: 100 })?.message).toMatch(/^a Date is not JSON data/);
    expect(jsonDataProblem({ d: new Date(0) }, { maxDepth: 100, skipNonPlain: true })).toBeUndefined();
    const shared = { x: 1 };
    expect(jsonDataProblem({ a: shared, b: shared }, { maxDepth: 100 })).toBeUndefined();
  });
});

describe('ManifestValidator on what no request body can hold', () => {
  test('nesting past 10,000 levels is the apiserver\'s decoding error, at the field where it starts', () => {
    expect(ManifestValidator.validate(vap({ labels: { a: nested(MAX_JSON_DEPTH) } }))).toEqual([expect.objectContaining({
      path: 'metadata.labels.a[0]', message: 'Invalid value: nested deeper than 10,000 levels: the apiserver\'s JSON decoder refuses it (exceeded max depth)',
    })]);
  });
  test('9,000 levels in a string field are a type error, with the value elided', () => {
    expect(ManifestValidator.validate(vap({ name: nested(9_000) }))).toEqual([expect.objectContaining({ path: 'metadata.name', message: 'Invalid value: [...]: must be of type string, not array' })]);
  });
  test('values that are not JSON', () => {
    expect(ManifestValidator.validate(vap({ generation: 1n }))).toEqual([expect.objectContaining({ path: 'metadata.generation', message: 'Invalid value: a bigint is not JSON data: a manifest holds only JSON data' })]);
  });
  test('a manifest over the 3 MiB request limit', () => {
    const big = vap({ annotations: { a: 'x'.repeat(MAX_REQUEST_BYTES) } });
    expect(ManifestValidator.validate(big)).toEqual([expect.objectContaining({ path: '(object)', message: expect.stringMatching(/^Too long: the manifest is 3,14\d,\d{3} bytes of JSON, over the apiserver's request limit of 3,145,728/) })]);
  });
});

describe('props of the wrong type are errors at construction', () => {
  const rules = [AdmissionResource.PODS.rule(Operation.CREATE)];
  test.each([
    [{ resourceRules: 'pods' }, 'test/p: resourceRules must be a list of ResourceRule, got a string ("pods")'],
    [{ resourceRules: ['pods'] }, 'test/p: resourceRules[0] must be a ResourceRule (an object with apiGroups, apiVersions, resources, operations, resourceNames, scope), got a string ("pods")'],
    [{ resourceRules: [{ ...rules[0], apiGroups: 'apps' }] }, 'test/p: resourceRules[0].apiGroups must be a list of strings, got a string ("apps")'],
    [{ resourceRules: rules, name: 42 }, 'test/p: name must be a string, got a number (42)'],
    [{ resourceRules: rules, namespaceSelector: { matchLabels: { a: 1 } } }, 'test/p: namespaceSelector.matchLabels must be a map of strings, got an object'],
    [{ resourceRules: rules, validations: [{ expression: 10n ** 20n }] }, 'test/p: validations[0].expression: a bigint is not JSON data'],
  ])('%j', (props, error) => {
    expect(() => new ValidatingPolicy(Testing.chart(), 'p', props as any)).toThrow(error);
  });
});

test('a sparse array is walked with its holes, as JSON writes them (null)', () => {
  // eslint-disable-next-line no-sparse-arrays
  const sparse = [, { a: 1 }];
  expect(inspectJson(sparse, { maxDepth: 10 })).toEqual({ bytes: Buffer.byteLength(JSON.stringify(sparse)) });
  const manifest = vap({}, { validations: sparse });
  expect(ManifestValidator.validate(manifest).map((v) => v.message)).not.toContainEqual(expect.stringMatching(/Internal error/));
});
