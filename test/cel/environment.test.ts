import { ALL_FIELDS, check, expectAccepted, expectRejected, ExpressionField, headline } from './helpers';

const F = ExpressionField;
/** An expression of each field's result type that uses `use` (a bool expression). */
function inField(field: ExpressionField, use: string): string {
  switch (field) {
    case F.MESSAGE_EXPRESSION:
    case F.AUDIT_ANNOTATION_VALUE:
      return `(${use}) ? 'yes' : 'no'`;
    case F.APPLY_CONFIGURATION:
      return `(${use}) ? Object{} : Object{}`;
    case F.JSON_PATCH:
      return `(${use}) ? [JSONPatch{op: "remove", path: "/a"}] : []`;
    default:
      return use;
  }
}

describe('CEL environment per field', () => {
  describe.each(ALL_FIELDS)('%s', (field) => {
    test('object, oldObject, request and namespaceObject are declared', () => {
      for (const use of ['object.spec.x == 1', 'oldObject == null', "request.operation == 'CREATE'", "namespaceObject.metadata.name == 'a'"]) {
        expect(check(inField(field, use), { field, variables: field === F.VARIABLE ? [] : undefined })).toEqual([]);
      }
    });

    test('params only with a paramKind (never in webhook matchConditions)', () => {
      const expression = inField(field, 'params.x == 1');
      expect(check(expression, { field })[0]).toContain("undeclared reference to 'params'");
      if (field === F.WEBHOOK_MATCH_CONDITION) {
        expect(check(expression, { field, params: true })[0]).toContain("undeclared reference to 'params'");
      } else {
        expect(check(expression, { field, params: true })).toEqual([]);
      }
    });

    test('authorizer everywhere but messageExpression', () => {
      const expression = inField(field, "authorizer.requestResource.check('update').allowed()");
      if (field === F.MESSAGE_EXPRESSION) {
        expect(check(expression, { field })[0]).toContain("undeclared reference to 'authorizer'");
      } else {
        expect(check(expression, { field })).toEqual([]);
      }
    });
  });

  test('an undeclared reference names the identifier and its position', () => {
    expect(headline('1 + params.x > 2')).toBe("compilation failed: ERROR: <input>:1:5: undeclared reference to 'params' (in container '')");
    expect(headline('nope')).toBe("compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')");
  });

  describe('variables', () => {
    const vars: ReadonlyArray<readonly [string, string]> = [['replicas', 'object.spec.replicas'], ['name', 'string(object.metadata.name)']];

    test('not in matchConditions, even when the policy has variables', () => {
      for (const field of [F.MATCH_CONDITION, F.WEBHOOK_MATCH_CONDITION]) {
        expectRejected('variables.name == "a"', "undeclared reference to 'variables'", { field, variables: vars });
      }
    });

    test('validations, messages and audit annotations see them only if the policy has some', () => {
      expectRejected('variables.name == "a"', "undeclared reference to 'variables'");
      expectAccepted('variables.name == "a"', { variables: vars });
      expectAccepted("'name: ' + variables.name", { field: F.MESSAGE_EXPRESSION, variables: vars });
      expectAccepted('variables.name', { field: F.AUDIT_ANNOTATION_VALUE, variables: vars });
    });

    test('a variable sees only the variables before it', () => {
      expectAccepted('variables.replicas', { field: F.VARIABLE, variables: vars.slice(0, 1) });
      expectRejected('variables.name', "undefined field 'name'", { field: F.VARIABLE, variables: vars.slice(0, 1) });
      expectRejected('variables.x', "undefined field 'x'", { field: F.VARIABLE });
    });

    test('mutations always see the variables object', () => {
      expectRejected('variables.x == 1 ? Object{} : Object{}', "undefined field 'x'", { field: F.APPLY_CONFIGURATION });
    });

    test('each variable is typed by its compiled output type', () => {
      // `name` is a string: adding an int has no overload, and it is a valid messageExpression as is.
      expectRejected('variables.name + 1 == 2', "found no matching overload for '_+_' applied to '(string, int)'", { variables: vars });
      expectAccepted('variables.name', { field: F.MESSAGE_EXPRESSION, variables: vars });
      // `replicas` is dyn (object is dyn): not a bool by itself.
      expectRejected('variables.replicas', 'must evaluate to bool but got dyn', { variables: vars });
      expectAccepted('variables.flags.all(f, f)', { variables: [['flags', '[true, false]']] });
      expectRejected('variables.flags.all(f, f + 1)', "found no matching overload for '_+_' applied to '(bool, int)'", { variables: [['flags', '[true, false]']] });
    });
  });

  describe('typed request and namespaceObject', () => {
    test('request has the AdmissionRequest fields without uid, object and oldObject', () => {
      expectAccepted("request.kind.group == 'apps' && request.resource.resource == 'deployments' && request.subResource == ''");
      expectAccepted("request.userInfo.groups.exists(g, g == 'system:masters') && request.userInfo.extra['x'].size() > 0");
      expectAccepted("request.dryRun || request.name == '' || request.namespace == '' || request.options.x == 1");
      expectAccepted("request.requestKind.kind == 'Deployment' && request.requestResource.version == 'v1' && request.requestSubResource == ''");
      for (const field of ['uid', 'object', 'oldObject', 'foo']) {
        expectRejected(`request.${field} == null`, `undefined field '${field}'`);
      }
      expect(headline("request.uid == 'x'")).toBe("compilation failed: ERROR: <input>:1:8: undefined field 'uid'");
      expectRejected('request.dryRun == 1', "found no matching overload for '_==_' applied to '(bool, int)'");
    });

    test('namespaceObject has the namespace fields CreateNamespaceObject copies', () => {
      expectAccepted("namespaceObject.metadata.labels['env'] == 'prod' && namespaceObject.status.phase == 'Active'");
      expectAccepted("namespaceObject.spec.finalizers.size() == 0 && namespaceObject.status.conditions.all(c, c.type != '')");
      expectRejected('namespaceObject.metadata.managedFields == null', "undefined field 'managedFields'");
    });
  });

  describe('mutation types', () => {
    test('Object and JSONPatch literals and jsonpatch.escapeKey exist only in mutations', () => {
      expectAccepted('Object{metadata: Object.metadata{labels: {"a": "b"}}}', { field: F.APPLY_CONFIGURATION });
      expectAccepted('Object{spec: Object.spec{containers: [Object.spec.containers{name: "c", image: "i"}]}}', { field: F.APPLY_CONFIGURATION });
      expectAccepted('[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("a/b"), value: "x"}]', { field: F.JSON_PATCH });
      expectRejected('Object{} == Object{}', "undeclared reference to 'Object'");
      expectRejected('[JSONPatch{op: "add"}].size() == 1', "undeclared reference to 'JSONPatch'");
      expectRejected('jsonpatch.escapeKey("a") == "a"', "undeclared reference to 'jsonpatch'");
    });

    test('JSONPatch fields are op, path, from and value, typed', () => {
      expectRejected('[JSONPatch{op: "add", pth: "/a"}]', "undefined field 'pth'", { field: F.JSON_PATCH });
      expectRejected('[JSONPatch{op: 1, path: "/a"}]', "expected type of field 'op' is 'string' but provided type is 'int'", { field: F.JSON_PATCH });
      expectAccepted('[JSONPatch{op: "move", from: "/a", path: "/b"}, JSONPatch{op: "add", path: "/c", value: {"x": [1]}}]', { field: F.JSON_PATCH });
    });
  });
});

describe('macros', () => {
  test('has() tests a field of any operand, as cel-go does: an indexed list item\'s too', () => {
    expectAccepted('has(object.spec.containers[0].image)');
    expectAccepted("has(object.metadata.labels['app'].x)");
    expect(check('has(object.spec.containers[0])')[0]).toContain('invalid argument to has() macro');
  });
});

describe('message literals', () => {
  test('JSONPatch values compare, and has() tests their fields, as on the apiserver', () => {
    const patch = (condition: string) => `${condition} ? [JSONPatch{op: "remove", path: "/a"}] : []`;
    expectAccepted(patch('JSONPatch{op: "add"} == JSONPatch{op: "add"}'), { field: F.JSON_PATCH });
    expectAccepted(patch('has(JSONPatch{op: "add"}.op)'), { field: F.JSON_PATCH });
  });
});
