// Match conditions that never let a request through, or always do: warned at the condition's
// expression, for policies and webhooks; conditions that depend on the request, that fail to
// compile, or that the rules leave undecided (wildcards, subresources, DELETE) are not.
import { Testing } from 'cdk8s';
import { mutatingPolicy, validatingPolicy, webhook, webhookConfiguration } from './fixtures';
import { AdmissionResource, AdmissionWarnings, ManifestValidator, Operation, ValidatingPolicy, ViolationSeverity } from '../../src';

const rule = (apiGroups: string[], resources: string[], operations = ['CREATE', 'UPDATE']) => ({ apiGroups, apiVersions: ['v1'], operations, resources });
const DEPLOYMENTS = rule(['apps'], ['deployments']);
const policy = (expression: string, rules: object[] = [DEPLOYMENTS]) =>
  validatingPolicy({ matchConstraints: { resourceRules: rules }, matchConditions: [{ name: 'c', expression }] });

/** The warnings at match conditions' expressions that are this lint's, as `path: message`. */
function conditionWarnings(manifest: object): string[] {
  return ManifestValidator.validate(manifest)
    .filter((v) => v.severity === ViolationSeverity.WARNING && /matchConditions\[\d+\]\.expression$/.test(v.path) && /^is (true|false) for every/.test(v.message))
    .map((v) => `${v.path}: ${v.message}`);
}

const AT = 'spec.matchConditions[0].expression';

describe('false for every resource the rules match', () => {
  test.each([
    ["object.kind == 'Pod'", [DEPLOYMENTS], 'Deployment (apps/deployments)'],
    ["request.resource.resource == 'pods'", [DEPLOYMENTS, rule(['batch'], ['jobs', 'cronjobs'])], 'Deployment (apps/deployments), Job (batch/jobs), CronJob (batch/cronjobs)'],
    ["request.kind.kind in ['Pod', 'Service'] && object.spec.replicas > 1", [DEPLOYMENTS], 'Deployment (apps/deployments)'],
    ["request.kind.group == 'apps'", [rule([''], ['pods'], ['DELETE'])], 'Pod (pods)'], // request.kind is there on DELETE
  ])('%s', (expression, rules, matched) => {
    expect(conditionWarnings(policy(expression, rules))).toEqual([
      `${AT}: is false for every resource the rules match (${matched}), so the policy matches nothing: `
      + 'make the condition test what the rules match, or the rules match what it tests',
    ]);
  });

  test.each([
    ["object.kind == 'Deployment'"],
    ["object.kind == 'Pod' || object.kind == 'Deployment'"],
    ['object.spec.replicas > 1'],
    ["request.userInfo.username == 'admin'"],
  ])('%s depends on the request, or is true: no warning', (expression) => {
    expect(conditionWarnings(policy(expression))).toEqual([]);
  });

  test.each([
    [[rule(['apps'], ['*'])]],
    [[rule(['*'], ['deployments'])]],
    [[rule(['apps'], ['deployments/scale'])]], // the object is a Scale
    [[rule(['apps'], ['deployments'], ['CREATE', 'DELETE'])]], // object is null on DELETE: the condition fails there
    [[rule(['example.com'], ['widgets'])]], // not known here
    [[DEPLOYMENTS, rule(['apps'], ['*'])]],
  ])('rules that leave the kinds undecided, %j: no warning', (rules) => {
    expect(conditionWarnings(policy("object.kind == 'Pod'", rules))).toEqual([]);
  });
});

describe('the same for every request', () => {
  test.each([['false'], ['1 == 2'], ["false && object.kind == 'Pod'"]])('%s: the policy matches nothing', (expression) => {
    expect(conditionWarnings(policy(expression))).toEqual([
      `${AT}: is false for every request, so the policy matches nothing: remove the condition, or make it test the request`,
    ]);
  });

  test.each([['true'], ['1 == 1'], ["true || object.kind == 'Pod'"]])('%s: it lets every request through', (expression) => {
    expect(conditionWarnings(policy(expression))).toEqual([`${AT}: is true for every request, so the condition lets every request through: remove it`]);
  });

  test('a condition that does not compile is an error, and not also warned', () => {
    const violations = ManifestValidator.validate(policy('false && nope'));
    expect(violations.filter((v) => v.path === AT).map((v) => v.severity)).toEqual([ViolationSeverity.ERROR]);
  });
});

describe('where conditions are', () => {
  test('mutating policies and webhooks, at their paths', () => {
    expect(conditionWarnings(mutatingPolicy({ matchConditions: [{ name: 'c', expression: "object.kind == 'Deployment'" }] }))).toEqual([
      expect.stringMatching(/^spec\.matchConditions\[0\]\.expression: is false for every resource the rules match \(Pod \(pods\)\), so the policy matches nothing/),
    ]);
    const hooks = webhookConfiguration('ValidatingWebhookConfiguration', [
      webhook({ failurePolicy: 'Ignore', matchConditions: [{ name: 'ok', expression: 'true' }, { name: 'c', expression: "request.resource.resource == 'secrets'" }] }),
    ]);
    expect(conditionWarnings(hooks)).toEqual([
      'webhooks[0].matchConditions[0].expression: is true for every request, so the condition lets every request through: remove it',
      expect.stringMatching(/^webhooks\[0\]\.matchConditions\[1\]\.expression: is false for every resource the rules match \(Pod \(pods\)\), so the webhook matches nothing/),
    ]);
  });

  test('from the constructs: a warning at synth naming the construct', () => {
    const chart = Testing.chart();
    new ValidatingPolicy(chart, 'replicas', {
      resourceRules: [AdmissionResource.DEPLOYMENTS.rule(Operation.CREATE, Operation.UPDATE)],
      matchConditions: [{ name: 'pods-only', expression: "object.kind == 'Pod'" }],
      validations: [{ expression: 'object.spec.replicas <= 5' }],
    });
    expect(AdmissionWarnings.of(chart)).toEqual([
      expect.stringMatching(/^\[test\/replicas\] spec\.matchConditions\[0\]\.expression: is false for every resource the rules match \(Deployment \(apps\/deployments\)\)/),
    ]);
  });
});
