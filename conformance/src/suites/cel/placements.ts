/**
 * The kinds of CEL expression field the CEL suite places expressions in: validation,
 * messageExpression, matchCondition, variable, auditAnnotation, applyConfiguration, jsonPatch and a
 * webhook's matchCondition, each in an otherwise valid object.
 */
const GROUP = 'admissionregistration.k8s.io';

/** A kind of expression field: how to place an expression in an object, and the field's path. */
export interface Placement {
  readonly field: string;
  readonly path: string;
  /** The result types the field takes (cel-go spellings); undefined: any. */
  readonly accepts?: readonly string[];
  build(expression: string): any;
}

function validatingPolicy(spec: object): any {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'cel-case' },
    spec: {
      failurePolicy: 'Fail',
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['pods'] }] },
      variables: [{ name: 'v', expression: "'x'" }],
      validations: [{ expression: 'true' }],
      ...spec,
    },
  };
}

function mutatingPolicy(mutation: object): any {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'MutatingAdmissionPolicy',
    metadata: { name: 'cel-case' },
    spec: {
      failurePolicy: 'Fail',
      reinvocationPolicy: 'Never',
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
      variables: [{ name: 'v', expression: "'x'" }],
      mutations: [mutation],
    },
  };
}

function webhookConfiguration(expression: string): any {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'cel-case' },
    webhooks: [{
      name: 'cel.example.com',
      clientConfig: { service: { namespace: 'hooks', name: 'hook' } },
      rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      matchConditions: [{ name: 'case', expression }],
    }],
  };
}

export const PLACEMENTS: readonly Placement[] = [
  { field: 'validation', path: 'spec.validations[0].expression', accepts: ['bool'], build: (e) => validatingPolicy({ validations: [{ expression: e }] }) },
  { field: 'messageExpression', path: 'spec.validations[0].messageExpression', accepts: ['string'], build: (e) => validatingPolicy({ validations: [{ expression: 'true', messageExpression: e }] }) },
  { field: 'matchCondition', path: 'spec.matchConditions[0].expression', accepts: ['bool'], build: (e) => validatingPolicy({ matchConditions: [{ name: 'case', expression: e }] }) },
  { field: 'variable', path: 'spec.variables[0].expression', build: (e) => validatingPolicy({ variables: [{ name: 'v', expression: e }] }) },
  { field: 'auditAnnotation', path: 'spec.auditAnnotations[0].valueExpression', accepts: ['string', 'null_type'], build: (e) => validatingPolicy({ auditAnnotations: [{ key: 'case', valueExpression: e }] }) },
  {
    field: 'applyConfiguration',
    path: 'spec.mutations[0].applyConfiguration.expression',
    build: (e) => mutatingPolicy({ patchType: 'ApplyConfiguration', applyConfiguration: { expression: e } }),
  },
  { field: 'jsonPatch', path: 'spec.mutations[0].jsonPatch.expression', build: (e) => mutatingPolicy({ patchType: 'JSONPatch', jsonPatch: { expression: e } }) },
  { field: 'webhookMatchCondition', path: 'webhooks[0].matchConditions[0].expression', accepts: ['bool'], build: webhookConfiguration },
];
