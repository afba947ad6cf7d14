// CONTRIBUTING.md's layout names every folder of src/, so that a newcomer finds each one there.
import * as fs from 'fs';
import * as path from 'path';

const root = path.join(__dirname, '..');
const contributing = fs.readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');

function folders(directory: string): string[] {
  return fs.readdirSync(path.join(root, directory), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [`${directory}/${entry.name}/`, ...folders(`${directory}/${entry.name}`)]);
}

test('the layout table names every folder of src/', () => {
  const named = new Set([...contributing.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]));
  expect(folders('src').filter((folder) => !named.has(folder))).toEqual([]);
});

test('the layout table names no folder that does not exist', () => {
  const named = [...contributing.matchAll(/^\| `(src\/[^`]*)` \|/gm)].map((m) => m[1]);
  expect(named.filter((folder) => !fs.existsSync(path.join(root, folder)))).toEqual([]);
});
