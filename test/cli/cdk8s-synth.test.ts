// The validation plugin under the real cdk8s CLI: `cdk8s synth` on the example app, configured by
// examples/cdk8s.yaml, with admission manifests from elsewhere (as a Helm chart renders them).
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const root = path.join(__dirname, '..', '..');
const examples = path.join(root, 'examples');
// The devDependency's own entry point (the package's exports do not include it).
const cli = path.join(root, 'node_modules', 'cdk8s-cli', 'bin', 'cdk8s');

/** Runs `cdk8s synth` in examples/ (its cdk8s.yaml) on the example app plus the given YAML. */
function synthWithHelmOutput(helmOutput: string): { status: number | null; output: string; written: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-synth-'));
  try {
    return synthIn(dir, helmOutput);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function synthIn(dir: string, helmOutput: string) {
  const helmFile = path.join(dir, 'helm-output.yaml');
  fs.writeFileSync(helmFile, helmOutput);
  const outdir = path.join(dir, 'dist');
  const app = `npx ts-node -T --project tsconfig.json ../test/cli/app-with-helm-output.ts ${helmFile}`;
  const run = spawnSync(process.execPath, [cli, 'synth', '--no-check-upgrade', '--app', app, '--output', outdir], {
    cwd: examples,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const written = fs.existsSync(outdir) ? fs.readdirSync(outdir).map((file) => fs.readFileSync(path.join(outdir, file), 'utf8')) : [];
  return { status: run.status, output: `${run.stdout}\n${run.stderr}`, written };
}

const policy = (validationActions: string) => `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: require-team-label
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [apps]
        apiVersions: [v1]
        operations: [CREATE, UPDATE]
        resources: [deployments]
  validations:
    - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
      message: every Deployment needs a team label
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: require-team-label
spec:
  policyName: require-team-label
  validationActions: ${validationActions}
`;

describe('cdk8s synth with the AdmissionValidationPlugin', () => {
  test('passes on valid admission manifests from elsewhere, and writes them', () => {
    const { status, output, written } = synthWithHelmOutput(policy('[Deny]'));
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('Validations ended succesfully') });
    expect(output).toMatch(/cdk8s-admission: \d+ manifests checked for Kubernetes 1\.37, 0 violations/);
    expect(written.join('\n')).toContain('name: require-team-label');
  });

  test('fails on an admission manifest the apiserver would reject, naming it, its construct and the field', () => {
    const { status, output } = synthWithHelmOutput(policy('[Deny, Warn]'));
    expect(status).toBe(2); // the CLI's exit code for failed validations
    expect(output).toContain('Validation failed');
    expect(output).toContain('cdk8s-admission: spec.validationActions (1 occurrences)');
    expect(output).toContain('Construct Path: policy-controller/helm-output/require-team-label-validatingadmissionpolicybinding');
    expect(output).toMatch(/Manifest Path: .*policy-controller\.k8s\.yaml/);
    expect(output).toContain('Resource Name: require-team-label');
    expect(output).toContain('must not contain both Deny and Warn');
  });
});
