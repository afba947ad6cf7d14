/**
 * The objects suite: built-in objects, as the test suite's reviews gave them to PolicyTester, and
 * generated variants of them with unknown fields and values of the wrong JSON type, created in the
 * real apiserver with `dryRun=All&fieldValidation=Strict` (kubectl's default). The apiserver's
 * decoding verdict (a 400 that names unknown fields or a type mismatch, or none) is compared with
 * what the library's strict decoding of the built-in schemas (src/schemas/) finds in the same object.
 */
import { ObjectCase } from './cases';
import { NAMESPACE, sendable, urlOf } from './requests';
import { KubernetesVersion } from '../../../../src';
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';
import { DecodingProblem, decodingProblems } from '../../../../src/schemas/strict-decoding';
import { ApiserverVerdict, dryRunCreate } from '../../oracle/dry-run';
import { Oracle } from '../../oracle/oracle';
import { CaseOutcome, SuiteResult } from '../../outcomes/suite-result';
import { percent } from '../../outcomes/table';

const CONCURRENCY = 8;

/** resource.Quantity's decoding errors: ErrFormatWrong and ErrSuffix. */
const QUANTITY_ERROR = /quantities must match the regular expression|unable to parse quantity's suffix/;

function compare(c: ObjectCase, lib: DecodingProblem[], api: ApiserverVerdict): CaseOutcome {
  const libraryRejects = lib.length > 0;
  const verdictAgrees = libraryRejects === api.decodeError;
  let locationAgrees: boolean | undefined;
  const message = api.messages.join(' ');
  // The parsers of quantities, base64, times and JSONSchemaPropsOrBool name no field: the kind of error is compared.
  const unnamed = QUANTITY_ERROR.test(message) ? 'invalid quantity' : /illegal base64 data/.test(message) ? 'invalid base64'
    : /parsing time/.test(message) ? 'invalid time' : /boolean or JSON schema expected/.test(message) ? 'invalid JSON schema' : undefined;
  if (verdictAgrees && libraryRejects && unnamed) {
    locationAgrees = lib.some((p) => p.kind === unnamed);
  } else if (verdictAgrees && libraryRejects) {
    const typeErrors = lib.filter((p) => p.kind === 'wrong type');
    // Go's decoder stops at a value of the wrong type and reports it alone, by its struct fields
    // (goPath); without one, strict decoding reports every unknown field, by its full path.
    locationAgrees = typeErrors.length > 0
      ? /cannot unmarshal|into Go value/.test(message) && api.paths.length > 0
        && api.paths.every((p) => typeErrors.some((t) => t.goPath === p || (p === '(object)' && t.path === '')))
      : JSON.stringify([...api.paths].sort()) === JSON.stringify(lib.map((p) => p.path).sort());
  }
  return {
    name: c.name,
    apiserverAccepted: !api.decodeError,
    verdictAgrees,
    locationAgrees,
    library: libraryRejects ? lib.map((p) => p.message).join('; ') : 'decodes',
    apiserver: api.decodeError ? `${api.status}: ${api.messages.join('; ').slice(0, 400)}` : `decodes (${api.status})`,
  };
}

/** Every string a key has anywhere in a value. */
function valuesOf(value: unknown, key: string): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => valuesOf(v, key));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === key && typeof v === 'string' ? [v] : valuesOf(v, key)));
}

export async function runObjectSuite(oracle: Oracle, cases: readonly ObjectCase[], version: KubernetesVersion): Promise<SuiteResult> {
  const schemas = BuiltinSchemas.of(version.minor);
  // Pods are admitted only with their ServiceAccount (no controller creates the namespace's
  // default one here) and PriorityClass: the ones the cases name are created first.
  const named = (key: string) => [...new Set(cases.flatMap((c) => valuesOf(c.object, key)))];
  const fixtures = [
    ...['default', ...named('serviceAccountName')].map((name) => ({ url: `/api/v1/namespaces/${NAMESPACE}/serviceaccounts`, body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } } })),
    ...named('priorityClassName').filter((n) => !n.startsWith('system-')).map((name) => ({
      url: '/apis/scheduling.k8s.io/v1/priorityclasses', body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value: 1 },
    })),
  ];
  for (const f of fixtures) {
    const res = await oracle.request('POST', f.url, f.body);
    if (res.status >= 300 && res.status !== 409) throw new Error(`creating ${f.body.kind} ${f.body.metadata.name}: ${res.status}`);
  }
  const outcomes: CaseOutcome[] = new Array(cases.length);
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < cases.length) {
      const i = next++;
      const c = cases[i];
      const kind = schemas.kind(c.object.apiVersion, c.object.kind)!;
      const lib = decodingProblems(c.object, kind.name, schemas);
      const api = await dryRunCreate(oracle, urlOf(c.object, schemas)!, sendable(c.object, schemas));
      outcomes[i] = compare(c, lib, api);
    }
  }));
  const agree = outcomes.filter((o) => o.verdictAgrees).length;
  return {
    suite: 'objects',
    title: `objects (strict decoding of built-in objects, Kubernetes ${version})`,
    outcomes,
    rows: [
      ['cases', String(outcomes.length)],
      ['the apiserver rejects while decoding', String(outcomes.filter((o) => !o.apiserverAccepted).length)],
      ['verdicts agree', `${agree} (${percent(agree, outcomes.length)})`],
      ['library rejects, apiserver decodes', String(outcomes.filter((o) => !o.verdictAgrees && o.apiserverAccepted).length)],
      ['library decodes, apiserver rejects', String(outcomes.filter((o) => !o.verdictAgrees && !o.apiserverAccepted).length)],
      ['both reject, fields differ', String(outcomes.filter((o) => o.locationAgrees === false).length)],
    ],
  };
}
