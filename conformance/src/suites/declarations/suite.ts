/**
 * The CEL version gates, from the apiserver's own code: for every target minor, the functions the
 * apiserver declares for new expressions (its base environment at the minor before, printed by
 * `oracle --cel-functions 1.N`) against the functions the library's environment declares for
 * that target. A function counts by name, receiver style and number of arguments; operators,
 * macros and cel-go internals are left out (the expression suites exercise them).
 */
import { KubernetesVersion } from '../../../../src';
import { environmentFor } from '../../../../src/cel/environment';
import { ExpressionField } from '../../../../src/shared/expression-field';
import { CelOverload } from '../../oracle/cel-functions';
import { CaseOutcome, SuiteResult } from '../../outcomes/suite-result';
import { percent } from '../../outcomes/table';

/** Engine functions and macros that are not declarations in cel-go, or that the library rejects after type-checking. */
const LIBRARY_ONLY = /(^|\.)__|^(bytes\.(at|base64|hex|json|string)\/|cel\.bind\/|(list|map|optional)\.(all|exists|existsOne|exists_one|filter|map|transformList|transformMap|transformMapEntry|sortBy|optMap|optFlatMap)\/|has\/)/;

function libraryFunctions(minor: number): Set<string> {
  const env = environmentFor({ field: ExpressionField.VALIDATION, hasParams: true, variables: [], minor }) as unknown as {
    getDefinitions(): { functions: Array<{ name: string; receiverType: string | null; params: unknown[] }> };
  };
  const out = new Set<string>();
  for (const f of env.getDefinitions().functions) {
    let key: string;
    const receiver = f.receiverType;
    const namespace = receiver ? /^(\w+)\.namespace$|^(Optional)Namespace$|^(Cel)Namespace$/.exec(receiver) : null;
    if (namespace) key = `${(namespace[1] ?? namespace[2] ?? namespace[3]).toLowerCase()}.${f.name}/${f.params.length}`;
    else key = `${receiver ? `${kindOf(receiver)}.` : ''}${f.name}/${f.params.length}`;
    if (!LIBRARY_ONLY.test(key)) out.add(key);
  }
  return out;
}

/** A receiver type as a kind: `list<int>` and `list<A>` are both `list`. */
function kindOf(type: string): string {
  return type.replace(/<.*>$/, '').replace(/\(.*\)$/, '').replace(/^optional_type$/, 'optional');
}

function apiserverFunctions(overloads: readonly CelOverload[]): Set<string> {
  const out = new Set<string>();
  for (const o of overloads) {
    if (/^[_@!-]|^cel\.@/.test(o.function) || o.function === 'in') continue;
    out.add(o.member ? `${kindOf(o.args[0])}.${o.function}/${o.args.length - 1}` : `${o.function}/${o.args.length}`);
  }
  return out;
}

export function runDeclarationsSuite(functionsAt: (compatibility: string) => CelOverload[], minors: readonly number[]): SuiteResult {
  const outcomes: CaseOutcome[] = [];
  for (const minor of minors) {
    const library = libraryFunctions(minor);
    const apiserver = apiserverFunctions(functionsAt(`1.${minor - 1}`));
    for (const key of [...new Set([...library, ...apiserver])].sort()) {
      const inLibrary = library.has(key);
      const inApiserver = apiserver.has(key);
      outcomes.push({
        name: `${KubernetesVersion.of(`1.${minor}`)}: ${key}`,
        apiserverAccepted: inApiserver,
        verdictAgrees: inLibrary === inApiserver,
        library: inLibrary ? 'declared' : 'not declared',
        apiserver: inApiserver ? 'declared' : 'not declared',
      });
    }
  }
  const agree = outcomes.filter((o) => o.verdictAgrees).length;
  return {
    suite: 'cel-declarations',
    title: 'cel declarations (version gates)',
    outcomes,
    rows: [
      ['targets', minors.map((m) => `1.${m}`).join(', ')],
      ['functions (per target, summed)', String(outcomes.length)],
      ['declared alike', `${agree} (${percent(agree, outcomes.length)})`],
      ['only the apiserver declares', String(outcomes.filter((o) => !o.verdictAgrees && o.apiserverAccepted).length)],
      ['only the library declares', String(outcomes.filter((o) => !o.verdictAgrees && !o.apiserverAccepted).length)],
    ],
  };
}
