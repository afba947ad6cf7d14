import { engine, Re2Pattern } from './engine';

/**
 * Regular expressions with RE2 semantics (Go's regexp, which cel-go and the apiserver use), via
 * re2js: lookarounds and backreferences are syntax errors, `(?i)` and `\p{L}` work. Compiled
 * patterns are cached.
 */
const cache = new Map<string, Re2Pattern | Error>();
const CACHE_LIMIT = 1000;

function compileCached(pattern: string): Re2Pattern | Error {
  let entry = cache.get(pattern);
  if (entry === undefined) {
    try {
      entry = engine.RE2JS.compile(pattern);
    } catch (e) {
      entry = e instanceof Error ? e : new Error(String(e));
    }
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(pattern, entry);
  }
  return entry;
}

/** The RE2 error for a pattern (`error parsing regexp: ...`), or undefined if it compiles. */
export function re2Error(pattern: string): string | undefined {
  const compiled = compileCached(pattern);
  return compiled instanceof Error ? compiled.message : undefined;
}

/** Compiles a pattern or throws the RE2 error. */
export function re2(pattern: string): Re2Pattern {
  const compiled = compileCached(pattern);
  if (compiled instanceof Error) throw new engine.EvaluationError({ code: 'invalid_regex', message: compiled.message });
  return compiled;
}
