// Hostile and careless input against the constructs, the validator and PolicyTester, each target
// in a fresh process with a time limit (hostile-child.ts), so that a stack overflow that kills a
// process, or a stall, fails the test instead of the jest worker. Seeded: HOSTILE_SEED=<n> to vary.
import { spawn } from 'child_process';
import * as path from 'path';

const SEED = Number(process.env.HOSTILE_SEED ?? 20261203);
const RUNS = 300;
const PROCESS_LIMIT_MS = 240_000;

interface ChildReport {
  readonly target?: string;
  readonly runs?: number;
  readonly answered?: number;
  readonly refused?: number;
  readonly failure?: string;
}

function runChild(target: string): Promise<{ code: number | null; report?: ChildReport; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(__dirname, 'hostile-child.ts'), target, String(SEED), String(RUNS)], {
      cwd: path.join(__dirname, '..', '..'),
      env: { ...process.env, TS_NODE_PROJECT: path.join(__dirname, '..', 'tsconfig.json') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, PROCESS_LIMIT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').pop() ?? '';
      let report: ChildReport | undefined;
      try {
        report = JSON.parse(line);
      } catch {
        report = undefined;
      }
      resolve({ code, report, stderr: stderr.slice(-2000), timedOut });
    });
  });
}

describe('hostile input: no crash, no stall, no vacuous result', () => {
  test.concurrent.each([['constructs'], ['validator'], ['tester']])('%s', async (target) => {
    const { code, report, stderr, timedOut } = await runChild(target);
    expect({ target, timedOut }).toEqual({ target, timedOut: false });
    expect(report?.failure).toBeUndefined();
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    expect(report).toEqual(expect.objectContaining({ target, runs: RUNS }));
    expect(report!.answered! + report!.refused!).toBe(RUNS);
    // Not every input is refused: the targets still answer the odd-but-valid ones.
    expect(report!.answered).toBeGreaterThan(0);
  }, PROCESS_LIMIT_MS + 10_000);
});
