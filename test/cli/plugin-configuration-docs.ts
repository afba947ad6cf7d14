// docs/cli-plugin.md's cdk8s.yaml for the validation plugin, as written, in a fresh app that installed the
// packed library (dist/js/), under the real cdk8s synth: `npx projen test:plugin-package`, after
// `npx projen package:js`. Also that page's way for apps in other languages (a plugin directory).
// cdk8s-synth.test.ts runs the same checks in jest on the example app, with the library from source.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const root = path.join(__dirname, '..', '..');
const cli = path.join(root, 'node_modules', 'cdk8s-cli', 'bin', 'cdk8s');

const VALID = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: require-team-label-binding
spec:
  policyName: require-team-label
  validationActions: [Deny]
`;
const INVALID = VALID.replace('[Deny]', '[Deny, Warn]');

// A JavaScript cdk8s app: a policy of the library's (unless the app does not install it), and YAML
// included as from a Helm chart.
function appSource(withPolicy: boolean): string {
  return [
    "const { App, Chart, Include } = require('cdk8s');",
    'const app = new App();',
    ...(withPolicy ? [
      "const { AdmissionResource, Operation, ValidatingPolicy } = require('cdk8s-admission');",
      "new ValidatingPolicy(new Chart(app, 'admission'), 'require-team-label', {",
      "  name: 'require-team-label',",
      '  resourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE)],',
      "  validations: [{ expression: \"has(object.metadata.labels) && 'team' in object.metadata.labels\" }],",
      '});',
    ] : []),
    "new Include(new Chart(app, 'policy-controller'), 'helm-output', { url: 'helm-output.yaml' });",
    'app.synth();',
    '',
  ].join('\n');
}

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

function npm(args: string[], cwd: string): void {
  const result = run('npm', ['install', '--no-audit', '--no-fund', ...args], cwd);
  assert.strictEqual(result.status, 0, `npm install ${args.join(' ')} failed:\n${result.output}`);
}

/** The configuration docs/cli-plugin.md gives: the YAML block that starts with `# cdk8s.yaml`. */
function pageConfiguration(): string {
  const page = fs.readFileSync(path.join(root, 'docs', 'cli-plugin.md'), 'utf8');
  const blocks = [...page.matchAll(/^```yaml\n(# cdk8s\.yaml\n[\s\S]*?)^```$/gm)].map((m) => m[1]);
  assert.strictEqual(blocks.length, 1, 'docs/cli-plugin.md has one YAML block that starts with "# cdk8s.yaml"');
  return blocks[0];
}

function synth(app: string, helmOutput: string) {
  fs.writeFileSync(path.join(app, 'helm-output.yaml'), helmOutput);
  // The page's app runs main.ts with ts-node; this app is JavaScript, the rest of the file is as written.
  return run(process.execPath, [cli, 'synth', '--no-check-upgrade', '--app', 'node main.js'], app);
}

function expectVerdicts(app: string, label: string): void {
  const passed = synth(app, VALID);
  assert.strictEqual(passed.status, 0, `${label}: valid manifests failed the synth:\n${passed.output}`);
  assert.match(passed.output, /cdk8s-admission: \d+ manifests? checked for Kubernetes 1\.30: 0 errors, 0 warnings/, label);

  const failed = synth(app, INVALID);
  assert.strictEqual(failed.status, 2, `${label}: an invalid binding did not fail the synth with the CLI's exit code 2:\n${failed.output}`);
  for (const part of [
    'cdk8s-admission error: ValidatingAdmissionPolicyBinding spec.validationActions (1 occurrences)',
    'Construct Path: policy-controller/helm-output/require-team-label-binding-validatingadmissionpolicybinding',
    'Resource Name: require-team-label-binding',
    'must not contain both Deny and Warn',
    'How to fix: change spec.validationActions as the recommendation says',
  ]) assert.ok(failed.output.includes(part), `${label}: the report lacks "${part}":\n${failed.output}`);
  console.log(`${label}: passes on valid manifests, fails (exit 2) on an invalid one`);
}

function main(): void {
  const tarballs = fs.readdirSync(path.join(root, 'dist', 'js')).filter((f) => f.endsWith('.jsii.tgz'));
  assert.strictEqual(tarballs.length, 1, 'one package in dist/js/: run `npx projen package:js` first');
  const tarball = path.join(root, 'dist', 'js', tarballs[0]);
  const configuration = pageConfiguration();

  const app = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-admission-app-'));
  try {
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'my-cdk8s-app', private: true }));
    fs.writeFileSync(path.join(app, 'main.js'), appSource(true));
    npm([tarball, 'cdk8s', 'constructs'], app);

    fs.writeFileSync(path.join(app, 'cdk8s.yaml'), configuration);
    expectVerdicts(app, 'docs/cli-plugin.md\'s cdk8s.yaml (./node_modules/cdk8s-admission)');

    // Apps in other languages: the package installed for the CLI alone, in a directory of its own.
    npm(['--prefix', '.cdk8s-plugins', tarball], app);
    const pluginDirectory = configuration.replace('package: ./node_modules/cdk8s-admission', 'package: ./.cdk8s-plugins/node_modules/cdk8s-admission');
    assert.notStrictEqual(pluginDirectory, configuration, 'the page\'s configuration names ./node_modules/cdk8s-admission');
    fs.rmSync(path.join(app, 'node_modules', 'cdk8s-admission'), { recursive: true });
    fs.writeFileSync(path.join(app, 'cdk8s.yaml'), pluginDirectory);
    fs.writeFileSync(path.join(app, 'main.js'), appSource(false));
    expectVerdicts(app, 'a plugin directory (./.cdk8s-plugins/node_modules/cdk8s-admission)');
  } finally {
    fs.rmSync(app, { recursive: true, force: true });
  }
}

main();
