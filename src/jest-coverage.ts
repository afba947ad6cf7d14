// Policy coverage for a whole jest run, turned on by loading this module in every test file:
//
//   setupFilesAfterEnv: ['cdk8s-admission/lib/jest-coverage'],
//   reporters: ['default', 'cdk8s-admission/lib/jest-coverage-reporter'],
//
// Every PolicyTester a test file creates records what its reviews cover; after the file's tests
// the records are written for the reporter, which merges those of every worker at the end of the
// run (src/jest-coverage-reporter.ts).
import { mergeRecords } from './testing/policy-coverage/coverage-record';
import { recordsDirectory, writeRecord } from './testing/policy-coverage/record-files';
import { startRunCoverage } from './testing/policy-coverage/run-coverage';

const hooks = globalThis as { afterAll?: (fn: () => void) => void };
if (typeof hooks.afterAll !== 'function') {
  throw new Error('cdk8s-admission/lib/jest-coverage records policy coverage for jest: load it from jest (setupFilesAfterEnv), where `afterAll` is defined');
}
const run = startRunCoverage();
hooks.afterAll(() => {
  if (run.recorders.length === 0) return;
  writeRecord(recordsDirectory(), mergeRecords(run.recorders.map((r) => r.record())));
  run.recorders.length = 0;
});
