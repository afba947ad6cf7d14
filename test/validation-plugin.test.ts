import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Yaml } from 'cdk8s';
import { AdmissionValidationPlugin } from '../src';

/** A stand-in for the cdk8s CLI's ValidationContext, recording what the plugin reports. */
function context(files: { [name: string]: object[] }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-'));
  const manifests = Object.entries(files).map(([name, docs]) => {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    Yaml.save(file, docs);
    return file;
  });
  const violations: any[] = [];
  const submitted: string[] = [];
  return {
    violations,
    submitted,
    ctx: {
      manifests,
      parseManifest: (p: string) => Yaml.load(p),
      logger: { log: () => undefined },
      report: { addViolation: (v: any) => violations.push(v), submit: (status: string) => submitted.push(status) },
    },
  };
}

const binding = (name: string, actions: string[]) => ({
  apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: 'p', validationActions: actions },
});

const policy = (name: string, failurePolicy: string) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: {
    failurePolicy,
    matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] },
    validations: [{ expression: 'true' }],
  },
});

describe('AdmissionValidationPlugin', () => {
  test('checks the files of a static set as the loader does, and every other file as API objects', async () => {
    const configuration = {
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AdmissionConfiguration',
      plugins: [{
        name: 'ValidatingAdmissionPolicy',
        configuration: { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'ValidatingAdmissionPolicyConfiguration', staticManifestsDir: '/etc/kubernetes/admission/validating-admission-policies' },
      }],
    };
    const staticBinding = { ...binding('baseline.static.k8s.io', ['Deny']), spec: { policyName: 'baseline.static.k8s.io', validationActions: ['Deny'] } };
    const { ctx, violations, submitted } = context({
      'app.k8s.yaml': [policy('api.static.k8s.io', 'Fail')],
      'control-plane/admission-configuration.yaml': [configuration],
      'control-plane/validating-admission-policies/ValidatingAdmissionPolicy.baseline.static.k8s.io.yaml': [policy('baseline.static.k8s.io', 'Fail')],
      'control-plane/validating-admission-policies/ValidatingAdmissionPolicyBinding.baseline.static.k8s.io.yaml': [staticBinding],
      'control-plane/validating-admission-policies/ValidatingAdmissionPolicyBinding.orphan.yaml': [binding('orphan', ['Deny'])],
    });
    await new AdmissionValidationPlugin().validate(ctx);
    expect(submitted).toEqual(['failure']);
    expect(violations.map((v) => [v.violatingResources[0].resourceName, v.ruleName, path.basename(v.violatingResources[0].manifestPath)])).toEqual([
      ['api.static.k8s.io', 'cdk8s-admission error: ValidatingAdmissionPolicy metadata.name', 'app.k8s.yaml'],
      ['orphan', 'cdk8s-admission error: ValidatingAdmissionPolicyBinding metadata.name', 'ValidatingAdmissionPolicyBinding.orphan.yaml'],
      ['orphan', 'cdk8s-admission error: ValidatingAdmissionPolicyBinding spec.policyName', 'ValidatingAdmissionPolicyBinding.orphan.yaml'],
      ['orphan', 'cdk8s-admission error: ValidatingAdmissionPolicyBinding spec.policyName', 'ValidatingAdmissionPolicyBinding.orphan.yaml'],
    ]);
    expect(violations[0].recommendation).toContain('reserved for static manifest-based configurations');
    expect(violations.slice(1).map((v) => v.recommendation)).toEqual([
      expect.stringContaining('must end with ".static.k8s.io"'),
      expect.stringContaining('a static binding binds only a policy of its own static set'),
      expect.stringContaining('the bound policy is not in the static set'),
    ]);
  });

  test('a directory holds the kinds of the plugins that read it: another plugin\'s object is refused, as the loader refuses it', async () => {
    const pluginEntry = (name: string, kind: string, dir: string) => ({
      name, configuration: { apiVersion: 'apiserver.config.k8s.io/v1', kind, staticManifestsDir: `/etc/kubernetes/admission/${dir}` },
    });
    const configuration = {
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AdmissionConfiguration',
      plugins: [
        pluginEntry('ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyConfiguration', 'policies'),
        pluginEntry('ValidatingAdmissionWebhook', 'WebhookAdmissionConfiguration', 'webhooks'),
      ],
    };
    const webhooks = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'scan.static.k8s.io' },
      webhooks: [{
        name: 'scan.example.com',
        clientConfig: { url: 'https://127.0.0.1:9443/scan' },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
      }],
    };
    const staticBinding = { ...binding('baseline.static.k8s.io', ['Deny']), spec: { policyName: 'baseline.static.k8s.io', validationActions: ['Deny'] } };
    const { ctx, violations } = context({
      'control-plane/admission-configuration.yaml': [configuration],
      'control-plane/policies/policy.yaml': [policy('baseline.static.k8s.io', 'Fail'), staticBinding],
      'control-plane/policies/webhooks.yaml': [webhooks],
      'control-plane/webhooks/webhooks.yaml': [webhooks],
    });
    await new AdmissionValidationPlugin().validate(ctx);
    expect(violations.map((v) => [v.ruleName, v.violatingResources[0].manifestPath.split(path.sep).slice(-2).join('/')])).toEqual([
      ['cdk8s-admission error: ValidatingWebhookConfiguration kind', 'policies/webhooks.yaml'],
    ]);
    expect(violations[0].recommendation).toContain('the ValidatingAdmissionPolicy admission plugin reads this directory');
  });

  test('reports the apiserver\'s errors for every manifest, including other tools\' YAML, and fails', async () => {
    const { ctx, violations, submitted } = context({
      'app.k8s.yaml': [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } }, binding('ok', ['Deny'])],
      'helm.k8s.yaml': [binding('bad', ['Deny', 'Warn'])],
    });
    await new AdmissionValidationPlugin().validate(ctx);
    expect(submitted).toEqual(['failure']);
    expect(violations).toEqual([{
      ruleName: 'cdk8s-admission error: ValidatingAdmissionPolicyBinding spec.validationActions',
      recommendation: expect.stringContaining('must not contain both Deny and Warn'),
      fix: 'change spec.validationActions as the recommendation says', // the message says what is allowed
      violatingResources: [{ resourceName: 'bad', locations: ['spec.validationActions'], manifestPath: expect.stringMatching(/helm\.k8s\.yaml$/) }],
    }]);
  });

  test('a policy and a binding of one name: each violation names its own manifest, never the other', async () => {
    // The CLI maps a resourceName to the construct of the last object of that name; a shared
    // name is therefore given with the kind and the position, which it cannot map to another object.
    const { ctx, violations } = context({
      'app.k8s.yaml': [policy('shared', 'Maybe'), { ...binding('shared', ['Deny', 'Warn']), spec: { policyName: 'shared', validationActions: ['Deny', 'Warn'] } }],
    });
    await new AdmissionValidationPlugin().validate(ctx);
    expect(violations.map((v) => [v.ruleName, v.violatingResources[0].resourceName])).toEqual([
      ['cdk8s-admission error: ValidatingAdmissionPolicy spec.failurePolicy',
        'shared (ValidatingAdmissionPolicy, document 1 of the file; 2 manifests have this name)'],
      ['cdk8s-admission error: ValidatingAdmissionPolicyBinding spec.validationActions',
        'shared (ValidatingAdmissionPolicyBinding, document 2 of the file; 2 manifests have this name)'],
    ]);
    expect(violations[0].fix).toBe('set spec.failurePolicy to one of "Fail", "Ignore"');
  });

  test('a manifest without a name is named by its kind and position', async () => {
    const { ctx, violations } = context({ 'a.yaml': [{ ...binding('x', ['Deny']), metadata: {} }] });
    await new AdmissionValidationPlugin().validate(ctx);
    expect(violations[0].violatingResources[0].resourceName).toBe('(ValidatingAdmissionPolicyBinding, document 1 of the file)');
  });

  test('warnings are shown by default without failing; warningsAsErrors fails on them; reportWarnings: false hides them', async () => {
    const warned = { ...binding('old', ['Deny']), apiVersion: 'admissionregistration.k8s.io/v1beta1' };
    const logs: string[] = [];
    const shown = context({ 'a.yaml': [warned] });
    await new AdmissionValidationPlugin({ kubernetesVersion: '1.31' }).validate({ ...shown.ctx, logger: { log: (m: string) => logs.push(m) } });
    expect(shown.submitted).toEqual(['success']);
    expect(shown.violations.map((v) => v.ruleName)).toEqual(['cdk8s-admission warning: ValidatingAdmissionPolicyBinding apiVersion']);
    expect(logs).toEqual(['cdk8s-admission: 1 manifest checked for Kubernetes 1.31: 0 errors, 1 warning']);

    const strict = context({ 'a.yaml': [warned] });
    await new AdmissionValidationPlugin({ warningsAsErrors: true, kubernetesVersion: '1.31' }).validate(strict.ctx);
    expect(strict.submitted).toEqual(['failure']);
    expect(strict.violations).toHaveLength(1);

    const hidden = context({ 'a.yaml': [warned] });
    await new AdmissionValidationPlugin({ reportWarnings: false, kubernetesVersion: '1.31' }).validate(hidden.ctx);
    expect({ submitted: hidden.submitted, violations: hidden.violations }).toEqual({ submitted: ['success'], violations: [] });
  });

  test('warningsAsErrors with reportWarnings: false is refused: it would fail on what it does not show', () => {
    expect(() => new AdmissionValidationPlugin({ warningsAsErrors: true, reportWarnings: false }))
      .toThrow(/warningsAsErrors fails the synth on warnings, which reportWarnings: false leaves out/);
  });
});
