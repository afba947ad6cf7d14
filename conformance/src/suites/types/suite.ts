/**
 * Typed CEL, against kube-controller-manager's policy type checker (run offline by the oracle:
 * `oracle --cel-types` prints the CEL type it declares `object` as for every built-in kind,
 * `oracle --type-check` type-checks expressions with validating.TypeChecker and the same schema
 * resolver).
 *
 * - Type tables (type-tables.ts): every kind's type tree from schemas/kubernetes.json (src/schemas/cel-object-types.ts)
 *   against the type checker's, node by node. Where they differ by design (the library types what
 *   an expression sees at run time), the difference is named by its category and listed in
 *   known-differences.json; any other difference fails.
 * - Expressions (expressions.ts): generated from the fields both sides type alike, half with a misspelled field,
 *   as plain selections, `has()`, optional selections, comprehensions and comparisons with a
 *   literal; the verdict and the first error (position and text, without the library's hint) must
 *   agree.
 * - Apply-configuration literals (apply-literals.ts), run by the apiserver before the offline parts:
 *   their outcomes are given to runTypesSuite.
 */
import { expressionCases, expressionOutcomes } from './expressions';
import { loadGoTypes } from './go-types';
import { typeTableOutcomes } from './type-tables';
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';
import { CaseOutcome, SuiteResult } from '../../outcomes/suite-result';
import { percent } from '../../outcomes/table';

export function runTypesSuite(minor: number, count: number, seed: number, applyLiterals: readonly CaseOutcome[] = []): SuiteResult {
  const go = loadGoTypes();
  const schemas = BuiltinSchemas.of(minor);
  const tables = typeTableOutcomes(go, schemas);
  const cases = expressionCases(go, schemas, count, seed);
  const expressions = expressionOutcomes(cases, minor);
  const outcomes = [...tables, ...expressions, ...applyLiterals];
  const agree = (list: readonly CaseOutcome[]) => list.filter((o) => o.verdictAgrees && o.locationAgrees !== false).length;
  const kindsCompared = new Set(tables.map((t) => t.name.split(': ')[1])).size;
  const unexplained = new Set(tables.filter((t) => t.name.includes(': unexplained: ')).map((t) => t.name.split(': ')[1])).size;
  return {
    suite: 'types',
    outcomes,
    rows: [
      ['kinds compared (type tables)', String(kindsCompared)],
      ['  with a difference not kept on purpose', String(unexplained)],
      ['  differences kept on purpose (kind × category)', String(tables.length - agree(tables))],
      ['expressions', String(expressions.length)],
      ['  the type checker refuses', String(expressions.filter((o) => !o.apiserverAccepted).length)],
      ['  agreeing (verdict and first error)', `${agree(expressions)}/${expressions.length} (${percent(agree(expressions), expressions.length)})`],
      ['apply-configuration literals (against the running apiserver)', String(applyLiterals.length)],
      ['  the apiserver denies', String(applyLiterals.filter((o) => !o.apiserverAccepted).length)],
      ['  warned exactly where denied', `${agree(applyLiterals)}/${applyLiterals.length}`],
    ],
  };
}
