// src/cel/README.md's table names every file of src/cel/ (its libraries/ by one row).
import * as fs from 'fs';
import * as path from 'path';

const folder = path.join(__dirname, '..', '..', 'src', 'cel');
const readme = fs.readFileSync(path.join(folder, 'README.md'), 'utf8');
const named = new Set([...readme.matchAll(/^\| (.+?) \|/gm)].flatMap((m) => [...m[1].matchAll(/`([^`]+)`/g)].map((n) => n[1])));

test('the file table names every file of src/cel/', () => {
  const files = fs.readdirSync(folder).filter((f) => f.endsWith('.ts'));
  expect(files.length).toBeGreaterThan(20);
  expect(files.filter((f) => !named.has(f))).toEqual([]);
  expect(named.has('libraries/*.ts')).toBe(true);
});

test('the file table names no file that does not exist', () => {
  const missing = [...named].filter((f) => f.endsWith('.ts') && !f.includes('*') && !fs.existsSync(path.join(folder, f)));
  expect(missing).toEqual([]);
});
