import { Chart, Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { corpusPolicies } from './typed-corpus';
import {
  AdmissionResource, AdmissionWarnings, KubernetesVersion, ManifestValidator, MutatingPolicy, Mutation, Operation, ValidatingPolicy,
  ViolationSeverity,
} from '../../src';
import { BuiltinSchemas } from '../../src/schemas/builtin-schemas';
import { builtinObjectTypes } from '../../src/schemas/cel-object-types';

interface PolicyOptions {
  readonly rules?: unknown[];
  readonly variables?: Array<{ name: string; expression: string }>;
  readonly paramKind?: { apiVersion: string; kind: string };
  readonly version?: KubernetesVersion;
}

const DEPLOYMENTS = { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], operations: ['CREATE', 'UPDATE'] };
const PODS = { apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE', 'UPDATE'] };

function policy(validations: Array<{ expression: string; messageExpression?: string }>, options: PolicyOptions = {}): unknown {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'typed' },
    spec: {
      matchConstraints: { resourceRules: options.rules ?? [DEPLOYMENTS] },
      validations,
      ...(options.variables ? { variables: options.variables } : {}),
      ...(options.paramKind ? { paramKind: options.paramKind } : {}),
    },
  };
}

/** The type warnings, as `path: message`. */
function typeWarnings(manifest: unknown, version?: KubernetesVersion): string[] {
  return ManifestValidator.validate(manifest, version ? { kubernetesVersion: version } : {})
    .filter((v) => v.severity === ViolationSeverity.WARNING && v.message.includes('type checking against'))
    .map((v) => `${v.path}: ${v.message}`);
}

function warningsFor(expression: string, options: PolicyOptions = {}): string[] {
  return typeWarnings(policy([{ expression }], options), options.version);
}

describe('typed CEL: expressions are type-checked against the schemas of the resources the rules match', () => {
  test('a misspelled field is a warning at the expression, naming the resource, the field and the likely intended one', () => {
    expect(warningsFor('object.spec.replicsa <= 5')).toEqual([
      'spec.validations[0].expression: Invalid value: "object.spec.replicsa <= 5": type checking against apps/v1 Deployment: '
      + "ERROR: <input>:1:12: undefined field 'replicsa' (did you mean 'replicas'?)",
    ]);
  });

  test('it is a warning, not an error: the apiserver accepts the policy', () => {
    const violations = ManifestValidator.validate(policy([{ expression: 'object.spec.replicsa <= 5' }]));
    expect(violations.map((v) => v.severity)).toEqual([ViolationSeverity.WARNING]);
  });

  test.each([
    'object.spec.replicas <= 5',
    "object.metadata.namespace != 'kube-system'",
    "has(object.metadata.labels) && 'app' in object.metadata.labels",
    "object.spec.template.spec.containers.all(c, c.image.startsWith('registry.example.com/'))",
    // Quantities are strings or numbers at run time (the apiserver's own type checker drops them).
    "object.spec.template.spec.containers.all(c, has(c.resources.limits) && 'memory' in c.resources.limits)",
    "object.spec.template.spec.containers.all(c, quantity(c.resources.requests.cpu).isLessThan(quantity('2')))",
    // Times are RFC 3339 strings at run time.
    "object.metadata.creationTimestamp.startsWith('2026')",
    // Int-or-string is dyn.
    "!has(object.spec.strategy.rollingUpdate) || object.spec.strategy.rollingUpdate.maxSurge == 1 || object.spec.strategy.rollingUpdate.maxSurge == '25%'",
    'object.?spec.?replicas.orValue(1) > 0',
    'object == oldObject || object.spec.replicas >= oldObject.spec.replicas',
    'object.spec.selector.matchLabels == object.spec.template.metadata.labels',
    "object.spec.template.spec.containers.map(c, c.name).exists(n, n == 'app')",
    // Indexing the object as a map works at run time; the library leaves it unchecked.
    "object.metadata.labels['app'] == 'web'",
  ])('no warning for a correct expression: %s', (expression) => {
    expect(warningsFor(expression)).toEqual([]);
  });

  test('has() and optional selections of a field the type lacks are warned, at cel-go\'s positions', () => {
    expect(warningsFor('has(object.spec.replicsa)')).toEqual([expect.stringContaining("ERROR: <input>:1:4: undefined field 'replicsa' (did you mean 'replicas'?)")]);
    expect(warningsFor('object.?spec.?replicsa.orValue(1) > 0')).toEqual([expect.stringContaining("ERROR: <input>:1:13: undefined field 'replicsa'")]);
  });

  test('fields of list items through comprehension variables', () => {
    expect(warningsFor("object.spec.template.spec.containers.all(c, c.imag.startsWith('r/'))"))
      .toEqual([expect.stringContaining("undefined field 'imag' (did you mean 'image'?)")]);
    expect(warningsFor('object.spec.template.spec.containers.all(c, c.securityContext.runAsNonroot == true)'))
      .toEqual([expect.stringContaining("(did you mean 'runAsNonRoot'?)")]);
  });

  test('type errors against the field types', () => {
    expect(warningsFor("object.spec.replicas == '3'")).toEqual([expect.stringContaining("found no matching overload for '_==_' applied to '(int, string)'")]);
    expect(warningsFor('object.spec.paused == 1')).toEqual([expect.stringContaining("applied to '(bool, int)'")]);
  });

  test('a field in one matched kind and not another is warned for that kind only', () => {
    const statefulSets = { ...DEPLOYMENTS, resources: ['deployments', 'statefulsets'] };
    expect(warningsFor("object.spec.serviceName != ''", { rules: [statefulSets] }))
      .toEqual([expect.stringContaining("type checking against apps/v1 Deployment: ERROR: <input>:1:12: undefined field 'serviceName'")]);
    expect(warningsFor('object.spec.replicsa > 0', { rules: [statefulSets] }))
      .toEqual([expect.stringContaining('type checking against apps/v1 Deployment, apps/v1 StatefulSet: ')]);
  });

  test('oldObject is typed as object', () => {
    expect(warningsFor('oldObject.spec.replicsa <= object.spec.replicas')).toEqual([expect.stringContaining("undefined field 'replicsa'")]);
  });

  test('messageExpression, variables and the expressions using them are typed', () => {
    const manifest = policy(
      [{ expression: 'variables.containers.all(c, has(c.imag))', messageExpression: "'replicas: ' + string(object.spec.replicsa)" }],
      { variables: [{ name: 'containers', expression: 'object.spec.template.spec.containers' }, { name: 'bad', expression: 'object.spec.templat' }] },
    );
    expect(typeWarnings(manifest)).toEqual([
      expect.stringMatching(/^spec\.variables\[1\]\.expression: .*undefined field 'templat' \(did you mean 'template'\?\)$/),
      expect.stringMatching(/^spec\.validations\[0\]\.expression: .*undefined field 'imag' \(did you mean 'image'\?\)$/),
      expect.stringMatching(/^spec\.validations\[0\]\.messageExpression: .*undefined field 'replicsa'/),
    ]);
  });

  test('has() and .? of a field a typed variable lacks are warned, as cel-go checks them', () => {
    const variables = [{ name: 'podSpec', expression: 'object.spec.template.spec' }];
    expect(warningsFor('has(variables.podSpec.volmues)', { variables })).toEqual([expect.stringContaining("1:4: undefined field 'volmues' (did you mean 'volumes'?)")]);
    expect(warningsFor('!variables.podSpec.?hostNetwrok.orValue(false)', { variables })).toEqual([expect.stringContaining("1:19: undefined field 'hostNetwrok' (did you mean 'hostNetwork'?)")]);
    expect(warningsFor('has(variables.podSpec.volumes)', { variables })).toEqual([]);
  });

  test('params are typed from a built-in paramKind; other paramKinds stay dynamic', () => {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap' };
    expect(warningsFor('object.spec.replicas <= int(params.data.max)', { paramKind: configMap })).toEqual([]);
    expect(warningsFor('object.spec.replicas <= params.data.max', { paramKind: configMap }))
      .toEqual([expect.stringContaining("type checking against apps/v1 Deployment (params v1 ConfigMap): ERROR: <input>:1:22: found no matching overload for '_<=_' applied to '(int, string)'")]);
    expect(warningsFor('params.spec.max > 0', { paramKind: configMap, rules: [{ ...DEPLOYMENTS, resources: ['*'] }] }))
      .toEqual([expect.stringContaining("type checking against params v1 ConfigMap: ERROR: <input>:1:7: undefined field 'spec'")]);
    expect(warningsFor('params.spec.max > object.spec.replicas', { paramKind: { apiVersion: 'example.com/v1', kind: 'Limit' } })).toEqual([]);
  });

  test.each([
    ['a wildcard resource', { ...DEPLOYMENTS, resources: ['*'] }],
    ['a wildcard group', { ...DEPLOYMENTS, apiGroups: ['*'] }],
    ['a subresource', { ...DEPLOYMENTS, resources: ['deployments/scale'] }],
    ['a resource without a built-in schema', { apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }],
  ])('%s stays dynamic: no type warnings', (_, rule) => {
    expect(warningsFor('object.spec.replicsa <= 5', { rules: [rule] })).toEqual([]);
  });

  test('a wildcard version is typed against every version of the group that serves the resource', () => {
    expect(warningsFor('object.spec.replicsa <= 5', { rules: [{ ...DEPLOYMENTS, apiVersions: ['*'] }] }))
      .toEqual([expect.stringContaining("type checking against apps/v1 Deployment: ERROR: <input>:1:12: undefined field 'replicsa' (did you mean 'replicas'?)")]);
    // autoscaling serves horizontalpodautoscalers in v1 and v2: a field of v2 only is warned against v1, unless the version is tested.
    const hpas = { apiGroups: ['autoscaling'], apiVersions: ['*'], resources: ['horizontalpodautoscalers'], operations: ['CREATE'] };
    expect(warningsFor('object.spec.metrics.size() < 5', { rules: [hpas] }))
      .toEqual([expect.stringContaining("type checking against autoscaling/v1 HorizontalPodAutoscaler: ERROR: <input>:1:12: undefined field 'metrics'")]);
    expect(warningsFor("object.apiVersion != 'autoscaling/v2' || object.spec.metrics.size() < 5", { rules: [hpas] })).toEqual([]);
  });

  test('the schemas are those of the target version', () => {
    // Pod-level resources (spec.resources) are in PodSpec from Kubernetes 1.32.
    const expression = '!has(object.spec.resources) || size(object.spec.resources.limits) > 0';
    expect(warningsFor(expression, { rules: [PODS], version: KubernetesVersion.V1_31 })).toEqual([expect.stringContaining("undefined field 'resources'")]);
    expect(warningsFor(expression, { rules: [PODS], version: KubernetesVersion.V1_32 })).toEqual([]);
  });

  test('mutations are typed too', () => {
    const manifest = {
      apiVersion: 'admissionregistration.k8s.io/v1beta1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: 'typed' },
      spec: {
        matchConstraints: { resourceRules: [PODS] },
        reinvocationPolicy: 'Never',
        mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/x", value: object.metadata.nam}]' } }],
      },
    };
    expect(typeWarnings(manifest, KubernetesVersion.V1_34)).toEqual([expect.stringContaining("undefined field 'nam' (did you mean 'name'?)")]);
  });
});

describe('apply configurations: Object{...} literals against the schema', () => {
  function applyWarnings(expression: string): string[] {
    const manifest = {
      apiVersion: 'admissionregistration.k8s.io/v1beta1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: 'typed' },
      spec: {
        matchConstraints: { resourceRules: [DEPLOYMENTS] },
        reinvocationPolicy: 'Never',
        mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression } }],
      },
    };
    return typeWarnings(manifest, KubernetesVersion.V1_34);
  }

  test.each([
    "Object{metadata: Object.metadata{labels: {'team': 'a'}}}",
    'Object{spec: Object.spec{replicas: 3}}',
    "Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: 'app', image: 'nginx'}]}}}}",
    "Object{spec: Object.spec{strategy: Object.spec.strategy{rollingUpdate: Object.spec.strategy.rollingUpdate{maxSurge: '25%'}}}}",
    'Object{spec: Object.spec{replicas: object.spec.replicas}}',
  ])('a literal that fits the schema: %s', (expression) => {
    expect(applyWarnings(expression)).toEqual([]);
  });

  test('a field the schema does not have', () => {
    expect(applyWarnings('Object{spec: Object.spec{replicsa: 3}}')).toEqual([
      expect.stringContaining("ERROR: <input>:1:26: Object.spec{replicsa: ...}: 'replicsa' is not a field of Object.spec in the schema (did you mean 'replicas'?)"),
    ]);
  });

  test('a literal type whose path is not in the schema', () => {
    expect(applyWarnings('Object{spec: Object.spec{template: [Object.spec.templat{}][0]}}'))
      .toEqual([expect.stringContaining("Object.spec.templat: 'templat' is not a field of Object.spec in the schema (did you mean 'template'?)")]);
  });

  test('list items are typed by the list\'s path', () => {
    expect(applyWarnings("Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: 'app', imag: 'x'}]}}}}"))
      .toEqual([expect.stringContaining("'imag' is not a field of Object.spec.template.spec.containers in the schema (did you mean 'image'?)")]);
  });

  test('a nested literal must be named by its field path, as the apiserver requires', () => {
    expect(applyWarnings('Object{spec: Object.spec.template{replicas: 2}}'))
      .toEqual([expect.stringContaining('type name Object.spec.template where Object{spec: ...} takes Object.spec')]);
    expect(applyWarnings("Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.containers{name: 'a'}]}}}}"))
      .toEqual([expect.stringContaining('type name Object.spec.containers where Object.spec.template.spec{containers: ...} takes Object.spec.template.spec.containers')]);
  });

  test('map and list values of another type', () => {
    expect(applyWarnings("Object{metadata: Object.metadata{labels: {'a': 1}}}"))
      .toEqual([expect.stringContaining("Object.metadata{labels: ...}: the schema's type is map<string, string>, the value's is map<string, int>")]);
    expect(applyWarnings('Object{metadata: Object.metadata{finalizers: [1, 2]}}')).toEqual([expect.stringContaining("the value's is list<int>")]);
    expect(applyWarnings('Object{spec: Object.spec{replicas: 2.0}}')).toEqual([]);
  });

  test('a value of another type than the field\'s', () => {
    expect(applyWarnings("Object{spec: Object.spec{replicas: 'three'}}")).toEqual([expect.stringContaining('Object.spec{replicas: ...}: the schema\'s type is int, the value\'s is string')]);
    expect(applyWarnings("Object{spec: Object.spec{template: 'x'}}")).toEqual([expect.stringContaining("the schema's type is an object, the value's is string")]);
  });
});

describe('typed CEL in constructs', () => {
  function chartWithTypo(chart: Chart): void {
    new ValidatingPolicy(chart, 'replicas', {
      name: 'replica-limit',
      resourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE)],
      validations: [{ expression: 'object.spec.replicsa <= 5' }],
    });
  }

  test('a warning of the construct, listed by AdmissionWarnings.of', () => {
    const chart = Testing.chart();
    chartWithTypo(chart);
    expect(AdmissionWarnings.of(chart)).toEqual([expect.stringMatching(/^\[test\/replicas\] spec\.validations\[0\]\.expression: .*'replicsa' \(did you mean 'replicas'\?\)$/)]);
  });

  test('an error at synth with warningsAsErrors', () => {
    const app = Testing.app();
    app.node.setContext(AdmissionWarnings.AS_ERRORS_CONTEXT, true);
    app.node.setContext(AdmissionWarnings.PRINT_CONTEXT, false);
    chartWithTypo(new Chart(app, 'c'));
    expect(() => app.synth()).toThrow(/undefined field 'replicsa'/);
  });

  test('MutatingPolicy apply configurations', () => {
    const chart = Testing.chart();
    new MutatingPolicy(chart, 'labels', {
      name: 'labels',
      resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)],
      mutations: [Mutation.applyConfiguration('Object{metadata: Object.metadata{labels: {"owner": object.metadata.nmae}}}')],
      kubernetesVersion: KubernetesVersion.V1_34,
    });
    expect(AdmissionWarnings.of(chart).filter((w) => w.includes('type checking'))).toEqual([
      expect.stringMatching(/^\[test\/labels\] spec\.mutations\[0\]\.applyConfiguration\.expression: .*type checking against v1 Pod: .*'nmae' \(did you mean 'name'\?\)$/),
    ]);
  });
});

describe('typed CEL, properties', () => {
  const schemas = BuiltinSchemas.of(KubernetesVersion.LATEST.minor);
  const types = builtinObjectTypes(schemas, 'io.k8s.api.apps.v1.Deployment');

  /** Field paths of a Deployment through messages only (no lists or maps), with the leaf's type. */
  function messagePaths(type: string, prefix: string, depth: number): Array<[string, string]> {
    const fields = types.types.get(type);
    if (!fields || depth === 0) return [];
    return Object.entries(fields).flatMap(([name, t]): Array<[string, string]> => [[`${prefix}.${name}`, t], ...messagePaths(t, `${prefix}.${name}`, depth - 1)]);
  }
  const paths = messagePaths(types.root, 'object', 4).filter(([p]) => /^[\w.]+$/.test(p));

  test('every field of the schema selects without a warning', () => {
    fc.assert(fc.property(fc.constantFrom(...paths), ([path]) => {
      expect(warningsFor(`has(${path}) || true`)).toEqual([]);
    }), { numRuns: 150 });
  });

  test('a field the schema does not have is warned, naming it', () => {
    fc.assert(fc.property(fc.constantFrom(...paths), fc.stringMatching(/^[a-z]{3,8}$/), ([path], extra) => {
      const parent = path.slice(0, path.lastIndexOf('.'));
      const parentType = parent === 'object' ? types.root : paths.find(([p]) => p === parent)?.[1];
      const field = `${path.slice(path.lastIndexOf('.') + 1)}${extra}`;
      fc.pre(parentType !== undefined && types.types.has(parentType) && !(field in types.types.get(parentType)!));
      expect(warningsFor(`has(${parent}.${field})`)).toEqual([expect.stringContaining(`undefined field '${field}'`)]);
    }), { numRuns: 150 });
  });
});

describe('typed CEL, corpus of realistic policies', () => {
  const corpus = corpusPolicies();

  test('has at least 200 policies', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
  });

  test('no policy of the corpus gets a type warning, nor any other problem', () => {
    const problems = corpus.flatMap(({ name, manifest }) => ManifestValidator.validate(manifest).map((v) => `${name}: ${v.path}: ${v.message}`));
    expect(problems).toEqual([]);
  });

  test('the corpus is typed: a misspelled field in each of its policies is warned', () => {
    const unwarned = corpus.filter(({ manifest }) => {
      const m = manifest as { spec: { matchConstraints: { resourceRules: Array<{ apiGroups: string[] }> } } };
      if (m.spec.matchConstraints.resourceRules[0].apiGroups[0].endsWith('example.com')) return false; // custom resources stay dynamic
      const misspelled = JSON.parse(JSON.stringify(manifest).replace(/object\.metadata\.name\b/, 'object.metadata.nmae'));
      return typeWarnings(misspelled).length === 0;
    });
    expect(unwarned.map((p) => p.name)).toEqual([]);
  });
});
