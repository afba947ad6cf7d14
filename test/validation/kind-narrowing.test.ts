// Typed CEL in multi-kind policies: what a guard rules out for a kind is not type-checked against
// it (src/cel/kind-narrowing.ts), and a misspelled field is still warned, once.
import { multiKindPolicies } from './multi-kind-corpus';
import { KubernetesVersion, ManifestValidator, ViolationSeverity } from '../../src';
import { typeProblem } from '../../src/cel/typed-check';
import { ExpressionField } from '../../src/shared/expression-field';
import { policyTypes } from '../../src/validation/policy-types';

const typeWarnings = (manifest: unknown) => ManifestValidator.validate(manifest)
  .filter((v) => v.severity === ViolationSeverity.WARNING && v.message.includes('type checking against'));

describe('the multi-kind corpus', () => {
  const corpus = multiKindPolicies();

  test('has at least 100 policies, in every idiom and over every kind', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100);
  });

  test('it needs narrowing: checked as the apiserver checks, every branch against every kind, most policies would be warned', () => {
    const withoutVariables = corpus.filter(({ name }) => !name.includes('-variables-'));
    const warned = withoutVariables.filter(({ manifest }) => {
      const spec = (manifest as { spec: { validations: Array<{ expression: string }> } }).spec;
      const types = policyTypes(spec as never, KubernetesVersion.V1_37)!;
      const unnarrowed = { field: ExpressionField.VALIDATION, hasParams: false, variables: [], minor: 37 };
      return types.objects.some((o) => typeProblem(spec.validations[0].expression, { ...unnarrowed, objectType: o.resource }) !== undefined);
    });
    expect(warned.length).toBeGreaterThan(withoutVariables.length * 0.6);
  });

  test('no policy gets a warning, nor any other problem', () => {
    const problems = corpus.flatMap(({ name, manifest }) => ManifestValidator.validate(manifest).map((v) => `${name}: ${v.path}: ${v.message}`));
    expect(problems).toEqual([]);
  });

  test('each policy with one misspelled field gets exactly one warning, naming the field', () => {
    const wrong = corpus
      .map(({ name, misspelled }) => ({ name, field: misspelled.field, warnings: typeWarnings(misspelled.manifest).map((v) => v.message) }))
      .filter(({ field, warnings }) => warnings.length !== 1 || !warnings[0].includes(`undefined field '${field}'`));
    expect(wrong).toEqual([]);
  });
});

describe('guards in policies', () => {
  const rules = [
    { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] },
    { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] },
  ];
  const policy = (expression: string, variables: Array<{ name: string; expression: string }> = []) => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'p' },
    spec: { matchConstraints: { resourceRules: rules }, variables, validations: [{ expression }] },
  });
  const warnings = (expression: string, variables?: Array<{ name: string; expression: string }>) =>
    typeWarnings(policy(expression, variables)).map((v) => `${v.path}: ${v.message.replace(/^Invalid value: "[^"]*": /, '')}`);
  const isPod = { name: 'isPod', expression: "object.kind == 'Pod'" };
  const branches = 'variables.isPod ? object.spec.containers.size() > 0 : object.spec.template.spec.containers.size() > 0';

  test('as the apiserver checks them, both branches are warned, one kind each', () => {
    expect(warnings(branches.replace('variables.isPod', "object.metadata.name == 'Pod'"))).toHaveLength(2);
  });

  test('a variable holding a kind test is a guard where it is used', () => {
    expect(warnings(branches, [isPod])).toEqual([]);
    expect(warnings(branches.replace('object.spec.containers', 'object.spec.containres'), [isPod])).toEqual([
      "spec.validations[0].expression: type checking against v1 Pod: ERROR: <input>:1:30: undefined field 'containres' (did you mean 'containers'?)",
    ]);
  });

  test('a variable of a guarded expression has, for each kind, the type of its branch', () => {
    const containers = { name: 'containers', expression: 'variables.isPod ? object.spec.containers : object.spec.template.spec.containers' };
    expect(warnings("variables.containers.all(c, c.image != '')", [isPod, containers])).toEqual([]);
    expect(warnings("variables.containers.all(c, c.imaeg != '')", [isPod, containers])).toEqual([
      "spec.validations[0].expression: type checking against apps/v1 Deployment, v1 Pod: ERROR: <input>:1:30: undefined field 'imaeg' (did you mean 'image'?)",
    ]);
  });

  test('a variable that is not a guard decides nothing', () => {
    const replicas = { name: 'isPod', expression: 'object.metadata.generation > 1' };
    expect(warnings(branches, [replicas])).toHaveLength(2);
  });
});
