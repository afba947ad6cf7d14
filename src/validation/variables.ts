import { ExpressionField } from './expression-checker';
import { duplicate, FieldViolation, invalidEach, required } from './field-errors';
import { FieldPath } from './field-path';
import { isCelIdentifier } from './formats';
import { RuleContext } from './rule-context';
import type { Variable } from '../wire/admissionregistration';

/**
 * C8: a policy's variables. Each expression sees only the variables before it.
 * Duplicate names are rejected here although the apiserver accepts them (a later duplicate
 * silently re-types the name): stricter, and never what a policy author means.
 */
export function validateVariables(variables: readonly Variable[], path: FieldPath, ctx: RuleContext, hasParams: boolean): FieldViolation[] {
  const out: FieldViolation[] = [];
  const declared: string[] = [];
  variables.forEach((variable, i) => {
    if (!variable) return;
    const p = path.index(i);
    const name = (variable.name ?? '').trim();
    if (name === '') {
      out.push(required(p.child('name'), 'name is not specified'));
    } else {
      // The apiserver checks the name as written: surrounding spaces make it invalid.
      out.push(...invalidEach(p.child('name'), variable.name, isCelIdentifier(variable.name ?? '')));
      if (declared.includes(name)) out.push(duplicate(p.child('name'), name));
    }
    const expression = variable.expression ?? '';
    if (expression.trim() === '') {
      out.push(required(p.child('expression'), 'expression is not specified'));
    } else {
      out.push(...ctx.checkExpression(p.child('expression'), expression, { field: ExpressionField.VARIABLE, hasParams, variables: [...declared] }));
    }
    if (name !== '' && !declared.includes(name)) declared.push(name);
  });
  return out;
}

/** The names of the variables a policy declares, in order, for the expressions that follow them. */
export function declaredVariables(variables: readonly Variable[]): string[] {
  const names: string[] = [];
  for (const v of variables) {
    const name = (v?.name ?? '').trim();
    if (name !== '' && !names.includes(name)) names.push(name);
  }
  return names;
}
