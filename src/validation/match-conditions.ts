import { duplicate, FieldViolation, invalidEach, required, tooMany } from './field-errors';
import { FieldPath } from './field-path';
import { lintMatchConditionReach } from './match-condition-reach';
import { RuleContext } from './rule-context';
import { ViolationSeverity } from './violation';
import { ExpressionField } from '../shared/expression-field';
import { isQualifiedName } from '../shared/name-formats';
import type { MatchCondition } from '../wire/admissionregistration';

const MAX_MATCH_CONDITIONS = 64;

/**
 * matchConditions of a webhook or a policy (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go:
 * validateMatchConditions), and the warning for a condition that compiles and never or always lets a
 * request through, against the rules of `matching` (match-condition-reach.ts).
 */
export function validateMatchConditions(
  conditions: readonly MatchCondition[],
  path: FieldPath,
  ctx: RuleContext,
  environment: { field: ExpressionField; hasParams: boolean },
  matching: { rules: unknown; what: string },
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
      const checked = ctx.checkExpression(p.child('expression'), expression, { ...environment, variables: [] });
      out.push(...checked);
      if (!checked.some((v) => v.severity === ViolationSeverity.ERROR)) out.push(...lintMatchConditionReach(expression, matching.rules, p.child('expression'), ctx, matching.what));
    }
  });
  return out;
}
