// The section on matchers and explanations shows what runs: the failing output it prints
// is the output of the example app's tester, the matchers and assert* methods it lists are the
// ones there are, and the jest setup it gives names the module that registers them.
import * as fs from 'fs';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { ReplicaLimitChart } from '../examples/main';
import { Operation, PolicyTester } from '../src';
import { admissionMatchers } from '../src/jest';

const root = path.join(__dirname, '..');
const page = fs.readFileSync(path.join(root, 'docs', 'policy-tester.md'), 'utf8');
const section = page.slice(page.indexOf('## Tests that say why'), page.indexOf('## Policy coverage'));

function fencedBlock(language: string, firstLine: string): string {
  const block = [...section.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))]
    .map((match) => match[1]).find((text) => text.startsWith(firstLine));
  expect(block).toBeDefined();
  return block!;
}

const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

test('the failing output shown is what the matcher prints for the example app', () => {
  const tester = PolicyTester.fromChart(new ReplicaLimitChart(Testing.app(), 'admission'));
  const object = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { replicas: 6, template: { spec: { containers: [{ name: 'web', image: 'shop/web:1.2.3' }] } } },
  };
  let printed = '';
  try {
    expect(tester.review({ operation: Operation.CREATE, object })).toBeAllowed();
  } catch (e) {
    printed = (e as Error).message.replace(ansi, '');
  }
  expect(fencedBlock('text', 'expect(received).toBeAllowed()')).toBe(`${printed}\n`);
});

test('the jest setup names the module that registers the matchers', () => {
  const config = JSON.parse(fencedBlock('json', '{'));
  const packageName = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).name;
  expect(config.jest.setupFilesAfterEnv).toEqual([`${packageName}/lib/jest`]);
  expect(fs.existsSync(path.join(root, 'src', 'jest.ts'))).toBe(true);
});

test('the table lists every matcher, and the text every assert* method', () => {
  const listed = [...section.matchAll(/^\| `(to\w+)\(/gm)].map((m) => m[1]);
  expect(listed.sort()).toEqual(Object.keys(admissionMatchers).sort());
  const methods = Object.getOwnPropertyNames(PolicyTester.prototype).filter((name) => /^assert[A-Z]/.test(name));
  const mentioned = [...section.matchAll(/`(assert\w+)`/g)].map((m) => m[1]);
  expect([...new Set(mentioned)].sort()).toEqual(methods.sort());
});
