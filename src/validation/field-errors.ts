import { FieldPath } from './field-path';
import { ViolationSeverity } from './violation';

/**
 * A violation before it is tied to a manifest: a path and the apiserver-style message.
 * The constructors below render messages the way k8s.io/apimachinery `field.Error` does:
 * `<Type>[: <bad value>][: <detail>]`, with bad values as JSON.
 */
export interface FieldViolation {
  readonly path: FieldPath;
  readonly message: string;
  readonly severity: ViolationSeverity;
}

export function renderValue(value: unknown): string {
  if (value === undefined) return 'null';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function error(path: FieldPath, message: string): FieldViolation {
  return { path, message, severity: ViolationSeverity.ERROR };
}

function withDetail(head: string, detail?: string): string {
  return detail ? `${head}: ${detail}` : head;
}

export function required(path: FieldPath, detail?: string): FieldViolation {
  return error(path, withDetail('Required value', detail));
}

export function invalid(path: FieldPath, value: unknown, detail: string): FieldViolation {
  return error(path, `Invalid value: ${renderValue(value)}: ${detail}`);
}

/** `allowed` is listed in the given order; pass it sorted where the apiserver sorts it. */
export function notSupported(path: FieldPath, value: unknown, allowed: readonly string[]): FieldViolation {
  const list = allowed.map((a) => JSON.stringify(a)).join(', ');
  return error(path, `Unsupported value: ${renderValue(value)}: supported values: ${list}`);
}

export function duplicate(path: FieldPath, value: unknown): FieldViolation {
  return error(path, `Duplicate value: ${renderValue(value)}`);
}

export function forbidden(path: FieldPath, detail: string): FieldViolation {
  return error(path, `Forbidden: ${detail}`);
}

export function tooMany(path: FieldPath, actual: number, max: number): FieldViolation {
  return error(path, `Too many: ${actual}: must have at most ${max} items`);
}

export function tooLong(path: FieldPath, max: number, unit: string): FieldViolation {
  return error(path, `Too long: must have at most ${max} ${unit}`);
}

export function warning(path: FieldPath, message: string): FieldViolation {
  return { path, message, severity: ViolationSeverity.WARNING };
}

/** One `Invalid value` error per detail, as apimachinery reports each failed format rule. */
export function invalidEach(path: FieldPath, value: unknown, details: readonly string[]): FieldViolation[] {
  return details.map((d) => invalid(path, value, d));
}
