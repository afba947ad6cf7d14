/**
 * Compiles the TypeScript examples of every page under docs/ with jsii-rosetta in strict mode, as
 * `jsii-rosetta extract --strict` compiles the README's: a snippet that does not compile, or that
 * rosetta cannot translate to the other languages, fails the task.
 *
 * Rosetta reads snippets from a jsii assembly, which carries the README only. So each page gets an
 * assembly of its own under build/rosetta-docs/<page>/: the compiled .jsii with the page as its
 * readme, next to package.json and links to lib/ and node_modules/, so that the snippets import
 * `cdk8s-admission` as they would from an app. Rosetta names a failing snippet by the page's line
 * (`cdk8s-admission-README-L<line>.ts`).
 *
 * Usage: `npx projen rosetta:extract` (after `npx projen compile`, which writes .jsii).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const root = path.join(__dirname, '..');
const assembly = JSON.parse(fs.readFileSync(path.join(root, '.jsii'), 'utf8'));
const rosetta = path.join(root, 'node_modules', '.bin', 'jsii-rosetta');

const pages = fs.readdirSync(path.join(root, 'docs')).filter((file) => file.endsWith('.md')).sort();
const failed: string[] = [];
for (const page of pages) {
  const markdown = fs.readFileSync(path.join(root, 'docs', page), 'utf8');
  if (!/^```ts$/m.test(markdown)) continue;
  const directory = path.join(root, 'build', 'rosetta-docs', path.basename(page, '.md'));
  fs.rmSync(directory, { recursive: true, force: true });
  fs.mkdirSync(directory, { recursive: true });
  fs.copyFileSync(path.join(root, 'package.json'), path.join(directory, 'package.json'));
  fs.symlinkSync(path.join(root, 'lib'), path.join(directory, 'lib'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(directory, 'node_modules'));
  fs.writeFileSync(path.join(directory, '.jsii'), JSON.stringify({ ...assembly, readme: { markdown } }));
  const run = spawnSync(rosetta, ['extract', '--strict', '--fail', directory], { cwd: root, encoding: 'utf8' });
  process.stdout.write(`docs/${page}: ${run.status === 0 ? 'compiled' : 'FAILED'}\n`);
  if (run.status !== 0) {
    failed.push(page);
    process.stderr.write(`${run.stdout}${run.stderr}\n`);
  }
}
if (failed.length > 0) {
  process.stderr.write(`jsii-rosetta (strict) failed on: ${failed.map((page) => `docs/${page}`).join(', ')}\n`);
  process.exit(1);
}
