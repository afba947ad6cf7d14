/**
 * The reviews record-corpus.ts recorded from the jest suite (under conformance/.out/recorded/reviews/):
 * every `PolicyTester.review` that returned, with the tester's manifests and permissions.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Permission } from '../../../src';

/** A line of the recorded reviews. */
export interface RecordedReview {
  /** The jest test that made the review. */
  readonly test: string;
  /** The manifests the tester was made from, as it checked them. */
  readonly manifests: any[];
  readonly permissions: Permission[];
  readonly request: { readonly [field: string]: any };
}

/** The recorded reviews in `dir` (one JSON document a line), distinct and in a stable order. */
export function recordedReviews(dir: string): RecordedReview[] {
  if (!fs.existsSync(dir)) return [];
  const lines = new Set<string>();
  for (const file of fs.readdirSync(dir)) {
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (line.trim() !== '') lines.add(line);
    }
  }
  return [...lines].sort().map((line) => JSON.parse(line));
}
