// The loader's rules for the files of a staticManifestsDir (ManifestValidator's staticManifests option):
// each rule has a case that passes only while the rule is in place, and a valid static set passes.
import * as fc from 'fast-check';
import { errors, expectErrors, GROUP, mutatingBinding, mutatingPolicy, validatingBinding, validatingPolicy, webhook, webhookConfiguration, warnings } from './fixtures';
import { KubernetesVersion, ManifestValidator, ViolationSeverity } from '../../src';
import { STATIC_SUFFIX } from '../../src/validation/static-suffix';

const STATIC = { staticManifests: true } as const;
const s = (name: string) => `${name}${STATIC_SUFFIX}`;

const policy = (spec: object = {}) => validatingPolicy(spec, { name: s('baseline') });
const binding = (spec: object = {}) => validatingBinding({ policyName: s('baseline'), ...spec }, { name: s('baseline') });
const urlWebhook = (fields: object = {}) => webhook({ clientConfig: { url: 'https://10.0.0.1:8443/validate' }, ...fields });
const staticWebhooks = (kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration', hooks = [urlWebhook()]) =>
  ({ ...webhookConfiguration(kind, hooks), metadata: { name: s('hooks') } });

const errorsOf = (manifests: unknown[], options: object = {}) => ManifestValidator.validateAll(manifests, { ...STATIC, ...options })
  .filter((v) => v.severity === ViolationSeverity.ERROR)
  .map((v) => [v.manifestIndex, v.path, v.message]);

describe('a valid static set', () => {
  test('passes, with each of the four plugins\' kinds', () => {
    const set = [
      policy(), binding(),
      { ...mutatingPolicy(), metadata: { name: s('defaults') } }, { ...mutatingBinding({ policyName: s('defaults') }), metadata: { name: s('defaults') } },
      staticWebhooks('ValidatingWebhookConfiguration'), staticWebhooks('MutatingWebhookConfiguration'),
    ];
    expect(errorsOf(set)).toEqual([]);
    expect(ManifestValidator.validateAll(set, STATIC).filter((v) => /static/.test(v.message))).toEqual([]);
  });

  test('is refused as API objects from 1.37 on, for the suffix the API reserves', () => {
    expect(errors(policy()).map((v) => v.path)).toEqual(['metadata.name']);
    expect(errors(policy(), STATIC)).toEqual([]);
  });
});

describe('each object', () => {
  test('must be admissionregistration.k8s.io/v1: the loader refuses other versions as an unsupported resource type', () => {
    const old = { ...mutatingPolicy(), apiVersion: `${GROUP}/v1beta1`, metadata: { name: s('defaults') } };
    expectErrors(old, [['apiVersion', 'loads only admissionregistration.k8s.io/v1 objects from a staticManifestsDir']], STATIC);
  });

  test('must have a name, ending with the static suffix', () => {
    expectErrors(validatingPolicy({}, { name: 'baseline' }), [['metadata.name', 'must end with ".static.k8s.io": rename it, e.g. to "baseline.static.k8s.io"']], STATIC);
    const generated = validatingPolicy();
    generated.metadata = { generateName: 'baseline-' };
    expect(errors(generated, STATIC).map((v) => [v.path, v.message])).toContainEqual(['metadata.name', expect.stringContaining('without a name (generateName does not apply to files)')]);
  });

  test('any name with the suffix is accepted as a name, and any other refused', () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z0-9]([a-z0-9.-]{0,40}[a-z0-9])?$/), fc.boolean(), (stem, suffixed) => {
      const name = suffixed ? s(stem) : stem;
      const named = errors(validatingPolicy({}, { name }), STATIC).filter((v) => v.path === 'metadata.name' && /the name of a static manifest must end with/.test(v.message));
      expect(named.length).toBe(name.endsWith(STATIC_SUFFIX) ? 0 : 1);
    }));
  });

  test('a policy takes no paramKind', () => {
    expectErrors(policy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }), [['spec.paramKind', 'Forbidden: spec.paramKind is not supported for static manifests']], STATIC);
    const mutating = { ...mutatingPolicy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }), metadata: { name: s('defaults') } };
    expectErrors(mutating, [['spec.paramKind', 'not supported for static manifests']], STATIC);
  });

  test('a binding takes no paramRef, and binds a policy with the suffix', () => {
    expectErrors(binding({ paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } }),
      [['spec.paramRef', 'Forbidden: spec.paramRef is not supported for static manifests']], STATIC);
    expectErrors(binding({ policyName: 'baseline' }), [['spec.policyName', 'a static binding binds only a policy of its own static set']], STATIC);
    const mutating = { ...mutatingBinding({ policyName: 'defaults' }), metadata: { name: s('defaults') } };
    expectErrors(mutating, [['spec.policyName', 'whose name ends with ".static.k8s.io"']], STATIC);
  });

  test.each(['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'] as const)('a %s calls its webhooks by URL only', (kind) => {
    const config = staticWebhooks(kind, [urlWebhook(), webhook({ name: 'second.example.com' })]);
    expectErrors(config, [['webhooks[1].clientConfig.service', 'clientConfig.service is not supported for static manifests; use clientConfig.url instead']], STATIC);
  });
});

describe('the set', () => {
  test('every binding\'s policy is in it', () => {
    expect(errorsOf([binding()])).toEqual([[0, 'spec.policyName', expect.stringContaining('the bound policy is not in the static set')]]);
    expect(errorsOf([policy(), binding()])).toEqual([]);
  });

  test('a binding naming a policy of the other kind is told so', () => {
    const mutating = { ...mutatingPolicy(), metadata: { name: s('baseline') } };
    expect(errorsOf([mutating, binding()]).map(([, path, message]) => [path, message])).toEqual([
      ['spec.policyName', expect.stringContaining('names a MutatingAdmissionPolicy')],
      ['spec.policyName', expect.stringContaining('not in the static set')],
    ]);
  });

  test('names are unique per kind: a policy and its binding may share one', () => {
    expect(errorsOf([policy(), binding(), policy()])).toEqual([[2, 'metadata.name', expect.stringContaining('refuses a static set with a duplicate name')]]);
  });

  test('holds only the four plugins\' kinds', () => {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits' } };
    expect(errorsOf([configMap])).toEqual([[0, 'kind', expect.stringContaining('refuses this v1 object in a staticManifestsDir as an unsupported resource type')]]);
  });

  test('reads the items of a List, as the loader does, at their path in it', () => {
    const list = { apiVersion: 'v1', kind: 'List', items: [policy(), binding({ paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } })] };
    expect(errorsOf([list])).toEqual([[0, 'items[1].spec.paramRef', expect.stringContaining('not supported for static manifests')]]);
    const typed = { apiVersion: `${GROUP}/v1`, kind: 'ValidatingAdmissionPolicyBindingList', items: [binding()] };
    expect(errorsOf([typed, policy()])).toEqual([]);
  });

  test('needs a version that loads static manifests: refused before 1.36, warned at 1.36', () => {
    const at = (version: KubernetesVersion) => ManifestValidator.validateAll([policy(), binding()], { ...STATIC, kubernetesVersion: version })
      .filter((v) => v.path === '(object)').map((v) => [v.severity, v.message]);
    expect(at(KubernetesVersion.V1_35)).toEqual([[ViolationSeverity.ERROR, expect.stringContaining('from Kubernetes 1.36 (feature gate ManifestBasedAdmissionControlConfig)')]]);
    expect(at(KubernetesVersion.V1_36)).toEqual([[ViolationSeverity.WARNING, expect.stringContaining('only with the alpha feature gate ManifestBasedAdmissionControlConfig on')]]);
    expect(at(KubernetesVersion.V1_37)).toEqual([]);
  });

  test('a staticManifests option that is not a boolean is refused', () => {
    expect(() => ManifestValidator.validateAll([], { staticManifests: 'yes' as any })).toThrow(/ManifestValidator.validateAll: options: staticManifests must be true or false, got a string/);
    expect(() => ManifestValidator.validate({}, { staticManifests: 1 as any })).toThrow(/ManifestValidator.validate: options: staticManifests must be true or false/);
  });
});

describe('outside static mode', () => {
  test('a binding created through the API never binds a static policy, and is warned', () => {
    const api = validatingBinding({ policyName: s('baseline') });
    expect(warnings(api).map((v) => [v.path, v.message])).toEqual([
      ['spec.policyName', expect.stringContaining('the apiserver pairs a binding created through the API only with policies created through the API: this binding never acts')],
    ]);
    expect(warnings(validatingBinding()).filter((v) => v.path === 'spec.policyName')).toEqual([]);
  });
});
