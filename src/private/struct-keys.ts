// The keys of the public API's structs, so that a misspelled key from JavaScript (`mesage`) is an
// error naming it rather than an option silently dropped, and a missing required one (`key!`) an
// error naming it and the construct rather than a TypeError deep inside. TypeScript and jsii's
// typed languages cannot do either; plain JavaScript can. test/private/struct-keys.test.ts checks
// these lists against the TypeScript interfaces, so a new property cannot be forgotten here.
import { VALIDATION_OPTIONS } from '../validation/manifest-validator';
import { extend, struct, StructShape } from '../validation/struct-shape';

const LABEL_SELECTOR_REQUIREMENT = struct('LabelSelectorRequirement', ['key!:s', 'operator!:s', 'values:s[]']);
const LABEL_SELECTOR = struct('LabelSelector', ['matchLabels:m'], { matchExpressions: [LABEL_SELECTOR_REQUIREMENT] });
export const RESOURCE_RULE = struct('ResourceRule', ['apiGroups!:s[]', 'apiVersions!:s[]', 'resources!:s[]', 'operations!:s[]', 'resourceNames:s[]', 'scope:s']);
export const MATCH_CONDITION = struct('MatchCondition', ['name!:s', 'expression!:s']);
export const VARIABLE = struct('Variable', ['name!:s', 'expression!:s']);
export const VALIDATION = struct('Validation', ['expression!:s', 'message:s', 'messageExpression:s', 'reason:s']);
export const AUDIT_ANNOTATION = struct('AuditAnnotation', ['key!:s', 'valueExpression!:s']);
const PARAM_KIND = struct('ParamKind', ['apiVersion!:s', 'kind!:s']);
const PARAM_REF = struct('ParamRef', ['name:s', 'namespace:s', 'parameterNotFoundAction!:s'], { selector: LABEL_SELECTOR });
const MATCH_RESOURCES = struct('MatchResources', ['matchPolicy:s'], {
  resourceRules: [RESOURCE_RULE], excludeResourceRules: [RESOURCE_RULE], namespaceSelector: LABEL_SELECTOR, objectSelector: LABEL_SELECTOR,
});

const ADMISSION_POLICY_PROPS = struct('AdmissionPolicyProps', ['name:s', 'metadata', 'matchPolicy:s', 'failurePolicy:s', 'kubernetesVersion'], {
  'resourceRules!': [RESOURCE_RULE],
  'excludeResourceRules': [RESOURCE_RULE],
  'namespaceSelector': LABEL_SELECTOR,
  'objectSelector': LABEL_SELECTOR,
  'matchConditions': [MATCH_CONDITION],
  'variables': [VARIABLE],
  'paramKind': PARAM_KIND,
});
export const VALIDATING_POLICY_PROPS = extend('ValidatingPolicyProps', ADMISSION_POLICY_PROPS, [], { validations: [VALIDATION], auditAnnotations: [AUDIT_ANNOTATION] });
export const MUTATING_POLICY_PROPS = extend('MutatingPolicyProps', ADMISSION_POLICY_PROPS, ['mutations!', 'reinvocationPolicy:s']);

export const ADMISSION_POLICY_BINDING_OPTIONS = struct('AdmissionPolicyBindingOptions', ['name:s', 'metadata', 'kubernetesVersion'], {
  paramRef: PARAM_REF, matchResources: MATCH_RESOURCES,
});
const VALIDATING_POLICY_BINDING_OPTIONS = extend('ValidatingPolicyBindingOptions', ADMISSION_POLICY_BINDING_OPTIONS, ['validationActions!:s[]']);
export const VALIDATING_POLICY_BINDING_PROPS = extend('ValidatingPolicyBindingProps', VALIDATING_POLICY_BINDING_OPTIONS, ['policy!']);
const MUTATING_POLICY_BINDING_OPTIONS = extend('MutatingPolicyBindingOptions', ADMISSION_POLICY_BINDING_OPTIONS, []);
export const MUTATING_POLICY_BINDING_PROPS = extend('MutatingPolicyBindingProps', MUTATING_POLICY_BINDING_OPTIONS, ['policy!']);

export const WEBHOOK_OPTIONS = struct('WebhookOptions', [
  'name!:s', 'path:s', 'port:n', 'failurePolicy:s', 'matchPolicy:s', 'sideEffects:s', 'timeout', 'admissionReviewVersions:s[]', 'reinvocationPolicy:s',
  'excludeSystemNamespaces:b',
], { rules: [RESOURCE_RULE], namespaceSelector: LABEL_SELECTOR, objectSelector: LABEL_SELECTOR, matchConditions: [MATCH_CONDITION] });
const WEBHOOK_CONFIGURATION_PROPS = struct('WebhookConfigurationProps', ['name:s', 'metadata', 'webhooks', 'caBundle', 'kubernetesVersion']);
export const VALIDATING_WEBHOOK_CONFIGURATION_PROPS = extend('ValidatingWebhookConfigurationProps', WEBHOOK_CONFIGURATION_PROPS, []);
export const MUTATING_WEBHOOK_CONFIGURATION_PROPS = extend('MutatingWebhookConfigurationProps', WEBHOOK_CONFIGURATION_PROPS, []);
export const ADMISSION_RESOURCE_OPTIONS = struct('AdmissionResourceOptions', ['apiGroup!:s', 'apiVersion!:s', 'resource!:s', 'scope:s']);
export const STATIC_ADMISSION_CHART_PROPS = struct('StaticAdmissionChartProps', [
  'namespace:s', 'labels:m', 'disableResourceNameHashes:b', 'hostDirectory:s', 'webhookKubeConfigFile:s',
]);
export const VALIDATION_PLUGIN_PROPS = struct('AdmissionValidationPluginProps', ['kubernetesVersion:s', 'warningsAsErrors:b', 'reportWarnings:b']);

const USER_INFO = struct('UserInfo', ['username:s', 'uid:s', 'groups:s[]', 'extra']);
const GROUP_VERSION_RESOURCE = struct('GroupVersionResource', ['group!:s', 'version!:s', 'resource!:s']);
export const ADMISSION_REQUEST = struct('AdmissionRequest', ['operation!:s', 'object', 'oldObject', 'namespaceObject', 'subResource:s', 'namespace:s', 'name:s', 'dryRun:b'], {
  userInfo: USER_INFO, resource: GROUP_VERSION_RESOURCE,
});
const PERMISSION = struct('Permission', ['verbs!:s[]', 'apiGroups:s[]', 'resources:s[]', 'namespaces:s[]', 'resourceNames:s[]', 'nonResourceUrls:s[]', 'users:s[]']);
export const DENIAL_EXPECTATION = struct('DenialExpectation', ['policy:s', 'binding:s', 'message:s', 'messagePattern:s', 'reason:s', 'code:n']);
export const POLICY_TESTER_OPTIONS = struct('PolicyTesterOptions', ['kubernetesVersion', 'disabledAdmissionPlugins:s[]', 'coverage:b', 'staticManifests'], { permissions: [PERMISSION] });
export const COVERAGE_THRESHOLD = struct('CoverageThreshold', ['bindings:n', 'matchConditions:n', 'validations:n', 'expressions:n', 'branches:n']);
/** `policies` maps names to CoverageThreshold: each is checked against COVERAGE_THRESHOLD where it is read. */
export const COVERAGE_THRESHOLDS = struct('CoverageThresholds', ['policies'], { global: COVERAGE_THRESHOLD });

/** Every shape, by the name of its interface (for the test that compares them). */
export const STRUCT_SHAPES: readonly StructShape[] = [
  LABEL_SELECTOR_REQUIREMENT, LABEL_SELECTOR, RESOURCE_RULE, MATCH_CONDITION, VARIABLE, VALIDATION, AUDIT_ANNOTATION, PARAM_KIND, PARAM_REF,
  MATCH_RESOURCES, ADMISSION_POLICY_PROPS, VALIDATING_POLICY_PROPS, MUTATING_POLICY_PROPS, ADMISSION_POLICY_BINDING_OPTIONS,
  VALIDATING_POLICY_BINDING_OPTIONS, VALIDATING_POLICY_BINDING_PROPS, MUTATING_POLICY_BINDING_OPTIONS, MUTATING_POLICY_BINDING_PROPS, WEBHOOK_OPTIONS,
  WEBHOOK_CONFIGURATION_PROPS, VALIDATING_WEBHOOK_CONFIGURATION_PROPS, MUTATING_WEBHOOK_CONFIGURATION_PROPS,
  ADMISSION_RESOURCE_OPTIONS, STATIC_ADMISSION_CHART_PROPS, VALIDATION_PLUGIN_PROPS, VALIDATION_OPTIONS, USER_INFO, GROUP_VERSION_RESOURCE,
  ADMISSION_REQUEST, PERMISSION,
  POLICY_TESTER_OPTIONS, DENIAL_EXPECTATION, COVERAGE_THRESHOLD, COVERAGE_THRESHOLDS,
];

export { checkStructKeys } from '../validation/struct-shape';
