// The static suite's sets, checked on the library's side without an apiserver: each broken set
// breaks its rule (the CLI plugin reports an error), each valid form reads clean, and the mixed
// and order scenarios keep the shape the suite relies on.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generatedScenarios } from '../../../../conformance/src/suites/reviews/generated-scenarios';
import { orderScenarios } from '../../../../conformance/src/suites/static/order-scenarios';
import { brokenSets, SUFFIX, validSets } from '../../../../conformance/src/suites/static/sets';
import { libraryClaim, mixedScenarios, writeSet } from '../../../../conformance/src/suites/static/suite';
import { KubernetesVersion } from '../../../../src';

async function errorsOf(files: Parameters<typeof writeSet>[1]): Promise<string[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'static-sets-test-'));
  try {
    writeSet(root, files);
    return (await libraryClaim(root, KubernetesVersion.LATEST)).errors.map((e) => e.text);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

test('every broken set is reported by the library, every valid form reads clean', async () => {
  const broken = brokenSets();
  const valid = validSets();
  expect(broken.length).toBeGreaterThanOrEqual(60);
  expect(valid.length).toBe(28);
  const unreported: string[] = [];
  for (const c of broken) if ((await errorsOf(c.files)).length === 0) unreported.push(c.name);
  expect(unreported).toEqual([]);
  // All valid sets load in one apiserver, as one set: their files and objects must not collide.
  const files = valid.flatMap((c) => c.files.map((f) => `${f.plugin}/${f.name}`));
  expect(new Set(files).size).toBe(files.length);
  expect(await errorsOf(valid.flatMap((c) => c.files))).toEqual([]);
}, 120_000);

test('a mixed scenario has one policy static, with its bindings, and leaves at most one mutating policy to the API', () => {
  const mixed = mixedScenarios(generatedScenarios(600, 20261202));
  expect(mixed.length).toBeGreaterThan(10);
  for (const r of mixed) {
    const policies = r.staticPolicies.filter((p) => p.spec?.policyName === undefined);
    expect(policies).toHaveLength(1);
    expect(r.staticPolicies.every((p) => p.metadata.name.endsWith(SUFFIX) && (p.spec?.policyName ?? SUFFIX).endsWith(SUFFIX))).toBe(true);
    expect(r.apiPolicies.some((p) => p.metadata.name.endsWith(SUFFIX))).toBe(false);
    expect(r.apiPolicies.filter((p) => p.kind === 'MutatingAdmissionPolicy').length).toBeLessThanOrEqual(1);
    expect(JSON.stringify(r.scenario)).not.toMatch(/\brv\d/);
  }
});

test('the order scenarios pair every two mutation templates both ways', () => {
  const names = orderScenarios().map((r) => r.scenario.name.replace(/^order #\d+: /, ''));
  expect(names).toContain('static MAP[0] then API MAP[6]');
  expect(names).toContain('static MAP[6] then API MAP[0]');
  expect(new Set(names).size).toBe(names.length);
});
