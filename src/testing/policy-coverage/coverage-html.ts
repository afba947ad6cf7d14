// The coverage report as one self-contained HTML page: a summary table, then each policy with
// its counts, its bindings and its expressions, the parts not covered marked in the source.
import { BranchKind } from './cel-branches';
import { CoverageRecord, Count, ExpressionRecord, Measures, MEASURE_HEADINGS, MEASURES, measuresOf, percentOf, PolicyRecord, policyId, sumMeasures } from './coverage-record';

/** What an untaken branch was never: the title of its mark. */
const NEVER: { readonly [kind in BranchKind]: string } = {
  true: 'never true',
  false: 'never false',
  then: 'the first arm was never taken',
  else: 'the second arm was never taken',
  body: 'the body was never reached',
  left: 'the left operand never decided',
  right: 'the right operand never decided',
};

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em; color: #1b1f24; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #d0d7de; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td.low { background: #ffebe9; } td.medium { background: #fff8c5; } td.high { background: #dafbe1; }
pre { background: #f6f8fa; padding: 0.6em; overflow-x: auto; white-space: pre-wrap; }
mark.uncovered { background: #ffc1c0; color: inherit; border-bottom: 2px solid #cf222e; }
.never-evaluated { opacity: 0.75; }
.binding.uncovered { color: #cf222e; }
h3 { font-size: 1em; font-family: ui-monospace, monospace; margin-bottom: 0; }
h3 span { font-family: system-ui, sans-serif; font-weight: normal; color: #57606a; }
`;

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function countCell(measure: keyof Measures, c: Count): string {
  const percent = percentOf(c);
  const level = c.total === 0 ? '' : percent >= 80 ? 'high' : percent >= 50 ? 'medium' : 'low';
  const text = c.total === 0 ? '-' : `${percent.toFixed(2)}% (${c.covered}/${c.total})`;
  return `<td class="${level}" data-measure="${measure}" data-covered="${c.covered}" data-total="${c.total}">${text}</td>`;
}

function countRow(id: string, label: string, m: Measures): string {
  return `<tr data-policy="${escape(id)}"><td>${label}</td>${MEASURES.map((k) => countCell(k, m[k])).join('')}</tr>`;
}

const headRow = `<tr><th>Policy</th>${MEASURES.map((k) => `<th>${MEASURE_HEADINGS[k]}</th>`).join('')}</tr>`;

/** The source with every range of an untaken branch in a `mark`, nested as the syntax tree nests them. */
function markedSource(e: ExpressionRecord): string {
  if (e.evaluations === 0) return `<mark class="uncovered" title="never evaluated">${escape(e.expression)}</mark>`;
  const byRange = new Map<string, { start: number; end: number; titles: string[] }>();
  for (const b of e.branches) {
    if (b.hits > 0) continue;
    const k = `${b.start}:${b.end}`;
    const range = byRange.get(k) ?? { start: b.start, end: b.end, titles: [] };
    range.titles.push(NEVER[b.kind]);
    byRange.set(k, range);
  }
  const ranges = [...byRange.values()].sort((a, b) => a.start - b.start || b.end - a.end);
  const text = e.expression;
  let out = '';
  const open: number[] = [];
  let next = 0;
  for (let i = 0; i <= text.length; i++) {
    while (open.length > 0 && open[open.length - 1] <= i) {
      out += '</mark>';
      open.pop();
    }
    while (next < ranges.length && ranges[next].start === i) {
      const r = ranges[next++];
      // Ranges nest; one that would cross its enclosing range ends with it.
      const end = Math.min(r.end, open.length > 0 ? open[open.length - 1] : text.length);
      if (end <= i) continue;
      out += `<mark class="uncovered" title="${escape(r.titles.join('; '))}">`;
      open.push(end);
    }
    if (i < text.length) out += escape(text[i]);
  }
  return out;
}

function expressionSection(e: ExpressionRecord): string {
  const outcomes = e.role === 'matchCondition' || e.role === 'validation'
    ? `: ${e.trueResults} true, ${e.falseResults} false, ${e.errors} errors` : `, ${e.errors} errors`;
  return `<div class="expression" data-field="${escape(e.field)}" data-evaluations="${e.evaluations}">`
    + `<h3>${escape(e.field)} <span>${e.role}, ${e.evaluations} evaluations${outcomes}</span></h3>`
    + `<pre${e.evaluations === 0 ? ' class="never-evaluated"' : ''}><code>${markedSource(e)}</code></pre></div>`;
}

function policySection(p: PolicyRecord, index: number): string {
  const bindings = Object.entries(p.bindings).map(([name, n]) => (n > 0
    ? `<span class="binding covered">${escape(name)} (acted in ${n} reviews)</span>`
    : `<span class="binding uncovered">${escape(name)} (never acted)</span>`)).join(', ') || 'none: no binding names this policy';
  return `<section class="policy" id="policy-${index}" data-policy="${escape(policyId(p))}">`
    + `<h2>${escape(p.kind)} ${escape(p.name)} <small>${p.contentHash}</small></h2>`
    + `<table class="counts">${headRow}${countRow(policyId(p), escape(p.name), measuresOf(p))}</table>`
    + `<p>Bindings: ${bindings}</p>${p.expressions.map(expressionSection).join('')}</section>`;
}

export function coverageHtml(record: CoverageRecord): string {
  const total = sumMeasures(record.policies.map(measuresOf));
  const rows = record.policies.map((p, i) => countRow(policyId(p), `<a href="#policy-${i}">${escape(p.name)}</a>`, measuresOf(p)));
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Admission policy coverage</title><style>${STYLE}</style></head>\n`
    + `<body><h1>Admission policy coverage</h1>\n<table class="summary">${headRow}${countRow('all', 'All policies', total)}${rows.join('')}</table>\n`
    + `${record.policies.map(policySection).join('\n')}\n</body></html>\n`;
}
