import * as fc from 'fast-check';
import { errors, expectErrors, expectValid, GROUP, mutatingBinding, mutatingPolicy, validatingBinding, validatingPolicy, warnings, webhookConfiguration } from './fixtures';
import { KubernetesVersion, ManifestValidator, ViolationSeverity } from '../../src';

describe('ManifestValidator.validate', () => {
  test('every violation names the object it is about', () => {
    const [v] = ManifestValidator.validate(validatingPolicy({ failurePolicy: 'x' }));
    expect(v).toEqual({
      path: 'spec.failurePolicy',
      message: 'Unsupported value: "x": supported values: "Fail", "Ignore"',
      severity: ViolationSeverity.ERROR,
      kind: 'ValidatingAdmissionPolicy',
      name: 'demo-policy',
    });
  });

  test.each([
    [null],
    ['a string'],
    [[validatingPolicy()]],
    [42],
  ])('a non-object manifest (%j) is an error at kind', (manifest) => {
    expectErrors(manifest, [['kind', 'a manifest must be a JSON object with apiVersion and kind']]);
  });

  test('kind must be one of the six kinds', () => {
    expectErrors({ apiVersion: `${GROUP}/v1`, kind: 'Deployment' }, [['kind', 'Unsupported value: "Deployment": supported values: "MutatingAdmissionPolicy"']]);
    expectErrors({ apiVersion: `${GROUP}/v1` }, [['kind', 'Required value']]);
  });

  describe('apiVersion', () => {
    test('must be a version this library supports for the kind', () => {
      expectErrors({ ...validatingPolicy(), apiVersion: `${GROUP}/v1alpha1` }, [
        ['apiVersion', `supported values: "${GROUP}/v1", "${GROUP}/v1beta1"`],
      ]);
      expectErrors({ ...webhookConfiguration('ValidatingWebhookConfiguration'), apiVersion: `${GROUP}/v1beta1` }, [
        ['apiVersion', `supported values: "${GROUP}/v1"`],
      ]);
      expectErrors({ ...validatingPolicy(), apiVersion: undefined }, [['apiVersion', 'Required value']]);
    });

    test('must be served by the target Kubernetes version', () => {
      const v128 = { kubernetesVersion: KubernetesVersion.V1_28 };
      expectErrors(validatingPolicy(), [['apiVersion', 'served from Kubernetes 1.30; the target is 1.28: use admissionregistration.k8s.io/v1beta1']], v128);
      expectValid({ ...validatingPolicy(), apiVersion: `${GROUP}/v1beta1` }, v128);
      expect(warnings({ ...validatingPolicy(), apiVersion: `${GROUP}/v1beta1` }, v128).map((w) => w.message)).toEqual([
        expect.stringContaining('not served by default: the cluster needs the ValidatingAdmissionPolicy feature gate'),
      ]);
    });

    test('an older apiVersion than the target serves gets a warning to move on', () => {
      const manifest = { ...validatingBinding(), apiVersion: `${GROUP}/v1beta1` };
      const options = { kubernetesVersion: KubernetesVersion.V1_31 };
      expectValid(manifest, options);
      expect(warnings(manifest, options)).toEqual([expect.objectContaining({ path: 'apiVersion', message: expect.stringContaining(`use ${GROUP}/v1`) })]);
    });

    test('an apiVersion the target no longer serves is an error (beta versions go six minors after they came)', () => {
      const manifest = { ...validatingBinding(), apiVersion: `${GROUP}/v1beta1` };
      expectErrors(manifest, [['apiVersion', `ValidatingAdmissionPolicyBinding ${GROUP}/v1beta1 is no longer served from Kubernetes 1.34; the target is 1.37: use ${GROUP}/v1`]]);
      expectErrors(manifest, [], { kubernetesVersion: KubernetesVersion.V1_33 });
      const alpha = { ...mutatingBinding(), apiVersion: `${GROUP}/v1alpha1` };
      expectErrors(alpha, [], { kubernetesVersion: KubernetesVersion.V1_37 });
      expect(errors(alpha, { kubernetesVersion: KubernetesVersion.of('1.38') })).toEqual([]);
    });

    test('the body is still checked when the apiVersion is not served', () => {
      const manifest = mutatingPolicy({ reinvocationPolicy: 'Sometimes' });
      expect(errors(manifest, { kubernetesVersion: KubernetesVersion.V1_30 }).map((e) => e.path)).toEqual(['apiVersion', 'spec.reinvocationPolicy']);
    });
  });

  describe('strict field validation', () => {
    test('unknown fields are errors with a suggestion', () => {
      expectErrors(validatingPolicy({ failurePolicyy: 'Fail' }), [
        ['spec.failurePolicyy', 'unknown field "spec.failurePolicyy": ValidatingAdmissionPolicySpec has no field "failurePolicyy" (strict field validation rejects it); did you mean "failurePolicy"?'],
      ]);
      expectErrors({ ...validatingPolicy(), extra: true }, [['extra', 'unknown field "extra"']]);
      expectErrors(validatingPolicy({}, { lables: { a: 'b' } }), [['metadata.lables', 'did you mean "labels"?']]);
    });

    test('wrong JSON types are errors, reported once', () => {
      expectErrors(validatingPolicy({ validations: { expression: 'true' } }), [
        ['spec.validations', 'must be of type array, not object'],
        // The dropped list leaves the policy with nothing to check, which the apiserver reports on the sibling.
        ['spec.auditAnnotations', 'validations or auditAnnotations must contain at least one item'],
      ]);
      expectErrors(validatingPolicy({ validations: [{ expression: 1 }] }), [['spec.validations[0].expression', 'must be of type string, not number']]);
      // Go decodes a null list entry as the zero value, which the rules then check.
      expectErrors(validatingPolicy({ validations: [null] }), [['spec.validations[0].expression', 'Required value']]);
      expectErrors(validatingPolicy({}, { labels: { a: null } }), []);
      expectErrors(validatingPolicy({}, { labels: { a: 1 } }), [['metadata.labels[a]', 'must be of type string, not number']]);
      expectErrors(validatingBinding({ policyName: 7 }), [['spec.policyName', 'must be of type string, not number']]);
    });

    test('integers must be whole and fit their format', () => {
      const hooks = (timeoutSeconds: unknown) => webhookConfiguration('ValidatingWebhookConfiguration', [{ ...webhookConfiguration('ValidatingWebhookConfiguration').webhooks[0], timeoutSeconds }]);
      expectErrors(hooks(1.5), [['webhooks[0].timeoutSeconds', 'must be of type integer, not a fraction']]);
      expectErrors(hooks(2 ** 31), [['webhooks[0].timeoutSeconds', 'must fit in a 32-bit integer']]);
    });

    test('null means not set, as in Kubernetes JSON', () => {
      expectValid(validatingPolicy({ paramKind: null, variables: null }, { labels: null }));
    });
  });
});

describe('metadata (ObjectMeta rules every kind shares)', () => {
  const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '6f1c1f0e-7d1a-4c1e-9e2b-1c2d3e4f5a6b' };
  const withMeta = (metadata: object) => validatingBinding({}, metadata);

  test('a complete owner reference is valid', () => {
    expectValid(withMeta({ ownerReferences: [owner, { ...owner, name: 'second', controller: true }] }));
  });

  test.each([
    ['apiVersion', { apiVersion: '' }, 'Required value: must not be empty'],
    ['apiVersion', { apiVersion: 'a/b/c' }, 'must be <group>/<version> or <version>'],
    ['apiVersion', { apiVersion: 'apps/' }, 'must be <group>/<version> or <version>'],
    ['kind', { kind: '' }, 'Required value: must not be empty'],
    ['name', { name: '' }, 'Required value: must not be empty'],
    ['uid', { uid: '' }, 'Required value: must not be empty'],
  ])('an owner reference needs %s (%j)', (field, change, message) => {
    expectErrors(withMeta({ ownerReferences: [{ ...owner, ...change }] }), [[`metadata.ownerReferences[0].${field}`, message]]);
  });

  test('Events cannot own objects, and only one owner is the controller', () => {
    expectErrors(withMeta({ ownerReferences: [{ ...owner, kind: 'Event' }] }), [['metadata.ownerReferences[0]', '/v1, Kind=Event is disallowed from being an owner']]);
    expectErrors(withMeta({ ownerReferences: [{ ...owner, controller: true }, { ...owner, name: 'b', controller: true }] }), [
      ['metadata.ownerReferences', 'Only one reference can have Controller set to true. Found "true" in references for ConfigMap/owner and ConfigMap/b'],
    ]);
  });

  test('finalizers are qualified names, and orphan excludes foregroundDeletion', () => {
    expectValid(withMeta({ finalizers: ['example.com/cleanup', 'orphan'] }));
    expectErrors(withMeta({ finalizers: ['bad_finalizer/x/y'] }), [['metadata.finalizers', 'Invalid value: "bad_finalizer/x/y"']]);
    expectErrors(withMeta({ finalizers: ['orphan', 'foregroundDeletion'] }), [['metadata.finalizers', 'finalizer orphan and foregroundDeletion cannot be both set']]);
  });

  test('generation is the apiserver\'s to set: any value passes on create', () => {
    expectValid(withMeta({ generation: -1 }));
  });

  test('a generateName is checked as a prefix, and as the name it generates', () => {
    const manifest = validatingBinding({}, { name: undefined, generateName: 'Demo-' });
    expectErrors(manifest, [
      ['metadata.generateName', 'Invalid value: "Demo-": a lowercase RFC 1123 subdomain'],
      ['metadata.name', 'Invalid value: "Demo-xxxxx": a lowercase RFC 1123 subdomain'],
    ]);
    expectErrors(validatingBinding({}, { name: undefined, generateName: 'demo-' }), []);
  });
});

describe('ManifestValidator.validateAll', () => {
  test('reports each manifest with its index and skips other API groups', () => {
    const violations = ManifestValidator.validateAll([
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { anything: true } },
      validatingPolicy({ failurePolicy: 'x' }),
    ]);
    expect(violations).toEqual([expect.objectContaining({ path: 'spec.failurePolicy', manifestIndex: 1 })]);
  });

  test('duplicate names per kind are errors; the same name across kinds is fine', () => {
    const violations = ManifestValidator.validateAll([validatingPolicy(), validatingPolicy(), { ...validatingBinding(), metadata: { name: 'demo-policy' } }]);
    expect(violations).toEqual([expect.objectContaining({
      path: 'metadata.name',
      manifestIndex: 1,
      kind: 'ValidatingAdmissionPolicy',
      message: expect.stringContaining('Duplicate value: "demo-policy": manifest 0 is a ValidatingAdmissionPolicy with the same name'),
    })]);
  });

  test('a binding whose policy in the set is of the other kind is an error', () => {
    const violations = ManifestValidator.validateAll([mutatingPolicy({}, { name: 'shared' }), validatingBinding({ policyName: 'shared' })]);
    expect(violations).toEqual([expect.objectContaining({
      path: 'spec.policyName',
      manifestIndex: 1,
      message: expect.stringContaining('names a MutatingAdmissionPolicy, but a ValidatingAdmissionPolicyBinding binds a ValidatingAdmissionPolicy'),
    })]);
    const reverse = ManifestValidator.validateAll([validatingPolicy({}, { name: 'shared' }), mutatingBinding({ policyName: 'shared' })]);
    expect(reverse).toEqual([expect.objectContaining({ path: 'spec.policyName', message: expect.stringContaining('use a ValidatingAdmissionPolicyBinding') })]);
  });

  test('a binding of a policy outside the set is fine', () => {
    expect(ManifestValidator.validateAll([validatingBinding({ policyName: 'elsewhere' })])).toEqual([]);
  });

  test('paramRef must match the policy having a paramKind, both ways', () => {
    const paramRef = { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Deny' };
    const withoutKind = ManifestValidator.validateAll([validatingPolicy(), validatingBinding({ paramRef })]);
    expect(withoutKind).toEqual([expect.objectContaining({ path: 'spec.paramRef', message: expect.stringContaining('has no spec.paramKind, so this paramRef would be ignored') })]);
    const withKind = ManifestValidator.validateAll([validatingPolicy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }), validatingBinding()]);
    expect(withKind).toEqual([expect.objectContaining({ path: 'spec.paramRef', message: expect.stringContaining('declares spec.paramKind (ConfigMap)') })]);
    expect(ManifestValidator.validateAll([validatingPolicy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }), validatingBinding({ paramRef })])).toEqual([]);
    const mutating = ManifestValidator.validateAll([mutatingPolicy(), mutatingBinding({ paramRef })]);
    expect(mutating.map((v) => v.path)).toEqual(['spec.paramRef']);
  });

  test('skips entries that are not admission objects, and refuses what is not a list', () => {
    expect(ManifestValidator.validateAll([null, 1, 'x', []])).toEqual([]);
    expect(() => ManifestValidator.validateAll(undefined as any)).toThrow('takes a list of manifests, got undefined');
  });
});

describe('robustness (property-based)', () => {
  const kinds = ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'];
  const hostile = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null), fc.boolean(), fc.double(), fc.integer(), fc.string({ unit: 'binary' }), fc.constant(undefined),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom('spec', 'metadata', 'name', 'rules', 'webhooks', 'validations', 'resourceRules', 'matchConstraints', 'operations', '__proto__', 'constructor', 'x'), tie('value'), { maxKeys: 5 }),
    ),
  })).value;

  test('never throws, and every violation has a path, a message and a severity', () => {
    fc.assert(fc.property(fc.constantFrom(...kinds), fc.constantFrom('v1', 'v1beta1', 'v1alpha1', 'v2'), hostile, hostile, (kind, version, spec, metadata) => {
      const manifest = { apiVersion: `${GROUP}/${version}`, kind, metadata, spec, webhooks: spec };
      for (const v of [...ManifestValidator.validate(manifest), ...ManifestValidator.validateAll([manifest, manifest])]) {
        expect(v.path).toMatch(/\S/);
        expect(v.message).toMatch(/\S/);
        expect([ViolationSeverity.ERROR, ViolationSeverity.WARNING]).toContain(v.severity);
      }
    }), { numRuns: 300 });
  });

  test('mutating one field of a valid manifest never throws', () => {
    const bases = [validatingPolicy(), validatingBinding(), mutatingPolicy(), mutatingBinding(), webhookConfiguration('MutatingWebhookConfiguration')];
    fc.assert(fc.property(fc.constantFrom(...bases), fc.constantFrom('spec', 'metadata', 'webhooks'), hostile, (base, field, value) => {
      const result = ManifestValidator.validate({ ...base, [field]: value });
      expect(Array.isArray(result)).toBe(true);
    }), { numRuns: 300 });
  });

  test('huge and deeply nested input is handled', () => {
    let deep: any = {};
    for (let i = 0; i < 10_000; i++) deep = { spec: deep };
    expect(() => ManifestValidator.validate(validatingPolicy({ variables: [deep] }))).not.toThrow();
    expect(errors(validatingPolicy({}, { name: 'a'.repeat(1_000_000) }))[0].path).toBe('metadata.name');
  });

  test('an object whose getters throw becomes an internal-error violation', () => {
    const evil = validatingPolicy();
    Object.defineProperty(evil.spec, 'failurePolicy', { enumerable: true, get: () => { throw new Error('boom'); } });
    expect(ManifestValidator.validate(evil)).toEqual([expect.objectContaining({ path: '(object)', message: expect.stringContaining('Internal error: the validator failed (boom)') })]);
  });
});
