import { CelType } from './engine';

/**
 * A type as cel-go prints it (`list(int)`, `map(string, dyn)`, `optional_type(string)`,
 * `null_type`), from the engine's spelling (`list<int>`, `map<string, dyn>`, `optional<string>`,
 * `null`). Type parameters the checker could not bind print as `dyn`.
 */
export function celTypeName(type: CelType | string): string {
  return formatName(typeof type === 'string' ? type : type.name);
}

function formatName(name: string): string {
  const generic = /^(list|map|optional|dyn)<(.*)>$/.exec(name);
  if (generic) {
    const [, kind, inner] = generic;
    const params = splitTopLevel(inner).map(formatName);
    switch (kind) {
      case 'list': return `list(${params[0]})`;
      case 'map': return `map(${params.join(', ')})`;
      case 'optional': return `optional_type(${params[0]})`;
      default: return 'dyn';
    }
  }
  if (name === 'null') return 'null_type';
  if (/^[A-Z]$/.test(name)) return 'dyn';
  return name;
}

/** The comma-separated parameters of a generic type's spelling, split at the top level only. */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '<') depth++;
    if (ch === '>') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  parts.push(current.trim());
  return parts;
}
