// The feature-gated manifest cases reach every base and every virtual resource, so that the
// conformance run sends each entry of the library's tables to the apiserver.
import { bases } from '../../../../conformance/src/suites/manifests/bases';
import { gatedCases } from '../../../../conformance/src/suites/manifests/cases';
import { ManifestValidator } from '../../../../src';
import { STATIC_SUFFIX } from '../../../../src/validation/static-suffix';
import { VIRTUAL_RESOURCES } from '../../../../src/validation/virtual-resources';

const all = bases(() => true);
const cases = gatedCases(all);

test('every base is named with the static suffix', () => {
  for (const base of all) {
    expect(cases.some((c) => c.name.startsWith(`${base.name} |`) && (c.manifest as any).metadata.name === `baseline${STATIC_SUFFIX}`)).toBe(true);
  }
});

test('every virtual resource is named by a rule of each webhook kind, and the library warns about it', () => {
  for (const kind of ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration']) {
    for (const gr of VIRTUAL_RESOURCES) {
      const named = cases.filter((c) => c.kind === kind && JSON.stringify((c.manifest as any).webhooks[0].rules[1]).includes(`"${gr.resource}"`));
      expect(named.length).toBeGreaterThanOrEqual(3);
      expect(named.some((c) => ManifestValidator.validate(c.manifest).some((v) => v.message.startsWith(`${gr.resource}.${gr.group} is a virtual resource`)))).toBe(true);
    }
  }
});

test('the cases are distinct', () => {
  expect(new Set(cases.map((c) => JSON.stringify(c.manifest))).size).toBe(cases.length);
});
