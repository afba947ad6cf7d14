import { duplicate, FieldViolation, invalidEach, required, tooMany } from './field-errors';
import { FieldPath } from './field-path';
import { RuleContext } from './rule-context';
import { ExpressionField } from '../shared/expression-field';
import { isQualifiedName } from '../shared/name-formats';
import type { MatchCondition } from '../wire/admissionregistration';

const MAX_MATCH_CONDITIONS = 64;

/** matchConditions of a webhook or a policy (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go: validateMatchConditions). */
export function validateMatchConditions(
  conditions: readonly MatchCondition[],
  path: FieldPath,
  ctx: RuleContext,
  environment: { field: ExpressionField; hasParams: boolean },
): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) out.push(tooMany(path, conditions.length, MAX_MATCH_CONDITIONS));
  const seen = new Set<string>();
  conditions.forEach((condition, i) => {
    if (!condition) return;
    const p = path.index(i);
    const name = condition.name ?? '';
    if (name === '') {
      out.push(required(p.child('name')));
    } else {
      out.push(...invalidEach(p.child('name'), name, isQualifiedName(name)));
      if (seen.has(name)) out.push(duplicate(p.child('name'), name));
      seen.add(name);
    }
    const expression = (condition.expression ?? '').trim();
    if (expression === '') {
      out.push(required(p.child('expression')));
    } else {
      out.push(...ctx.checkExpression(p.child('expression'), expression, { ...environment, variables: [] }));
    }
  });
  return out;
}
