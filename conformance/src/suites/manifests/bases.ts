/**
 * Valid objects of the six admissionregistration kinds, each using as many of its fields as one
 * object can, in every apiVersion the oracle serves. The generated manifest cases mutate them.
 */
const GROUP = 'admissionregistration.k8s.io';

export interface Base {
  readonly name: string;
  readonly manifest: any;
}

function rules(): any {
  return {
    matchPolicy: 'Equivalent',
    namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }] },
    objectSelector: { matchLabels: { 'app.kubernetes.io/managed-by': 'team' } },
    resourceRules: [
      { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments', 'deployments/scale'], scope: 'Namespaced' },
      { apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['configmaps'], resourceNames: ['settings'], scope: '*' },
    ],
    excludeResourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['DELETE'], resources: ['deployments'], scope: 'Namespaced' }],
  };
}

function validatingPolicy(version: string): any {
  return {
    apiVersion: `${GROUP}/${version}`,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'replica-limit', labels: { team: 'platform' }, annotations: { 'example.com/owner': 'platform' } },
    spec: {
      failurePolicy: 'Fail',
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: rules(),
      matchConditions: [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" }],
      variables: [
        { name: 'limit', expression: "int(params.data['max'])" },
        { name: 'replicas', expression: 'has(object.spec.replicas) ? object.spec.replicas : 1' },
      ],
      validations: [
        { expression: 'variables.replicas <= variables.limit', message: 'too many replicas', reason: 'Invalid' },
        { expression: "object.metadata.name.startsWith('team-')", messageExpression: "'name ' + object.metadata.name + ' must start with team-'", reason: 'Forbidden' },
      ],
      auditAnnotations: [{ key: 'replicas', valueExpression: "'replicas: ' + string(variables.replicas)" }],
    },
  };
}

function validatingBinding(version: string): any {
  return {
    apiVersion: `${GROUP}/${version}`,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'replica-limit-binding' },
    spec: {
      policyName: 'replica-limit',
      validationActions: ['Deny', 'Audit'],
      paramRef: { name: 'limits', namespace: 'params', parameterNotFoundAction: 'Deny' },
      matchResources: rules(),
    },
  };
}

function validatingBindingBySelector(version: string): any {
  const b = validatingBinding(version);
  b.metadata.name = 'selector-binding';
  b.spec.validationActions = ['Warn'];
  b.spec.paramRef = { selector: { matchLabels: { tier: 'gold' } }, parameterNotFoundAction: 'Allow' };
  return b;
}

function mutatingPolicy(version: string): any {
  return {
    apiVersion: `${GROUP}/${version}`,
    kind: 'MutatingAdmissionPolicy',
    metadata: { name: 'pod-defaults' },
    spec: {
      failurePolicy: 'Fail',
      reinvocationPolicy: 'IfNeeded',
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: {
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: 'Namespaced' }],
      },
      matchConditions: [{ name: 'has-labels', expression: 'has(object.metadata.labels)' }],
      variables: [{ name: 'team', expression: "'team' in object.metadata.labels ? object.metadata.labels['team'] : 'none'" }],
      mutations: [
        { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{annotations: {"example.com/team": variables.team}}}' } },
        { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/defaulted", value: "true"}]' } },
      ],
    },
  };
}

function mutatingBinding(version: string): any {
  return {
    apiVersion: `${GROUP}/${version}`,
    kind: 'MutatingAdmissionPolicyBinding',
    metadata: { name: 'pod-defaults-binding' },
    spec: {
      policyName: 'pod-defaults',
      paramRef: { name: 'defaults', namespace: 'params', parameterNotFoundAction: 'Allow' },
      matchResources: {
        namespaceSelector: { matchLabels: { 'defaults.example.com/enabled': 'true' } },
        objectSelector: {},
        resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: 'Namespaced' }],
        matchPolicy: 'Equivalent',
      },
    },
  };
}

function webhook(name: string, extra: object = {}): any {
  return {
    name,
    clientConfig: { service: { namespace: 'hooks', name: 'hook', path: '/validate', port: 8443 }, caBundle: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t' },
    rules: [
      { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['pods', 'pods/ephemeralcontainers'], scope: 'Namespaced' },
      { apiGroups: ['apps', 'batch'], apiVersions: ['*'], operations: ['CREATE'], resources: ['*/scale'], scope: '*' },
    ],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'hooks'] }] },
    objectSelector: { matchExpressions: [{ key: 'skip-webhook', operator: 'DoesNotExist' }] },
    sideEffects: 'None',
    timeoutSeconds: 5,
    admissionReviewVersions: ['v1', 'v1beta1'],
    matchConditions: [{ name: 'not-nodes', expression: "!('system:nodes' in request.userInfo.groups)" }],
    ...extra,
  };
}

function validatingWebhooks(): any {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'policy-webhooks' },
    webhooks: [
      webhook('pods.policy.example.com'),
      webhook('external.policy.example.com', {
        clientConfig: { url: 'https://hooks.example.com:8443/validate' },
        failurePolicy: 'Ignore',
        sideEffects: 'NoneOnDryRun',
        matchPolicy: 'Exact',
      }),
    ],
  };
}

function mutatingWebhooks(): any {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'defaulting-webhooks' },
    webhooks: [
      webhook('pods.defaults.example.com', { reinvocationPolicy: 'IfNeeded' }),
      webhook('external.defaults.example.com', { clientConfig: { url: 'https://10.0.0.1/mutate' }, reinvocationPolicy: 'Never', timeoutSeconds: 30 }),
    ],
  };
}

/** The bases for the apiVersions the oracle serves (`served` lists `kind/version` pairs it serves). */
export function bases(served: (kind: string, version: string) => boolean): Base[] {
  const out: Base[] = [];
  const add = (make: (v: string) => any, kind: string, versions: string[]) => {
    for (const v of versions) if (served(kind, v)) out.push({ name: `${kind}@${v}`, manifest: make(v) });
  };
  add(validatingPolicy, 'ValidatingAdmissionPolicy', ['v1', 'v1beta1']);
  add(validatingBinding, 'ValidatingAdmissionPolicyBinding', ['v1', 'v1beta1']);
  add(validatingBindingBySelector, 'ValidatingAdmissionPolicyBinding', ['v1']);
  add(mutatingPolicy, 'MutatingAdmissionPolicy', ['v1', 'v1beta1', 'v1alpha1']);
  add(mutatingBinding, 'MutatingAdmissionPolicyBinding', ['v1', 'v1beta1', 'v1alpha1']);
  add(() => validatingWebhooks(), 'ValidatingWebhookConfiguration', ['v1']);
  add(() => mutatingWebhooks(), 'MutatingWebhookConfiguration', ['v1']);
  return out;
}
