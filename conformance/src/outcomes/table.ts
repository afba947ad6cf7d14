/** How the suites' figures print: a percentage, and a table of labelled rows. */
export function percent(n: number, d: number): string {
  return d === 0 ? '0.0%' : `${(Math.floor((1000 * n) / d) / 10).toFixed(1)}%`;
}

export function printTable(title: string, rows: ReadonlyArray<[string, string]>): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`\n${title}`);
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
}
