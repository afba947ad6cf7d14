import { Testing } from 'cdk8s';
import { PodDefaultsChart, ReplicaLimitChart } from '../examples/main';
import { KubernetesVersion } from '../src';

describe('example app', () => {
  test('synthesizes the policies, their bindings and the parameter', () => {
    const chart = new ReplicaLimitChart(Testing.app(), 'admission');
    expect(Testing.synth(chart)).toMatchSnapshot();
  });

  test('synthesizes the mutating policy and its binding', () => {
    const chart = new PodDefaultsChart(Testing.app(), 'pod-defaults');
    expect(Testing.synth(chart)).toMatchSnapshot();
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
