import { CelEnvironment } from '../engine';
import { CelLibrary, registerNamespace } from '../library';
import { celError } from './values';

/**
 * cel-go's strings extension. The engine already has indexOf, lastIndexOf, lowerAscii,
 * upperAscii, split, substring, trim and join; this adds the rest of version 0 (`charAt`,
 * `replace`) and, from version 2, `<string>.format(list)` and `strings.quote(string)`.
 */
export const STRINGS_V0: CelLibrary = {
  name: 'strings',
  install(env: CelEnvironment) {
    env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
      const chars = [...s];
      const index = Number(i);
      if (index < 0 || index > chars.length) throw celError(`index out of range: ${i}`);
      return chars[index] ?? '';
    });
    env.registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) => s.split(from).join(to));
    env.registerFunction('string.replace(string, string, int): string', (s: string, from: string, to: string, n: bigint) => {
      let remaining = Number(n);
      if (remaining < 0) return s.split(from).join(to);
      const parts = s.split(from);
      let out = parts[0];
      for (let i = 1; i < parts.length; i++) {
        out += (remaining-- > 0 ? to : from) + parts[i];
      }
      return out;
    });
  },
};

export const STRINGS_V2: CelLibrary = {
  name: 'stringsV2',
  install(env: CelEnvironment) {
    env.registerFunction('string.format(list): string', (format: string, args: unknown[]) => formatString(format, args));
    const ns = registerNamespace(env, 'strings');
    env.registerFunction(`${ns}.quote(string): string`, (_: unknown, s: string) => quote(s));
  },
};

function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '\u0007': out += '\\a'; break;
      case '\b': out += '\\b'; break;
      case '\f': out += '\\f'; break;
      case '\n': out += '\\n'; break;
      case '\r': out += '\\r'; break;
      case '\t': out += '\\t'; break;
      case '\v': out += '\\v'; break;
      case '\\': out += '\\\\'; break;
      case '"': out += '\\"'; break;
      default: out += ch;
    }
  }
  return `${out}"`;
}

/** `%s %d %f %e %b %o %x %X %%`, with an optional precision (`%.2f`), as cel-go's format. */
export function formatString(format: string, args: readonly unknown[]): string {
  let out = '';
  let argIndex = 0;
  for (let i = 0; i < format.length; i++) {
    const ch = format[i];
    if (ch !== '%') {
      out += ch;
      continue;
    }
    const spec = /^(?:\.(\d+))?([sdfeboxX%])/.exec(format.slice(i + 1));
    if (!spec) throw celError(`could not parse formatting clause: unrecognized formatting clause "${format[i + 1] ?? ''}"`);
    i += spec[0].length;
    if (spec[2] === '%') {
      out += '%';
      continue;
    }
    if (argIndex >= args.length) throw celError(`index ${argIndex} out of range`);
    out += formatClause(spec[2], spec[1] === undefined ? undefined : Number(spec[1]), args[argIndex++]);
  }
  return out;
}

function formatClause(verb: string, precision: number | undefined, value: unknown): string {
  const num = (v: unknown) => (typeof v === 'bigint' ? v : typeof v === 'number' ? v : BigInt(String(v)));
  switch (verb) {
    case 's': return stringOf(value);
    case 'd': {
      if (typeof value === 'number') {
        if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : (value < 0 ? '-Infinity' : 'NaN');
        throw celError('decimal clause can only be used on integers, was given double');
      }
      return String(num(value));
    }
    case 'f': return Number(value).toFixed(precision ?? 6);
    case 'e': {
      const s = Number(value).toExponential(precision ?? 6);
      return s.replace(/e([+-])(\d)$/, 'e$10$2');
    }
    case 'b': return typeof value === 'boolean' ? String(value) : BigInt(String(num(value))).toString(2);
    case 'o': return BigInt(String(num(value))).toString(8);
    case 'x':
    case 'X': {
      let s: string;
      if (typeof value === 'string') s = Buffer.from(value, 'utf8').toString('hex');
      else if (value instanceof Uint8Array) s = Buffer.from(value).toString('hex');
      else s = BigInt(String(num(value))).toString(16);
      return verb === 'X' ? s.toUpperCase() : s;
    }
  }
  return '';
}

function stringOf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (Array.isArray(value)) return `[${value.map(stringOf).join(', ')}]`;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (value instanceof Map) return `{${[...value.entries()].map(([k, v]) => `${stringOf(k)}: ${stringOf(v)}`).join(', ')}}`;
  if (value instanceof Date) return value.toISOString().replace('.000Z', 'Z');
  if (typeof value === 'object') {
    if (value.constructor === Object) return `{${Object.entries(value).map(([k, v]) => `${k}: ${stringOf(v)}`).join(', ')}}`;
    return String(value);
  }
  return String(value);
}
