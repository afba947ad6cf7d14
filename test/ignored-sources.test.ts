// No source file is hidden by .gitignore: an unanchored ignore pattern (projen's `coverage`) once
// kept src/testing/coverage/ out of every commit while the working tree compiled and passed.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const root = path.join(__dirname, '..');
const SOURCE_DIRECTORIES = ['src', 'test', 'examples', 'conformance/src', 'conformance/cmd', 'bench', 'scripts', 'docs'];
const SKIPPED = new Set(['node_modules', 'dist', '.venv', 'target', '.m2']);

function sources(directory: string): string[] {
  const full = path.join(root, directory);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(directory, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : sources(relative);
    return /\.(ts|js|go|py|java|md|json)$/.test(entry.name) ? [relative] : [];
  });
}

test('git ignores none of the source files', () => {
  const files = SOURCE_DIRECTORIES.flatMap(sources);
  expect(files.length).toBeGreaterThan(100);
  let ignored = '';
  try {
    ignored = execFileSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: root, input: files.join('\n'), encoding: 'utf8' });
  } catch (e) {
    // Exit status 1: none of them is ignored.
    if ((e as { status?: number }).status !== 1) throw e;
  }
  expect(ignored.split('\n').filter((line) => line !== '')).toEqual([]);
});
