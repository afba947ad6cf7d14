/**
 * Type tables: every built-in kind's type tree from schemas/kubernetes.json (src/schemas/cel-object-types.ts)
 * against the type checker's (go-types.ts), node by node. Where they differ by design (the library
 * types what an expression sees at run time), the difference is named by its category and listed in
 * known-differences.json; any other difference fails.
 */
import { describe, GO_SIMPLE, GoTypeTable, parseList, parseMap, requestKinds, unescape } from './go-types';
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';
import { builtinObjectTypes, CelObjectTypes } from '../../../../src/schemas/cel-object-types';
import { CaseOutcome } from '../../outcomes/suite-result';

/** The categories of difference the library keeps on purpose (cel-object-types.ts). */
type Category = 'date-time' | 'byte' | 'not exposed' | 'raw JSON' | 'not selectable' | 'recursive schema';

interface TreeDifference {
  readonly path: string;
  readonly library: string;
  readonly apiserver: string;
  readonly category?: Category;
}

/** The differences between the library's type and the type checker's, below `path`. */
function compareTrees(
  ours: string, goId: string, lib: CelObjectTypes, go: GoTypeTable, path: string, out: TreeDifference[], seen: Set<string>,
  ancestors: readonly string[] = [],
): void {
  if (out.length > 200) return;
  const key = `${ours}|${goId}`;
  if (seen.has(key)) return;
  seen.add(key);
  const g = go.types[goId];
  const fields = lib.types.get(ours);
  const goName = g && 'simple' in g ? GO_SIMPLE[g.simple] ?? g.simple : undefined;
  const differ = (category?: Category): void => {
    out.push({ path, library: ours, apiserver: describe(goId, go), category });
  };
  if (goId === 'none') {
    differ(ours === 'dyn' || ours === 'map<string, dyn>' ? 'not exposed' : undefined);
    return;
  }
  if (fields) {
    if (!g || !('object' in g)) return differ();
    const goFields = new Map(Object.entries(g.object).map(([name, id]) => [unescape(name), id]));
    for (const [name, type] of Object.entries(fields)) {
      const goField = goFields.get(name);
      if (goField === undefined && ancestors.includes(ours)) {
        // The resolver stops at a definition that refers to itself (PopulateRefs); the run time has what the schema allows.
        out.push({ path: `${path}.${name}`, library: type, apiserver: 'absent', category: 'recursive schema' });
        continue;
      }
      if (goField === undefined) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.replace(/[-./]/g, '_'))) out.push({ path: `${path}.${name}`, library: type, apiserver: 'absent', category: 'not selectable' });
        else out.push({ path: `${path}.${name}`, library: type, apiserver: 'absent', category: /^(dyn|map<string, dyn>|list<dyn>)$/.test(type) ? 'not exposed' : undefined });
        continue;
      }
      compareTrees(type, goField, lib, go, `${path}.${name}`, out, seen, [...ancestors, ours]);
    }
    for (const name of goFields.keys()) {
      if (!(name in fields)) out.push({ path: `${path}.${name}`, library: 'absent', apiserver: describe(goFields.get(name)!, go) });
    }
    return;
  }
  const item = parseList(ours);
  if (item !== undefined) {
    if (!g || !('list' in g)) return differ();
    return compareTrees(item, g.list, lib, go, `${path}[]`, out, seen, ancestors);
  }
  const value = parseMap(ours);
  if (value !== undefined) {
    if (!g || !('map' in g)) return differ();
    return compareTrees(value, g.map, lib, go, `${path}{}`, out, seen, ancestors);
  }
  if (ours === 'dyn' && g && 'object' in g && Object.keys(g.object).length === 0) return differ('raw JSON');
  if (ours === 'string' && goName === 'timestamp') return differ('date-time');
  if (ours === 'string' && goName === 'bytes') return differ('byte');
  if (ours !== goName) differ();
}

export function typeTableOutcomes(go: GoTypeTable, schemas: BuiltinSchemas): CaseOutcome[] {
  const outcomes: CaseOutcome[] = [];
  const served = requestKinds(schemas);
  for (const [gvk, goId] of Object.entries(go.kinds).sort()) {
    if (!served.has(gvk)) continue;
    const [group, version, kind] = gvk.split('/');
    const found = schemas.kind(group ? `${group}/${version}` : version, kind);
    if (!found) continue; // kinds the published spec does not serve (internal, List-only types)
    const lib = builtinObjectTypes(schemas, found.name);
    const differences: TreeDifference[] = [];
    compareTrees(lib.root, goId, lib, go, '', differences, new Set());
    const byCategory = new Map<string, TreeDifference[]>();
    for (const d of differences) byCategory.set(d.category ?? 'unexplained', [...(byCategory.get(d.category ?? 'unexplained') ?? []), d]);
    if (byCategory.size === 0) {
      outcomes.push({ name: `type table: ${gvk}`, apiserverAccepted: true, verdictAgrees: true, library: 'same type', apiserver: 'same type' });
    }
    for (const [category, list] of byCategory) {
      const shown = list.slice(0, 3).map((d) => d.path || '(root)').join(', ') + (list.length > 3 ? `, and ${list.length - 3} more` : '');
      outcomes.push({
        name: `type table: ${gvk}: ${category}: ${shown}`,
        apiserverAccepted: true,
        verdictAgrees: false,
        library: list.slice(0, 3).map((d) => `${d.path}: ${d.library}`).join('; '),
        apiserver: list.slice(0, 3).map((d) => `${d.path}: ${d.apiserver}`).join('; '),
      });
    }
  }
  return outcomes;
}
