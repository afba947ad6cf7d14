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

/** The CLI colours the rule titles whatever FORCE_COLOR says. */
const stripColours = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

const policy = (validationActions: string, bindingName = 'require-team-label', failurePolicy = 'Fail') => `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: require-team-label
spec:
  failurePolicy: ${failurePolicy}
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
  name: ${bindingName}
spec:
  policyName: require-team-label
  validationActions: ${validationActions}
`;

describe('cdk8s synth with the AdmissionValidationPlugin', () => {
  test('passes on valid admission manifests from elsewhere, and writes them', () => {
    const { status, output, written } = synthWithHelmOutput(policy('[Deny]'));
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('Validations ended succesfully') });
    expect(output).toMatch(/cdk8s-admission: \d+ manifests checked for Kubernetes 1\.37: 0 errors, 0 warnings/);
    expect(output).not.toMatch(/cdk8s-admission (error|warning):/);
    expect(written.join('\n')).toContain('name: require-team-label');
  });

  test('fails on an admission manifest the apiserver would reject, naming its construct, file, object and field', () => {
    const { status, output } = synthWithHelmOutput(policy('[Deny, Warn]', 'require-team-label-binding'));
    expect(status).toBe(2); // the CLI's exit code for failed validations
    expect(output).toContain('Validation failed');
    expect(output).toContain('cdk8s-admission error: ValidatingAdmissionPolicyBinding spec.validationActions (1 occurrences)');
    expect(output).toContain('Construct Path: policy-controller/helm-output/require-team-label-binding-validatingadmissionpolicybinding');
    expect(output).toMatch(/Manifest Path: .*policy-controller\.k8s\.yaml/);
    expect(output).toContain('Resource Name: require-team-label-binding');
    expect(output).toContain('must not contain both Deny and Warn');
    expect(output).not.toContain('see the cdk8s-admission README');
    // docs/cli-plugin.md shows this report: its lines are the CLI's, up to the temporary
    // directory and the recommendation's tail, which the page elides as "(...)".
    const page = fs.readFileSync(path.join(root, 'docs', 'cli-plugin.md'), 'utf8');
    const shown = /```text\n(cdk8s-admission error:[\s\S]*?)```/.exec(page)?.[1];
    const asPattern = (text: string) => new RegExp(text.split('\n')
      .map((line) => line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('dist/', '.*').replace('\\(\\.\\.\\.\\)', '.*'))
      .join('\n'));
    expect(shown).toBeDefined();
    expect(stripColours(output)).toMatch(asPattern(shown!));
  });

  test('a policy and a binding of one name: each violation is attributed to its own manifest, not to the other\'s construct', () => {
    // The CLI keeps one construct per metadata.name (the binding's, written last): a shared name
    // must not send the policy's violation to the binding's construct.
    const { status, output } = synthWithHelmOutput(policy('[Deny, Warn]', 'require-team-label', 'Maybe'));
    expect(status).toBe(2);
    const occurrences = stripColours(output).split(/\ncdk8s-admission /).slice(1);
    expect(occurrences.map((o) => [o.split(' (')[0], /Construct Path: (.*)/.exec(o)?.[1], /Resource Name: (.*)/.exec(o)?.[1]])).toEqual([
      ['error: ValidatingAdmissionPolicy spec.failurePolicy', 'N/A',
        'require-team-label (ValidatingAdmissionPolicy, document 1 of the file; 2 manifests have this name)'],
      ['error: ValidatingAdmissionPolicyBinding spec.validationActions', 'N/A',
        'require-team-label (ValidatingAdmissionPolicyBinding, document 2 of the file; 2 manifests have this name)'],
    ]);
    expect(output).toContain('How to fix: set spec.failurePolicy to one of "Fail", "Ignore"');
  });
});
