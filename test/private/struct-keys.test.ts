// A misspelled key from JavaScript is an error naming it, never an option silently dropped; and the
// key lists behind that check match the TypeScript interfaces, so that none goes stale.
import * as path from 'path';
import { Testing } from 'cdk8s';
import * as ts from 'typescript';
import {
  AdmissionResource, AdmissionValidationPlugin, ManifestValidator, MutatingPolicy, Mutation, Operation, PolicyTester,
  ValidatingPolicy, ValidatingPolicyBinding, ValidatingWebhookConfiguration, ValidationAction, Webhook,
} from '../../src';
import { STRUCT_SHAPES } from '../../src/private/struct-keys';
import { StructShape } from '../../src/validation/struct-shape';

const rules = [AdmissionResource.PODS.rule(Operation.CREATE)];

describe('unknown keys are rejected where they are given, with the nearest known key', () => {
  test('a policy\'s props and the structs in them', () => {
    const chart = Testing.chart();
    expect(() => new ValidatingPolicy(chart, 'a', { resourceRules: rules, validations: [{ expression: 'true', mesage: 'm' } as any] })).toThrow(
      'test/a: unknown property validations[0].mesage: Validation has no "mesage"; did you mean "message"? its properties are expression, message, messageExpression, reason');
    expect(() => new ValidatingPolicy(chart, 'b', { resourceRules: rules, failurepolicy: 'Ignore' } as any)).toThrow(
      'test/b: unknown property failurepolicy: ValidatingPolicyProps has no "failurepolicy"; did you mean "failurePolicy"?');
    expect(() => new ValidatingPolicy(chart, 'c', { resourceRules: [{ ...rules[0], resourceName: ['x'] } as any] })).toThrow(
      'test/c: unknown property resourceRules[0].resourceName: ResourceRule has no "resourceName"; did you mean "resourceNames"?');
    expect(() => new ValidatingPolicy(chart, 'd', { resourceRules: rules, namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'Exists', value: [] }] } } as any))
      .toThrow('test/d: unknown property namespaceSelector.matchExpressions[0].value: LabelSelectorRequirement has no "value"; did you mean "values"?');
    expect(() => new MutatingPolicy(chart, 'e', { resourceRules: rules, mutations: [Mutation.jsonPatch('[]')], reinvocation: 'IfNeeded' } as any))
      .toThrow('test/e: unknown property reinvocation: MutatingPolicyProps has no "reinvocation"');
  });

  test('add methods', () => {
    const policy = new ValidatingPolicy(Testing.chart(), 'p', { resourceRules: rules });
    expect(() => policy.addValidation({ expresion: 'true' } as any)).toThrow('test/p: addValidation: unknown property expresion: Validation has no "expresion"; did you mean "expression"?');
    expect(() => policy.addVariable({ name: 'v', expr: 'true' } as any)).toThrow('test/p: addVariable: unknown property expr: Variable has no "expr"');
    expect(() => policy.addMatchCondition({ name: 'c', expression: 'true', extra: 1 } as any)).toThrow('test/p: addMatchCondition: unknown property extra');
    expect(() => policy.addAuditAnnotation({ key: 'k', value: 'x' } as any)).toThrow('test/p: addAuditAnnotation: unknown property value: AuditAnnotation has no "value"');
    expect(() => policy.addResourceRule(rules[0], { ...rules[0], operation: [] } as any)).toThrow('test/p: addResourceRule: unknown property [1].operation: ResourceRule has no "operation"; did you mean "operations"?');
  });

  test('bindings, webhooks and configurations', () => {
    const chart = Testing.chart();
    const policy = new ValidatingPolicy(chart, 'p', { resourceRules: rules });
    expect(() => policy.withBinding('b', { validationActions: [ValidationAction.DENY], paramref: { name: 'x' } } as any)).toThrow(
      'test/b: unknown property paramref: ValidatingPolicyBindingProps has no "paramref"; did you mean "paramRef"?');
    expect(() => new ValidatingPolicyBinding(chart, 'b2', { policy, validationActions: [ValidationAction.DENY], paramRef: { name: 'x', parameterNotFound: 'Deny' } } as any))
      .toThrow('test/b2: unknown property paramRef.parameterNotFound: ParamRef has no "parameterNotFound"');
    expect(() => Webhook.forUrl('https://example.com', { name: 'a.b.c', rules, timeoutSeconds: 3 } as any)).toThrow(
      'webhook a.b.c: unknown property timeoutSeconds: WebhookOptions has no "timeoutSeconds"');
    expect(() => new ValidatingWebhookConfiguration(chart, 'w', { webhook: [] } as any)).toThrow(
      'test/w: unknown property webhook: ValidatingWebhookConfigurationProps has no "webhook"; did you mean "webhooks"?');
    expect(() => AdmissionResource.custom({ apiGroup: 'x', apiVersion: 'v1', resources: 'y' } as any)).toThrow(
      'AdmissionResource.custom: unknown property resources: AdmissionResourceOptions has no "resources"; did you mean "resource"?');
  });

  test('the validator, the plugin and PolicyTester', () => {
    expect(() => ManifestValidator.validate({}, { kubernetesVerison: '1.30' } as any)).toThrow(
      'ManifestValidator.validate: options: unknown property kubernetesVerison: ValidationOptions has no "kubernetesVerison"; did you mean "kubernetesVersion"?');
    expect(() => ManifestValidator.validateAll([], { version: '1.30' } as any)).toThrow('ManifestValidator.validateAll: options: unknown property version');
    expect(() => new AdmissionValidationPlugin({ warningAsErrors: true } as any)).toThrow('AdmissionValidationPlugin: unknown property warningAsErrors');
    expect(() => PolicyTester.fromManifests([], { permission: [] } as any)).toThrow(
      'PolicyTester.fromManifests: options: unknown property permission: PolicyTesterOptions has no "permission"; did you mean "permissions"?');
    const tester = PolicyTester.fromManifests([]);
    const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'd' } };
    expect(() => tester.review({ operation: Operation.UPDATE, object, oldobject: object } as any)).toThrow(
      'review: unknown property oldobject: AdmissionRequest has no "oldobject"; did you mean "oldObject"?');
    expect(() => tester.review({ operation: Operation.CREATE, object, userInfo: { username: 'u', group: ['g'] } } as any)).toThrow(
      'review: unknown property userInfo.group: UserInfo has no "group"; did you mean "groups"?');
  });

  test('a missing required property is an error naming the construct, the property and what it holds, not a TypeError inside', () => {
    const chart = Testing.chart();
    const policy = new ValidatingPolicy(chart, 'p', { resourceRules: rules });
    expect(() => policy.withBinding('b', {} as any)).toThrow(
      'test/b: missing required property validationActions: ValidatingPolicyBindingProps needs "validationActions" (a list of strings), none was given');
    expect(() => new ValidatingPolicy(chart, 'q', {} as any)).toThrow(
      'test/q: missing required property resourceRules: ValidatingPolicyProps needs "resourceRules" (a list of ResourceRule), none was given');
    expect(() => new ValidatingPolicy(chart, 'r', undefined as any)).toThrow('test/r: a ValidatingPolicyProps is required, with resourceRules; got undefined');
    expect(() => new MutatingPolicy(chart, 's', { resourceRules: rules } as any)).toThrow('test/s: missing required property mutations: MutatingPolicyProps needs "mutations"');
    expect(() => new ValidatingPolicy(chart, 't', { resourceRules: rules, validations: [{ message: 'm' } as any] })).toThrow(
      'test/t: missing required property validations[0].expression: Validation needs "expression" (a string), none was given');
    expect(() => new ValidatingPolicy(chart, 'u', { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] } as any] })).toThrow(
      'test/u: missing required property resourceRules[0].operations: ResourceRule needs "operations" (a list of strings)');
    expect(() => new ValidatingPolicyBinding(chart, 'v', { validationActions: [ValidationAction.DENY] } as any)).toThrow(
      'test/v: missing required property policy: ValidatingPolicyBindingProps needs "policy", none was given');
    expect(() => policy.addVariable({ name: 'v', expression: null } as any)).toThrow('test/p: addVariable: expression must be a string, got null');
    expect(() => Webhook.forUrl('https://example.com', undefined as any)).toThrow('Webhook: options.name must be a string');
    expect(() => PolicyTester.fromManifests([]).review({ object: {} } as any)).toThrow(
      'review: missing required property operation: AdmissionRequest needs "operation" (a string), none was given');
  });

  test('a misspelled required property is reported as the misspelling, with the nearest name', () => {
    expect(() => new ValidatingPolicy(Testing.chart(), 'p', { resourceRules: rules, validations: [{ expresion: 'true' } as any] })).toThrow(
      'test/p: unknown property validations[0].expresion: Validation has no "expresion"; did you mean "expression"?');
  });

  test('values that are not plain objects are not looked into, and undefined values are not keys the user meant', () => {
    const chart = Testing.chart();
    expect(() => new ValidatingPolicy(chart, 'p', { resourceRules: rules, validations: undefined, failurePolicy: undefined })).not.toThrow();
  });
});

/* eslint-disable no-bitwise */
const hasFlag = (symbol: ts.Symbol, flag: ts.SymbolFlags) => (symbol.flags & flag) !== 0;

describe('the key lists match the TypeScript interfaces', () => {
  const program = ts.createProgram([path.join(__dirname, '..', '..', 'src', 'index.ts')], { strict: true, target: ts.ScriptTarget.ES2020 });
  const checker = program.getTypeChecker();
  const interfaces = new Map<string, ts.Type>();
  const index = program.getSourceFile(path.join(__dirname, '..', '..', 'src', 'index.ts'))!;
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(index)!)) {
    const symbol = hasFlag(exported, ts.SymbolFlags.Alias) ? checker.getAliasedSymbol(exported) : exported;
    if (hasFlag(symbol, ts.SymbolFlags.Interface)) interfaces.set(symbol.name, checker.getDeclaredTypeOfSymbol(symbol));
  }

  /** What the interface says: each property's kind, or the struct (or list of structs) it holds, if one of the shapes. */
  function declared(type: ts.Type): Record<string, string> {
    const out: Record<string, string> = {};
    for (const property of checker.getPropertiesOfType(type)) {
      const t = checker.getNonNullableType(checker.getTypeOfSymbol(property));
      const element = checker.isArrayType(t) ? checker.getTypeArguments(t as ts.TypeReference)[0] : t;
      const name = element.getSymbol()?.name ?? '';
      const isShape = STRUCT_SHAPES.some((s) => s.name === name);
      out[property.name] = isShape ? (checker.isArrayType(t) ? `[${name}]` : name) : kindOf(t);
    }
    return out;
  }

  const STRING_FLAGS = ts.TypeFlags.String | ts.TypeFlags.StringLiteral | ts.TypeFlags.EnumLiteral | ts.TypeFlags.Enum;
  const isStringLike = (t: ts.Type) => (t.flags & STRING_FLAGS) !== 0
    || (t.isUnion() && t.types.every(isStringLike));

  function kindOf(t: ts.Type): string {
    if (isStringLike(t)) return 's';
    if (checker.isArrayType(t) && isStringLike(checker.getTypeArguments(t as ts.TypeReference)[0])) return 's[]';
    if ((t.flags & ts.TypeFlags.Number) !== 0) return 'n';
    if ((t.flags & ts.TypeFlags.Boolean) !== 0 || (t.isUnion() && t.types.every((u) => (u.flags & ts.TypeFlags.BooleanLiteral) !== 0))) return 'b';
    const stringIndex = checker.getIndexInfoOfType(t, ts.IndexKind.String);
    if (stringIndex && isStringLike(stringIndex.type) && checker.getPropertiesOfType(t).length === 0) return 'm';
    return 'x';
  }

  function described(shape: StructShape): Record<string, string> {
    const out: Record<string, string> = {};
    for (const key of shape.keys) {
      const nested = shape.nested[key];
      out[key] = nested === undefined ? shape.kinds[key] : Array.isArray(nested) ? `[${nested[0].name}]` : (nested as StructShape).name;
    }
    return out;
  }

  /** The properties without `?`. */
  const requiredOf = (type: ts.Type) => checker.getPropertiesOfType(type)
    .filter((p) => !hasFlag(p, ts.SymbolFlags.Optional)).map((p) => p.name).sort();

  test.each(STRUCT_SHAPES.map((s) => [s.name, s] as const))('%s', (name, shape) => {
    const type = interfaces.get(name);
    expect(type).toBeDefined();
    expect({ kinds: described(shape), required: [...shape.required].sort() }).toEqual({ kinds: declared(type!), required: requiredOf(type!) });
  });

  test('every input struct of the public API has a shape', () => {
    const outputs = new Set([
      'AdmissionResult', 'PolicyDenial', 'PolicyMatch', 'Violation', 'CheckedObject',
      'Explanation', 'ExplainedPolicy', 'ExplainedEvaluation', 'ExplainedExpression', 'ExplainedStep',
      'CoverageCount', 'PolicyCoverageSummary',
    ]);
    const inputs = [...interfaces.keys()].filter((n) => !/^I[A-Z]/.test(n) && !outputs.has(n));
    expect(inputs.filter((n) => !STRUCT_SHAPES.some((s) => s.name === n))).toEqual([]);
  });
});
