// An example cdk8s app: admission policies written with cdk8s-admission, checked at synth.
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, ChartProps, Duration } from 'cdk8s';
import { Construct } from 'constructs';
// In your own app: import { ... } from 'cdk8s-admission';
import {
  AdmissionResource, CaBundle, FailurePolicy, Mutation, MutatingPolicy, MutatingWebhookConfiguration, Operation, ParameterNotFoundAction,
  RolloutStage, RuleScope, StaticAdmissionChart, StaticAdmissionChartProps, ValidatingPolicy, ValidatingWebhookConfiguration, ValidationAction,
  ValidationReason, Webhook,
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

/** Defaults applied by the apiserver itself, without a webhook (MutatingAdmissionPolicy, Kubernetes 1.36). */
export class PodDefaultsChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);

    new MutatingPolicy(this, 'pod-defaults', {
      name: 'pod-defaults',
      resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)],
      // Only pods that opt in, and only once: the sidecar is added if it is not there yet.
      objectSelector: { matchLabels: { 'example.com/inject-proxy': 'true' } },
      matchConditions: [{ name: 'no-proxy-yet', expression: "!object.spec.containers.exists(c, c.name == 'proxy')" }],
      mutations: [
        // An apply configuration: merged like server-side apply (containers by name), safe to run twice.
        Mutation.applyConfiguration([
          'Object{',
          '  spec: Object.spec{containers: [Object.spec.containers{name: "proxy", image: "registry.example.com/proxy:1.4.2"}]}',
          '}',
        ].join('\n')),
        // A JSON patch: a label key with a '/' must be escaped in the JSON pointer. The labels map
        // exists, since the objectSelector requires a label.
        Mutation.jsonPatch([
          '[JSONPatch{',
          '  op: "add",',
          '  path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/proxied"),',
          '  value: "true"',
          '}]',
        ].join('\n')),
      ],
    }).withBinding('pod-defaults-binding', { name: 'pod-defaults' });
  }
}

/**
 * An admission webhook server in its own namespace, its serving certificate from cert-manager,
 * and the two webhook configurations that call it, with cert-manager injecting the CA.
 */
export class WebhookServerChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, { namespace: 'policy-webhook', ...props });
    const labels = { 'app.kubernetes.io/name': 'policy-webhook' };

    new ApiObject(this, 'deployment', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'policy-webhook' },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [{
              name: 'server',
              image: 'registry.example.com/policy-webhook:2.3.0',
              ports: [{ containerPort: 9443 }],
              volumeMounts: [{ name: 'tls', mountPath: '/tls', readOnly: true }],
            }],
            volumes: [{ name: 'tls', secret: { secretName: 'policy-webhook-tls' } }],
          },
        },
      },
    });
    const service = new ApiObject(this, 'service', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'policy-webhook' },
      spec: { selector: labels, ports: [{ name: 'https', port: 443, targetPort: 9443 }] },
    });
    new ApiObject(this, 'issuer', {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Issuer',
      metadata: { name: 'selfsigned' },
      spec: { selfSigned: {} },
    });
    new ApiObject(this, 'certificate', {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'policy-webhook' },
      spec: {
        secretName: 'policy-webhook-tls',
        dnsNames: ['policy-webhook.policy-webhook.svc', 'policy-webhook.policy-webhook.svc.cluster.local'],
        issuerRef: { name: 'selfsigned', kind: 'Issuer' },
      },
    });
    const caBundle = CaBundle.fromCertManagerCertificate('policy-webhook', 'policy-webhook');

    // Safe defaults, written out: sideEffects None, admissionReviewVersions [v1], failurePolicy Fail,
    // matchPolicy Equivalent, a 5s timeout, and this namespace and kube-system excluded.
    new ValidatingWebhookConfiguration(this, 'validating', {
      name: 'policy-webhook',
      caBundle,
      webhooks: [Webhook.forService(service, {
        name: 'validate.ingresses.policy.example.com',
        path: '/validate-ingress',
        rules: [AdmissionResource.INGRESSES.rule(Operation.CREATE, Operation.UPDATE)],
      })],
    });
    new MutatingWebhookConfiguration(this, 'mutating', {
      name: 'policy-webhook',
      caBundle,
      webhooks: [Webhook.forService(service, {
        name: 'default.jobs.policy.example.com',
        path: '/mutate-job',
        rules: [AdmissionResource.JOBS.rule(Operation.CREATE)],
        // A defaulting webhook fails open: a missing default must not block every Job.
        failurePolicy: FailurePolicy.IGNORE,
      })],
    });
  }
}

/**
 * A baseline the apiserver loads from files at start (Kubernetes 1.37): in force from its first
 * request, not deletable through the API, and run before every policy created through it.
 */
export class ControlPlaneBaselineChart extends StaticAdmissionChart {
  constructor(scope: Construct, id: string, props: StaticAdmissionChartProps = {}) {
    super(scope, id, props);

    new ValidatingPolicy(this, 'no-privileged-containers', {
      name: 'no-privileged-containers.static.k8s.io',
      resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE, Operation.UPDATE)],
      matchConditions: [{ name: 'not-kube-system', expression: "request.namespace != 'kube-system'" }],
      validations: [{
        expression: 'object.spec.containers.all(c, !has(c.securityContext) || !has(c.securityContext.privileged) || !c.securityContext.privileged)',
        message: 'privileged containers run only in kube-system',
      }],
    }).withBinding('deny-privileged-containers', { validationActions: [ValidationAction.DENY] });

    // Only a static policy sees requests for admission policies: API policies never do. This one
    // keeps the platform team's API policies from being deleted by accident.
    const apiPolicies = AdmissionResource.custom({
      apiGroup: 'admissionregistration.k8s.io', apiVersion: 'v1', resource: 'validatingadmissionpolicies', scope: RuleScope.CLUSTER,
    });
    new ValidatingPolicy(this, 'keep-platform-policies', {
      name: 'keep-platform-policies.static.k8s.io',
      resourceRules: [apiPolicies.rule(Operation.DELETE)],
      validations: [{
        expression: "!has(oldObject.metadata.labels) || !('platform.example.com/protected' in oldObject.metadata.labels)",
        message: 'remove the platform.example.com/protected label before deleting this policy',
      }],
    }).withBinding('deny-deleting-platform-policies', { validationActions: [ValidationAction.DENY] });

    // Static webhooks are called by URL: here an image scanner on the control-plane hosts.
    new ValidatingWebhookConfiguration(this, 'image-scan', {
      webhooks: [Webhook.forUrl('https://127.0.0.1:9443/scan', {
        name: 'scan.images.example.com',
        rules: [AdmissionResource.PODS.rule(Operation.CREATE)],
        failurePolicy: FailurePolicy.IGNORE,
        timeout: Duration.seconds(2),
      })],
    });
  }
}

/** Synthesizes the baseline into `outdir`: the AdmissionConfiguration and a directory per admission plugin. */
export function synthControlPlane(outdir: string): string[] {
  return new ControlPlaneBaselineChart(new App(), 'baseline').synthDirectory(outdir);
}

export function buildApp(outdir?: string): App {
  const app = new App({ outdir });
  new ReplicaLimitChart(app, 'admission');
  new PodDefaultsChart(app, 'pod-defaults');
  new WebhookServerChart(app, 'policy-webhook');
  return app;
}

if (require.main === module) {
  const app = buildApp();
  app.synth();
  for (const file of fs.readdirSync(app.outdir)) console.log(`Synthesized ${path.join(app.outdir, file)}`);
  // The control plane's files are another deliverable than the cluster's manifests: an App of their own.
  const controlPlane = path.join(app.outdir, 'control-plane');
  for (const file of synthControlPlane(controlPlane)) console.log(`Synthesized ${path.join(controlPlane, file)}`);
}
