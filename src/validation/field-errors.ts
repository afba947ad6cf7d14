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

/**
 * A bad value as JSON, for messages. A list or map nested more than a few levels is elided
 * (`[[[...]]]`) rather than rendered, so that a pathological value cannot blow the stack or the
 * message up; the apiserver's messages name such values by type only.
 */
export function renderValue(value: unknown): string {
  if (value === undefined) return 'null';
  if (typeof value === 'object' && value !== null && nestedDeeperThan(value, MAX_RENDERED_DEPTH)) {
    return Array.isArray(value) ? '[...]' : '{...}';
  }
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Array.isArray(value) ? '[...]' : typeof value === 'object' ? '{...}' : String(value);
  }
}

const MAX_RENDERED_DEPTH = 32;

function nestedDeeperThan(value: object, depth: number): boolean {
  let level: unknown[] = [value];
  for (let d = 0; d < depth; d++) {
    level = level.flatMap((v) => (typeof v === 'object' && v !== null ? Object.values(v) : []));
    if (level.length === 0) return false;
  }
  return true;
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
