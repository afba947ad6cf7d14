/**
 * A jest setup file for the conformance corpus: while CDK8S_ADMISSION_RECORD_DIR is set, every
 * manifest given to `ManifestValidator.validate` for the default Kubernetes version (the
 * constructs' checks included) is appended to a file of that folder, one JSON document a line.
 */
import * as fs from 'fs';
import * as path from 'path';
import { KubernetesVersion } from '../../src/kubernetes-version';
import { ManifestValidator } from '../../src/validation/manifest-validator';

const dir = process.env.CDK8S_ADMISSION_RECORD_DIR;
if (dir) {
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
