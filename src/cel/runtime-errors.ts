import { userNames } from './routes';

/**
 * A runtime error's text in the apiserver's (cel-go's) words, from the engine's. PolicyTester
 * reports these texts in its decisions, where the apiserver reports its own; each rewrite below
 * was measured against cel-go by the eval suite (conformance/src/suites/eval/suite.ts).
 */

/** The engine's message without the source excerpt it appends (`\n\n>    1 | ...`). */
function withoutExcerpt(message: string): string {
  const excerpt = message.search(/\n\n>\s+\d+ \|/);
  return excerpt === -1 ? message : message.slice(0, excerpt);
}

/** cel-go's runtime type name of an engine type name (`dyn<list<int>>` is a `list`). */
function runtimeTypeName(engineType: string): string {
  const t = /^dyn<(.*)>$/.exec(engineType)?.[1] ?? engineType;
  if (t.startsWith('list<') || t === 'list') return 'list';
  if (t.startsWith('map<') || t === 'map') return 'map';
  if (t === 'null') return 'null_type';
  return t;
}

/** The traits (common/types/traits) that the operators' overloads require of their left operand. */
const OPERATOR_TRAIT: { readonly [op: string]: string } = {
  '+': 'adder',
  '-': 'subtractor',
  '*': 'multiplier',
  '/': 'divider',
  '%': 'modder',
  '<': 'comparer',
  '<=': 'comparer',
  '>': 'comparer',
  '>=': 'comparer',
};

/** The traits of cel-go's built-in types (common/types: each type's traits). */
const TYPE_TRAITS: { readonly [type: string]: ReadonlySet<string> } = {
  'int': new Set(['adder', 'comparer', 'divider', 'modder', 'multiplier', 'subtractor']),
  'uint': new Set(['adder', 'comparer', 'divider', 'modder', 'multiplier', 'subtractor']),
  'double': new Set(['adder', 'comparer', 'divider', 'multiplier', 'subtractor']),
  'string': new Set(['adder', 'comparer']),
  'bytes': new Set(['adder', 'comparer']),
  'bool': new Set(['comparer']),
  'list': new Set(['adder']),
  'map': new Set(),
  'null_type': new Set(),
  'type': new Set(),
  'google.protobuf.Timestamp': new Set(['adder', 'comparer', 'subtractor']),
  'google.protobuf.Duration': new Set(['adder', 'comparer', 'subtractor']),
};

/** cel-go's types that receive method calls (traits.ReceiverType): the others are listed here. */
const NOT_RECEIVERS: ReadonlySet<string> = new Set(['int', 'uint', 'double', 'bool', 'bytes', 'list', 'map', 'null_type', 'type']);

/**
 * An operator applied to values it has no overload for (interpretable.go evalBinary): a left
 * operand with the operator's trait refuses the right one through its own method, and a left
 * operand that receives method calls refuses the operator as a method ("no such overload"); any
 * other left operand fails the trait check ("no such overload: _+_"). The engine's message gives
 * an operand checked as dyn as `dyn<runtime type>`.
 */
function operatorMismatch(left: string, op: string): string {
  const type = runtimeTypeName(left);
  const trait = OPERATOR_TRAIT[op];
  const traits = TYPE_TRAITS[type];
  if (!trait || !traits || traits.has(trait) || !NOT_RECEIVERS.has(type)) return 'no such overload';
  return `no such overload: _${op}_`;
}

/** Splits a type list at its top-level commas (`map<string, int>, int`). */
function splitTypes(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of list) {
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
      continue;
    }
    if (ch === '<' || ch === '(') depth++;
    if (ch === '>' || ch === ')') depth--;
    current += ch;
  }
  if (current.trim() !== '') out.push(current.trim());
  return out;
}

/**
 * A function called at run time with arguments it has no overload for: cel-go's dispatcher names
 * the function and the runtime types of its arguments, the receiver first
 * (decls.go MaybeNoSuchOverload); `size` checks its argument's trait and names itself only.
 */
function functionMismatch(call: string): string | undefined {
  const m = /^(?:([\w.]+(?:<.*>)?)\.)?([A-Za-z_]\w*)\((.*)\)$/.exec(call);
  if (!m) return undefined;
  const [, target, function_, args] = m;
  // A namespaced function (`sets.intersects`) prints as `sets.namespace.intersects`.
  const namespace = target?.endsWith('.namespace') ? target.slice(0, -'.namespace'.length) : undefined;
  const receiver = namespace === undefined ? target : undefined;
  const name = userNames(namespace === undefined ? function_ : `${namespace}.${function_}`);
  // Functions that check their argument's trait first name themselves only (`size`, ext lists' `sort`).
  if (name === 'size' || name === 'sort') return `no such overload: ${name}`;
  // The optional namespace's functions print qualified.
  if (receiver === 'OptionalNamespace') return `no such overload: optional.${name}(${splitTypes(args).map(runtimeTypeName).join(', ')})`;
  const types = [...(receiver ? [receiver] : []), ...splitTypes(args)].map(runtimeTypeName);
  return `no such overload: ${name}(${types.join(', ')})`;
}

/** The engine's error text, in the apiserver's (cel-go's) words where they differ. */
export function celErrorText(e: unknown): string {
  const message = withoutExcerpt(e instanceof Error ? e.message : String(e));
  const noSuchKey = /^No such key: (.+)$/is.exec(message);
  if (noSuchKey) {
    const index = /^index out of bounds, index (-?\d+) /.exec(noSuchKey[1]);
    return index ? `index out of bounds: ${index[1]}` : `no such key: ${noSuchKey[1]}`;
  }
  // The engine's only failing conversions to these types are from strings (`int('many')`).
  const conversion = /^(int|uint|double)\(\) type error: cannot convert to \1$/.exec(message);
  if (conversion) return `type conversion error from 'string' to '${conversion[1]}'`;
  if (/^bool\(\) conversion error: invalid string value /.test(message)) return "type conversion error from 'string' to 'bool'";
  const overflow = /^(?:int|uint)\(\) type error: ((?:unsigned )?integer overflow)$/.exec(message);
  if (overflow) return overflow[1];
  if (message === 'Unsigned integer overflow') return 'unsigned integer overflow';
  if (/^integer overflow: /.test(message)) return 'integer overflow';
  if (message === 'modulo by zero') return 'modulus by zero';
  if (/^no such overload: -\S+$/.test(message)) return 'no such overload: -_';
  if (message === 'Optional value is not present') return 'optional.none() dereference';
  if (/^Invalid duration string: /.test(message)) return "type conversion error from 'string' to 'google.protobuf.Duration'";
  const operator = /^no such overload: (.+?) (\+|-|\*|\/|%|<=|>=|<|>|in) (.+)$/.exec(message);
  if (operator) return operatorMismatch(operator[1], operator[2]);
  const call = /^found no matching overload for '(.*)'$/s.exec(message);
  if (call) return functionMismatch(call[1]) ?? message;
  // A macro's predicate or an optional's receiver of another type: the comprehension's or
  // orValue's operator has no overload for the value.
  if (/^(all|exists|exists_one|filter)\(var, predicate\) predicate must return bool/.test(message)) return 'no such overload';
  if (/^optional\.(orValue|or)\(value\) receiver must be optional/.test(message)) return 'no such overload';
  return message;
}
