/** The example app's synthesized manifests (examples/dist/, written by `npx projen synth:example`). */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';

export const EXAMPLE_DIST = path.join(__dirname, '..', '..', '..', 'examples', 'dist');

export function exampleManifests(): unknown[] {
  if (!fs.existsSync(EXAMPLE_DIST)) {
    throw new Error(`${EXAMPLE_DIST} is missing: run 'npx projen synth:example' first (the conformance task does)`);
  }
  return fs.readdirSync(EXAMPLE_DIST).filter((f) => /\.ya?ml$/.test(f)).sort()
    .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(EXAMPLE_DIST, f), 'utf8')).map((d) => d.toJSON()));
}
