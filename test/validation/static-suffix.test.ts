// Names ending with ".static.k8s.io" are reserved for the configurations an apiserver loads from
// its staticManifestsDir: from 1.37 the API refuses them on all six admissionregistration kinds,
// before 1.37 they are warned.
import { Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { mutatingBinding, mutatingPolicy, validatingBinding, validatingPolicy, webhookConfiguration } from './fixtures';
import { AdmissionResource, KubernetesVersion, ManifestValidator, Operation, ValidatingPolicy, ViolationSeverity } from '../../src';
import { STATIC_SUFFIX } from '../../src/validation/static-suffix';

const KINDS: Array<[string, (metadata: object) => object]> = [
  ['ValidatingAdmissionPolicy', (m) => validatingPolicy({}, m)],
  ['ValidatingAdmissionPolicyBinding', (m) => validatingBinding({}, m)],
  ['MutatingAdmissionPolicy', (m) => mutatingPolicy({}, m)],
  ['MutatingAdmissionPolicyBinding', (m) => mutatingBinding({}, m)],
  ['ValidatingWebhookConfiguration', (m) => ({ ...webhookConfiguration('ValidatingWebhookConfiguration'), metadata: m })],
  ['MutatingWebhookConfiguration', (m) => ({ ...webhookConfiguration('MutatingWebhookConfiguration'), metadata: m })],
];

const atName = (manifest: object, kubernetesVersion: KubernetesVersion) => ManifestValidator.validate(manifest, { kubernetesVersion })
  .filter((v) => v.path === 'metadata.name')
  .map((v) => `${v.severity}: ${v.message}`);

describe.each(KINDS)('%s', (_kind, make) => {
  test('a name with the static suffix is refused from 1.37 on', () => {
    for (const version of [KubernetesVersion.V1_37]) {
      expect(atName(make({ name: `baseline${STATIC_SUFFIX}` }), version)).toEqual([
        expect.stringMatching(/^error: Invalid value: "baseline.static.k8s.io": names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API; rename it$/),
      ]);
    }
  });

  test.each([KubernetesVersion.V1_28, KubernetesVersion.V1_36])('and warned at %s', (version) => {
    expect(atName(make({ name: `baseline${STATIC_SUFFIX}` }), version)).toEqual([
      expect.stringMatching(/^warning: rename it: names ending with ".static.k8s.io" are reserved .* from Kubernetes 1.37 on the apiserver refuses/),
    ]);
  });

  test('names that only contain the suffix, or a generated name, are not', () => {
    for (const name of ['static.k8s.io', `a${STATIC_SUFFIX}.b`, 'a-static.k8s.io']) expect(atName(make({ name }), KubernetesVersion.V1_37)).toEqual([]);
    expect(ManifestValidator.validate(make({ generateName: `gen${STATIC_SUFFIX}` })).filter((v) => /static/.test(v.message))).toEqual([]);
  });
});

test('any name is reserved exactly when it ends with the suffix', () => {
  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/);
  fc.assert(fc.property(fc.array(label, { minLength: 1, maxLength: 5 }), (labels) => {
    const name = labels.join('.');
    const refused = atName(validatingPolicy({}, { name }), KubernetesVersion.V1_37).some((m) => m.includes('reserved'));
    expect(refused).toBe(name.endsWith(STATIC_SUFFIX));
  }));
});

test('a construct named with the suffix fails synth at its path', () => {
  const chart = Testing.chart();
  new ValidatingPolicy(chart, 'baseline', {
    name: `baseline${STATIC_SUFFIX}`,
    resourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE)],
    validations: [{ expression: 'true' }],
  });
  expect(() => Testing.synth(chart)).toThrow(/baseline.*metadata\.name.*reserved for static manifest-based configurations/s);
});

test('the severity follows the version', () => {
  const manifest = validatingPolicy({}, { name: `x${STATIC_SUFFIX}` });
  const severities = (v: KubernetesVersion) => ManifestValidator.validate(manifest, { kubernetesVersion: v }).filter((x) => x.path === 'metadata.name').map((x) => x.severity);
  expect(severities(KubernetesVersion.V1_37)).toEqual([ViolationSeverity.ERROR]);
  expect(severities(KubernetesVersion.V1_36)).toEqual([ViolationSeverity.WARNING]);
});
