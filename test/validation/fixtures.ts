// Valid manifests of each kind, and helpers to assert on violations, shared by the validator tests.
import { ManifestValidator, ValidationOptions, Violation, ViolationSeverity } from '../../src';

export const GROUP = 'admissionregistration.k8s.io';

export function validatingPolicy(spec: object = {}, metadata: object = {}): any {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'demo-policy', ...metadata },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'], scope: '*' }],
      },
      validations: [{ expression: 'object.spec.replicas <= 5', message: 'at most 5 replicas' }],
      ...spec,
    },
  };
}

export function validatingBinding(spec: object = {}, metadata: object = {}): any {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'demo-binding', ...metadata },
    spec: { policyName: 'demo-policy', validationActions: ['Deny'], ...spec },
  };
}

export function mutatingPolicy(spec: object = {}, metadata: object = {}): any {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'MutatingAdmissionPolicy',
    metadata: { name: 'demo-mutation', ...metadata },
    spec: {
      failurePolicy: 'Fail',
      reinvocationPolicy: 'Never',
      matchConstraints: {
        resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
      },
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"a": "b"}}}' } }],
      ...spec,
    },
  };
}

export function mutatingBinding(spec: object = {}, metadata: object = {}): any {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'MutatingAdmissionPolicyBinding',
    metadata: { name: 'demo-mutation-binding', ...metadata },
    spec: { policyName: 'demo-mutation', ...spec },
  };
}

export function webhook(fields: object = {}): any {
  return {
    name: 'check.example.com',
    clientConfig: { service: { name: 'hook', namespace: 'hooks', path: '/validate', port: 443 } },
    rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: 'Namespaced' }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 5,
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    ...fields,
  };
}

export function webhookConfiguration(kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration', webhooks: object[] = [webhook()]): any {
  return { apiVersion: `${GROUP}/v1`, kind, metadata: { name: 'demo-webhooks' }, webhooks };
}

/** The CustomResourceDefinition of example.com/v1 Widget (widgets), with the given schema. */
export function widgetDefinition(openAPIV3Schema: object = { type: 'object' }): any {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }],
    },
  };
}

export function errors(manifest: unknown, options?: ValidationOptions): Violation[] {
  return ManifestValidator.validate(manifest, options).filter((v) => v.severity === ViolationSeverity.ERROR);
}

export function warnings(manifest: unknown, options?: ValidationOptions): Violation[] {
  return ManifestValidator.validate(manifest, options).filter((v) => v.severity === ViolationSeverity.WARNING);
}

/** Asserts that exactly the listed errors (path and message substring) are reported, in any order. */
export function expectErrors(manifest: unknown, expected: Array<[string, string]>, options?: ValidationOptions): void {
  const actual = errors(manifest, options).map((v) => [v.path, v.message]);
  expect(actual).toHaveLength(expected.length);
  for (const [path, fragment] of expected) {
    expect(actual).toContainEqual([path, expect.stringContaining(fragment)]);
  }
}

export function expectValid(manifest: unknown, options?: ValidationOptions): void {
  expect(errors(manifest, options)).toEqual([]);
}
