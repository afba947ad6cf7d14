import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildApp } from '../examples/main';

describe('determinism', () => {
  test('the same app synthesizes to byte-identical YAML every time', () => {
    const first = buildApp(fs.mkdtempSync(path.join(os.tmpdir(), 'a-'))).synthYaml();
    const second = buildApp(fs.mkdtempSync(path.join(os.tmpdir(), 'b-'))).synthYaml();
    expect(second).toBe(first);
  });

  test('and in a fresh process too (no state carried between runs)', () => {
    const outdirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'synth-')));
    const root = path.join(__dirname, '..');
    for (const outdir of outdirs) {
      execFileSync(process.execPath, [require.resolve('ts-node/dist/bin'), '--transpile-only', '--project', 'examples/tsconfig.json', 'examples/main.ts'],
        { cwd: root, env: { ...process.env, CDK8S_OUTDIR: outdir }, stdio: 'pipe' });
    }
    const read = (dir: string) => fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort()
      .map((f) => `${f}\n${fs.readFileSync(path.join(dir, f), 'utf-8')}`).join('\n');
    expect(read(outdirs[1])).toBe(read(outdirs[0]));
    expect(read(outdirs[0])).toContain('kind: ValidatingAdmissionPolicy');
    expect(read(outdirs[0])).toContain('control-plane/admission-configuration.yaml\n');
  }, 60_000);
});
