// Layers depend downwards only (CONTRIBUTING.md, "Layers"): every import of every file under src/
// goes to its own layer or a lower one.
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const src = path.join(__dirname, '..', 'src');

/** The layers, lowest first. */
const LAYERS = ['vocabulary', 'schemas', 'cel', 'validation', 'constructs and PolicyTester'] as const;
type Layer = (typeof LAYERS)[number];

/** The files at the top of src/ that are vocabulary every layer may use; the others are constructs. */
const ROOT_VOCABULARY = new Set(['kubernetes-version.ts', 'admission-kind.ts', 'enums.ts']);
const FOLDER_LAYERS: { readonly [folder: string]: Layer } = {
  shared: 'vocabulary',
  wire: 'vocabulary',
  schemas: 'schemas',
  cel: 'cel',
  validation: 'validation',
  testing: 'constructs and PolicyTester',
  private: 'constructs and PolicyTester',
};

function layerOf(file: string): Layer | undefined {
  const parts = path.relative(src, file).split(path.sep);
  if (parts[0] === '..') return undefined;
  if (parts.length === 1) return ROOT_VOCABULARY.has(parts[0]) ? 'vocabulary' : 'constructs and PolicyTester';
  return FOLDER_LAYERS[parts[0]];
}

function sources(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every relative import of a file (import and export declarations, require(), import()), resolved to a path. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName).filter((name) => name.startsWith('.'))
    .map((name) => {
      const target = path.resolve(path.dirname(file), name);
      return fs.existsSync(`${target}.ts`) ? `${target}.ts` : fs.existsSync(path.join(target, 'index.ts')) ? path.join(target, 'index.ts') : target;
    });
}

const files = sources(src);

test('every folder of src/ has a layer', () => {
  const folders = fs.readdirSync(src, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  expect(folders.filter((folder) => !(folder in FOLDER_LAYERS))).toEqual([]);
});

/** The imports of `file` that go up: `from (layer) imports to (layer)`. */
function upwardImports(file: string, targets: readonly string[]): string[] {
  const layer = layerOf(file)!;
  return targets.flatMap((target) => {
    const targetLayer = layerOf(target);
    // Outside src/ (the vendored CEL engine), or not above.
    if (targetLayer === undefined || LAYERS.indexOf(targetLayer) <= LAYERS.indexOf(layer)) return [];
    return [`${path.relative(src, file)} (${layer}) imports ${path.relative(src, target)} (${targetLayer})`];
  });
}

test('no file imports from a layer above its own', () => {
  const imports = files.map((file) => [file, importsOf(file)] as const);
  expect(imports.reduce((n, [, targets]) => n + targets.length, 0)).toBeGreaterThan(500);
  expect(imports.flatMap(([file, targets]) => upwardImports(file, targets))).toEqual([]);
});

test('src/shared/ imports nothing but itself', () => {
  const shared = files.filter((file) => path.relative(src, file).startsWith(`shared${path.sep}`));
  expect(shared.length).toBeGreaterThan(3);
  const outside = shared.flatMap((file) => importsOf(file)
    .filter((target) => !path.relative(src, target).startsWith(`shared${path.sep}`))
    .map((target) => `${path.relative(src, file)} imports ${path.relative(src, target)}`));
  expect(outside).toEqual([]);
});

test('the check sees upward imports', () => {
  const at = (...parts: string[]) => path.join(src, ...parts);
  expect(upwardImports(at('cel', 'checker.ts'), [at('validation', 'rule-context.ts'), at('shared', 'expression-field.ts')])).toEqual([
    'cel/checker.ts (cel) imports validation/rule-context.ts (validation)',
  ]);
  expect(upwardImports(at('schemas', 'strict-decoding.ts'), [at('cel', 'checker.ts'), at('testing', 'policy-tester.ts')])).toHaveLength(2);
  expect(upwardImports(at('shared', 'net-url.ts'), [at('mutating-policy.ts'), at('kubernetes-version.ts')])).toHaveLength(1);
  expect(importsOf(at('cel', 'libraries', 'urls.ts'))).toContain(at('shared', 'net-url.ts'));
});
