import { Testing } from 'cdk8s';
import { PodDefaultsChart, ReplicaLimitChart, WebhookServerChart } from '../examples/main';
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
