/**
 * The committed list of known disagreements with the apiserver (known-differences.json). An entry
 * names its suite and the cases it covers (`case`: the case's name, or a pattern with `*` standing
 * for any text; `libraryAnswer`/`apiserverAnswer`, optional patterns the two answers must match
 * too), what each side answers, and why the difference is kept. A disagreement that no entry
 * covers fails the run; an entry that covers no disagreement is reported as stale, and fails the
 * run too, so that the file only lists what is true today.
 */
import * as fs from 'fs';
import * as path from 'path';

export interface KnownDifference {
  readonly suite: string;
  /** `verdict`, `location`, or `*` for both. */
  readonly kind: string;
  readonly case: string;
  readonly library: string;
  readonly apiserver: string;
  readonly reason: string;
  readonly libraryAnswer?: string;
  readonly apiserverAnswer?: string;
}

export const KNOWN_DIFFERENCES_FILE = path.join(__dirname, '..', '..', 'known-differences.json');

export class KnownDifferences {
  public static load(file = KNOWN_DIFFERENCES_FILE): KnownDifferences {
    const entries = JSON.parse(fs.readFileSync(file, 'utf8')) as KnownDifference[];
    for (const [i, e] of entries.entries()) {
      for (const key of ['suite', 'kind', 'case', 'library', 'apiserver', 'reason'] as const) {
        if (typeof e[key] !== 'string' || e[key].trim() === '') throw new Error(`${file}: entry ${i} has no "${key}"`);
      }
    }
    return new KnownDifferences(entries);
  }

  private readonly used = new Set<KnownDifference>();
  private readonly patterns: Array<{ entry: KnownDifference; name: RegExp; library: RegExp; apiserver: RegExp }>;

  private constructor(public readonly entries: readonly KnownDifference[]) {
    this.patterns = entries.map((entry) => ({
      entry,
      name: globToRegExp(entry.case),
      library: globToRegExp(entry.libraryAnswer ?? '*'),
      apiserver: globToRegExp(entry.apiserverAnswer ?? '*'),
    }));
  }

  /** The entry that covers a disagreement of `suite` on the case named `caseName`, if any. */
  public covering(suite: string, kind: string, caseName: string, library: string, apiserver: string): KnownDifference | undefined {
    const hit = this.patterns.find((p) => p.entry.suite === suite && (p.entry.kind === '*' || p.entry.kind === kind)
      && p.name.test(caseName) && p.library.test(library) && p.apiserver.test(apiserver))?.entry;
    if (hit) this.used.add(hit);
    return hit;
  }

  /** Entries of the suites that ran which covered nothing in this run. */
  public stale(suitesRun: readonly string[]): KnownDifference[] {
    return this.entries.filter((e) => suitesRun.includes(e.suite) && !this.used.has(e));
  }
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*');
  return new RegExp(`^${escaped}$`);
}
