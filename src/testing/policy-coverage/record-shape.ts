// The check of a coverage record read back (PolicyCoverage.fromJson, the jest reporter's merge):
// the format and version it says, and the shape of every policy, expression and branch.
import { COVERAGE_FORMAT, COVERAGE_VERSION, CoverageRecord } from './coverage-record';

const ROLES = new Set(['matchCondition', 'variable', 'validation', 'messageExpression', 'auditAnnotation', 'mutation']);
const BRANCH_KINDS = new Set(['true', 'false', 'then', 'else', 'body', 'left', 'right']);

function fail(where: string, path: string, what: string): never {
  throw new Error(`${where}: ${path}: ${what}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;

export function checkedRecord(json: unknown, where: string): CoverageRecord {
  if (!isObject(json)) fail(where, '(the record)', `expected an object, got ${json === null ? 'null' : typeof json}`);
  if (json.format !== COVERAGE_FORMAT) fail(where, 'format', `expected "${COVERAGE_FORMAT}", got ${JSON.stringify(json.format)}`);
  if (json.version !== COVERAGE_VERSION) {
    fail(where, 'version', `this version of cdk8s-admission reads version ${COVERAGE_VERSION}, got ${JSON.stringify(json.version)}`);
  }
  if (!Array.isArray(json.policies)) fail(where, 'policies', 'expected an array');
  json.policies.forEach((p: unknown, i: number) => {
    const at = `policies[${i}]`;
    if (!isObject(p)) fail(where, at, 'expected an object');
    for (const k of ['kind', 'name', 'contentHash']) if (typeof p[k] !== 'string') fail(where, `${at}.${k}`, 'expected a string');
    if (!isObject(p.bindings) || !Object.values(p.bindings).every(isCount)) fail(where, `${at}.bindings`, 'expected an object of counts');
    if (!Array.isArray(p.expressions)) fail(where, `${at}.expressions`, 'expected an array');
    p.expressions.forEach((e: unknown, j: number) => {
      const eat = `${at}.expressions[${j}]`;
      if (!isObject(e)) fail(where, eat, 'expected an object');
      for (const k of ['field', 'expression']) if (typeof e[k] !== 'string') fail(where, `${eat}.${k}`, 'expected a string');
      if (!ROLES.has(e.role as string)) fail(where, `${eat}.role`, `expected one of ${[...ROLES].join(', ')}, got ${JSON.stringify(e.role)}`);
      for (const k of ['evaluations', 'errors', 'trueResults', 'falseResults']) if (!isCount(e[k])) fail(where, `${eat}.${k}`, 'expected a count');
      if (!Array.isArray(e.branches)) fail(where, `${eat}.branches`, 'expected an array');
      e.branches.forEach((b: unknown, k: number) => {
        const bat = `${eat}.branches[${k}]`;
        if (!isObject(b) || !isCount(b.start) || !isCount(b.end) || typeof b.op !== 'string' || !isCount(b.hits) || !BRANCH_KINDS.has(b.kind as string)) {
          fail(where, bat, 'expected { start, end, op, kind, hits }');
        }
      });
    });
  });
  return json as unknown as CoverageRecord;
}
