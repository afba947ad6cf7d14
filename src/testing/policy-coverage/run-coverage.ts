// Coverage for a whole jest run: the setup file (src/jest-coverage.ts) turns it on in each test
// file's global, where every PolicyTester created afterwards finds it and adds its recorder.
// A global symbol, not a module variable: the setup file and the tests may load the library
// through different paths (its package name, a relative import) and so as different modules.
import type { CoverageRecorder } from './coverage-recorder';

const KEY = Symbol.for('cdk8s-admission.run-coverage');

export interface RunCoverage {
  readonly recorders: CoverageRecorder[];
}

export function runCoverage(): RunCoverage | undefined {
  return (globalThis as { [KEY]?: RunCoverage })[KEY];
}

export function startRunCoverage(): RunCoverage {
  const holder = globalThis as { [KEY]?: RunCoverage };
  holder[KEY] ??= { recorders: [] };
  return holder[KEY]!;
}
