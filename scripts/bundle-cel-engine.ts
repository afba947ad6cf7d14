/**
 * Bundles the CEL engine (@marcbachmann/cel-js, ESM-only) and re2js into one CommonJS file,
 * vendor/cel-engine.cjs, with their license notices, so that src/ (under ts-jest) and the published
 * lib/ load it with require(), in any jest setup and on any Node version the package supports.
 * Skipped when the bundle is newer than its inputs.
 */
import * as fs from 'fs';
import * as path from 'path';
import { buildSync } from 'esbuild';

const root = path.resolve(__dirname, '..');
const entry = path.join(root, 'scripts', 'cel-engine-entry.js');
const outfile = path.join(root, 'vendor', 'cel-engine.cjs');
const packages = ['@marcbachmann/cel-js', 're2js'];

function packageDir(name: string): string {
  return path.join(root, 'node_modules', ...name.split('/'));
}

function newestInput(): number {
  const inputs = [entry, __filename, ...packages.map((p) => path.join(packageDir(p), 'package.json'))];
  return Math.max(...inputs.map((f) => fs.statSync(f).mtimeMs));
}

function notices(): string {
  return packages.map((name) => {
    const dir = packageDir(name);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const license = fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8').trim();
    return `${name}@${pkg.version} (${pkg.license})\n\n${license}`;
  }).join('\n\n---\n\n');
}

function main(): void {
  if (fs.existsSync(outfile) && fs.statSync(outfile).mtimeMs >= newestInput() && process.argv[2] !== '--force') {
    return;
  }
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  const text = notices();
  buildSync({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: false,
    legalComments: 'none',
    banner: { js: `/*!\n * Bundled third-party code, not part of cdk8s-admission's source:\n *\n${text.split('\n').map((l) => ` * ${l}`.trimEnd()).join('\n')}\n */` },
    logLevel: 'warning',
  });
  fs.writeFileSync(path.join(path.dirname(outfile), 'THIRD-PARTY-NOTICES.txt'), `${text}\n`);
  console.log(`bundled ${packages.join(', ')} into ${path.relative(root, outfile)} (${Math.round(fs.statSync(outfile).size / 1024)} KiB)`);
}

main();
