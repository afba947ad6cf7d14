// PolicyTester rejects what the apiserver could never receive, with an error that says what is
// wrong: a test must never pass because its input was quietly ignored.
import { KubernetesVersion, Operation, PolicyTester } from '../../src';
import { MAX_JSON_DEPTH } from '../../src/testing/input-checks';
import { MAX_REQUEST_BYTES } from '../../src/validation/json-data';

const G = 'admissionregistration.k8s.io/v1';
const policy = {
  apiVersion: G,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'p' },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['configmaps'] }] },
    validations: [{ expression: 'object == null || !has(object.data) || !("x" in object.data)' }],
  },
};
const binding = { apiVersion: G, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'] } };
const cm = (data: object = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'team-a' }, data });
const tester = PolicyTester.fromManifests([policy, binding]);

describe('requests the apiserver could never receive', () => {
  test('an unknown operation, with a hint for lower case', () => {
    expect(() => tester.review({ operation: 'create' as Operation, object: cm() })).toThrow(/unknown operation "create" \(operations are upper case: Operation.CREATE\)/);
    expect(() => tester.review({ operation: 'PATCH' as Operation, object: cm() })).toThrow(/unknown operation "PATCH"/);
    expect(() => tester.review({ operation: Operation.ALL, object: cm() })).toThrow(/not \*/);
  });

  test('objects each operation has and has not', () => {
    expect(() => tester.review({ operation: Operation.CREATE })).toThrow(/a CREATE request has an object/);
    expect(() => tester.review({ operation: Operation.UPDATE, object: cm() })).toThrow(/an UPDATE request has the existing object: give `oldObject`/);
    expect(() => tester.review({ operation: Operation.DELETE, object: cm() })).toThrow(/a DELETE request has no object .* give it as `oldObject`/);
    expect(() => tester.review({ operation: Operation.CREATE, object: cm(), oldObject: cm() })).toThrow(/a CREATE request has no oldObject/);
    expect(tester.review({ operation: Operation.DELETE, oldObject: cm({ x: '1' }) }).allowed).toBe(true);
  });

  test('objects that are not JSON objects', () => {
    expect(() => tester.review({ operation: Operation.CREATE, object: 'kind: ConfigMap' })).toThrow(/object must be a JSON object, got a string/);
    expect(() => tester.review({ operation: Operation.CREATE, object: [cm()] })).toThrow(/object must be a JSON object, got an array/);
    expect(() => tester.review({ operation: Operation.CREATE, object: { ...cm(), data: { when: new Date(0) } } })).toThrow(/object.data.when: a Date is not JSON data/);
    expect(() => tester.review({ operation: Operation.CREATE, object: { ...cm(), data: { n: NaN } } })).toThrow(/object.data.n: NaN is not a JSON number/);
    expect(() => tester.review({ operation: Operation.CREATE, object: { ...cm(), data: { f: () => 1 } } })).toThrow(/object.data.f: a function is not JSON data/);
  });

  test('cyclic and absurdly deep objects name the problem, not a stack overflow', () => {
    const cyclic: any = cm();
    cyclic.data.self = cyclic;
    expect(() => tester.review({ operation: Operation.CREATE, object: cyclic })).toThrow(/object.data.self: a cycle/);
    const nested = (depth: number) => {
      let v: any = 'leaf';
      for (let i = 0; i < depth; i++) v = { v };
      return v;
    };
    // managedFields' fieldsV1 is free-form JSON, the one place of a ConfigMap that nests at will.
    const withFields = (object: any, fieldsV1: unknown) => ({ ...object, metadata: { ...object.metadata, managedFields: [{ fieldsV1 }] } });
    expect(() => tester.review({ operation: Operation.CREATE, object: withFields(cm(), nested(MAX_JSON_DEPTH + 1)) }))
      .toThrow(new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`));
    // Shared (not cyclic) references are fine, and so is deep nesting within the limit.
    const shared = { a: '1' };
    expect(tester.review({ operation: Operation.CREATE, object: withFields(cm(), { one: shared, two: shared }) }).allowed).toBe(true);
    expect(tester.review({ operation: Operation.CREATE, object: withFields(cm({ x: '1' }), nested(MAX_JSON_DEPTH - 5)) }).allowed).toBe(false);
  });

  test('an object over the apiserver\'s request size limit, at the byte', () => {
    const sized = (bytes: number) => {
      const base = cm({ a: '' });
      const object = cm({ a: 'é'.repeat(100) + 'x'.repeat(bytes - Buffer.byteLength(JSON.stringify(base)) - 200) });
      expect(Buffer.byteLength(JSON.stringify(object))).toBe(bytes);
      return object;
    };
    expect(tester.review({ operation: Operation.CREATE, object: sized(MAX_REQUEST_BYTES) }).allowed).toBe(true);
    expect(() => tester.review({ operation: Operation.CREATE, object: sized(MAX_REQUEST_BYTES + 1) }))
      .toThrow('review: object: its JSON is over 3,145,728 bytes, the apiserver\'s request size limit (it answers 413 Request entity too large: limit is 3145728)');
    const old = sized(MAX_REQUEST_BYTES + 1);
    expect(() => tester.review({ operation: Operation.DELETE, oldObject: old })).toThrow(/review: oldObject: its JSON is over/);
  });

  test('a Pod with a million containers is refused by its size, not reviewed', () => {
    const containers = Array.from({ length: 1_000_000 }, (_, i) => ({ name: `c${i}`, image: 'nginx' }));
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'team-a' }, spec: { containers } };
    expect(() => tester.review({ operation: Operation.CREATE, object: pod, resource: { group: '', version: 'v1', resource: 'pods' } }))
      .toThrow(/review: object: its JSON is over 3,145,728 bytes/);
  });

  test('a namespaceObject that is not the request\'s Namespace', () => {
    const create = (namespaceObject: unknown) => () => tester.review({ operation: Operation.CREATE, object: cm(), namespaceObject });
    expect(create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'team-a' } })).toThrow(/namespaceObject must be a v1 Namespace/);
    expect(create({ apiVersion: 'v1', kind: 'Namespace', metadata: {} })).toThrow(/namespaceObject has no metadata.name/);
    expect(create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } })).toThrow(/Namespace 'team-b', but the request is in namespace 'team-a'/);
    expect(create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } })().allowed).toBe(true);
  });

  test('a resource that is not a resource', () => {
    const create = (resource: unknown) => () => tester.review({ operation: Operation.CREATE, object: cm(), resource: resource as any });
    expect(create('configmaps')).toThrow(/resource must be a GroupVersionResource \(an object with group, version, resource\)/);
    expect(create({ group: '', version: 'v1', resource: 'ConfigMap' })).toThrow(/looks like a kind/);
    expect(create({ group: '', version: '', resource: 'configmaps' })).toThrow(/resource.version must be an API version/);
    expect(create({ group: 'Apps', version: 'v1', resource: 'configmaps' })).toThrow(/resource.group must be an API group/);
    expect(create({ group: '', version: 'v1', resource: 'configmaps' })().allowed).toBe(true);
  });

  test('the caller\'s objects are not changed', () => {
    const object = cm();
    tester.review({ operation: Operation.CREATE, object });
    expect(object).toEqual(cm());
  });
});

describe('manifests', () => {
  test('fromManifests rejects entries that are not objects', () => {
    expect(() => PolicyTester.fromManifests([policy, 42])).toThrow(/manifest 1 is a number \(42\), not a Kubernetes object/);
    expect(() => PolicyTester.fromManifests([policy, null])).toThrow(/manifest 1 is null/);
    expect(() => PolicyTester.fromManifests([[policy, binding]])).toThrow(/manifest 0 is an array/);
    expect(() => PolicyTester.fromManifests('kind: X' as any)).toThrow(/manifests must be an array/);
  });

  test('YAML that does not parse is an error; empty documents are skipped', () => {
    expect(() => PolicyTester.fromYaml('kind: [unclosed')).toThrow(/fromYaml: document 0 is not valid YAML/);
    expect(() => PolicyTester.fromManifests(['a: 1\n---\nb: [\n'])).toThrow(/manifest 0: document 1 is not valid YAML/);
    expect(() => PolicyTester.fromYaml('- a\n- b\n')).toThrow(/manifest 0 is an array/);
    const yaml = `---\n${JSON.stringify(policy)}\n---\n---\n${JSON.stringify(binding)}\n`;
    expect(PolicyTester.fromYaml(yaml).review({ operation: Operation.CREATE, object: cm({ x: '1' }) }).allowed).toBe(false);
  });
});

describe('request objects the apiserver would not decode (strict field validation, kubectl\'s default)', () => {
  const deployment = (spec: object) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec });
  const deployments = PolicyTester.fromManifests([
    { ...policy, spec: { ...policy.spec, matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'] }] }, validations: [{ expression: 'true' }] } },
    binding,
  ]);

  test('a misspelled field is an error naming it, with the likely intended one', () => {
    expect(() => deployments.review({ operation: Operation.CREATE, object: deployment({ replicsa: 3 }) }))
      .toThrow('review: object (apps/v1 Deployment) is not what the apiserver of Kubernetes 1.37 decodes with strict field validation (kubectl\'s default): unknown field "spec.replicsa" (did you mean "replicas"?)');
    expect(() => deployments.review({ operation: Operation.CREATE, object: deployment({ template: { spec: { containers: [{ name: 'a', imagee: 'x' }] } } }) }))
      .toThrow('unknown field "spec.template.spec.containers[0].imagee" (did you mean "image"?)');
    expect(() => tester.review({ operation: Operation.CREATE, object: { ...cm(), metadata: { name: 'c', namespace: 'team-a', lables: {} } } }))
      .toThrow('unknown field "metadata.lables" (did you mean "labels"?)');
  });

  test('values of the wrong JSON type, quantities and base64 as the apiserver decodes them', () => {
    expect(() => deployments.review({ operation: Operation.CREATE, object: deployment({ replicas: '3' }) })).toThrow('spec.replicas: must be an integer, not a string');
    expect(() => deployments.review({ operation: Operation.CREATE, object: deployment({ replicas: 2 ** 31 }) })).toThrow('spec.replicas: must be a 32-bit integer');
    expect(() => deployments.review({ operation: Operation.CREATE, object: deployment({ strategy: { rollingUpdate: { maxSurge: 1.5 } } }) }))
      .toThrow('spec.strategy.rollingUpdate.maxSurge: must be a 32-bit integer or a string, not the fraction 1.5');
    const limits = (cpu: unknown) => deployment({ template: { spec: { containers: [{ name: 'a', image: 'x', resources: { limits: { cpu } } }] } } });
    expect(() => deployments.review({ operation: Operation.CREATE, object: limits('1 core') }))
      .toThrow('spec.template.spec.containers[0].resources.limits.cpu: must be a quantity such as 500m, 2 or 1Gi, not a string "1 core"');
    for (const cpu of ['500m', 2, 0.5, '1e3']) expect(deployments.review({ operation: Operation.CREATE, object: limits(cpu) }).allowed).toBe(true);
    const secrets = PolicyTester.fromManifests([]);
    const secret = (data: object) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'shop' }, data });
    expect(() => secrets.review({ operation: Operation.CREATE, object: secret({ token: 'not base64' }) })).toThrow('data.token: must be base64-encoded');
    expect(secrets.review({ operation: Operation.CREATE, object: secret({ token: 'c2VjcmV0', raw: [115, 101] }) }).allowed).toBe(true);
  });

  test('null is "not set", maps and free-form fields take any key, and oldObject is checked too', () => {
    expect(deployments.review({ operation: Operation.CREATE, object: deployment({ replicas: null, selector: { matchLabels: { 'any/key': 'v' } } }) }).allowed).toBe(true);
    expect(() => deployments.review({ operation: Operation.UPDATE, object: deployment({}), oldObject: deployment({ paused: 'no' }) }))
      .toThrow('review: oldObject (apps/v1 Deployment) is not what the apiserver');
  });

  test('the fields of the target version: Pod spec.resources exists from Kubernetes 1.32', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop' }, spec: { containers: [{ name: 'a', image: 'x' }], resources: { limits: { cpu: '1' } } } };
    expect(PolicyTester.fromManifests([], { kubernetesVersion: KubernetesVersion.of('1.32') }).review({ operation: Operation.CREATE, object: pod }).allowed).toBe(true);
    expect(() => PolicyTester.fromManifests([], { kubernetesVersion: KubernetesVersion.of('1.31') }).review({ operation: Operation.CREATE, object: pod }))
      .toThrow('the apiserver of Kubernetes 1.31 decodes with strict field validation (kubectl\'s default): unknown field "spec.resources"');
  });

  test('a custom resource without its CustomResourceDefinition is refused: PolicyTester could not decode and default it as the apiserver does', () => {
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'shop' }, spec: { anything: [1, { at: 'all' }] } };
    expect(() => PolicyTester.fromManifests([]).review({ operation: Operation.CREATE, object: widget, resource: { group: 'example.com', version: 'v1', resource: 'widgets' } }))
      .toThrow('review: example.com/v1 Widget is not a built-in kind of Kubernetes 1.37, and no CustomResourceDefinition among the tester\'s manifests defines it: add the CRD');
  });
});
