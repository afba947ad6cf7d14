import { callArguments, functionName, walk } from './ast-walk';
import { CelNode } from './engine';
import { CelIssue, issueOffset } from './errors';
import { NAMESPACE_OBJECTS } from './library';
import { isOptionalEntry, optionalIndices } from './optional-entries';
import { re2Error } from './re2';
import { INTERNAL_NAMES } from './routes';
import { celTypeName } from './type-names';
import { isAvailable } from './version-gates';

/**
 * The checks cel-go runs after type-checking (its AST validators), and the engine's extras that
 * the Kubernetes environment does not have:
 *
 * - homogeneous aggregate literals (`[1, 'a']`: expected type 'int' but found 'string'), except
 *   inside `format()` arguments, as cel-go's validator exempts them;
 * - from 1.29 (new expressions on 1.30 targets), literal arguments of `matches` (RE2 syntax),
 *   `duration` and `timestamp`;
 * - before cross-type numeric comparisons (1.28), `1 < 2.0` has no overload;
 * - `cel.bind` (ext.Bindings is not in Kubernetes), the engine's bytes methods and bare
 *   namespace objects are undeclared, and so is `optional` before optional types (1.28);
 * - a field of a primitive value (`duration('1s').seconds`, `1u.x`) is a type error;
 * - an int literal must fit in 64 bits.
 */
export function postCheckIssues(root: CelNode, minor: number): CelIssue[] {
  const issues: CelIssue[] = [];
  const literals = isAvailable('literalValidators', minor);
  const crossNumeric = isAvailable('crossTypeNumericComparisons', minor);
  const optionals = isAvailable('optionalTypes', minor);
  walk(root, (node, ancestors) => {
    switch (node.op) {
      case 'list': {
        const optional = optionalIndices(node);
        if (!inFormatCall(ancestors)) homogeneous(node.args as CelNode[], issues, (_, i) => optional?.has(i) ?? false);
        break;
      }
      case 'map':
        if (!inFormatCall(ancestors)) {
          const entries = node.args as CelNode[][];
          homogeneous(entries.map((e) => e[0]), issues);
          homogeneous(entries.map((e) => e[1]), issues, (_, i) => isOptionalEntry(entries[i]));
        }
        break;
      case 'value':
        if (isIntLiteralOutOfRange(node, ancestors[ancestors.length - 1])) issues.push({ offset: node.start, message: 'invalid int literal' });
        break;
      case '.': {
        const operand = (node.args as CelNode[])[0];
        const type = operand.checkedType ? celTypeName(operand.checkedType) : undefined;
        if (type && NO_FIELDS.has(type)) issues.push({ offset: node.pos - 1, message: `type '${SHORT_NAMES[type] ?? type}' does not support field selection` });
        if (type === 'type') issues.push({ offset: node.pos - 1, message: `type '${typeValueName(operand)}' does not support field selection` });
        break;
      }
      case '<': case '<=': case '>': case '>=':
        if (!crossNumeric) mixedNumericComparison(node, issues);
        break;
      case 'id':
        if (!optionals && node.args === 'optional' && node.checkedType?.name === 'OptionalNamespace') {
          issues.push({ offset: node.pos, message: "undeclared reference to 'optional' (in container '')" });
        } else if (NAMESPACE_OBJECTS.has(node.args) && isNamespace(node) && !isCallReceiver(node, ancestors[ancestors.length - 1])) {
          issues.push({ offset: node.pos, message: `undeclared reference to '${node.args}' (in container '')` });
        }
        break;
      case 'call':
      case 'rcall':
        if (INTERNAL_NAMES.has(functionName(node) ?? '')) {
          issues.push({ offset: issueOffset(node, node.pos), message: `undeclared reference to '${functionName(node)}' (in container '')` });
        }
        if (literals) literalArgument(node, issues);
        notInKubernetes(node, issues);
        break;
    }
  });
  return issues.sort((a, b) => a.offset - b.offset);
}

function isNamespace(node: CelNode): boolean {
  const name = node.checkedType?.name ?? '';
  return name.endsWith('.namespace') || name === 'CelNamespace';
}

function isCallReceiver(node: CelNode, parent: CelNode | undefined): boolean {
  return !!parent && parent.op === 'rcall' && parent.args[1] === node && !(node.args === 'cel' && parent.args[0] === 'bind');
}

function inFormatCall(ancestors: readonly CelNode[]): boolean {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const parent = ancestors[i];
    if (functionName(parent) === 'format') return true;
    if (parent.op !== 'list' && parent.op !== 'map') return false;
  }
  return false;
}

/** cel-go's homogeneous-literal rule; optional entries count with their value type. */
function homogeneous(elements: readonly CelNode[], issues: CelIssue[], isOptional: (n: CelNode, i: number) => boolean = () => false): void {
  let expected: string | undefined;
  for (const [i, element] of elements.entries()) {
    if (!element.checkedType) return;
    const checked = isOptional(element, i) && element.checkedType.kind === 'optional' ? element.checkedType.valueType! : element.checkedType;
    // A type still open (`[]`, `optional.none()`) fits any element type, as cel-go infers it.
    if (checked.hasPlaceholderType) continue;
    const type = celTypeName(checked);
    if (expected === undefined) {
      expected = type;
    } else if (type !== expected && !isEmptyAggregate(element, type)) {
      issues.push({ offset: element.pos, message: `expected type '${expected}' but found '${type}'` });
      return;
    }
  }
}

/** `[]` and `{}` type as list(dyn) / map(dyn, dyn) in cel-go only after inference; accept them beside typed ones. */
function isEmptyAggregate(node: CelNode, type: string): boolean {
  return (node.op === 'list' || node.op === 'map') && (node.args as unknown[]).length === 0 && /^(list|map)\(/.test(type);
}

const NUMERIC = new Set(['int', 'uint', 'double']);
const MAX_INT64 = 2n ** 63n - 1n;

/**
 * cel-go parses a signed int literal as one token, so `-9223372036854775808` is an int and
 * `9223372036854775808` (or `-(9223372036854775808)`) is an invalid literal; the engine takes any size.
 */
function isIntLiteralOutOfRange(node: CelNode, parent: CelNode | undefined): boolean {
  if (typeof node.args !== 'bigint' || node.args <= MAX_INT64) return false;
  const signed = parent?.op === '-_' && parent.start === node.start - 1;
  return !(signed && node.args === MAX_INT64 + 1n);
}

/** Types whose values have no fields: selecting one is a type error in cel-go (the engine lets it pass). */
const NO_FIELDS: ReadonlySet<string> = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'google.protobuf.Duration', 'google.protobuf.Timestamp']);
const SHORT_NAMES: Record<string, string> = { 'google.protobuf.Duration': 'duration', 'google.protobuf.Timestamp': 'timestamp' };

/** Type identifiers as cel-go prints their type: `int` is a `type(int)`, `list` a `type(list(dyn))`. */
const TYPE_IDENTIFIERS: Record<string, string> = {
  int: 'int',
  uint: 'uint',
  double: 'double',
  bool: 'bool',
  string: 'string',
  bytes: 'bytes',
  null_type: 'null_type',
  type: 'type',
  list: 'list(dyn)',
  map: 'map(dyn, dyn)',
};

/** How cel-go prints the type of an expression whose value is a type (`int`, `type(x)`). */
function typeValueName(operand: CelNode): string {
  if (operand.op === 'id' && TYPE_IDENTIFIERS[operand.args]) return `type(${TYPE_IDENTIFIERS[operand.args]})`;
  const argument = operand.op === 'call' && operand.args[0] === 'type' ? (operand.args[1] as CelNode[])[0] : undefined;
  if (argument?.checkedType) return `type(${celTypeName(argument.checkedType)})`;
  return 'type';
}

function mixedNumericComparison(node: CelNode, issues: CelIssue[]): void {
  const [l, r] = node.args as CelNode[];
  const lt = l.checkedType?.name;
  const rt = r.checkedType?.name;
  if (lt && rt && lt !== rt && NUMERIC.has(lt) && NUMERIC.has(rt)) {
    issues.push({ offset: issueOffset(node, node.pos), message: `found no matching overload for '_${node.op}_' applied to '(${lt}, ${rt})'` });
  }
}

function literalArgument(node: CelNode, issues: CelIssue[]): void {
  const name = functionName(node);
  if (name !== 'matches' && name !== 'duration' && name !== 'timestamp') return;
  const arg = callArguments(node)[0];
  if (!arg || arg.op !== 'value' || typeof arg.args !== 'string') return;
  const value = arg.args as string;
  const bad = name === 'matches' ? re2Error(value) !== undefined : name === 'duration' ? !isGoDuration(value) : !isRfc3339(value);
  if (bad) issues.push({ offset: arg.pos, message: `invalid ${name} argument` });
}

const ENGINE_BYTES_METHODS = new Set(['json', 'hex', 'string', 'base64', 'at']);

function notInKubernetes(node: CelNode, issues: CelIssue[]): void {
  if (node.op !== 'rcall') return;
  const receiver = node.args[1] as CelNode;
  if (receiver.op === 'id' && receiver.args === 'cel' && (!receiver.checkedType || receiver.checkedType.name === 'CelNamespace')) {
    issues.push({ offset: receiver.pos, message: "undeclared reference to 'cel' (in container '')" });
  } else if (receiver.checkedType?.name === 'bytes' && ENGINE_BYTES_METHODS.has(node.args[0])) {
    const args = (node.args[2] as CelNode[]).map((a) => celTypeName(a.checkedType ?? 'dyn')).join(', ');
    issues.push({ offset: issueOffset(node, node.pos), message: `found no matching overload for '${node.args[0]}' applied to 'bytes.(${args})'` });
  }
}

/** Go's time.ParseDuration syntax: `0`, or signed sequences like `1h30m`, `1.5s`, `300ms`. */
export function isGoDuration(s: string): boolean {
  return s === '0' || /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/.test(s);
}

/** RFC 3339 as Go's time.Parse(time.RFC3339, s) accepts it. */
export function isRfc3339(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/.exec(s);
  if (!m) return false;
  const [, y, mo, d, h, mi, sec] = m.map(Number);
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || sec > 59) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d < 1 || d > days) return false;
  return !m[9] || (Number(m[10]) <= 23 && Number(m[11]) <= 59);
}
