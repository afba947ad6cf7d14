// An example cdk8s app: admission policies written with cdk8s-admission, checked at synth.
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';
// In your own app: import { ... } from 'cdk8s-admission';
import {
  AdmissionResource, Operation, ParameterNotFoundAction, RolloutStage, ValidatingPolicy, ValidationAction, ValidationReason,
} from '../src';

/** Deployments may not have more replicas than the limit their namespace's parameter sets. */
export class ReplicaLimitChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);

    // The parameter: a ConfigMap the platform team edits without touching the policy.
    new ApiObject(this, 'limits', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'replica-limits', namespace: 'policy-params' },
      data: { maxReplicas: '5' },
    });

    const policy = new ValidatingPolicy(this, 'replica-limit', {
      name: 'replica-limit',
      resourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE, Operation.UPDATE)],
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      variables: [{ name: 'maxReplicas', expression: 'int(params.data.maxReplicas)' }],
      validations: [{
        expression: 'object.spec.replicas <= variables.maxReplicas',
        messageExpression: "'replicas must be at most ' + string(variables.maxReplicas)",
        reason: ValidationReason.INVALID,
      }],
    });
    policy.addMatchCondition({ name: 'not-kube-system', expression: "request.namespace != 'kube-system'" });

    policy.withBinding('replica-limit-binding', {
      name: 'replica-limit',
      validationActions: [ValidationAction.DENY],
      paramRef: { name: 'replica-limits', namespace: 'policy-params', parameterNotFoundAction: ParameterNotFoundAction.DENY },
    });

    // A second policy on its way in: warn (and audit) first, deny in a later release.
    new ValidatingPolicy(this, 'no-latest-tag', {
      name: 'no-latest-tag',
      resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE, Operation.UPDATE)],
      validations: [{
        expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))",
        message: "container images must be pinned, not ':latest'",
      }],
    }).withRolloutBinding('no-latest-tag-binding', RolloutStage.WARN, { name: 'no-latest-tag' });
  }
}

export function buildApp(outdir?: string): App {
  const app = new App({ outdir });
  new ReplicaLimitChart(app, 'admission');
  return app;
}

if (require.main === module) {
  const app = buildApp();
  app.synth();
  for (const file of fs.readdirSync(app.outdir)) console.log(`Synthesized ${path.join(app.outdir, file)}`);
}
