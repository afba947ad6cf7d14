/**
 * The manifest suite: every case is created in the real apiserver with `dryRun=All` and
 * `fieldValidation=Strict`, and validated by `ManifestValidator.validate` for the same Kubernetes
 * version. It compares the verdicts, the field paths of the errors, and the warnings.
 */
import { ManifestCase } from './cases';
import { ManifestValidator, KubernetesVersion, ViolationSeverity } from '../../../../src';
import { ApiserverVerdict, collectionPath, dryRunCreate } from '../../oracle/dry-run';
import { mapConcurrently } from '../../oracle/map-concurrently';
import { Oracle } from '../../oracle/oracle';
import { CaseOutcome, SuiteResult } from '../../outcomes/suite-result';
import { percent } from '../../outcomes/table';

interface LibraryVerdict {
  readonly accepted: boolean;
  readonly paths: string[];
  readonly messages: string[];
  readonly warnings: string[];
  readonly warningPaths: string[];
}

function libraryVerdict(manifest: unknown, version: KubernetesVersion): LibraryVerdict {
  const violations = ManifestValidator.validate(manifest, { kubernetesVersion: version });
  const errors = violations.filter((v) => v.severity === ViolationSeverity.ERROR);
  return {
    accepted: errors.length === 0,
    paths: errors.map((v) => v.path),
    messages: errors.map((v) => `${v.path}: ${v.message}`),
    warnings: violations.filter((v) => v.severity === ViolationSeverity.WARNING).map((v) => `${v.path}: ${v.message}`),
    warningPaths: violations.filter((v) => v.severity === ViolationSeverity.WARNING).map((v) => v.path),
  };
}

/**
 * The field an apiserver warning is about: deprecated API versions are about `apiVersion`; the
 * others start with the field path (`webhooks[0].rules[0]: ... this rule will have no effect`).
 */
export function warningPath(warning: string): string {
  if (/^admissionregistration\.k8s\.io\/\w+ \w+ is deprecated/.test(warning)) return 'apiVersion';
  const m = /^([A-Za-z][\w.[\]"/-]*): /.exec(warning);
  return m ? m[1] : '(object)';
}

/** Every warning of the apiserver has a library warning at its field (or within it). */
export function warningsAgree(library: LibraryVerdict, apiserver: ApiserverVerdict): boolean {
  return apiserver.warnings.every((w) => {
    const path = warningPath(w);
    return library.warningPaths.some((p) => p === path || p.startsWith(`${path}.`) || p.startsWith(`${path}[`) || path === '(object)');
  });
}

/**
 * Both reject: the apiserver's paths must all be among the library's, and when the apiserver got
 * as far as validation (not a decoding error, which stops at the first bad field), the library
 * may report no path that the apiserver does not.
 */
export function pathsAgree(library: LibraryVerdict, apiserver: ApiserverVerdict): boolean {
  const lib = new Set(library.paths.map(normalizePath));
  const api = new Set(apiserver.paths.map(normalizePath));
  if (apiserver.decodeError) {
    // Go's JSON errors drop list indices and map keys: compare without them.
    const bare = (p: string) => p.replace(/\[[^\]]*\]/g, '');
    const libBare = new Set([...lib].map(bare));
    return [...api].every((p) => lib.has(p) || libBare.has(bare(p)) || p === '(object)');
  }
  return [...api].every((p) => lib.has(p)) && [...lib].every((p) => api.has(p));
}

function normalizePath(p: string): string {
  return p === '' ? '(object)' : p;
}

/**
 * A message cut to a readable length on its own, so that one huge value (a 70,000-character label
 * value) does not push the other messages of the answer out of the report and of the
 * known-differences patterns matched against it.
 */
function shorten(message: string): string {
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

function describeVerdict(v: { accepted: boolean; messages: string[] }): string {
  return v.accepted ? 'accepted' : `rejected: ${v.messages.map(shorten).join(' | ')}`;
}

function describeApiserver(v: ApiserverVerdict): string {
  if (v.accepted) return 'accepted';
  const causes = v.decodeError ? v.messages : v.messages.map((m, i) => `${v.paths[i] ?? '(object)'}: ${m}`);
  return `rejected: ${causes.map(shorten).join(' | ')}`;
}

export async function runManifestSuite(oracle: Oracle, cases: readonly ManifestCase[], version: KubernetesVersion): Promise<SuiteResult> {
  const outcomes = await mapConcurrently(cases, 8, async (c): Promise<CaseOutcome> => {
    const api = await dryRunCreate(oracle, collectionPath(c.kind, c.apiVersion), c.manifest);
    const lib = libraryVerdict(c.manifest, version);
    const verdictAgrees = api.accepted === lib.accepted;
    return {
      name: c.name,
      apiserverAccepted: api.accepted,
      verdictAgrees,
      locationAgrees: verdictAgrees && !api.accepted ? pathsAgree(lib, api) : undefined,
      // A rejected object's warnings come from decoding, before validation: compared on accepted ones.
      warningsAgree: verdictAgrees && api.accepted && api.warnings.length > 0 ? warningsAgree(lib, api) : undefined,
      library: describeVerdict(lib) + (lib.warnings.length ? ` (warnings: ${lib.warnings.join(' | ').slice(0, 300)})` : ''),
      apiserver: describeApiserver(api) + (api.warnings.length ? ` (warnings: ${api.warnings.join(' | ').slice(0, 300)})` : ''),
    };
  });
  const bySource = (source: string) => cases.filter((c) => c.source === source).length;
  const rejected = outcomes.filter((o) => o.locationAgrees !== undefined);
  const warned = outcomes.filter((o) => o.warningsAgree !== undefined);
  return {
    suite: 'manifests',
    outcomes,
    rows: [
      ['cases (corpus / generated / limits)', `${cases.length} (${bySource('corpus')} / ${bySource('generated')} / ${bySource('limit')})`],
      ['accepted by the apiserver', String(outcomes.filter((o) => o.apiserverAccepted).length)],
      ['verdicts agree', `${outcomes.filter((o) => o.verdictAgrees).length} (${percent(outcomes.filter((o) => o.verdictAgrees).length, outcomes.length)})`],
      ['library rejects, apiserver accepts', String(outcomes.filter((o) => !o.verdictAgrees && o.apiserverAccepted).length)],
      ['library accepts, apiserver rejects', String(outcomes.filter((o) => !o.verdictAgrees && !o.apiserverAccepted).length)],
      ['both reject, paths agree', `${rejected.filter((o) => o.locationAgrees).length}/${rejected.length} (${percent(rejected.filter((o) => o.locationAgrees).length, rejected.length)})`],
      ['accepted with warnings (the library warns at the same fields)', `${warned.length} (${warned.filter((o) => o.warningsAgree).length})`],
    ],
  };
}
