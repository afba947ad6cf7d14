// The README and the pages under docs/: every relative link resolves (files and heading anchors),
// and the JSON example of the coverage format is a report PolicyCoverage reads.
import * as fs from 'fs';
import * as path from 'path';
import { PolicyCoverage } from '../src';

const root = path.join(__dirname, '..');
const pages = ['README.md', 'CONTRIBUTING.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped but for `-` and `_`, spaces to `-`. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1])));
}

test.each(pages)('the relative links of %s resolve', (page) => {
  const text = fs.readFileSync(path.join(root, page), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    const [file, hash] = target.split('#');
    const resolved = file === '' ? path.join(root, page) : path.resolve(path.dirname(path.join(root, page)), file);
    if (!fs.existsSync(resolved)) broken.push(`${target}: no such file`);
    else if (hash !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(hash)) broken.push(`${target}: no such heading`);
  }
  expect(broken).toEqual([]);
});

test('the coverage format page\'s example is a report PolicyCoverage reads', () => {
  const text = fs.readFileSync(path.join(root, 'docs', 'policy-coverage.md'), 'utf8');
  const blocks = [...text.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => JSON.parse(m[1]));
  expect(blocks).toHaveLength(1);
  const [summary] = PolicyCoverage.fromJson(blocks[0]).policies;
  expect(summary.validations).toEqual({ covered: 2, total: 2, percent: 100 });
});
