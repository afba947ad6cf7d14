// JSON with the keys of every object sorted: the same text for objects equal as data, whatever
// the order their keys were set in (a spec compared before and after an update, a policy's
// content hashed for its coverage record).
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortedKeys(o[k])]));
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}
