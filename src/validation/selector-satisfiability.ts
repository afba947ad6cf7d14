import type { LabelSelector } from '../wire/meta';

/**
 * Why no set of labels matches `selector`, or undefined when some does. A selector that matches
 * nothing is valid to the apiserver, and silently turns off what it guards (a webhook never
 * called, a policy never applied, params never found). Requirements are read per key:
 * `matchLabels` and `In` narrow the values a key may have, `NotIn` removes values, `Exists`
 * and `DoesNotExist` require the key or its absence.
 */
export function unmatchableReason(selector: LabelSelector | undefined): string | undefined {
  if (!selector) return undefined;
  const keys = new Map<string, { allowed?: Set<string>; excluded: Set<string>; exists: boolean; absent: boolean }>();
  const of = (key: string) => {
    let entry = keys.get(key);
    if (!entry) keys.set(key, entry = { excluded: new Set(), exists: false, absent: false });
    return entry;
  };
  const narrow = (key: string, values: readonly string[]) => {
    const entry = of(key);
    entry.allowed = new Set(entry.allowed ? values.filter((v) => entry.allowed!.has(v)) : values);
  };
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (typeof value === 'string') narrow(key, [value]);
  }
  for (const e of selector.matchExpressions ?? []) {
    if (!e || typeof e.key !== 'string') continue;
    const values = (e.values ?? []).filter((v): v is string => typeof v === 'string');
    if (e.operator === 'In') narrow(e.key, values);
    else if (e.operator === 'NotIn') values.forEach((v) => of(e.key).excluded.add(v));
    else if (e.operator === 'Exists') of(e.key).exists = true;
    else if (e.operator === 'DoesNotExist') of(e.key).absent = true;
  }
  for (const [key, { allowed, excluded, exists, absent }] of keys) {
    if (absent && (exists || allowed)) return `it requires label ${key} both to be present and to be absent`;
    if (!allowed) continue;
    const left = [...allowed].filter((v) => !excluded.has(v));
    if (left.length > 0) continue;
    if (allowed.size === 0) return `its requirements on label ${key} allow no value in common`;
    return `every value it allows for label ${key} (${[...allowed].join(', ')}) it also excludes`;
  }
  return undefined;
}
