import * as fc from 'fast-check';
import { Operation, PolicyTester } from '../../src';
import { BuiltinSchemas } from '../../src/schemas/builtin-schemas';
import { ApplyConfigurationError, resourceRoot, structuredMerge } from '../../src/testing/structured-merge';

const schemas = BuiltinSchemas.of(37);
const DEPLOYMENT = { $ref: 'io.k8s.api.apps.v1.Deployment' };

function deployment(spec: object = {}): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      replicas: 1,
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] }, { name: 'log', image: 'busybox' }] },
      },
      ...spec,
    },
  };
}

const merge = (patch: unknown, live: unknown = deployment()) => structuredMerge(live, patch, DEPLOYMENT, schemas) as any;

describe('apply configurations merge by the schema, as server-side apply merges them', () => {
  test('structs and maps field by field', () => {
    const out = merge({ metadata: { labels: { team: 'a' } }, spec: { replicas: 3 } });
    expect(out.metadata.labels).toEqual({ app: 'web', team: 'a' });
    expect(out.spec.replicas).toBe(3);
    expect(out.spec.template.spec.containers).toHaveLength(2);
  });

  test('keyed lists by their keys: a shared item merged in place, a new one before the next shared item', () => {
    const out = merge({ spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'envoy' }, { name: 'log', image: 'busybox:2' }] } } } });
    expect(out.spec.template.spec.containers.map((c: any) => [c.name, c.image])).toEqual([['app', 'nginx'], ['sidecar', 'envoy'], ['log', 'busybox:2']]);
  });

  test('a new item with no shared item after it goes last', () => {
    const out = merge({ spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'envoy' }] } } } });
    expect(out.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['app', 'log', 'sidecar']);
  });

  test('lists keyed by several keys (ports by containerPort and protocol)', () => {
    const out = merge({ spec: { template: { spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }, { containerPort: 443, protocol: 'TCP' }] }] } } } });
    expect(out.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP', name: 'http' }, { containerPort: 443, protocol: 'TCP' }]);
  });

  test('a keyed item that omits a key field with a default is keyed by the default (a port\'s protocol TCP)', () => {
    const out = merge({ spec: { template: { spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, name: 'http' }] }] } } } });
    expect(out.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP', name: 'http' }]);
  });

  test('set lists by value', () => {
    const live = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', finalizers: ['a', 'b'] }, spec: { containers: [{ name: 'c', image: 'i' }] } };
    const out = structuredMerge(live, { metadata: { finalizers: ['c', 'b'] } }, { $ref: 'io.k8s.api.core.v1.Pod' }, schemas) as any;
    expect(out.metadata.finalizers).toEqual(['a', 'c', 'b']);
  });

  test('atomic lists, maps and structs may not be set', () => {
    expect(() => merge({ spec: { template: { spec: { containers: [{ name: 'app', args: ['--x'] }] } } } }))
      .toThrow(new ApplyConfigurationError('error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.template.spec.containers[0].args'));
    expect(() => merge({ spec: { selector: { matchLabels: { app: 'x' } } } })).toThrow(/may not mutate atomic arrays, maps or structs: \.spec\.selector$/);
  });

  test('what the schema does not declare, or types otherwise, is an error naming it', () => {
    expect(() => merge({ spec: { replicsa: 3 } })).toThrow('error applying patch: failed to convert patch object to typed object: .spec.replicsa: field not declared in schema');
    expect(() => merge({ spec: { replicas: 'three' } })).toThrow('.spec.replicas: expected numeric (int or float), got string');
    expect(() => merge({ metadata: { labels: { a: 1 } } })).toThrow('.metadata.labels.a: expected string, got &value.valueUnstructured{Value:1}');
    expect(() => merge({ spec: { template: { spec: { containers: [{ name: 'app', imag: 'x' }] } } } }))
      .toThrow('.spec.template.spec.containers[name="app"].imag: field not declared in schema');
    expect(() => merge({ spec: { replicsa: 3, paused: 'no' } })).toThrow(/errors:\n {2}\.spec\.replicsa: field not declared in schema\n {2}\.spec\.paused: expected boolean, got "no"/);
  });

  test('keyed items without any key, and duplicate keys', () => {
    // A container's name defaults to "" in the schema: an item without one is keyed by it.
    expect(merge({ spec: { template: { spec: { containers: [{ image: 'x' }] } } } }).spec.template.spec.containers).toHaveLength(3);
    const root = resourceRoot({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            rules: { 'type': 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['id'], 'items': { type: 'object', properties: { id: { type: 'string' }, x: { type: 'integer' } } } },
          },
        },
      },
    });
    expect(() => structuredMerge({ apiVersion: 'example.com/v1', kind: 'R', metadata: { name: 'r' } }, { spec: { rules: [{ x: 1 }] } }, root, schemas))
      .toThrow('.spec.rules: element 0: associative list with keys has an element that omits all key fields ["id"]');
    expect(() => merge({ spec: { template: { spec: { containers: [{ name: 'a' }, { name: 'a' }] } } } }))
      .toThrow('.spec.template.spec.containers: duplicate entries for key [name="a"]');
  });

  test('untyped values (int-or-string, quantities) are replaced', () => {
    const out = merge({ spec: { strategy: { rollingUpdate: { maxSurge: '50%' } }, template: { spec: { containers: [{ name: 'app', resources: { limits: { cpu: '2' } } }] } } } });
    expect(out.spec.strategy.rollingUpdate.maxSurge).toBe('50%');
    expect(out.spec.template.spec.containers[0].resources.limits).toEqual({ cpu: '2' });
  });

  test('a custom resource by its CRD schema, with ObjectMeta at its root', () => {
    const root = resourceRoot({ type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, tags: { 'type': 'array', 'items': { type: 'string' }, 'x-kubernetes-list-type': 'set' } } } } });
    const live = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1, tags: ['a'] } };
    expect(structuredMerge(live, { metadata: { labels: { x: 'y' } }, spec: { tags: ['b'] } }, root, schemas))
      .toEqual({ ...live, metadata: { name: 'w', labels: { x: 'y' } }, spec: { size: 1, tags: ['a', 'b'] } });
    expect(() => structuredMerge(live, { spec: { colour: 'red' } }, root, schemas)).toThrow('.spec.colour: field not declared in schema');
  });
});

describe('PolicyTester merges apply configurations by the schema', () => {
  function tester(expression: string) {
    return PolicyTester.fromManifests([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingAdmissionPolicy',
        metadata: { name: 'sidecar' },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], operations: ['CREATE'] }] },
          failurePolicy: 'Fail',
          reinvocationPolicy: 'Never',
          mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression } }],
        },
      },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'sidecar' }, spec: { policyName: 'sidecar' } },
    ]);
  }
  const request = { operation: Operation.CREATE, resource: { group: 'apps', version: 'v1', resource: 'deployments' }, namespace: 'default', name: 'web', object: { ...deployment(), metadata: { name: 'web', namespace: 'default' } } };

  test('a container is added where structured merge puts it', () => {
    const result = tester("Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: 'sidecar', image: 'envoy'}]}}}}")
      .review(request);
    expect(result.patchedObject.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['app', 'log', 'sidecar']);
  });

  const containersOf = (result: any) => result.patchedObject.spec.template.spec.containers;

  test('a new container between shared ones goes before the next shared one', () => {
    const result = tester('Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: ['
      + "Object.spec.template.spec.containers{name: 'app', image: 'nginx:2'}, Object.spec.template.spec.containers{name: 'proxy', image: 'envoy'}, "
      + "Object.spec.template.spec.containers{name: 'log', image: 'busybox'}]}}}}").review(request);
    expect(containersOf(result).map((c: any) => `${c.name}=${c.image}`)).toEqual(['app=nginx:2', 'proxy=envoy', 'log=busybox']);
  });

  test('env of a container merges by name inside the container', () => {
    const result = tester('Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: ['
      + "Object.spec.template.spec.containers{name: 'log', env: [Object.spec.template.spec.containers.env{name: 'LEVEL', value: 'debug'}]}]}}}}").review(request);
    expect(containersOf(result)[1]).toEqual(expect.objectContaining({ name: 'log', image: 'busybox', env: [{ name: 'LEVEL', value: 'debug' }] }));
  });

  test('a port without its protocol merges into the TCP one', () => {
    const result = tester('Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: ['
      + "Object.spec.template.spec.containers{name: 'app', ports: [Object.spec.template.spec.containers.ports{containerPort: 80, name: 'http'}]}]}}}}").review(request);
    expect(containersOf(result)[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP', name: 'http' }]);
  });

  test('a finalizer is added to the set', () => {
    const result = tester("Object{metadata: Object.metadata{finalizers: ['example.com/cleanup']}}").review(request);
    expect(result.patchedObject.metadata.finalizers).toEqual(['example.com/cleanup']);
  });

  test('a label and an annotation merge into the maps', () => {
    const result = tester("Object{metadata: Object.metadata{labels: {'team': 'a'}, annotations: {'owner': 'b'}}}").review(request);
    expect(result.patchedObject.metadata.labels).toEqual({ team: 'a' });
    expect(result.patchedObject.metadata.annotations).toEqual({ owner: 'b' });
  });

  test('an atomic struct (the selector) denies', () => {
    const result = tester("Object{spec: Object.spec{selector: Object.spec.selector{matchLabels: {'app': 'web'}}}}").review(request);
    expect(result.denials[0].message).toContain('may not mutate atomic arrays, maps or structs: .spec.selector');
  });

  test('a field the schema does not declare denies', () => {
    const result = tester('Object{spec: Object.spec{replicsa: 3}}').review(request);
    expect(result.denials[0].message).toContain('failed to convert patch object to typed object: .spec.replicsa: field not declared in schema');
  });

  test('an atomic list in the configuration denies the request with the apiserver\'s message', () => {
    const result = tester("Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: 'app', args: ['-v']}]}}}}")
      .review(request);
    expect(result.allowed).toBe(false);
    expect(result.denials[0].message).toContain('may not mutate atomic arrays, maps or structs: .spec.template.spec.containers[0].args');
  });
});

describe('structured merge, properties', () => {
  const names = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 6 });

  test('a keyed list: every item of both, the configuration\'s in its order, the others in theirs, the configuration winning on shared ones', () => {
    fc.assert(fc.property(names, names, (live, patch) => {
      const containers = (list: string[], image: string) => list.map((name) => ({ name, image }));
      const out = merge({ spec: { template: { spec: { containers: containers(patch, 'new') } } } }, deployment({ template: { spec: { containers: containers(live, 'old') } } }));
      const result: Array<{ name: string; image: string }> = out.spec.template.spec.containers ?? [];
      expect(result.map((c) => c.name).sort()).toEqual([...new Set([...live, ...patch])].sort());
      expect(result.map((c) => c.name).filter((n) => patch.includes(n))).toEqual(patch);
      expect(result.map((c) => c.name).filter((n) => !patch.includes(n))).toEqual(live.filter((n) => !patch.includes(n)));
      for (const c of result) expect(c.image).toBe(patch.includes(c.name) ? 'new' : 'old');
    }), { numRuns: 300 });
  });

  test('labels merge key by key', () => {
    const labels = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.constantFrom('x', 'y'));
    fc.assert(fc.property(labels, labels, (live, patch) => {
      const out = merge({ metadata: { labels: patch } }, { ...deployment(), metadata: { name: 'web', labels: live } });
      expect(out.metadata.labels).toEqual({ ...live, ...patch });
    }), { numRuns: 200 });
  });
});
