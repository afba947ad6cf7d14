// CEL values as a reader of an explanation wants them: written as CEL literals (`6`, `"5"`, `2u`,
// `[1, 2]`, `{"a": 1}`), and cut short past a length, since an object can be a whole Pod.
import { engine } from '../../cel/engine';
import { celErrorText } from '../../cel/runtime-errors';

/** How many characters of a value an explanation shows. */
const MAX_TEXT = 120;

/** A CEL value (or the JSON a review works with) as a short CEL literal. */
export function celValueText(value: unknown, max = MAX_TEXT): string {
  const text = literal(value, max + 1);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** An evaluation error as the apiserver words it, on one line. */
export function celErrorLine(error: unknown): string {
  return celErrorText(error).split('\n')[0];
}

function literal(value: unknown, budget: number): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(1) : String(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof Uint8Array) return `b${JSON.stringify(Buffer.from(value).toString('latin1'))}`;
  if (value instanceof Date) return `timestamp(${JSON.stringify(value.toISOString())})`;
  if (Array.isArray(value)) return sequence('[', ']', value, (v, rest) => literal(v, rest), budget);
  if (value instanceof Map) return sequence('{', '}', [...value], ([k, v], rest) => `${literal(k, rest)}: ${literal(v, rest)}`, budget);
  if (value instanceof engine.Duration) return `duration(${JSON.stringify(String(value))})`;
  if (typeof value === 'object') {
    const inner = (value as { valueOf?: () => unknown }).valueOf?.();
    // uint (the engine's UnsignedInt), and other boxed scalars.
    if (inner !== value && typeof inner === 'bigint') return `${inner}u`;
    if (inner !== value && (typeof inner === 'number' || typeof inner === 'string' || typeof inner === 'boolean')) return literal(inner, budget);
    const own = value as { toString?: () => string };
    if (typeof own.toString === 'function' && own.toString !== Object.prototype.toString && Object.keys(value).length === 0) return own.toString();
    return sequence('{', '}', Object.entries(value), ([k, v], rest) => `${JSON.stringify(k)}: ${literal(v, rest)}`, budget);
  }
  return String(value);
}

/** Elements joined until the text is longer than `budget` (the caller cuts it). */
function sequence<T>(open: string, close: string, items: readonly T[], item: (value: T, budget: number) => string, budget: number): string {
  let text = open;
  for (const [i, value] of items.entries()) {
    if (text.length > budget) break;
    text += (i > 0 ? ', ' : '') + item(value, budget - text.length);
  }
  return text + close;
}
