import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Duration, Testing } from 'cdk8s';
import * as yaml from 'yaml';
import {
  AdmissionResource, AdmissionWarnings, KubernetesVersion, MutatingPolicy, Mutation, Operation, StaticAdmissionChart, ValidatingPolicy,
  ValidatingPolicyBinding, ValidatingWebhookConfiguration, ValidationAction, Webhook,
} from '../src';

const outdirs: string[] = [];
afterAll(() => outdirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function outdir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'static-chart-'));
  outdirs.push(dir);
  return dir;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

function baseline(scope = Testing.app(), props = {}): StaticAdmissionChart {
  const chart = new StaticAdmissionChart(scope, 'baseline', props);
  new ValidatingPolicy(chart, 'no-privileged', {
    resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE, Operation.UPDATE)],
    validations: [{ expression: 'object.spec.containers.all(c, !has(c.securityContext) || c.securityContext.privileged != true)', message: 'no privileged containers' }],
  }).withBinding('deny', { validationActions: [ValidationAction.DENY] });
  new ValidatingWebhookConfiguration(chart, 'audit', {
    webhooks: [Webhook.forUrl('https://10.0.0.10:8443/validate', { name: 'audit.example.com', rules: [AdmissionResource.PODS.rule(Operation.CREATE)], timeout: Duration.seconds(3) })],
  });
  return chart;
}

describe('StaticAdmissionChart', () => {
  test('generated names end with the static suffix, and the binding names its policy by it', () => {
    const manifests = baseline().toStaticManifests();
    expect(manifests.map((m) => [m.kind, m.metadata.name])).toEqual([
      ['ValidatingAdmissionPolicy', expect.stringMatching(/^baseline-no-privileged-[0-9a-f]{8}\.static\.k8s\.io$/)],
      ['ValidatingAdmissionPolicyBinding', expect.stringMatching(/^baseline-deny-[0-9a-f]{8}\.static\.k8s\.io$/)],
      ['ValidatingWebhookConfiguration', expect.stringMatching(/^baseline-audit-[0-9a-f]{8}\.static\.k8s\.io$/)],
    ]);
    expect(manifests[1].spec.policyName).toBe(manifests[0].metadata.name);
  });

  test('contributes nothing to the app\'s synth output: its objects are files for the apiserver, not objects to apply', () => {
    const app = Testing.app();
    const chart = baseline(app);
    expect(chart.toJson()).toEqual([]);
    expect(chart.toStaticManifests()).toHaveLength(3);
  });

  test('synthDirectory writes the AdmissionConfiguration and a directory per plugin, one file per object', () => {
    const chart = baseline();
    const dir = outdir();
    const written = chart.synthDirectory(dir);
    expect(filesUnder(dir)).toEqual([...written].sort());
    expect(written.map((f) => f.replace(/-[0-9a-f]{8}\./, '-H.'))).toEqual([
      'admission-configuration.yaml',
      'validating-admission-policies/ValidatingAdmissionPolicy.baseline-no-privileged-H.static.k8s.io.yaml',
      'validating-admission-policies/ValidatingAdmissionPolicyBinding.baseline-deny-H.static.k8s.io.yaml',
      'validating-webhooks/ValidatingWebhookConfiguration.baseline-audit-H.static.k8s.io.yaml',
    ]);
    expect(yaml.parse(fs.readFileSync(path.join(dir, 'admission-configuration.yaml'), 'utf8'))).toEqual({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AdmissionConfiguration',
      plugins: [
        {
          name: 'ValidatingAdmissionPolicy',
          configuration: {
            apiVersion: 'apiserver.config.k8s.io/v1',
            kind: 'ValidatingAdmissionPolicyConfiguration',
            staticManifestsDir: '/etc/kubernetes/admission/validating-admission-policies',
          },
        },
        {
          name: 'ValidatingAdmissionWebhook',
          configuration: { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', staticManifestsDir: '/etc/kubernetes/admission/validating-webhooks' },
        },
      ],
    });
    const files = written.slice(1).map((f) => yaml.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
    expect(files).toEqual(chart.toStaticManifests());
    expect(chart.admissionConfigurationFile).toBe('/etc/kubernetes/admission/admission-configuration.yaml');
  });

  test('the host directory and the webhooks\' kubeconfig reach the AdmissionConfiguration', () => {
    const chart = new StaticAdmissionChart(Testing.app(), 'defaults', { hostDirectory: '/srv/admission/', webhookKubeConfigFile: '/etc/kubernetes/webhook-kubeconfig' });
    new MutatingPolicy(chart, 'team-label', {
      resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)],
      mutations: [Mutation.applyConfiguration('Object{metadata: Object.metadata{labels: {"team": "platform"}}}')],
    }).withBinding('all', {});
    new ValidatingWebhookConfiguration(chart, 'hooks', { webhooks: [Webhook.forUrl('https://10.0.0.10/v', { name: 'v.example.com', rules: [AdmissionResource.PODS.rule(Operation.CREATE)] })] });
    expect(chart.toAdmissionConfiguration().plugins.map((p: any) => [p.name, p.configuration])).toEqual([
      ['MutatingAdmissionPolicy', { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'MutatingAdmissionPolicyConfiguration', staticManifestsDir: '/srv/admission/mutating-admission-policies' }],
      ['ValidatingAdmissionWebhook', {
        apiVersion: 'apiserver.config.k8s.io/v1',
        kind: 'WebhookAdmissionConfiguration',
        kubeConfigFile: '/etc/kubernetes/webhook-kubeconfig',
        staticManifestsDir: '/srv/admission/validating-webhooks',
      }],
    ]);
    expect(chart.admissionConfigurationFile).toBe('/srv/admission/admission-configuration.yaml');
  });

  test('a bad set fails with every problem at once, and nothing is written', () => {
    const app = Testing.app();
    const chart = new StaticAdmissionChart(app, 'bad');
    new ValidatingPolicy(chart, 'limits', {
      name: 'replica-limit',
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      resourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE)],
      validations: [{ expression: 'object.spec.replicas <= int(params.data.max)' }],
    });
    new ValidatingWebhookConfiguration(chart, 'hooks', { webhooks: [Webhook.forServiceName('hooks', 'webhooks', { name: 'v.example.com', rules: [AdmissionResource.PODS.rule(Operation.CREATE)] })] });
    new ApiObject(chart, 'params', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits' } });
    const dir = path.join(outdir(), 'static');
    let message = '';
    try {
      chart.synthDirectory(dir);
    } catch (e) {
      message = String(e);
    }
    for (const fragment of [
      '[bad/limits] metadata.name: Invalid value: "replica-limit": the name of a static manifest must end with ".static.k8s.io"',
      '[bad/limits] spec.paramKind: Forbidden: spec.paramKind is not supported for static manifests',
      '[bad/hooks] webhooks[0].clientConfig.service: Forbidden: clientConfig.service is not supported for static manifests',
      '[bad] bad/params: kind: Invalid value: "ConfigMap": the apiserver refuses this v1 object in a staticManifestsDir as an unsupported resource type',
    ]) expect(message).toContain(fragment);
    expect(fs.existsSync(dir)).toBe(false);
  });

  test('a later synthesis replaces the plugin directories whole, and leaves other files alone', () => {
    const dir = outdir();
    baseline().synthDirectory(dir);
    fs.writeFileSync(path.join(dir, 'README'), 'installed by ops');
    const smaller = new StaticAdmissionChart(Testing.app(), 'baseline');
    new ValidatingPolicy(smaller, 'only', {
      resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)],
      validations: [{ expression: 'true' }],
    }).withBinding('b', { validationActions: [ValidationAction.WARN] });
    const written = smaller.synthDirectory(dir);
    expect(filesUnder(dir)).toEqual(['README', ...written].sort());
    expect(fs.existsSync(path.join(dir, 'validating-webhooks'))).toBe(false);
  });

  test('a binding of a policy outside the chart is refused: the loader binds only policies of its own directory', () => {
    const app = Testing.app();
    const one = new StaticAdmissionChart(app, 'one');
    const policy = new ValidatingPolicy(one, 'p', { resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)], validations: [{ expression: 'true' }] });
    const two = new StaticAdmissionChart(app, 'two');
    new ValidatingPolicyBinding(two, 'b', { policy, validationActions: [ValidationAction.DENY] });
    new ValidatingPolicyBinding(two, 'named', { policy: ValidatingPolicy.fromPolicyName(two, 'elsewhere', 'elsewhere.static.k8s.io'), validationActions: [ValidationAction.DENY] });
    expect(() => two.toStaticManifests()).toThrow(/\[two\/b\] spec\.policyName: Invalid value: "one-p-[0-9a-f]{8}\.static\.k8s\.io": the bound policy is not in the static set.*\(this StaticAdmissionChart is two\)/);
    expect(() => two.toStaticManifests()).toThrow(/\[two\/named\] spec\.policyName: Invalid value: "elsewhere\.static\.k8s\.io": the bound policy is not in the static set/);
  });

  test('an API chart may not use the static suffix, and a static chart needs a version that loads it', () => {
    const app = Testing.app();
    const api = new Chart(app, 'api');
    new ValidatingPolicy(api, 'p', { name: 'p.static.k8s.io', resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)], validations: [{ expression: 'true' }] });
    expect(() => app.synth()).toThrow(/\[api\/p\] metadata\.name: Invalid value: "p\.static\.k8s\.io": names ending with "\.static\.k8s\.io" are reserved/);

    const old = Testing.app();
    const chart = new StaticAdmissionChart(old, 'baseline');
    new ValidatingPolicy(chart, 'p', {
      kubernetesVersion: KubernetesVersion.V1_35, resourceRules: [AdmissionResource.PODS.rule(Operation.CREATE)], validations: [{ expression: 'true' }],
    });
    expect(() => chart.toStaticManifests()).toThrow(/\[baseline\/p\] \(object\): Invalid value: "1\.35": apiservers load admission configurations from a staticManifestsDir from Kubernetes 1\.36/);
  });

  test('refuses a namespace, a relative host directory and unknown props, naming the chart', () => {
    expect(() => new StaticAdmissionChart(new App(), 'c', { namespace: 'kube-system' })).toThrow(/^c: namespace "kube-system" is not allowed: admission configurations are cluster-scoped/);
    expect(() => new StaticAdmissionChart(new App(), 'c', { hostDirectory: 'admission' })).toThrow(/^c: hostDirectory must be an absolute path on the control-plane hosts/);
    expect(() => new StaticAdmissionChart(new App(), 'c', { webhookKubeConfigFile: 'kubeconfig' })).toThrow(/^c: webhookKubeConfigFile must be an absolute path/);
    expect(() => new StaticAdmissionChart(new App(), 'c', { hostDirektory: '/x' } as any)).toThrow(/hostDirektory.*hostDirectory/);
    expect(() => baseline().synthDirectory('')).toThrow(/synthDirectory needs an output directory/);
  });

  test('an object that is not a construct of this library is warned as the constructs are, at its own path', () => {
    // Not in the app's synth output, so the CLI plugin never sees it: the chart is its only check.
    const rawPolicy = (chart: Chart) => new ApiObject(chart, 'raw', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'raw.static.k8s.io' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['Deployment'], operations: ['CREATE'] }] },
        validations: [{ expression: 'true' }],
      },
    });
    const warningPath = 'spec.matchConstraints.resourceRules[0].resources[0]';
    const withContext = (context: Record<string, unknown>) => {
      const app = Testing.app();
      for (const [key, value] of Object.entries(context)) app.node.setContext(key, value);
      const chart = baseline(app);
      return { chart, raw: rawPolicy(chart) };
    };

    const printed: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((line) => printed.push(String(line)) > 0);
    try {
      const { chart } = withContext({});
      expect(chart.toStaticManifests().map((m) => m.metadata.name)).toContain('raw.static.k8s.io');
      expect(AdmissionWarnings.of(chart)).toEqual([expect.stringMatching(/^\[baseline\/raw\] spec\.matchConstraints\.resourceRules\[0\]\.resources\[0\]: 'Deployment' is a kind/)]);
      expect(printed).toEqual([expect.stringMatching(/^cdk8s-admission warning: \[baseline\/raw\] spec\.matchConstraints\.resourceRules\[0\]\.resources\[0\]: 'Deployment' is a kind/)]);
    } finally {
      write.mockRestore();
    }

    const strict = withContext({ [AdmissionWarnings.AS_ERRORS_CONTEXT]: true });
    expect(() => strict.chart.toStaticManifests()).toThrow(/\[baseline\] baseline\/raw: spec\.matchConstraints\.resourceRules\[0\]\.resources\[0\]: 'Deployment' is a kind/);

    const acknowledged = withContext({ [AdmissionWarnings.AS_ERRORS_CONTEXT]: true });
    AdmissionWarnings.acknowledge(acknowledged.raw, warningPath, 'matches nothing on purpose, for this test');
    expect(() => acknowledged.chart.toStaticManifests()).not.toThrow();
    expect(AdmissionWarnings.of(acknowledged.chart)).toEqual([]);
    expect(AdmissionWarnings.acknowledged(acknowledged.chart)).toEqual([expect.stringMatching(/^\[baseline\/raw\] .*\(acknowledged: matches nothing on purpose, for this test\)$/)]);
  });

  test('isStaticAdmissionChart tells a static chart from another', () => {
    const app = Testing.app();
    expect(StaticAdmissionChart.isStaticAdmissionChart(new StaticAdmissionChart(app, 's'))).toBe(true);
    expect(StaticAdmissionChart.isStaticAdmissionChart(new Chart(app, 'c'))).toBe(false);
    expect(StaticAdmissionChart.isStaticAdmissionChart(undefined)).toBe(false);
  });
});
