import { Violation, ViolationSeverity } from '../validation/violation';

/** One manifest the cdk8s CLI gave the plugin: the parsed document and the file it is in. */
export interface PluginDocument {
  readonly manifest: unknown;
  /** The file, as the CLI names it. */
  readonly manifestPath: string;
  /** The document's position in its file, from 1. */
  readonly positionInFile: number;
}

/** A violation as the cdk8s CLI's `ValidationReport.addViolation` takes it. */
export interface PluginViolation {
  readonly ruleName: string;
  readonly recommendation: string;
  readonly fix: string;
  readonly violatingResources: Array<{ resourceName: string; locations: string[]; manifestPath: string }>;
}

/**
 * The report entry of one violation, attributed to the manifest `validateAll` found it in.
 *
 * The CLI finds a violation's construct path by `resourceName` alone, in a map from
 * `metadata.name` to construct (cdk8s's `App.writeConstructMetadata`), where of several objects
 * with one name only the last is kept. So the name is given as is only when no other manifest has
 * it, and the CLI's construct path is then the right one; a shared name is given with the kind
 * and the position in the file, which the CLI cannot map to a construct ("N/A") rather than
 * mapping it to another object's.
 */
export function pluginViolation(
  violation: Violation,
  documents: readonly PluginDocument[],
  nameCounts: ReadonlyMap<string, number>,
): PluginViolation {
  const document = documents[violation.manifestIndex ?? 0];
  const kind = violation.kind ?? 'object';
  const where = `${kind}, document ${document?.positionInFile ?? '?'} of the file`;
  const resourceName = violation.name === undefined ? `(${where})`
    : nameCounts.get(violation.name) === 1 ? violation.name
      : `${violation.name} (${where}; ${nameCounts.get(violation.name)} manifests have this name)`;
  return {
    ruleName: `cdk8s-admission ${violation.severity === ViolationSeverity.ERROR ? 'error' : 'warning'}: ${kind} ${violation.path}`,
    recommendation: violation.message,
    fix: fixFor(violation),
    violatingResources: [{ resourceName, locations: [violation.path], manifestPath: document?.manifestPath ?? '' }],
  };
}

/** How many manifests have each `metadata.name`, as the CLI's construct map is keyed. */
export function countNames(documents: readonly PluginDocument[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { manifest } of documents) {
    const name = (manifest as { metadata?: { name?: unknown } } | null)?.metadata?.name;
    if (typeof name === 'string') counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

/**
 * What to change, for the kinds of apimachinery field errors whose remedy follows from the error
 * (k8s.io/apimachinery/pkg/util/validation/field errors.go: Required, NotSupported, Duplicate,
 * TooMany, TooLong; strict decoding's unknown field). Other messages already say what the
 * apiserver allows or, for warnings, what to do: their fix points there, at the field it is about
 * (the CLI prints a "How to fix" line under every violation, empty or not).
 */
export function fixFor(violation: Violation): string {
  const { path, message } = violation;
  const supported = /^Unsupported value: .*: supported values: (.+)$/.exec(message);
  if (supported) return `set ${path} to one of ${supported[1]}`;
  const tooMany = /^Too many: \d+: must have at most (\d+) items/.exec(message);
  if (tooMany) return `keep at most ${tooMany[1]} items in ${path}`;
  const tooLong = /^Too long: must have at most (\d+ \w+)/.exec(message);
  if (tooLong) return `shorten ${path} to at most ${tooLong[1]}`;
  if (message.startsWith('unknown field ')) {
    const suggestion = /did you mean "([^"]+)"/.exec(message);
    return suggestion ? `rename the field to ${suggestion[1]}, or remove it` : 'remove the field';
  }
  if (message.startsWith('Required value')) return `set ${path}`;
  if (message.startsWith('Duplicate value')) return `remove or rename the repeated entry at ${path}`;
  return `change ${path} as the recommendation says`;
}
