// An example cdk8s app: a ValidatingAdmissionPolicy with a parameter, its binding, and the
// ConfigMap holding the parameter, checked with cdk8s-admission's ManifestValidator at synth.
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';
// In your own app: import { ... } from 'cdk8s-admission';
import { AdmissionKind, KubernetesVersion, ManifestValidator, ViolationSeverity } from '../src';

export class ReplicaLimitChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    const version = KubernetesVersion.fromContext(this);

    new ApiObject(this, 'limits', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'replica-limits', namespace: 'policy-params' },
      data: { maxReplicas: '5' },
    });

    new ApiObject(this, 'policy', {
      apiVersion: version.apiVersionFor(AdmissionKind.VALIDATING_ADMISSION_POLICY),
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'replica-limit' },
      spec: {
        failurePolicy: 'Fail',
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: {
          matchPolicy: 'Equivalent',
          namespaceSelector: {},
          objectSelector: {},
          resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'], scope: '*' }],
        },
        variables: [{ name: 'maxReplicas', expression: 'int(params.data.maxReplicas)' }],
        validations: [{
          expression: 'object.spec.replicas <= variables.maxReplicas',
          messageExpression: "'replicas must be at most ' + string(variables.maxReplicas)",
          reason: 'Invalid',
        }],
      },
    });

    new ApiObject(this, 'binding', {
      apiVersion: version.apiVersionFor(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING),
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'replica-limit' },
      spec: {
        policyName: 'replica-limit',
        validationActions: ['Deny'],
        paramRef: { name: 'replica-limits', namespace: 'policy-params', parameterNotFoundAction: 'Deny' },
      },
    });

    // Every apiserver rule, checked before anything reaches a cluster: synth fails on errors.
    this.node.addValidation({
      validate: () => ManifestValidator.validateAll(this.apiObjects.map((o) => o.toJson()), { kubernetesVersion: version })
        .filter((v) => v.severity === ViolationSeverity.ERROR)
        .map((v) => `${v.kind} ${v.name}: ${v.path}: ${v.message}`),
    });
  }
}

export function buildApp(outdir?: string): App {
  const app = new App({ outdir });
  new ReplicaLimitChart(app, 'replica-limit');
  return app;
}

if (require.main === module) {
  const app = buildApp();
  app.synth();
  for (const file of fs.readdirSync(app.outdir)) console.log(`Synthesized ${path.join(app.outdir, file)}`);
}
