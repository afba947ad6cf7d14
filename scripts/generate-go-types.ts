/**
 * Generates schemas/go-types.json: what PolicyTester needs, beyond the OpenAPI schemas, to treat a
 * request object as the apiserver of each minor does before admission. For every minor the
 * library targets, `scripts/go-api-extractor` (a Go program) reads the Go source of that release
 * (`k8s.io/kubernetes`, `k8s.io/api`, `k8s.io/apimachinery`, `k8s.io/apiextensions-apiserver` and
 * `k8s.io/kube-aggregator`, fetched by `go mod download` from the Go module proxy) and reports:
 *
 * - the Go structs of the API types as encoding/json lays them out (field JSON names, omitempty,
 *   omitzero, inline, types): decoding into them and encoding again is the first thing the
 *   apiserver does to a request body;
 * - each kind's generated defaulter (`SetObjectDefaults_<Kind>` in zz_generated.defaults.go) as
 *   steps: calls of hand-written `SetDefaults_` functions (ported in src/testing/defaulting/),
 *   declarative defaults, guards and loops;
 * - a hash of every function of the defaults.go files, which the ports are checked against;
 * - the default of every feature gate at the release's own minor.
 *
 * Usage: `npx projen generate:go-types` (writes), `npx projen generate:go-types --check` (compares).
 *
 * The file (`schemas/README.md` describes it):
 *   { "kubernetes": { "<minor>": "v1.X.Y" },
 *     "structs": [ ["<definition>", [[json, flags, type], ...]], ... ],   distinct structs, every minor's together
 *     "steps": [ [<step>, ...], ... ],                                    distinct step lists; nested lists by index
 *     "minors": { "<minor>": { "structs": [<index>, ...], "defaulters": { "<definition>": <index> },
 *                              "functions": { "<group>/<version>.<function>": "<hash>" }, "featureGates": { "<gate>": bool } } } }
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RELEASES } from './generate-resource-schemas';

const OUTPUT = path.join(__dirname, '..', 'schemas', 'go-types.json');
const EXTRACTOR = path.join(__dirname, 'go-api-extractor');

/** The modules the extractor reads, by its flag; staging modules are tagged v0.X.Y for Kubernetes v1.X.Y. */
const MODULES: ReadonlyArray<readonly [flag: string, module: string, staging: boolean]> = [
  ['kubernetes', 'k8s.io/kubernetes', false],
  ['api', 'k8s.io/api', true],
  ['apimachinery', 'k8s.io/apimachinery', true],
  ['apiextensions', 'k8s.io/apiextensions-apiserver', true],
  ['aggregator', 'k8s.io/kube-aggregator', true],
];

type Step = { [key: string]: unknown };

interface Extracted {
  structs: { [definition: string]: unknown };
  defaulters: { [definition: string]: Step[] };
  functions: { [name: string]: string };
  featureGates: { [gate: string]: boolean };
}

function moduleDirectory(module: string, version: string): string {
  const out = execFileSync('go', ['mod', 'download', '-json', `${module}@${version}`], { encoding: 'utf8', cwd: os.tmpdir() });
  return JSON.parse(out).Dir as string;
}

function extract(binary: string, minor: string, release: string): Extracted {
  const args = ['-minor', minor];
  for (const [flag, module, staging] of MODULES) {
    args.push(`-${flag}`, moduleDirectory(module, staging ? release.replace(/^v1\./, 'v0.') : release));
  }
  return JSON.parse(execFileSync(binary, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }));
}

/** Interns values as lines of a table: the same text once, referred to by index. */
class Table {
  public readonly lines: string[] = [];
  private readonly index = new Map<string, number>();

  public add(value: unknown): number {
    const text = JSON.stringify(value);
    let i = this.index.get(text);
    if (i === undefined) {
      i = this.lines.length;
      this.lines.push(text);
      this.index.set(text, i);
    }
    return i;
  }
}

/** A step list with its nested lists (`then`, `do`) replaced by their indices in `steps`. */
function internSteps(list: Step[], steps: Table): number {
  return steps.add(list.map((s) => {
    const out: Step = { ...s };
    for (const key of ['then', 'do']) if (Array.isArray(s[key])) out[key] = internSteps(s[key] as Step[], steps);
    return out;
  }));
}

function sortedObject<T>(value: { [key: string]: T }): { [key: string]: T } {
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]]));
}

function generate(): string {
  const binary = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'go-api-extractor-')), 'extractor');
  execFileSync('go', ['build', '-o', binary, '.'], { cwd: EXTRACTOR, stdio: 'inherit' });
  const structs = new Table();
  const steps = new Table();
  const minors: { [minor: string]: unknown } = {};
  for (const [minor, release] of Object.entries(RELEASES)) {
    const x = extract(binary, minor, release);
    const structIndex = Object.keys(x.structs).sort().map((name) => structs.add([name, x.structs[name]]));
    const defaulters: { [definition: string]: number } = {};
    for (const name of Object.keys(x.defaulters).sort()) defaulters[name] = internSteps(x.defaulters[name], steps);
    minors[minor] = { structs: structIndex, defaulters, functions: sortedObject(x.functions), featureGates: sortedObject(x.featureGates) };
    console.log(`${release}: ${structIndex.length} structs, ${Object.keys(defaulters).length} defaulters, ${Object.keys(x.functions).length} functions`);
  }
  // One struct or step list per line, so that a regeneration's diff shows what changed.
  return [
    '{',
    `"kubernetes": ${JSON.stringify(RELEASES)},`,
    `"structs": [\n${structs.lines.join(',\n')}\n],`,
    `"steps": [\n${steps.lines.join(',\n')}\n],`,
    `"minors": {\n${Object.entries(minors).map(([minor, m]) => `${JSON.stringify(minor)}: ${JSON.stringify(m)}`).join(',\n')}\n}`,
    '}',
    '',
  ].join('\n');
}

if (require.main === module) {
  const text = generate();
  if (process.argv.includes('--check')) {
    if (fs.readFileSync(OUTPUT, 'utf8') !== text) {
      console.error(`${path.relative(process.cwd(), OUTPUT)} differs from what the script generates: run npx projen generate:go-types`);
      process.exit(1);
    }
    console.log(`${path.relative(process.cwd(), OUTPUT)} is up to date`);
  } else {
    fs.writeFileSync(OUTPUT, text);
    console.log(`wrote ${path.relative(process.cwd(), OUTPUT)} (${text.length} bytes)`);
  }
}
