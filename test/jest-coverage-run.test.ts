// Policy coverage for a whole jest run, as a user turns it on: the setup file in every test file
// and the reporter, here in a jest run of the example app's tests in a child process.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const root = path.join(__dirname, '..');
const packageJson = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/** Runs the example app's tests with the coverage setup and reporter (loaded from source through ts-node). */
function runJest(reporterOptions: object, ...args: string[]): { status: number | null; stdout: string; stderr: string; directory: string } {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'admission-coverage-'));
  const config = {
    rootDir: root,
    testMatch: ['<rootDir>/examples/policies.test.ts'],
    transform: packageJson.jest.transform,
    setupFilesAfterEnv: ['<rootDir>/src/jest-coverage.ts'],
    reporters: [['<rootDir>/src/jest-coverage-reporter.ts', { outputDirectory: directory, ...reporterOptions }]],
  };
  const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', require.resolve('jest/bin/jest'),
    '--config', JSON.stringify(config), '--coverage=false', '--ci', ...args], {
    cwd: root, encoding: 'utf8', env: { ...process.env, TS_NODE_PROJECT: path.join(root, 'scripts', 'tsconfig.json') }, timeout: 120_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, directory };
}

/** The table a run printed. */
function table(stdout: string): string {
  const match = /Admission policy coverage \(.*index\.html\):\n((?:.*\|.*\n)+)/.exec(stdout);
  expect(match).not.toBeNull();
  return match![1];
}

/** The jest configuration for coverage that docs/policy-tester.md gives. */
function pageConfiguration(): any {
  const page = fs.readFileSync(path.join(root, 'docs', 'policy-tester.md'), 'utf8');
  const block = [...page.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => m[1]).find((b) => b.includes('jest-coverage-reporter'));
  expect(block).toBeDefined();
  return JSON.parse(block!).jest;
}

test('docs/policy-tester.md configures the modules there are', () => {
  const jest = pageConfiguration();
  expect(jest.setupFilesAfterEnv).toEqual([`${packageJson.name}/lib/jest-coverage`]);
  expect(jest.reporters[1][0]).toBe(`${packageJson.name}/lib/jest-coverage-reporter`);
  for (const file of ['jest-coverage.ts', 'jest-coverage-reporter.ts']) expect(fs.existsSync(path.join(root, 'src', file))).toBe(true);
});

test('the run writes the merged report and prints its table, the one docs/policy-tester.md shows, with its thresholds met', () => {
  const run = runJest(pageConfiguration().reporters[1][1]);
  expect(run.status).toBe(0);
  const report = JSON.parse(fs.readFileSync(path.join(run.directory, 'coverage.json'), 'utf8'));
  expect(report.format).toBe('cdk8s-admission.policy-coverage');
  expect(report.policies.map((p: any) => p.name)).toEqual([
    'pod-defaults', 'keep-platform-policies.static.k8s.io', 'no-latest-tag', 'no-privileged-containers.static.k8s.io', 'replica-limit',
  ]);
  expect(fs.readFileSync(path.join(run.directory, 'index.html'), 'utf8')).toContain('<h1>Admission policy coverage</h1>');
  expect(fs.existsSync(path.join(run.directory, '.records'))).toBe(false);
  const page = fs.readFileSync(path.join(root, 'docs', 'policy-tester.md'), 'utf8');
  expect(page).toContain(`\`\`\`text\n${table(run.stdout)}\`\`\``);
}, 180_000);

test('a run below a threshold fails, saying which', () => {
  const run = runJest({ thresholds: { policies: { 'replica-limit': { validations: 100 } } } }, '--testNamePattern', 'admits deployments within the limit');
  expect(table(run.stdout)).toMatch(/ {2}replica-limit +\| 100\.00 \(1\/1\) \| +50\.00 \(1\/2\) \| +50\.00 \(1\/2\)/);
  expect(run.stderr).toContain("Admission policy coverage thresholds not met:\n  policy 'replica-limit': validations coverage 50.00% (1/2) is below the threshold of 100%");
  expect(run.status).toBe(1);
}, 180_000);

test('a threshold naming a policy the run never met fails it, naming the ones it did', () => {
  const run = runJest({ thresholds: { policies: { 'replica-limits': { bindings: 100 } } } });
  expect(run.stderr).toContain("thresholds.policies names 'replica-limits', which the report does not have (it has 'pod-defaults', 'keep-platform-policies.static.k8s.io', 'no-latest-tag', "
    + "'no-privileged-containers.static.k8s.io', 'replica-limit')");
  expect(run.status).toBe(1);
}, 180_000);
