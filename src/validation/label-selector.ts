import { FieldViolation, forbidden, invalid, invalidEach, required, warning } from './field-errors';
import { FieldPath } from './field-path';
import { validateLabels } from './metadata';
import { unmatchableReason } from './selector-satisfiability';
import { isQualifiedName, isValidLabelValue } from '../shared/name-formats';
import type { LabelSelector } from '../wire/meta';

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/**
 * A label selector, validated strictly as on create (k8s.io/apimachinery
 * pkg/apis/meta/v1/validation/validation.go: ValidateLabelSelector).
 */
export function validateLabelSelector(selector: LabelSelector | undefined, path: FieldPath): FieldViolation[] {
  if (!selector) return [];
  const out: FieldViolation[] = [];
  out.push(...validateLabels(selector.matchLabels ?? {}, path.child('matchLabels')));
  (selector.matchExpressions ?? []).forEach((expr, i) => {
    if (!expr) return;
    const p = path.child('matchExpressions').index(i);
    const values = expr.values ?? [];
    const operator = expr.operator ?? '';
    if (!OPERATORS.includes(operator)) out.push(invalid(p.child('operator'), operator, 'not a valid selector operator'));
    if ((expr.operator === 'In' || expr.operator === 'NotIn') && values.length === 0) {
      out.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
    }
    if ((expr.operator === 'Exists' || expr.operator === 'DoesNotExist') && values.length > 0) {
      out.push(forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    }
    const key = expr.key ?? '';
    out.push(...invalidEach(p.child('key'), key, isQualifiedName(key)));
    values.forEach((v, j) => {
      if (typeof v === 'string') out.push(...invalidEach(p.child('values').index(j), v, isValidLabelValue(v)));
    });
  });
  const unmatchable = out.length === 0 ? unmatchableReason(selector) : undefined;
  if (unmatchable) out.push(warning(path, `selects nothing: ${unmatchable}; drop or correct the contradicting requirement`));
  return out;
}
