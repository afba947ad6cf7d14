import { check, expectAccepted, expectRejected, ExpressionField } from './helpers';

const F = ExpressionField;

describe('result type per field (exact: dyn is not bool)', () => {
  test.each([F.VALIDATION, F.MATCH_CONDITION, F.WEBHOOK_MATCH_CONDITION])('%s must be bool', (field) => {
    expectAccepted('object.spec.paused == true', { field });
    expect(check('object.spec.paused', { field })).toEqual(['must evaluate to bool but got dyn']);
    expect(check("'yes'", { field })).toEqual(['must evaluate to bool but got string']);
    expect(check('1', { field })).toEqual(['must evaluate to bool but got int']);
  });

  test('messageExpression must be a string', () => {
    expectAccepted("'name: ' + object.metadata.name", { field: F.MESSAGE_EXPRESSION });
    expectAccepted('string(object.metadata.name)', { field: F.MESSAGE_EXPRESSION });
    expect(check('object.metadata.name', { field: F.MESSAGE_EXPRESSION })).toEqual(['must evaluate to string but got dyn']);
  });

  test('an audit annotation value must be a string or null', () => {
    expectAccepted("'replicas: ' + string(object.spec.replicas)", { field: F.AUDIT_ANNOTATION_VALUE });
    // The Kubernetes docs' example: a 1.37 apiserver refuses a ternary of string and null (measured).
    expectRejected("object.spec.replicas > 50 ? 'replicas: ' + string(object.spec.replicas) : null", "got 'string' and 'null'", { field: F.AUDIT_ANNOTATION_VALUE });
    expectAccepted('null', { field: F.AUDIT_ANNOTATION_VALUE });
    expect(check('1', { field: F.AUDIT_ANNOTATION_VALUE })).toEqual(['must evaluate to one of [string null_type] but got int']);
  });

  test('a variable may have any type', () => {
    for (const expression of ['1', 'object.spec', '[1, 2]', "{'a': true}", 'null', "quantity('1')"]) {
      expectAccepted(expression, { field: F.VARIABLE });
    }
  });

  test('applyConfiguration must be an Object', () => {
    expectAccepted('Object{metadata: Object.metadata{labels: {"a": "b"}}}', { field: F.APPLY_CONFIGURATION });
    expect(check("'x'", { field: F.APPLY_CONFIGURATION })).toEqual(['must evaluate to Object but got string']);
    expect(check('Object.spec.metadata{}', { field: F.APPLY_CONFIGURATION })).toEqual(['must evaluate to Object but got Object.spec.metadata']);
    expect(check('{"metadata": {}}', { field: F.APPLY_CONFIGURATION })).toEqual(['must evaluate to Object but got map(string, map(dyn, dyn))']);
  });

  test('jsonPatch must be a list(JSONPatch)', () => {
    expectAccepted('[JSONPatch{op: "add", path: "/metadata/labels/a", value: "b"}]', { field: F.JSON_PATCH });
    expect(check('[]', { field: F.JSON_PATCH })).toEqual(['must evaluate to list(JSONPatch) but got list(dyn)']);
    expect(check('JSONPatch{op: "remove", path: "/a"}', { field: F.JSON_PATCH })).toEqual(['must evaluate to list(JSONPatch) but got JSONPatch']);
  });

  test('before 1.32 the apiserver does not name the actual type', () => {
    expect(check('object.spec.paused', { version: '1.31' })).toEqual(['must evaluate to bool']);
    expect(check('1', { field: F.AUDIT_ANNOTATION_VALUE, version: '1.30' })).toEqual(['must evaluate to one of [string null_type]']);
  });

  test('a compile error is reported instead of the type', () => {
    expectRejected('object.spec.paused +', 'compilation failed: ERROR: <input>:1:21: Syntax error');
  });
});
