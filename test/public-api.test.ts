// Public and internal are apart by place (CONTRIBUTING.md, "Layers"): every file at the top of src/
// is public API, exported from src/index.ts; src/index.ts exports nothing from src/private/, and
// from the layer folders only the files listed here, which define the public types of the
// validator and of PolicyTester.
import * as fs from 'fs';
import * as path from 'path';

const src = path.join(__dirname, '..', 'src');
const index = fs.readFileSync(path.join(src, 'index.ts'), 'utf8');
const exportedFrom = [...index.matchAll(/^export .* from '\.\/([^']+)';$/gm)].map((m) => m[1]);
/** Modules users load by path (package.json's lib/), not through the index. */
const ENTRY_POINTS = ['index', 'jest', 'jest-coverage', 'jest-coverage-reporter'];
const PUBLIC_IN_LAYERS = [
  'testing/admission-plugins/admission-plugin',
  'testing/admission-request',
  'testing/admission-result',
  'testing/assertions',
  'testing/explain/explanation',
  'testing/permissions',
  'testing/policy-coverage/policy-coverage',
  'testing/policy-match',
  'testing/policy-tester',
  'validation/manifest-validator',
  'validation/violation',
];

test('every file at the top of src/ is exported from the index, or is an entry point', () => {
  const top = fs.readdirSync(src).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
  expect(top.filter((f) => !ENTRY_POINTS.includes(f) && !exportedFrom.includes(f))).toEqual([]);
});

test('the index exports nothing from src/private/, and from the layers only their public types', () => {
  const fromFolders = exportedFrom.filter((f) => f.includes('/'));
  expect(fromFolders.filter((f) => f.startsWith('private/'))).toEqual([]);
  expect([...new Set(fromFolders)].sort()).toEqual(PUBLIC_IN_LAYERS);
});
