// What the sources and documents cite resolves in a clone of the repository: no labels of rule
// lists kept elsewhere (`P1-P17`, `MB3/C7`), no private notes or issue numbers, no paths that leave
// the repository. A rule cites the Go function it follows instead (formats.ts style:
// `pkg/apis/admissionregistration/validation/validation.go: validateParamKind`).
import * as fs from 'fs';
import * as path from 'path';

const root = path.join(__dirname, '..');
const DIRECTORIES = ['src', 'test', 'scripts', 'bench', 'examples', 'conformance', 'docs'];
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'lib', 'vendor', 'target', 'build', 'coverage']);
const SKIPPED_FILES = new Set(['API.md']);
/** This test, whose examples are what it looks for. */
const SELF = path.relative(root, __filename);
const EXTENSIONS = /\.(ts|js|cjs|mjs|go|py|java|md|json)$/;

function files(directory: string): string[] {
  const full = path.join(root, directory);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') || SKIPPED_DIRECTORIES.has(entry.name) ? [] : files(relative);
    return EXTENSIONS.test(entry.name) && !SKIPPED_FILES.has(entry.name) ? [relative] : [];
  });
}

/** The lists ran to 17 at most: `P99` is a percentile. */
const RULE_LABEL = String.raw`(?:MB|MW|[PMBWC])(?:1\d|[1-9])(?:\.\d+)?`;

/** What a clone cannot resolve, each with why. */
const PATTERNS: ReadonlyArray<{ readonly why: string; readonly pattern: RegExp }> = [
  // `P1-P17`, `(C2)`, `M5/MB4:`; not `%C2` (a URL escape) or `\xC3`.
  { why: 'a rule label of a list kept elsewhere', pattern: new RegExp(String.raw`(?<![%\\\w.-])${RULE_LABEL}(?![\w%]|\.\w)`, 'g') },
  { why: 'a section of notes kept elsewhere', pattern: /\bnotes \(section\b|\bnotes,? section \d/gi },
  { why: "the project's notes", pattern: /\b(?:the project's|reference) (?:[\w-]+ )?notes\b/gi },
  // "issue 13", "issues 13/14", "(issue #8)"; not golang.org/issue/11202.
  { why: 'an issue number without its tracker', pattern: /(?<![/\w])issues? #?\d+\b/gi },
  { why: 'a folder beside the repository', pattern: /(?<![\w.])shared\/(?:DESIGN\.md|reference|seeds)\b/g },
];

/**
 * Relative paths into a `shared` folder (`../shared/DESIGN.md`) that are not src/shared/: the
 * folder beside the repository where its design notes were kept. (Other paths that leave the
 * repository are the user's: `cd ../my-cdk8s-app` in the installation steps.)
 */
function pathsOutside(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![\w./-])(?:\.\.\/)+shared(?:\/[\w.-]+)*/g)) {
    const target = path.resolve(path.dirname(path.join(root, file)), m[0]);
    const inside = !path.relative(root, target).startsWith('..');
    const exists = ['', '.ts', '.js', '.md', '.json'].some((ext) => fs.existsSync(target + ext));
    if (!inside || !exists) out.push(m[0]);
  }
  return out;
}

function problems(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const lines = text.split('\n');
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const found: string[] = [];
  for (const { why, pattern } of PATTERNS) {
    for (const m of text.matchAll(pattern)) found.push(`${file}:${lineOf(m.index!)}: ${why}: ${JSON.stringify(m[0])}`);
  }
  lines.forEach((line, i) => {
    for (const p of pathsOutside(file, line)) found.push(`${file}:${i + 1}: a path outside the repository: ${JSON.stringify(p)}`);
  });
  return found;
}

const scanned = [...DIRECTORIES.flatMap(files), ...fs.readdirSync(root).filter((f) => f.endsWith('.md') && !SKIPPED_FILES.has(f))]
  .filter((file) => file !== SELF);

test('every reference in the sources and documents resolves in the repository', () => {
  expect(scanned.length).toBeGreaterThan(300);
  expect(scanned.flatMap(problems)).toEqual([]);
});

describe('the patterns', () => {
  const hits = (text: string) => PATTERNS.filter(({ pattern }) => [...text.matchAll(pattern)].length > 0).map(({ why }) => why);

  test.each([
    '/** P1-P17: a ValidatingAdmissionPolicy. */', 'M5/MB4: mutating policies', "describe('W10: clientConfig'", '(B2-B4, MB2-MB4)', 'rules (C5.3)',
    'the cel-environment notes (section 3.6)', "the project's reference notes", "the project's webhook-practice notes",
    'as issue 13 asks', '(issues 13/14)', 'issue #8', 'see ../shared/DESIGN.md', 'in shared/reference/cel.md',
  ])('flag %j', (text) => {
    expect(hits(text)).not.toEqual([]);
  });

  test.each([
    "'https://h/%C2%AD'", "'\\xC3'", 'U+DC80', 'RE2 syntax', "const V1 = 'v1'", 'golang.org/issue/11202', 'go.dev/issue/46059',
    'kubernetes#141353', 'release notes', 'a P99 latency', 'P50', 'h2c', 'IPv4', 'sha256', 'the MB unit', 'C++', 'W3C', 'B64',
  ])('pass %j', (text) => {
    expect(hits(text)).toEqual([]);
  });

  test('a relative path must stay in the repository and lead somewhere', () => {
    expect(pathsOutside('src/cel/checker.ts', "import { x } from '../shared/expression-field';")).toEqual([]);
    expect(pathsOutside('README.md', 'see ../shared/DESIGN.md')).toEqual(['../shared/DESIGN.md']);
    expect(pathsOutside('src/cel/checker.ts', '../shared/reference/cel-environment.md')).toEqual(['../shared/reference/cel-environment.md']);
    expect(pathsOutside('docs/install.md', 'cd ../my-cdk8s-app && npm install ../cdk8s-admission/dist/js/x.tgz')).toEqual([]);
  });
});
