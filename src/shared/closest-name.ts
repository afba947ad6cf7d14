/**
 * The "did you mean" of every unknown-name message (manifest fields, struct keys, CEL fields of a
 * typed object, built-in objects' fields): the known name closest to a misspelled one.
 *
 * Internal module: not exported from the package index.
 */

/** The known name closest to `key` (case-insensitive equal or within two edits), if any. */
export function closestName(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = candidate.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, candidate, bestDistance);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** The Levenshtein distance of `a` and `b`; `limit` as soon as their lengths alone differ by that much. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    previous = row;
  }
  return previous[b.length];
}
