/** The manifests record-corpus.ts recorded from the jest suite (under conformance/.out/recorded/manifests/). */
import * as fs from 'fs';
import * as path from 'path';

/** Manifests recorded from the jest suite, one JSON document per line, in the files of `dir`. */
export function recordedManifests(dir: string): unknown[] {
  if (!fs.existsSync(dir)) return [];
  const out: unknown[] = [];
  const lines = new Set<string>();
  for (const file of fs.readdirSync(dir)) {
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (line.trim() !== '') lines.add(line);
    }
  }
  // Sorted, so that the corpus does not depend on which jest worker recorded what.
  for (const line of [...lines].sort()) out.push(JSON.parse(line));
  return out;
}
