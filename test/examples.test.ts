import { Testing } from 'cdk8s';
import { ReplicaLimitChart } from '../examples/main';
import { KubernetesVersion } from '../src';

describe('example app', () => {
  test('synthesizes the policy, its binding and its parameter', () => {
    const chart = new ReplicaLimitChart(Testing.app(), 'replica-limit');
    expect(Testing.synth(chart)).toMatchSnapshot();
  });

  test('targets older clusters through the context key', () => {
    const app = Testing.app();
    app.node.setContext(KubernetesVersion.CONTEXT_KEY, '1.29');
    const manifests = Testing.synth(new ReplicaLimitChart(app, 'replica-limit'));
    expect(manifests.map((m) => m.apiVersion)).toEqual(['v1', 'admissionregistration.k8s.io/v1beta1', 'admissionregistration.k8s.io/v1beta1']);
  });
});
