// CONNECT where no resource of the rule receives it, and a connect subresource without CONNECT:
// warned at the operations or the entry, with the fix; rules that can match (a connect
// subresource with CONNECT, `*` operations, a `*` group, a group not known here) are not.
import { Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { validatingBinding, validatingPolicy, webhook, webhookConfiguration, widgetDefinition } from './fixtures';
import { AdmissionWarnings, ManifestValidator, ValidatingPolicy, ViolationSeverity } from '../../src';

const rule = (apiGroups: string[], resources: string[], operations: string[]) => ({ apiGroups, apiVersions: ['v1'], operations, resources });
const policy = (rules: object[]) => validatingPolicy({ matchConstraints: { resourceRules: rules } });

/** The warnings about operations and resource entries, as `path: message`. */
function connectWarnings(manifest: object): string[] {
  return ManifestValidator.validate(manifest, { customResourceDefinitions: [widgetDefinition()] })
    .filter((v) => v.severity === ViolationSeverity.WARNING && /\.(operations(\[\d+\])?|resources\[\d+\])$/.test(v.path))
    .map((v) => `${v.path}: ${v.message}`);
}

const AT = 'spec.matchConstraints.resourceRules[0]';
const CONNECT_ONLY = ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'services/proxy', 'nodes/proxy'];

describe('CONNECT where no resource of the rule receives it', () => {
  test.each([
    [['apps'], ['deployments']],
    [[''], ['pods']], // CONNECT is made to pods/exec, never to pods
    [[''], ['*']],
    [[''], ['pods/status', 'configmaps']],
    [['apps'], ['*/*']], // apps has no connect subresource
    [['example.com'], ['widgets/*']], // custom resources have none
  ])('%j %j: the rule matches nothing', (groups, resources) => {
    expect(connectWarnings(policy([rule(groups, resources, ['CONNECT'])]))).toEqual([
      `${AT}.operations: CONNECT requests are made only to the connect subresources (pods/attach, pods/exec, pods/portforward, pods/proxy, `
      + 'services/proxy and nodes/proxy), and no resource of this rule is one, so the rule matches nothing: name the subresource '
      + "('pods/exec' for kubectl exec), or choose other operations",
    ]);
  });

  test('beside other operations: CONNECT alone is warned, at its index', () => {
    expect(connectWarnings(policy([rule(['apps'], ['deployments'], ['CREATE', 'CONNECT'])]))).toEqual([
      expect.stringMatching(new RegExp(`^${AT.replace(/[[\]]/g, '\\$&')}\\.operations\\[1\\]: CONNECT requests .* so CONNECT here matches nothing: remove it, or add the subresource to resources$`)),
    ]);
  });

  test.each([
    [[''], ['pods/exec']],
    [[''], ['pods/*']],
    [[''], ['*/proxy']],
    [[''], ['*/*']],
    [[''], ['pods', 'services/proxy']],
    [['*'], ['deployments']], // a group of an aggregated API may serve connect subresources
    [['metrics.k8s.io'], ['pods']], // a group not known here
  ])('%j %j: CONNECT can match, no warning', (groups, resources) => {
    expect(connectWarnings(policy([rule(groups, resources, ['CONNECT'])]))).toEqual([]);
  });
});

describe('a connect subresource in a rule without CONNECT', () => {
  test.each(CONNECT_ONLY)('%s with CREATE, UPDATE: the entry matches nothing', (entry) => {
    expect(connectWarnings(policy([rule([''], ['configmaps', entry], ['CREATE', 'UPDATE'])]))).toEqual([
      `${AT}.resources[1]: '${entry}' receives only CONNECT requests (kubectl exec, attach, port-forward and proxy are CONNECT), `
      + "and the rule's operations (CREATE, UPDATE) do not include it, so the entry matches nothing: add CONNECT to operations",
    ]);
  });

  test.each([
    [[''], ['pods/exec'], ['*']],
    [[''], ['pods/exec'], ['CREATE', 'CONNECT']],
    [[''], ['pods/*'], ['CREATE']], // pods/status and pods/eviction receive CREATE and UPDATE
    [[''], ['serviceaccounts/token'], ['CREATE']],
    [['*'], ['pods/exec'], ['CREATE']],
  ])('%j %j %j: no warning', (groups, resources, operations) => {
    expect(connectWarnings(policy([rule(groups, resources, operations)]))).toEqual([]);
  });
});

describe('where rules are', () => {
  const wrong = rule([''], ['pods'], ['CONNECT']);
  test('in exclude rules, bindings and webhooks, at their paths', () => {
    expect(connectWarnings(validatingPolicy({ matchConstraints: { resourceRules: [rule([''], ['pods'], ['CREATE'])], excludeResourceRules: [wrong] } })))
      .toEqual([expect.stringMatching(/^spec\.matchConstraints\.excludeResourceRules\[0\]\.operations: CONNECT requests/)]);
    expect(connectWarnings(validatingBinding({ matchResources: { resourceRules: [wrong] } })))
      .toEqual([expect.stringMatching(/^spec\.matchResources\.resourceRules\[0\]\.operations: CONNECT requests/)]);
    const hooks = webhookConfiguration('ValidatingWebhookConfiguration', [webhook({ rules: [rule([''], ['pods/exec'], ['CREATE'])], failurePolicy: 'Ignore' })]);
    expect(connectWarnings(hooks)).toEqual([expect.stringMatching(/^webhooks\[0\]\.rules\[0\]\.resources\[0\]: 'pods\/exec' receives only CONNECT/)]);
  });

  test('from the constructs: a warning at synth naming the construct', () => {
    const chart = Testing.chart();
    new ValidatingPolicy(chart, 'no-exec', {
      resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods/exec'], operations: ['CREATE' as any] }],
      validations: [{ expression: 'false' }],
    });
    expect(AdmissionWarnings.of(chart)).toEqual([expect.stringMatching(/^\[test\/no-exec\] spec\.matchConstraints\.resourceRules\[0\]\.resources\[0\]: 'pods\/exec' receives only CONNECT/)]);
  });
});

describe('properties', () => {
  const operation = fc.constantFrom('CREATE', 'UPDATE', 'DELETE', 'CONNECT', '*');
  const entry = fc.constantFrom('pods', 'pods/exec', 'pods/*', '*', '*/*', '*/proxy', 'services/proxy', 'deployments', 'nodes/proxy', 'pods/status');
  const groups = fc.constantFrom([''], ['apps'], ['', 'apps'], ['*']);
  const operations = fc.uniqueArray(operation, { minLength: 1, maxLength: 4 });
  const resources = fc.uniqueArray(entry, { minLength: 1, maxLength: 4 });

  test('a rule with `*` operations, or with CONNECT and a connect subresource, is never warned about CONNECT', () => {
    fc.assert(fc.property(groups, operations, resources, (g, ops, res) => {
      const connectable = ops.includes('*') || (ops.includes('CONNECT') && (g.includes('*') || res.some((r) => r.includes('/') && g.includes('') && /^(pods|services|nodes|\*)\/(\*|exec|proxy)$/.test(r))));
      if (connectable) expect(connectWarnings(policy([rule(g, res, ops)])).filter((w) => /CONNECT requests are made/.test(w))).toEqual([]);
    }), { numRuns: 300 });
  });

  test('every warning names a path of the rule that exists', () => {
    fc.assert(fc.property(groups, operations, resources, (g, ops, res) => {
      for (const w of connectWarnings(policy([rule(g, res, ops)]))) {
        const m = /^spec\.matchConstraints\.resourceRules\[0\]\.(operations|resources)(?:\[(\d+)\])?: /.exec(w);
        expect(m).not.toBeNull();
        if (m![2] !== undefined) expect(Number(m![2])).toBeLessThan(m![1] === 'operations' ? ops.length : res.length);
      }
    }), { numRuns: 300 });
  });
});
