import { Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { AdmissionKind, KubernetesVersion, ManifestValidator, ValidatingPolicy } from '../src';

describe('KubernetesVersion', () => {
  test.each([
    ['1.30', 30],
    ['v1.31', 31],
    ['1.29.7', 29],
    [' 1.28 ', 28],
    ['1.40', 37],
  ])('of(%j) is 1.%i', (input, minor) => {
    expect(KubernetesVersion.of(input).minor).toBe(minor);
  });

  test.each(['1', '1.x', '2.30', 'latest', ''])('of(%j) is rejected with the expected format', (input) => {
    expect(() => KubernetesVersion.of(input)).toThrow(/expected "1.<minor>", e.g. "1.30"/);
  });

  test('versions before 1.28 are not supported', () => {
    expect(() => KubernetesVersion.of('1.27')).toThrow('Kubernetes 1.27 is not supported: cdk8s-admission targets 1.28 and newer');
  });

  test('constants, comparison and rendering', () => {
    expect(KubernetesVersion.LATEST).toBe(KubernetesVersion.V1_37);
    expect(KubernetesVersion.V1_30.isAtLeast(KubernetesVersion.V1_29)).toBe(true);
    expect(KubernetesVersion.V1_29.isAtLeast(KubernetesVersion.V1_30)).toBe(false);
    expect(`${KubernetesVersion.V1_33}`).toBe('1.33');
  });

  test.each([
    [AdmissionKind.VALIDATING_ADMISSION_POLICY, '1.28', 'v1beta1'],
    [AdmissionKind.VALIDATING_ADMISSION_POLICY, '1.29', 'v1beta1'],
    [AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, '1.30', 'v1'],
    [AdmissionKind.MUTATING_ADMISSION_POLICY, '1.32', 'v1alpha1'],
    [AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING, '1.33', 'v1alpha1'],
    [AdmissionKind.MUTATING_ADMISSION_POLICY, '1.34', 'v1beta1'],
    [AdmissionKind.MUTATING_ADMISSION_POLICY, '1.35', 'v1beta1'],
    [AdmissionKind.MUTATING_ADMISSION_POLICY, '1.36', 'v1'],
    [AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION, '1.28', 'v1'],
    [AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION, '1.36', 'v1'],
  ])('%s on %s is written as %s', (kind, version, apiVersion) => {
    expect(KubernetesVersion.of(version).apiVersionFor(kind)).toBe(`admissionregistration.k8s.io/${apiVersion}`);
  });

  test('asking for a kind the version does not serve names the version needed', () => {
    expect(() => KubernetesVersion.V1_31.apiVersionFor(AdmissionKind.MUTATING_ADMISSION_POLICY)).toThrow(
      'MutatingAdmissionPolicy is not served by Kubernetes 1.31: it needs Kubernetes 1.32 or newer (admissionregistration.k8s.io/v1alpha1)');
  });

  describe('fromContext', () => {
    test('defaults to the newest version', () => {
      expect(KubernetesVersion.fromContext(Testing.chart())).toBe(KubernetesVersion.LATEST);
    });

    test('reads the context key from any scope above', () => {
      const app = Testing.app();
      app.node.setContext(KubernetesVersion.CONTEXT_KEY, '1.29');
      const leaf = new Construct(new Construct(app, 'a'), 'b');
      expect(KubernetesVersion.fromContext(leaf).minor).toBe(29);
    });

    test('a bad context value names the key and the scope', () => {
      const app = Testing.app();
      const scope = new Construct(app, 'team');
      scope.node.setContext(KubernetesVersion.CONTEXT_KEY, '1.2x');
      expect(() => KubernetesVersion.fromContext(scope)).toThrow('context "cdk8s-admission:kubernetesVersion" at team: invalid Kubernetes version "1.2x"');
    });
  });
});

describe('a version given where a KubernetesVersion is expected (JavaScript callers)', () => {
  const binding = { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'] } };

  test('a "1.<minor>" string means that version', () => {
    expect(ManifestValidator.validate(binding, { kubernetesVersion: '1.30' as any })).toEqual(ManifestValidator.validate(binding, { kubernetesVersion: KubernetesVersion.V1_30 }));
    expect(ManifestValidator.validateAll([binding], { kubernetesVersion: '1.30' as any })).toEqual(ManifestValidator.validateAll([binding], { kubernetesVersion: KubernetesVersion.V1_30 }));
    const policy = new ValidatingPolicy(Testing.chart(), 'p', { resourceRules: [], kubernetesVersion: '1.30' as any, validations: [{ expression: 'true' }] });
    expect(policy.kubernetesVersion.minor).toBe(30);
  });

  test.each([30, {}, true, '1.x'])('anything else (%j) is an error that says what to pass', (bad) => {
    expect(() => ManifestValidator.validate(binding, { kubernetesVersion: bad as any })).toThrow(/options\.kubernetesVersion/);
    expect(() => new ValidatingPolicy(Testing.chart(), 'p', { resourceRules: [], kubernetesVersion: bad as any, validations: [{ expression: 'true' }] })).toThrow(/kubernetesVersion/);
  });

  test('validateAll takes a list: one manifest alone is an error, not a vacuous pass', () => {
    expect(() => ManifestValidator.validateAll(binding as any)).toThrow('ManifestValidator.validateAll takes a list of manifests, got object');
    expect(() => ManifestValidator.validateAll(null as any)).toThrow('got null');
  });
});
