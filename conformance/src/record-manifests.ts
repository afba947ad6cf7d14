/**
 * A jest setup file for the conformance corpus: while CDK8S_ADMISSION_RECORD_DIR is set, every
 * manifest given to `ManifestValidator.validate` for the default Kubernetes version (the
 * constructs' checks included) is appended to a file of that folder, one JSON document a line.
 * (The conformance task passes it to jest with --setupFilesAfterEnv; the library knows nothing of it.)
 */
import * as fs from 'fs';
import * as path from 'path';
import * as fc from 'fast-check';
import { KubernetesVersion } from '../../src/kubernetes-version';
import { ManifestValidator } from '../../src/validation/manifest-validator';

const dir = process.env.CDK8S_ADMISSION_RECORD_DIR;
if (dir) {
  // The property-based tests draw their manifests from this seed too, so that the corpus, and with
  // it the conformance run, is the same every time.
  fc.configureGlobal({ seed: Number(process.env.CDK8S_ADMISSION_RECORD_SEED ?? 20261202) });
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${process.pid}.jsonl`);
  const original = ManifestValidator.validate.bind(ManifestValidator);
  const seen = new Set<string>();
  ManifestValidator.validate = (manifest: any, options = {}) => {
    if (options.kubernetesVersion === undefined || options.kubernetesVersion.minor === KubernetesVersion.LATEST.minor) {
      let line: string | undefined;
      try {
        line = JSON.stringify(manifest);
      } catch {
        // cyclic or otherwise not JSON: nothing the apiserver could be sent
      }
      if (line !== undefined && line.length < 1_000_000 && !seen.has(line)) {
        seen.add(line);
        fs.appendFileSync(file, line + '\n');
      }
    }
    return original(manifest, options);
  };
}
