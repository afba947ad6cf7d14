// Resource entries that nothing serves, so the rule entry never matches: warned at the entry, with
// what would match; entries that are served (every built-in resource and subresource at every
// supported version, wildcards, custom resources of the CRDs at hand, unknown groups) are not.
import { Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { validatingBinding, validatingPolicy, webhook, webhookConfiguration, widgetDefinition } from './fixtures';
import {
  AdmissionResource, AdmissionWarnings, KubernetesVersion, ManifestValidator, Operation, ValidatingPolicy, ViolationSeverity,
} from '../../src';
import { BuiltinSchemas } from '../../src/schemas/builtin-schemas';

// Every operation: connect subresources receive only CONNECT (connect-operations.test.ts).
const rule = (apiGroups: string[], resources: string[], apiVersions = ['v1']) => ({ apiGroups, apiVersions, operations: ['*'], resources });
const policy = (rules: object[], excludes: object[] = []) =>
  validatingPolicy({ matchConstraints: { resourceRules: rules, excludeResourceRules: excludes } });
const binding = (rules: object[]) => validatingBinding({ matchResources: { resourceRules: rules } });
const webhooks = (rules: object[]) => webhookConfiguration('ValidatingWebhookConfiguration', [webhook({ rules, failurePolicy: 'Ignore' })]);

/** The warnings about resources entries, as `path: message`. */
function resourceWarnings(manifest: object, customResourceDefinitions: object[] = [], version = KubernetesVersion.LATEST): string[] {
  return ManifestValidator.validate(manifest, { kubernetesVersion: version, customResourceDefinitions })
    .filter((v) => v.severity === ViolationSeverity.WARNING && /\.resources\[\d+\]$/.test(v.path))
    .map((v) => `${v.path}: ${v.message}`);
}

const WIDGET_CRD = widgetDefinition();

const AT = 'spec.matchConstraints.resourceRules[0].resources';

describe('entries that match nothing are warned once, at the entry, with the fix', () => {
  test.each([
    // [groups, resources, index warned, the message's telling part]
    [['apps'], ['Deployment'], 0, "'Deployment' is a kind, and rules name resources, so the entry matches nothing: use 'deployments'"],
    [['apps'], ['deployments', 'StatefulSet'], 1, "use 'statefulsets'"],
    [['*'], ['Deployment'], 0, "use 'deployments'"],
    [['batch'], ['Pod'], 0, "use 'pods' in API group '' (the core group)"],
    [[''], ['ConfigMap'], 0, "use 'configmaps'"],
    [[''], ['Pods'], 0, "'Pods' has upper-case letters, and served resources are lower-case plurals, so the entry matches nothing: use 'pods'"],
    [[''], ['pods/Status'], 0, "use 'pods/status'"],
    [['example.com'], ['Gadgets'], 0, "'Gadgets' has upper-case letters"],
    [['apps'], ['Deployment/scale'], 0, "use 'deployments/scale'"],
    [[''], ['deployments'], 0, "'deployments' is not served by API group '' (the core group) at Kubernetes 1.37, so the entry matches nothing: it is served by API group 'apps'; put it in apiGroups"],
    [[''], ['jobs'], 0, "it is served by API group 'batch'"],
    [['apps'], ['pods'], 0, "it is served by API group '' (the core group)"],
    [['apps'], ['ingresses'], 0, "it is served by API group 'networking.k8s.io'"],
    [['extensions'], ['ingresses'], 0, ''], // no built-in group 'extensions' any more: unknown, not guessed at
    [[''], ['events', 'cronjobs'], 1, "it is served by API group 'batch'"],
    [['apps', 'batch'], ['pods'], 0, "'pods' is not served by API groups 'apps', 'batch'"],
    [['apps'], ['deploymnts'], 0, "no resource 'deploymnts' is served by API group 'apps' at Kubernetes 1.37, so the entry matches nothing; did you mean 'deployments'?"],
    [['apps'], ['deploymnts/status'], 0, "did you mean 'deployments/status'?"],
    [[''], ['configmap'], 0, "did you mean 'configmaps'?"],
    [[''], ['secret'], 0, "did you mean 'secrets'?"],
    [['rbac.authorization.k8s.io'], ['rolebinding'], 0, "did you mean 'rolebindings'?"],
    [['networking.k8s.io'], ['networkpolicy'], 0, "did you mean 'networkpolicies'?"],
    [['batch'], ['cronjob'], 0, "did you mean 'cronjobs'?"],
    [['example.com'], ['gadgets'], 0, "no resource 'gadgets' is served by API group 'example.com'"], // the CRD's group is known
    [['example.com'], ['widget'], 0, "did you mean 'widgets'?"],
    [['apps'], ['xyzzy'], 0, "no resource 'xyzzy' is served by API group 'apps' at Kubernetes 1.37, so the entry matches nothing"],
    [['apps'], ['deployments/scael'], 0,
      "'deployments' has no subresource 'scael' at Kubernetes 1.37 (its subresources: scale, status), so the entry matches nothing; did you mean 'deployments/scale'?"],
    [[''], ['pods/logs'], 0, "did you mean 'pods/log'?"],
    [[''], ['pods', 'pods/exex'], 1, "did you mean 'pods/exec'?"], // a connect subresource, which has no schema
    [[''], ['configmaps/status'], 0, "'configmaps' has no subresource 'status' at Kubernetes 1.37 (it has none), so the entry matches nothing"],
    [['', 'apps'], ['deployments/status', 'pods/scale'], 1, "'pods' has no subresource 'scale'"],
    [['example.com'], ['widgets/scale'], 0, ''], // a custom resource's subresources come from its CRD: not judged
  ])('%j %j', (groups, resources, index, message) => {
    const warnings = resourceWarnings(policy([rule(groups, resources)]), [WIDGET_CRD]);
    if (message === '') {
      expect(warnings).toEqual([]);
    } else {
      expect(warnings).toEqual([expect.stringContaining(message)]);
      expect(warnings[0].startsWith(`${AT}[${index}]: `)).toBe(true);
    }
  });

  test('in exclude rules, bindings and webhooks too, at their paths', () => {
    expect(resourceWarnings(policy([rule(['apps'], ['deployments'])], [rule([''], ['deployments'])]))).toEqual([
      expect.stringMatching(/^spec\.matchConstraints\.excludeResourceRules\[0\]\.resources\[0\]: 'deployments' is not served by/),
    ]);
    expect(resourceWarnings(binding([rule(['apps'], ['Deployment'])]))).toEqual([
      expect.stringMatching(/^spec\.matchResources\.resourceRules\[0\]\.resources\[0\]: 'Deployment' is a kind/),
    ]);
    expect(resourceWarnings(webhooks([rule([''], ['deployments'])]))).toEqual([
      expect.stringMatching(/^webhooks\[0\]\.rules\[0\]\.resources\[0\]: 'deployments' is not served by API group '' \(the core group\)/),
    ]);
  });

  test('at the target version: a resource a version does not serve yet is warned there, not where it is served', () => {
    const schemas = (minor: number) => BuiltinSchemas.of(minor).resources();
    const added = schemas(37).find((r) => !schemas(30).some((old) => old.group === r.group && old.resource === r.resource) && r.group !== '');
    expect(added).toBeDefined();
    const manifest = policy([rule([added!.group], [added!.resource], [added!.version])]);
    expect(resourceWarnings(manifest, [], KubernetesVersion.V1_37)).toEqual([]);
    const old = resourceWarnings(manifest, [], KubernetesVersion.V1_30);
    // A group new in 1.37 is unknown to 1.30, and not guessed at; a known group says what it lacks.
    const groupKnownIn30 = schemas(30).some((r) => r.group === added!.group);
    expect(old).toEqual(groupKnownIn30 ? [expect.stringContaining(`no resource '${added!.resource}' is served`)] : []);
  });

  test('from a construct: a warning at synth, acknowledgeable at its path', () => {
    const chart = Testing.chart();
    const policyConstruct = new ValidatingPolicy(chart, 'wrong-group', {
      resourceRules: [AdmissionResource.custom({ apiGroup: '', apiVersion: 'v1', resource: 'deployments' }).rule(Operation.CREATE)],
      validations: [{ expression: 'true' }],
    });
    expect(AdmissionWarnings.of(chart)).toEqual([
      expect.stringMatching(/^\[test\/wrong-group\] spec\.matchConstraints\.resourceRules\[0\]\.resources\[0\]: 'deployments' is not served by API group ''/),
    ]);
    AdmissionWarnings.acknowledge(policyConstruct, 'spec.matchConstraints.resourceRules[0].resources[0]', 'an aggregated API serves deployments in the core group here');
    expect(AdmissionWarnings.of(chart)).toEqual([]);
  });
});

describe('entries that are served are not warned', () => {
  const minors = [28, 30, 33, 37];

  test.each(minors)('every built-in resource of Kubernetes 1.%i, in its group, lower and as written', (minor) => {
    const version = KubernetesVersion.of(`1.${minor}`);
    const resources = BuiltinSchemas.of(minor).resources();
    const warned = resources.filter((r) => resourceWarnings(policy([rule([r.group], [r.resource], [r.version])]), [], version).length > 0);
    expect(warned).toEqual([]);
  });

  test.each(minors)('every built-in subresource of Kubernetes 1.%i, in its group', (minor) => {
    const version = KubernetesVersion.of(`1.${minor}`);
    const subresources = BuiltinSchemas.of(minor).subresources();
    expect(subresources.length).toBeGreaterThan(30);
    const warned = subresources.filter((r) => resourceWarnings(policy([rule([r.group], [`${r.resource}/${r.subresource}`])]), [], version).length > 0);
    expect(warned).toEqual([]);
  });

  test.each([
    [[''], ['pods/exec', 'pods/attach', 'pods/portforward', 'services/proxy', 'nodes/proxy', 'serviceaccounts/token']], // connect and create subresources
    [[''], ['componentstatuses']], // served, though not in the OpenAPI schemas (measured on the 1.37 apiserver)
    [['', 'apps'], ['pods', 'deployments', 'deployments/scale']],
    [['*'], ['*']], [['*'], ['*/status']], [['apps'], ['*']], [['apps'], ['*/scale']], [['*'], ['deployments']],
    [['example.com'], ['widgets', 'widgets/status']], // a CRD at hand
    [['metrics.k8s.io'], ['pods']], [['acme.io'], ['gadgets']], // groups unknown here: not guessed at
  ])('%j %j', (groups, resources) => {
    expect(resourceWarnings(policy([rule(groups, resources)]), [WIDGET_CRD])).toEqual([]);
    expect(resourceWarnings(webhooks([rule(groups, resources)]), [WIDGET_CRD])).toEqual([]);
  });

  test('the library\'s own AdmissionResource constants', () => {
    const constants = Object.values(AdmissionResource).filter((r): r is AdmissionResource => r instanceof AdmissionResource);
    expect(constants.length).toBeGreaterThan(10);
    const rules = constants.map((r) => r.rule(Operation.CREATE));
    const chart = Testing.chart();
    new ValidatingPolicy(chart, 'all', { resourceRules: rules, validations: [{ expression: 'true' }] });
    expect(AdmissionWarnings.of(chart).filter((w) => /\.resources\[\d+\]: /.test(w))).toEqual([]);
  });
});

describe('properties', () => {
  const served = BuiltinSchemas.of(37).resources();
  const groups = [...new Set(served.map((r) => r.group))];

  test('a served resource with an upper-case letter is warned once, with the served name as the fix', () => {
    fc.assert(fc.property(fc.constantFrom(...served), fc.nat(), ({ group, resource }, at) => {
      const i = at % resource.length;
      const entry = `${resource.slice(0, i)}${resource[i].toUpperCase()}${resource.slice(i + 1)}`;
      fc.pre(entry !== resource);
      const warnings = resourceWarnings(policy([rule([group], [entry])]));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`use '${resource}'`);
    }));
  });

  test('a lower-case name no group serves is warned once in every known group, and never in an unknown one', () => {
    const names = new Set(served.map((r) => r.resource).concat('componentstatuses'));
    fc.assert(fc.property(fc.constantFrom(...groups), fc.stringMatching(/^[a-z][a-z0-9]{2,20}$/), (group, name) => {
      fc.pre(!names.has(name));
      expect(resourceWarnings(policy([rule([group], [name])]))).toEqual([expect.stringContaining(`no resource '${name}' is served by`)]);
      expect(resourceWarnings(policy([rule([`${group}.unknown.example`], [name])]))).toEqual([]);
    }));
  });

  test('a subresource a built-in resource does not have is warned once, naming the ones it has', () => {
    const subresources = BuiltinSchemas.of(37).subresources();
    fc.assert(fc.property(fc.constantFrom(...served), fc.stringMatching(/^[a-z]{3,12}$/), ({ group, resource }, name) => {
      const own = new Set(subresources.filter((r) => r.group === group && r.resource === resource).map((r) => r.subresource));
      fc.pre(!own.has(name) && !(group === '' && ['attach', 'exec', 'portforward', 'proxy'].includes(name)));
      const warnings = resourceWarnings(policy([rule([group], [`${resource}/${name}`])]));
      expect(warnings).toEqual([expect.stringContaining(`'${resource}' has no subresource '${name}'`)]);
    }));
  });
});
