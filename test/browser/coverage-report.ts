// The HTML coverage report in a real browser (headless Chromium, from Debian's packages): the
// counts the page shows are those of coverage.json, and the parts not covered are marked (a
// highlighted background). Run by `npx projen test:browser`; the page, its JSON and a screenshot
// are left in test-reports/browser/.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { PodDefaultsChart, ReplicaLimitChart } from '../../examples/main';
import { Operation, PolicyCoverage, PolicyTester } from '../../src';

const out = path.join(__dirname, '..', '..', 'test-reports', 'browser');
const browser = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** A partly covered report of the example app: some parts are left for the page to mark. */
function exampleCoverage(): PolicyCoverage {
  const replicas = PolicyTester.fromChart(new ReplicaLimitChart(Testing.app(), 'admission'), { coverage: true });
  replicas.review({ operation: Operation.CREATE, object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'w', namespace: 'shop' }, spec: { replicas: 9 } } });
  const pods = PolicyTester.fromChart(new PodDefaultsChart(Testing.app(), 'pod-defaults'), { coverage: true });
  pods.review({
    operation: Operation.CREATE,
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop', labels: { 'example.com/inject-proxy': 'true' } }, spec: { containers: [{ name: 'a', image: 'a:1' }] } },
  });
  return PolicyCoverage.merge([replicas.coverage(), pods.coverage()]);
}

/** What the rendered page shows, written into the DOM by a script the browser runs: the text of each count cell, and each mark's background. */
const PROBE = `<script>
addEventListener('load', () => {
  const cells = [...document.querySelectorAll('table.summary td[data-measure]')].map((td) => ({
    policy: td.parentElement.dataset.policy, measure: td.dataset.measure, text: td.innerText.trim(),
  }));
  const marks = [...document.querySelectorAll('mark.uncovered')].map((m) => ({
    text: m.innerText, background: getComputedStyle(m).backgroundColor, visible: m.getBoundingClientRect().width > 0,
  }));
  const probe = document.createElement('pre');
  probe.id = 'probe';
  probe.textContent = JSON.stringify({ cells, marks });
  document.body.append(probe);
});
</script>`;

function render(file: string, args: string[]): string {
  return execFileSync(browser, ['--headless', '--no-sandbox', '--disable-gpu', '--virtual-time-budget=5000', ...args, `file://${file}`],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
}

function main(): void {
  fs.mkdirSync(out, { recursive: true });
  const coverage = exampleCoverage();
  const json = coverage.toJson();
  fs.writeFileSync(path.join(out, 'coverage.json'), JSON.stringify(json, null, 2));
  const page = path.join(out, 'index.html');
  fs.writeFileSync(page, coverage.toHtml());
  render(page, ['--window-size=1280,2000', `--screenshot=${path.join(out, 'coverage-report.png')}`]);
  const probed = path.join(out, 'probed.html');
  fs.writeFileSync(probed, coverage.toHtml().replace('</body>', `${PROBE}</body>`));
  const dom = render(probed, ['--dump-dom']);
  const match = /<pre id="probe">([\s\S]*?)<\/pre>/.exec(dom);
  if (!match) throw new Error('the browser did not run the probe: no #probe in the dumped DOM');
  const shown = JSON.parse(match[1].replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')) as {
    cells: Array<{ policy: string; measure: string; text: string }>;
    marks: Array<{ text: string; background: string; visible: boolean }>;
  };
  const problems: string[] = [];
  const rows = [{ id: 'all', summary: coverage.total }, ...coverage.policies.map((p) => ({ id: `${p.policyKind}/${p.policy}@${p.contentHash}`, summary: p }))];
  for (const { id, summary } of rows) {
    for (const measure of ['bindings', 'matchConditions', 'validations', 'expressions', 'branches'] as const) {
      const c = summary[measure];
      const expected = c.total === 0 ? '-' : `${c.percent.toFixed(2)}% (${c.covered}/${c.total})`;
      const cell = shown.cells.find((x) => x.policy === id && x.measure === measure);
      if (cell?.text !== expected) problems.push(`${id} ${measure}: the page shows ${JSON.stringify(cell?.text)}, coverage.json has ${expected}`);
    }
  }
  const untaken = json.policies.flatMap((p: any) => p.expressions)
    .filter((e: any) => e.evaluations === 0 || e.branches.some((b: any) => b.hits === 0)).length;
  if (untaken === 0) problems.push('the report has nothing uncovered: the check of marks would be vacuous');
  if (shown.marks.length < untaken) problems.push(`${untaken} expressions have uncovered parts, but the page marks only ${shown.marks.length} parts`);
  for (const m of shown.marks) {
    if (!m.visible) problems.push(`the mark of ${JSON.stringify(m.text)} is not rendered`);
    if (m.background === 'rgba(0, 0, 0, 0)' || m.background === 'transparent') problems.push(`the mark of ${JSON.stringify(m.text)} has no background`);
  }
  if (problems.length > 0) throw new Error(`the coverage report in the browser:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  console.log(`coverage report checked in ${browser}: ${shown.cells.length} counts agree with coverage.json, ${shown.marks.length} uncovered parts marked; `
    + `screenshot ${path.relative(process.cwd(), path.join(out, 'coverage-report.png'))}`);
}

main();
