// Every TypeScript block of the pages under docs/ compiles against the library's source, as a
// user's file importing `cdk8s-admission` would (pages that run their blocks test that too).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';

const root = path.join(__dirname, '..');
const pages = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md'));
const blocks = pages.flatMap((page) => {
  const text = fs.readFileSync(path.join(root, 'docs', page), 'utf8');
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => ({ page, line: text.slice(0, m.index).split('\n').length, code: m[1] }));
});

test('the pages have TypeScript blocks', () => {
  expect(blocks.length).toBeGreaterThan(10);
});

test('every TypeScript block of docs/ compiles', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-blocks-'));
  const files = blocks.map((b, i) => {
    const file = path.join(dir, `block${i}.ts`);
    // Each block is a module of its own (a block without imports would share names with the others).
    fs.writeFileSync(file, `${b.code}\nexport {};\n`);
    return file;
  });
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: ['node', 'jest'],
    baseUrl: root,
    paths: { 'cdk8s-admission': ['src/index.ts'], '*': ['node_modules/*', 'node_modules/@types/*'] },
    typeRoots: [path.join(root, 'node_modules', '@types')],
  });
  const problems = ts.getPreEmitDiagnostics(program).filter((d) => d.file && files.includes(d.file.fileName)).map((d) => {
    const i = files.indexOf(d.file!.fileName);
    const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
    return `docs/${blocks[i].page}:${blocks[i].line + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  expect(problems).toEqual([]);
}, 120_000);
