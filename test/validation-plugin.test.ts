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

describe('AdmissionValidationPlugin', () => {
  test('reports the apiserver\'s errors for every manifest, including other tools\' YAML, and fails', async () => {
    const { ctx, violations, submitted } = context({
      'app.k8s.yaml': [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } }, binding('ok', ['Deny'])],
      'helm.k8s.yaml': [binding('bad', ['Deny', 'Warn'])],
    });
    await new AdmissionValidationPlugin().validate(ctx);
    expect(submitted).toEqual(['failure']);
    expect(violations).toEqual([{
      ruleName: 'cdk8s-admission: spec.validationActions',
      recommendation: expect.stringContaining('must not contain both Deny and Warn'),
      fix: expect.any(String),
      violatingResources: [{ resourceName: 'bad', locations: ['spec.validationActions'], manifestPath: expect.stringMatching(/helm\.k8s\.yaml$/) }],
    }]);
  });

  test('succeeds on valid manifests; warnings count only with warningsAsErrors', async () => {
    const warned = { ...binding('old', ['Deny']), apiVersion: 'admissionregistration.k8s.io/v1beta1' };
    const plain = context({ 'a.yaml': [warned] });
    await new AdmissionValidationPlugin({ kubernetesVersion: '1.31' }).validate(plain.ctx);
    expect(plain.submitted).toEqual(['success']);
    const strict = context({ 'a.yaml': [warned] });
    await new AdmissionValidationPlugin({ warningsAsErrors: true, kubernetesVersion: '1.31' }).validate(strict.ctx);
    expect(strict.submitted).toEqual(['failure']);
    expect(strict.violations[0].ruleName).toBe('cdk8s-admission: apiVersion');
  });
});
