import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import { widgetDefinition } from './fixtures';
import {
  AdmissionResource, AdmissionWarnings, CustomResourceDefinitions, ManifestValidator, Operation, PolicyTester, ValidatingPolicy,
} from '../../src';

const WIDGET_CRD = widgetDefinition({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: { type: 'integer' },
        color: { type: 'string' },
        ratio: { type: 'number' },
        extra: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
        port: { 'x-kubernetes-int-or-string': true },
        template: { 'type': 'object', 'x-kubernetes-embedded-resource': true, 'properties': { spec: { type: 'object', properties: { image: { type: 'string' } } } } },
      },
    },
  },
});

const WIDGETS = AdmissionResource.custom({ apiGroup: 'example.com', apiVersion: 'v1', resource: 'widgets' });

function policy(expression: string, paramKind?: { apiVersion: string; kind: string }): unknown {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'widgets' },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }] },
      validations: [{ expression }],
      ...(paramKind ? { paramKind } : {}),
    },
  };
}

function messages(manifests: unknown[]): string[] {
  return ManifestValidator.validateAll(manifests).map((v) => v.message);
}

describe('custom resources are typed from their CRDs', () => {
  test('validateAll uses the CRDs among its manifests', () => {
    expect(messages([WIDGET_CRD, policy('object.spec.sise <= 10')])).toEqual([
      expect.stringContaining("type checking against example.com/v1 Widget: ERROR: <input>:1:12: undefined field 'sise' (did you mean 'size'?)"),
    ]);
    expect(messages([policy('object.spec.sise <= 10')])).toEqual([]);
  });

  test('validate takes them as an option', () => {
    const violations = ManifestValidator.validate(policy("object.spec.colour == 'red'"), { customResourceDefinitions: [WIDGET_CRD] });
    expect(violations.map((v) => v.message)).toEqual([expect.stringContaining("undefined field 'colour' (did you mean 'color'?)")]);
    expect(() => ManifestValidator.validate(policy('true'), { customResourceDefinitions: WIDGET_CRD as any })).toThrow(/must be a list of CustomResourceDefinition manifests/);
  });

  test.each([
    'object.spec.size <= 10',
    // The apiserver serves the full ObjectMeta whatever the schema says.
    "object.metadata.labels.team == 'a' && object.metadata.name.startsWith('w-')",
    // A number decodes as an int when it is integral.
    'object.spec.ratio == 1 || object.spec.ratio < 0.5',
    'object.spec.extra.anything == 1',
    "object.spec.port == 80 || object.spec.port == 'http'",
    "object.spec.template.apiVersion == 'v1' && object.spec.template.metadata.name != '' && object.spec.template.spec.image != ''",
  ])('no warning for a correct expression: %s', (expression) => {
    expect(messages([WIDGET_CRD, policy(expression)])).toEqual([]);
  });

  test('embedded resources are typed inside', () => {
    expect(messages([WIDGET_CRD, policy("object.spec.template.spec.imag != ''")])).toEqual([expect.stringContaining("undefined field 'imag' (did you mean 'image'?)")]);
  });

  test('a custom paramKind types params', () => {
    const paramKind = { apiVersion: 'example.com/v1', kind: 'Widget' };
    expect(messages([WIDGET_CRD, policy('object.spec.size <= params.spec.sizee', paramKind)])).toEqual([expect.stringContaining("undefined field 'sizee'")]);
  });
});

describe('CRDs of a cdk8s app', () => {
  function widgetPolicy(chart: Chart, expression: string): void {
    new ValidatingPolicy(chart, 'widgets', { name: 'widgets', resourceRules: [WIDGETS.rule(Operation.CREATE)], validations: [{ expression }] });
  }

  test('a CRD object of the app is used', () => {
    const chart = Testing.chart();
    new ApiObject(chart, 'crd', WIDGET_CRD);
    widgetPolicy(chart, 'object.spec.sise <= 10');
    expect(AdmissionWarnings.of(chart)).toEqual([expect.stringContaining("undefined field 'sise' (did you mean 'size'?)")]);
  });

  test('CustomResourceDefinitions.add, for CRDs defined elsewhere', () => {
    const chart = Testing.chart();
    widgetPolicy(chart, 'object.spec.sise <= 10');
    expect(AdmissionWarnings.of(chart)).toEqual([]);
    CustomResourceDefinitions.add(chart, WIDGET_CRD);
    expect(AdmissionWarnings.of(chart)).toEqual([expect.stringContaining("undefined field 'sise'")]);
    expect(Testing.synth(chart).map((m: any) => m.kind)).toEqual(['ValidatingAdmissionPolicy']);
    expect(() => CustomResourceDefinitions.add(chart, { apiVersion: 'v1', kind: 'ConfigMap' })).toThrow(/argument 0 is not an apiextensions.k8s.io\/v1 CustomResourceDefinition/);
  });

  test('CustomResourceDefinitions.addFromFile reads the CRDs of a YAML file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crds-'));
    const file = path.join(dir, 'crds.yaml');
    fs.writeFileSync(file, `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n---\n${JSON.stringify(WIDGET_CRD)}\n`);
    const chart = Testing.chart();
    CustomResourceDefinitions.addFromFile(chart, file);
    widgetPolicy(chart, "object.spec.colr == 'red'");
    expect(AdmissionWarnings.of(chart)).toEqual([expect.stringContaining("undefined field 'colr' (did you mean 'color'?)")]);
    const empty = path.join(dir, 'none.yaml');
    fs.writeFileSync(empty, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n');
    expect(() => CustomResourceDefinitions.addFromFile(chart, empty)).toThrow(/holds no CustomResourceDefinition with a schema/);
  });
});

describe('PolicyTester decodes custom resources with the CRDs among its manifests', () => {
  const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'widgets' }, spec: { policyName: 'widgets', validationActions: ['Deny'] } };
  const tester = PolicyTester.fromManifests([WIDGET_CRD, policy('object.spec.size <= 10'), binding]);
  const review = (spec: unknown) => tester.review({
    operation: Operation.CREATE,
    resource: { group: 'example.com', version: 'v1', resource: 'widgets' },
    namespace: 'default',
    name: 'w',
    object: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec },
  });

  test('a fixture the schema allows is reviewed', () => {
    expect(review({ size: 20, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { image: 'x' } } }).allowed).toBe(false);
    expect(review({ size: 2, extra: { any: ['thing'] }, port: 'http' }).allowed).toBe(true);
  });

  test('an object where the schema has no properties is pruned: its keys are unknown fields, as the apiserver reports them', () => {
    expect(() => review({ size: { not: 'an integer' } })).toThrow(/unknown field "spec.size.not"/);
  });

  test('a misspelled field or a wrong type is an error naming it', () => {
    expect(() => review({ sise: 20, color: 3 })).toThrow(
      /object \(example.com\/v1 Widget\) is not what the apiserver takes for this CustomResourceDefinition's schema .*unknown field "spec.sise" \(did you mean "size"\?\); spec.color: must be a string, not the number 3/,
    );
  });
});
