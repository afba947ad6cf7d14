import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { ControlPlaneBaselineChart, PodDefaultsChart, ReplicaLimitChart, synthControlPlane, WebhookServerChart } from '../examples/main';
import { AdmissionWarnings, KubernetesVersion } from '../src';

describe('example app', () => {
  test('synthesizes the policies, their bindings and the parameter', () => {
    const chart = new ReplicaLimitChart(Testing.app(), 'admission');
    expect(Testing.synth(chart)).toMatchSnapshot();
  });

  test('synthesizes the mutating policy and its binding', () => {
    const chart = new PodDefaultsChart(Testing.app(), 'pod-defaults');
    expect(Testing.synth(chart)).toMatchSnapshot();
  });

  test('synthesizes the webhook server and its two webhook configurations', () => {
    const chart = new WebhookServerChart(Testing.app(), 'policy-webhook');
    const manifests = Testing.synth(chart);
    expect(manifests).toMatchSnapshot();
    // The configurations come after the Service they call, and carry no namespace.
    const kinds = manifests.map((m) => m.kind);
    expect(kinds.indexOf('ValidatingWebhookConfiguration')).toBeGreaterThan(kinds.indexOf('Service'));
    expect(manifests.filter((m) => m.kind.endsWith('WebhookConfiguration')).map((m) => m.metadata.namespace)).toEqual([undefined, undefined]);
  });

  test('the whole app has no warnings', () => {
    const app = Testing.app();
    new ReplicaLimitChart(app, 'admission');
    new PodDefaultsChart(app, 'pod-defaults');
    new WebhookServerChart(app, 'policy-webhook');
    expect(AdmissionWarnings.of(app)).toEqual([]);
  });

  test('synthesizes the control-plane baseline as the apiserver loads it, without warnings', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'control-plane-'));
    const written = synthControlPlane(dir);
    expect(written.map((f) => f.replace(/-[0-9a-f]{8}\./, '-H.'))).toEqual([
      'admission-configuration.yaml',
      'validating-admission-policies/ValidatingAdmissionPolicy.no-privileged-containers.static.k8s.io.yaml',
      'validating-admission-policies/ValidatingAdmissionPolicyBinding.baseline-deny-privileged-containers-H.static.k8s.io.yaml',
      'validating-admission-policies/ValidatingAdmissionPolicy.keep-platform-policies.static.k8s.io.yaml',
      'validating-admission-policies/ValidatingAdmissionPolicyBinding.baseline-deny-deleting-platform-policies-H.static.k8s.io.yaml',
      'validating-webhooks/ValidatingWebhookConfiguration.baseline-image-scan-H.static.k8s.io.yaml',
    ]);
    const app = Testing.app();
    const chart = new ControlPlaneBaselineChart(app, 'baseline');
    expect(chart.toStaticManifests()).toMatchSnapshot();
    expect(AdmissionWarnings.of(app)).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('targets older clusters through the context key', () => {
    const app = Testing.app();
    app.node.setContext(KubernetesVersion.CONTEXT_KEY, '1.29');
    const manifests = Testing.synth(new ReplicaLimitChart(app, 'admission'));
    expect(manifests.map((m) => `${m.kind} ${m.apiVersion}`)).toEqual([
      'ConfigMap v1',
      'ValidatingAdmissionPolicy admissionregistration.k8s.io/v1beta1',
      'ValidatingAdmissionPolicyBinding admissionregistration.k8s.io/v1beta1',
      'ValidatingAdmissionPolicy admissionregistration.k8s.io/v1beta1',
      'ValidatingAdmissionPolicyBinding admissionregistration.k8s.io/v1beta1',
    ]);
  });
});
