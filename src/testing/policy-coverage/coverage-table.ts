// The coverage report as a text table, as jest prints its own: percentages per measure, one row
// per policy and a first row for all of them.
import { CoverageRecord, Count, Measures, MEASURE_HEADINGS, MEASURES, measuresOf, percentOf, policyId, sumMeasures } from './coverage-record';

function cell(c: Count): string {
  return c.total === 0 ? '-' : `${percentOf(c).toFixed(2)} (${c.covered}/${c.total})`;
}

export function coverageTable(record: CoverageRecord): string {
  // A policy's name, with its content hash only where two policies share the name.
  const names = record.policies.map((p) => p.name);
  const label = (i: number) => (names.filter((n) => n === names[i]).length > 1 ? policyId(record.policies[i]) : names[i]);
  const rows: Array<{ name: string; measures: Measures }> = [
    { name: 'All policies', measures: sumMeasures(record.policies.map(measuresOf)) },
    ...record.policies.map((p, i) => ({ name: `  ${label(i)}`, measures: measuresOf(p) })),
  ];
  const table = [['Admission policy', ...MEASURES.map((m) => MEASURE_HEADINGS[m])], ...rows.map((r) => [r.name, ...MEASURES.map((m) => cell(r.measures[m]))])];
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
  const line = (row: string[]) => row.map((text, c) => (c === 0 ? text.padEnd(widths[c]) : text.padStart(widths[c]))).join(' | ');
  const rule = widths.map((w) => '-'.repeat(w)).join('-|-');
  return [rule, line(table[0]), rule, ...table.slice(1).map(line), rule].join('\n') + '\n';
}
