/**
 * A jest setup file for the conformance corpus. While CDK8S_ADMISSION_RECORD_DIR is set, it records,
 * one JSON document a line, in files of that folder:
 * - `manifests/`: every manifest given to `ManifestValidator.validate` for the default Kubernetes
 *   version (the constructs' checks included);
 * - `reviews/`: every `PolicyTester.review` that returned, for the default version, with the
 *   tester's manifests and permissions (suites/reviews/corpus-scenarios.ts turns them into review scenarios).
 * The conformance task passes this file to jest with --setupFilesAfterEnv; the library knows nothing of it.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as fc from 'fast-check';
import type { RecordedReview } from './corpus/recorded-reviews';
import { KubernetesVersion } from '../../src/kubernetes-version';
import { PolicyTester, PolicyTesterOptions } from '../../src/testing/policy-tester';
import { ManifestValidator } from '../../src/validation/manifest-validator';

const MAX_LINE = 1_000_000;

/** Appends JSON lines to `<dir>/<sub>/<pid>.jsonl`, each distinct line once. */
function recorder(dir: string, sub: string): (value: unknown) => void {
  fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const file = path.join(dir, sub, `${process.pid}.jsonl`);
  const seen = new Set<string>();
  return (value) => {
    let line: string | undefined;
    try {
      line = JSON.stringify(value);
    } catch {
      // cyclic or otherwise not JSON: nothing the apiserver could be sent
    }
    if (line !== undefined && line.length < MAX_LINE && !seen.has(line)) {
      seen.add(line);
      fs.appendFileSync(file, line + '\n');
    }
  };
}

function recordManifests(dir: string): void {
  const record = recorder(dir, 'manifests');
  const original = ManifestValidator.validate.bind(ManifestValidator);
  ManifestValidator.validate = (manifest: any, options = {}) => {
    if (options.kubernetesVersion === undefined || options.kubernetesVersion.minor === KubernetesVersion.LATEST.minor) record(manifest);
    return original(manifest, options);
  };
}

function recordReviews(dir: string): void {
  const record = recorder(dir, 'reviews');
  const options = new WeakMap<PolicyTester, PolicyTesterOptions>();
  for (const factory of ['fromChart', 'fromManifests', 'fromYaml'] as const) {
    const original = (PolicyTester[factory] as (input: any, o?: PolicyTesterOptions) => PolicyTester).bind(PolicyTester);
    (PolicyTester as any)[factory] = (input: any, o: PolicyTesterOptions = {}) => {
      const tester = original(input, o);
      options.set(tester, o);
      return tester;
    };
  }
  const review = PolicyTester.prototype.review;
  PolicyTester.prototype.review = function (this: PolicyTester, request) {
    const result = review.call(this, request);
    const o = options.get(this) ?? {};
    if (o.kubernetesVersion === undefined || o.kubernetesVersion.minor === KubernetesVersion.LATEST.minor) {
      const recorded: RecordedReview = {
        test: expect.getState().currentTestName ?? '',
        manifests: (this as unknown as { manifests: any[] }).manifests,
        permissions: o.permissions ?? [],
        request: request as any,
      };
      record(recorded);
    }
    return result;
  };
}

const dir = process.env.CDK8S_ADMISSION_RECORD_DIR;
if (dir) {
  // The property-based tests draw their inputs from this seed too, so that the corpus, and with
  // it the conformance run, is the same every time.
  fc.configureGlobal({ seed: Number(process.env.CDK8S_ADMISSION_RECORD_SEED ?? 20261202) });
  recordManifests(dir);
  recordReviews(dir);
}
