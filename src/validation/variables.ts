import { FieldViolation, invalidEach, required, warning } from './field-errors';
import { FieldPath } from './field-path';
import { RuleContext } from './rule-context';
import { ExpressionField } from '../shared/expression-field';
import type { Variable } from '../wire/admissionregistration';

/**
 * A policy's variables (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go: validateVariable). Each expression sees only the variables before it.
 * The apiserver accepts duplicate names (the later one replaces the earlier for the expressions
 * after it); never what a policy author means, so it is a warning.
 */
export function validateVariables(variables: readonly Variable[], path: FieldPath, ctx: RuleContext, hasParams: boolean): FieldViolation[] {
  const out: FieldViolation[] = [];
  // One list, appended to: the checker reads it during each call only, and follows its growth.
  const declared: string[] = [];
  const isDeclared = new Set<string>();
  variables.forEach((variable, i) => {
    if (!variable) return;
    const p = path.index(i);
    const name = variable.name ?? '';
    if (name.trim() === '') {
      out.push(required(p.child('name'), 'name is not specified'));
    } else {
      // The apiserver checks the name as written: surrounding spaces make it invalid.
      out.push(...invalidEach(p.child('name'), name, isCelIdentifier(name)));
      if (isDeclared.has(name)) {
        out.push(warning(p.child('name'), `Duplicate value: "${name}": a variable of this name is declared before; the later one replaces it for the expressions after it`));
      }
    }
    const expression = variable.expression ?? '';
    if (expression.trim() === '') {
      out.push(required(p.child('expression'), 'expression is not specified'));
    } else {
      out.push(...ctx.checkExpression(p.child('expression'), expression, { field: ExpressionField.VARIABLE, hasParams, variables: declared }));
    }
    if (declares(variable) && !isDeclared.has(name)) {
      declared.push(name);
      isDeclared.add(name);
    }
  });
  return out;
}

/**
 * The apiserver declares a variable, under its name as written, whenever its expression is not
 * blank (whatever the name, and even when the expression does not compile, as dyn); a variable
 * with a blank expression is not declared, so the expressions that use it fail.
 */
function declares(variable: Variable | undefined): boolean {
  return !!variable && (variable.expression ?? '').trim() !== '';
}

/** The names of the variables a policy declares, in order, for the expressions that follow them. */
export function declaredVariables(variables: readonly Variable[]): string[] {
  const names = new Set<string>();
  for (const v of variables) {
    if (declares(v)) names.add(v.name ?? '');
  }
  return [...names];
}

const CEL_IDENTIFIER_RE = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED_WORDS: ReadonlySet<string> = new Set([
  'true', 'false', 'null', 'in',
  'as', 'break', 'const', 'continue', 'else',
  'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return',
  'var', 'void', 'while',
]);

/**
 * Tests whether the value is a CEL identifier that is not a CEL reserved word,
 * as required of admission policy variable names. Mirrors the API server's
 * `isCELIdentifier` (k8s.io/kubernetes pkg/apis/admissionregistration/validation).
 */
export function isCelIdentifier(value: string): string[] {
  if (CEL_IDENTIFIER_RE.test(value) && !CEL_RESERVED_WORDS.has(value)) {
    return [];
  }
  return ['must be a valid CEL identifier'];
}
