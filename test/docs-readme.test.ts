// The README is the front door: short, its example first, runnable, and the way into every page
// under docs/.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as cdk8s from 'cdk8s';
import { App, Chart } from 'cdk8s';
import * as ts from 'typescript';
import * as library from '../src';

const root = path.join(__dirname, '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ language: m[1], text: m[2], line: readme.slice(0, m.index).split('\n').length }));

test('the README is at most 15,000 bytes', () => {
  expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15_000);
});

test('the README\'s first code block is its TypeScript example, on the first screen', () => {
  expect(blocks[0].language).toBe('ts');
  expect(blocks[0].line).toBeLessThanOrEqual(15);
});

/** Runs the README's example as a CommonJS module, with `cdk8s-admission` resolved to src/. */
function runExample(text: string, outdir: string): void {
  const code = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 } }).outputText;
  const modules: Record<string, unknown> = { 'cdk8s': cdk8s, 'cdk8s-admission': library };
  const previous = process.env.CDK8S_OUTDIR;
  process.env.CDK8S_OUTDIR = outdir;
  try {
    new Function('require', 'exports', code)((name: string) => {
      if (!(name in modules)) throw new Error(`the README's example imports ${name}, which this test does not provide`);
      return modules[name];
    }, {});
  } finally {
    if (previous === undefined) delete process.env.CDK8S_OUTDIR;
    else process.env.CDK8S_OUTDIR = previous;
  }
}

test('the README\'s example runs: its assertion holds and it writes the policy, then its binding', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-example-'));
  runExample(blocks[0].text, outdir);
  const yaml = fs.readFileSync(path.join(outdir, 'admission.k8s.yaml'), 'utf8');
  expect([...yaml.matchAll(/^kind: (\w+)$/gm)].map((m) => m[1])).toEqual(['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']);
  expect(yaml).toContain('failurePolicy: Fail');
});

test('the README\'s example would fail its assertion on an admitted request (the assertion is not vacuous)', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-example-'));
  expect(() => runExample(blocks[0].text.replace('replicas: 6', 'replicas: 5'), outdir)).toThrow(/expected the request to be denied/);
});

test('the failing synth the README shows is the example\'s, with params.max', () => {
  const shown = blocks.find((block) => block.language === 'text' && block.text.startsWith('Validation failed'));
  expect(shown).toBeDefined();
  const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'readme-error-')) });
  const chart = new Chart(app, 'admission');
  new library.ValidatingPolicy(chart, 'replica-limit', {
    name: 'replica-limit',
    resourceRules: [library.AdmissionResource.DEPLOYMENTS.rule(library.Operation.CREATE, library.Operation.UPDATE)],
    validations: [{ expression: 'object.spec.replicas <= params.max', message: 'at most 5 replicas' }],
  }).withBinding('replica-limit-binding', { name: 'replica-limit', validationActions: [library.ValidationAction.DENY] });
  expect(() => app.synth()).toThrow(shown!.text.trimEnd());
});

describe('the README\'s policy for several kinds', () => {
  const block = blocks.find((b) => b.language === 'ts' && b.text.includes('variables.podSpec'))!;

  /** The warnings of the block's chart, with `edit` made to its text. */
  function warningsOf(edit: (text: string) => string): string[] {
    const code = ts.transpileModule(`${edit(block.text)}\nexports.chart = chart;`, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
    }).outputText;
    const exported: { chart?: Chart } = {};
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      new Function('require', 'exports', code)((name: string) => ({ 'cdk8s': cdk8s, 'cdk8s-admission': library } as Record<string, unknown>)[name], exported);
    } finally {
      log.mockRestore();
    }
    return library.AdmissionWarnings.of(exported.chart!);
  }

  test('gets no warning, as it says', () => {
    expect(block).toBeDefined();
    expect(warningsOf((t) => t)).toEqual([]);
  });

  test('with a misspelled field, gets one warning, for the three kinds', () => {
    expect(warningsOf((t) => t.replace('c.image.startsWith', 'c.imgae.startsWith'))).toEqual([
      expect.stringMatching(/type checking against apps\/v1 Deployment, batch\/v1 CronJob, v1 Pod: .*undefined field 'imgae' \(did you mean 'image'\?\)/),
    ]);
  });

  test('checked as the apiserver checks it (without the guards), it would be warned', () => {
    expect(warningsOf((t) => t.replace("object.kind == 'Pod'", "object.metadata.name == 'Pod'").replace("object.kind == 'CronJob'", "object.metadata.name == 'CronJob'")).length)
      .toBeGreaterThan(0);
  });
});

test('the README\'s table of contents links every page under docs/', () => {
  const pages = fs.readdirSync(path.join(root, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`);
  const linked = new Set([...readme.matchAll(/\]\((docs\/[^)#]+)\)/g)].map((m) => m[1]));
  expect(pages.filter((page) => !linked.has(page))).toEqual([]);
});
