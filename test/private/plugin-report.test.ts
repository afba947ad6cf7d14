import { ManifestValidator, Violation, ViolationSeverity } from '../../src';
import { fixFor } from '../../src/private/plugin-report';

const rule = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] };
const policy = (spec: object, name = 'p') => ({
  apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec: { matchConstraints: { resourceRules: [rule] }, ...spec },
});
/** The one violation the validator reports for `manifest` at `path`. */
function at(manifest: object, path: string): Violation {
  const found = ManifestValidator.validate(manifest).filter((v) => v.path === path);
  expect(found).toHaveLength(1);
  return found[0];
}
const validations = [{ expression: 'true' }];

describe('fixFor: what to change, from the kind of field error', () => {
  test.each([
    ['Unsupported value', policy({ validations, failurePolicy: 'Maybe' }), 'spec.failurePolicy', 'set spec.failurePolicy to one of "Fail", "Ignore"'],
    ['Required value', policy({}), 'spec.validations', 'set spec.validations'],
    ['Too many', policy({ validations, matchConditions: Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' })) }), 'spec.matchConditions',
      'keep at most 64 items in spec.matchConditions'],
    ['unknown field, with the nearest name', policy({ validations: [{ expression: 'true', mesage: 'x' }] }), 'spec.validations[0].mesage',
      'rename the field to message, or remove it'],
    ['Duplicate value', policy({ validations, variables: [{ name: 'a', expression: '1' }, { name: 'a', expression: '2' }] }), 'spec.variables[1].name',
      'remove or rename the repeated entry at spec.variables[1].name'],
  ])('%s', (_kind, manifest, path, fix) => {
    expect(fixFor(at(manifest, path))).toBe(fix);
  });

  test('messages that already say what is allowed get a fix pointing at them and at the field, not a generic link', () => {
    expect(fixFor(at(policy({ validations }, 'Bad_Name'), 'metadata.name'))).toBe('change metadata.name as the recommendation says');
    expect(fixFor({ path: 'x', message: 'Invalid value: 1: must be positive', severity: ViolationSeverity.ERROR })).toBe('change x as the recommendation says');
  });

  test('Too long', () => {
    expect(fixFor({ path: 'spec.x', message: 'Too long: must have at most 63 bytes', severity: ViolationSeverity.ERROR })).toBe('shorten spec.x to at most 63 bytes');
  });
});
