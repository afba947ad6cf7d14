// The virtual review resources: from 1.37 webhooks never receive them, so a rule naming one is
// warned as the apiserver warns; before 1.37 intercepting them is warned as a risk to authn/authz.
import { webhook, webhookConfiguration } from './fixtures';
import { KubernetesVersion, ManifestValidator, ViolationSeverity } from '../../src';
import { groupResourceText, VIRTUAL_RESOURCES, virtualResourcesNamedBy } from '../../src/validation/virtual-resources';

const KINDS = ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'] as const;
const rule = (apiGroups: string[], resources: string[]) => ({ apiGroups, apiVersions: ['v1'], operations: ['CREATE'], resources });

/** The warnings about virtual resources, as `path: message`. */
function virtualWarnings(kind: typeof KINDS[number], rules: object[], kubernetesVersion = KubernetesVersion.V1_37): string[] {
  return ManifestValidator.validate(webhookConfiguration(kind, [webhook({ rules })]), { kubernetesVersion })
    .filter((v) => v.severity === ViolationSeverity.WARNING && /virtual/.test(v.message))
    .map((v) => `${v.path}: ${v.message}`);
}

describe.each(KINDS)('%s at 1.37', (kind) => {
  test.each(VIRTUAL_RESOURCES.map((gr) => [groupResourceText(gr), gr]))('a rule naming %s is warned once, at its resources', (_text, gr) => {
    expect(virtualWarnings(kind, [rule([''], ['pods']), rule([gr.group], [gr.resource, gr.resource])])).toEqual([
      `webhooks[0].rules[1].resources: ${groupResourceText(gr)} is a virtual resource that Kubernetes 1.37 and later never send to admission `
      + 'webhooks (feature gate ExcludeAdmissionWebhookVirtualResources): this rule has no effect on it; remove it',
    ]);
  });

  test('each virtual resource of a rule is warned, none for the others', () => {
    const warned = virtualWarnings(kind, [rule(['authorization.k8s.io', 'apps'], ['subjectaccessreviews', 'deployments', 'selfsubjectrulesreviews'])]);
    expect(warned.map((w) => w.split(' ')[1])).toEqual(['subjectaccessreviews.authorization.k8s.io', 'selfsubjectrulesreviews.authorization.k8s.io']);
  });

  test('a virtual group with every resource adds nothing', () => {
    for (const resources of [['*'], ['*/*']]) {
      expect(virtualWarnings(kind, [rule(['', 'authentication.k8s.io'], resources)])).toEqual([
        expect.stringMatching(/^webhooks\[0\]\.rules\[0\]\.apiGroups: authentication.k8s.io serves only virtual review resources, .*: the group adds nothing to this rule; remove it$/),
      ]);
    }
  });

  test('wildcards name no virtual resource, as on the apiserver', () => {
    expect(virtualWarnings(kind, [rule(['*'], ['*'])])).toEqual([]);
    expect(virtualWarnings(kind, [rule(['*'], ['tokenreviews'])])).toEqual([]);
    expect(virtualWarnings(kind, [rule(['authentication.k8s.io'], ['tokenreviews/status'])])).toEqual([]);
  });
});

test.each([KubernetesVersion.V1_30, KubernetesVersion.V1_36])('before 1.37 (%s) the risk of intercepting them is warned instead', (version) => {
  expect(virtualWarnings('ValidatingWebhookConfiguration', [rule(['authorization.k8s.io'], ['subjectaccessreviews'])], version)).toEqual([
    expect.stringMatching(/^webhooks\[0\]\.rules\[0\]\.apiGroups: authorization.k8s.io holds virtual, read-only review resources .*Kubernetes 1.37 stops calling webhooks for them/),
  ]);
});

describe('virtualResourcesNamedBy follows excludedResourcesNamedByRule', () => {
  test('every pair of the rule, in order, once', () => {
    expect(virtualResourcesNamedBy({ apiGroups: ['authorization.k8s.io', 'authentication.k8s.io'], resources: ['tokenreviews', 'subjectaccessreviews', 'tokenreviews'] })
      .map(groupResourceText)).toEqual(['subjectaccessreviews.authorization.k8s.io', 'tokenreviews.authentication.k8s.io']);
  });
  test('non-strings are skipped', () => {
    expect(virtualResourcesNamedBy({ apiGroups: [7 as any, 'authentication.k8s.io'], resources: [null as any, 'tokenreviews'] }).map(groupResourceText))
      .toEqual(['tokenreviews.authentication.k8s.io']);
  });
});
