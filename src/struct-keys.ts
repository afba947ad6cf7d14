// The keys of the public API's structs, so that a misspelled key from JavaScript (`mesage`) is an
// error naming it rather than an option silently dropped. TypeScript and the other jsii languages
// cannot pass unknown keys; plain JavaScript can. test/struct-keys.test.ts checks these lists
// against the TypeScript interfaces, so a new property cannot be forgotten here.
import { VALIDATION_OPTIONS } from './validation/manifest-validator';
import { extend, struct, StructShape } from './validation/struct-shape';

const LABEL_SELECTOR_REQUIREMENT = struct('LabelSelectorRequirement', ['key', 'operator', 'values']);
const LABEL_SELECTOR = struct('LabelSelector', ['matchLabels'], { matchExpressions: [LABEL_SELECTOR_REQUIREMENT] });
export const RESOURCE_RULE = struct('ResourceRule', ['apiGroups', 'apiVersions', 'resources', 'operations', 'resourceNames', 'scope']);
export const MATCH_CONDITION = struct('MatchCondition', ['name', 'expression']);
export const VARIABLE = struct('Variable', ['name', 'expression']);
export const VALIDATION = struct('Validation', ['expression', 'message', 'messageExpression', 'reason']);
export const AUDIT_ANNOTATION = struct('AuditAnnotation', ['key', 'valueExpression']);
const PARAM_KIND = struct('ParamKind', ['apiVersion', 'kind']);
const PARAM_REF = struct('ParamRef', ['name', 'namespace', 'parameterNotFoundAction'], { selector: LABEL_SELECTOR });
const MATCH_RESOURCES = struct('MatchResources', ['matchPolicy'], {
  resourceRules: [RESOURCE_RULE], excludeResourceRules: [RESOURCE_RULE], namespaceSelector: LABEL_SELECTOR, objectSelector: LABEL_SELECTOR,
});

const ADMISSION_POLICY_PROPS = struct('AdmissionPolicyProps', ['name', 'metadata', 'matchPolicy', 'failurePolicy', 'kubernetesVersion'], {
  resourceRules: [RESOURCE_RULE],
  excludeResourceRules: [RESOURCE_RULE],
  namespaceSelector: LABEL_SELECTOR,
  objectSelector: LABEL_SELECTOR,
  matchConditions: [MATCH_CONDITION],
  variables: [VARIABLE],
  paramKind: PARAM_KIND,
});
export const VALIDATING_POLICY_PROPS = extend('ValidatingPolicyProps', ADMISSION_POLICY_PROPS, [], { validations: [VALIDATION], auditAnnotations: [AUDIT_ANNOTATION] });
export const MUTATING_POLICY_PROPS = extend('MutatingPolicyProps', ADMISSION_POLICY_PROPS, ['mutations', 'reinvocationPolicy']);

export const ADMISSION_POLICY_BINDING_OPTIONS = struct('AdmissionPolicyBindingOptions', ['name', 'metadata', 'kubernetesVersion'], {
  paramRef: PARAM_REF, matchResources: MATCH_RESOURCES,
});
const VALIDATING_POLICY_BINDING_OPTIONS = extend('ValidatingPolicyBindingOptions', ADMISSION_POLICY_BINDING_OPTIONS, ['validationActions']);
export const VALIDATING_POLICY_BINDING_PROPS = extend('ValidatingPolicyBindingProps', VALIDATING_POLICY_BINDING_OPTIONS, ['policy']);
const MUTATING_POLICY_BINDING_OPTIONS = extend('MutatingPolicyBindingOptions', ADMISSION_POLICY_BINDING_OPTIONS, []);
export const MUTATING_POLICY_BINDING_PROPS = extend('MutatingPolicyBindingProps', MUTATING_POLICY_BINDING_OPTIONS, ['policy']);

export const WEBHOOK_OPTIONS = struct('WebhookOptions', [
  'name', 'path', 'port', 'failurePolicy', 'matchPolicy', 'sideEffects', 'timeout', 'admissionReviewVersions', 'reinvocationPolicy', 'excludeSystemNamespaces',
], { rules: [RESOURCE_RULE], namespaceSelector: LABEL_SELECTOR, objectSelector: LABEL_SELECTOR, matchConditions: [MATCH_CONDITION] });
const WEBHOOK_CONFIGURATION_PROPS = struct('WebhookConfigurationProps', ['name', 'metadata', 'webhooks', 'caBundle', 'kubernetesVersion']);
export const VALIDATING_WEBHOOK_CONFIGURATION_PROPS = extend('ValidatingWebhookConfigurationProps', WEBHOOK_CONFIGURATION_PROPS, []);
export const MUTATING_WEBHOOK_CONFIGURATION_PROPS = extend('MutatingWebhookConfigurationProps', WEBHOOK_CONFIGURATION_PROPS, []);
export const ADMISSION_RESOURCE_OPTIONS = struct('AdmissionResourceOptions', ['apiGroup', 'apiVersion', 'resource', 'scope']);
export const VALIDATION_PLUGIN_PROPS = struct('AdmissionValidationPluginProps', ['kubernetesVersion', 'warningsAsErrors']);

const USER_INFO = struct('UserInfo', ['username', 'uid', 'groups', 'extra']);
const GROUP_VERSION_RESOURCE = struct('GroupVersionResource', ['group', 'version', 'resource']);
export const ADMISSION_REQUEST = struct('AdmissionRequest', ['operation', 'object', 'oldObject', 'namespaceObject', 'subResource', 'namespace', 'name', 'dryRun'], {
  userInfo: USER_INFO, resource: GROUP_VERSION_RESOURCE,
});
const PERMISSION = struct('Permission', ['verbs', 'apiGroups', 'resources', 'namespaces', 'resourceNames', 'nonResourceUrls', 'users']);
export const POLICY_TESTER_OPTIONS = struct('PolicyTesterOptions', ['kubernetesVersion'], { permissions: [PERMISSION] });

/** Every shape, by the name of its interface (for the test that compares them). */
export const STRUCT_SHAPES: readonly StructShape[] = [
  LABEL_SELECTOR_REQUIREMENT, LABEL_SELECTOR, RESOURCE_RULE, MATCH_CONDITION, VARIABLE, VALIDATION, AUDIT_ANNOTATION, PARAM_KIND, PARAM_REF,
  MATCH_RESOURCES, ADMISSION_POLICY_PROPS, VALIDATING_POLICY_PROPS, MUTATING_POLICY_PROPS, ADMISSION_POLICY_BINDING_OPTIONS,
  VALIDATING_POLICY_BINDING_OPTIONS, VALIDATING_POLICY_BINDING_PROPS, MUTATING_POLICY_BINDING_OPTIONS, MUTATING_POLICY_BINDING_PROPS, WEBHOOK_OPTIONS,
  WEBHOOK_CONFIGURATION_PROPS, VALIDATING_WEBHOOK_CONFIGURATION_PROPS, MUTATING_WEBHOOK_CONFIGURATION_PROPS,
  ADMISSION_RESOURCE_OPTIONS, VALIDATION_PLUGIN_PROPS, VALIDATION_OPTIONS, USER_INFO, GROUP_VERSION_RESOURCE, ADMISSION_REQUEST, PERMISSION,
  POLICY_TESTER_OPTIONS,
];

export { checkStructKeys } from './validation/struct-shape';
