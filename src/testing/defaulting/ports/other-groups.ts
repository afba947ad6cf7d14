import { DefaultingFunction, DefaultingFunctions } from '../defaulting-function';
import { GoObject, isNil, isObject, isZeroValue, len, objectAt } from '../go-values';

/**
 * The hand-written defaulters of the other API groups, ported: autoscaling, scheduling,
 * discovery, admissionregistration, flowcontrol, authentication, resource, apiextensions and
 * apiregistration (each group version's defaults.go in k8s.io/kubernetes pkg/apis, in
 * k8s.io/apiextensions-apiserver or k8s.io/kube-aggregator).
 */
export const OTHER_GROUPS: DefaultingFunctions = {
  'autoscaling/v1.SetDefaults_HorizontalPodAutoscaler': {
    go: { 'autoscaling/v1.SetDefaults_HorizontalPodAutoscaler': ['0e7d', '77b39d7e7cd4'] },
    run(hpa: GoObject) {
      const spec = objectAt(hpa, 'spec');
      if (isNil(spec.minReplicas)) spec.minReplicas = 1;
    },
  },
  'autoscaling/v2.SetDefaults_HorizontalPodAutoscaler': {
    go: {
      // c71c (1.28-1.33) differs only in a pointer helper; bd9d (1.28-1.32) copies no tolerance (the field came in 1.33).
      'autoscaling/v2.SetDefaults_HorizontalPodAutoscaler': ['c71c', '4417e6481fbc'],
      'autoscaling/v2.SetDefaults_HorizontalPodAutoscalerBehavior': ['ecb58ddfe222'],
      'autoscaling/v2.GenerateHPAScaleUpRules': ['985784f1dedc'],
      'autoscaling/v2.GenerateHPAScaleDownRules': ['312b1c9c05f9'],
      'autoscaling/v2.copyHPAScalingRules': ['bd9d', '33f9a7edcb32'],
    },
    run(hpa: GoObject) {
      const spec = objectAt(hpa, 'spec');
      if (isNil(spec.minReplicas)) spec.minReplicas = 1;
      // autoscaling.DefaultCPUUtilization: 80%.
      if (len(spec.metrics) === 0) spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
      if (!isNil(spec.behavior)) {
        spec.behavior.scaleUp = scalingRules(spec.behavior.scaleUp, {
          stabilizationWindowSeconds: 0,
          selectPolicy: 'Max',
          policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }],
        });
        spec.behavior.scaleDown = scalingRules(spec.behavior.scaleDown, {
          selectPolicy: 'Max',
          policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
        });
      }
    },
  },
  ...Object.fromEntries([['scheduling/v1alpha3.SetDefaults_PodGroup', '727e'], ['scheduling/v1beta1.SetDefaults_PodGroup', 'fc93'],
    ['scheduling/v1alpha3.SetDefaults_CompositePodGroup', '33a6']].map(([name, hash]) => [name, {
    go: { [name]: [hash] },
    run(group: GoObject, context: { gate(name: string): boolean }) {
      const spec = objectAt(group, 'spec');
      if (context.gate('PodGroupPreemptionPolicy') && isNil(spec.preemptionPolicy)) spec.preemptionPolicy = 'PreemptLowerPriority';
    },
  }])),
  'scheduling/v1.SetDefaults_PriorityClass': {
    go: { 'scheduling/v1.SetDefaults_PriorityClass': ['90d12a4fabf7'] },
    run(priorityClass: GoObject) {
      if (isNil(priorityClass.preemptionPolicy)) priorityClass.preemptionPolicy = 'PreemptLowerPriority';
    },
  },
  'discovery/v1.SetDefaults_EndpointPort': {
    go: { 'discovery/v1.SetDefaults_EndpointPort': ['496b90d530ad'] },
    run(port: GoObject) {
      if (isNil(port.name)) port.name = '';
      if (isNil(port.protocol)) port.protocol = 'TCP';
    },
  },
  'admissionregistration/v1.SetDefaults_ValidatingWebhook': {
    go: { 'admissionregistration/v1.SetDefaults_ValidatingWebhook': ['edf547a1ade1'] },
    run: (webhook: GoObject) => defaultWebhook(webhook, false),
  },
  'admissionregistration/v1.SetDefaults_MutatingWebhook': {
    go: { 'admissionregistration/v1.SetDefaults_MutatingWebhook': ['632df8b74839'] },
    run: (webhook: GoObject) => defaultWebhook(webhook, true),
  },
  'admissionregistration/v1.SetDefaults_Rule': {
    go: { 'admissionregistration/v1.SetDefaults_Rule': ['e26f437af32d'] },
    run(rule: GoObject) {
      if (isNil(rule.scope)) rule.scope = '*';
    },
  },
  'admissionregistration/v1.SetDefaults_ServiceReference': servicePort('admissionregistration/v1.SetDefaults_ServiceReference', ['23c9', '1554b547981e']),
  'apiextensions/v1.SetDefaults_ServiceReference': servicePort('apiextensions/v1.SetDefaults_ServiceReference', ['c33e', '43fc473ce602']),
  'apiregistration/v1.SetDefaults_ServiceReference': servicePort('apiregistration/v1.SetDefaults_ServiceReference', ['c33e', '43fc473ce602']),
  ...byVersion(['v1', 'v1beta1', 'v1alpha1'], (version) => ({
    [`admissionregistration/${version}.SetDefaults_MatchResources`]: {
      go: { [`admissionregistration/${version}.SetDefaults_MatchResources`]: [{ v1: '1738f9aa3945', v1beta1: '4039bd13d6ba', v1alpha1: '5f3b97efebe7' }[version]!] },
      run(match: GoObject) {
        if (isNil(match.matchPolicy)) match.matchPolicy = 'Equivalent';
        if (isNil(match.namespaceSelector)) match.namespaceSelector = {};
        if (isNil(match.objectSelector)) match.objectSelector = {};
      },
    },
    [`admissionregistration/${version}.SetDefaults_MutatingAdmissionPolicySpec`]: failurePolicy(
      `admissionregistration/${version}.SetDefaults_MutatingAdmissionPolicySpec`, { v1: '44700aeab6aa', v1beta1: 'acf73543c341', v1alpha1: 'c4a103e54728' }[version]!),
    [`admissionregistration/${version}.SetDefaults_ValidatingAdmissionPolicySpec`]: failurePolicy(
      `admissionregistration/${version}.SetDefaults_ValidatingAdmissionPolicySpec`, { v1: 'fefceb6ac32e', v1beta1: 'bcaba426eaea', v1alpha1: '397c4c2fc732' }[version]!),
  })),
  'admissionregistration/v1alpha1.SetDefaults_ParamRef': {
    go: { 'admissionregistration/v1alpha1.SetDefaults_ParamRef': ['a31a61855662'] },
    run(paramRef: GoObject) {
      if (isNil(paramRef.parameterNotFoundAction)) paramRef.parameterNotFoundAction = 'Deny';
    },
  },
  'flowcontrol/v1.SetDefaults_FlowSchemaSpec': {
    go: { 'flowcontrol/v1.SetDefaults_FlowSchemaSpec': ['35316971b83d'] },
    run(spec: GoObject) {
      if (isZeroValue(spec.matchingPrecedence)) spec.matchingPrecedence = 1000;
    },
  },
  'flowcontrol/v1.SetDefaults_ExemptPriorityLevelConfiguration': {
    go: { 'flowcontrol/v1.SetDefaults_ExemptPriorityLevelConfiguration': ['e6d4c73ae6a0'] },
    run(exempt: GoObject) {
      if (isNil(exempt.nominalConcurrencyShares)) exempt.nominalConcurrencyShares = 0;
      if (isNil(exempt.lendablePercent)) exempt.lendablePercent = 0;
    },
  },
  'flowcontrol/v1.SetDefaults_LimitedPriorityLevelConfiguration': {
    go: { 'flowcontrol/v1.SetDefaults_LimitedPriorityLevelConfiguration': ['3d7fdf279dbc'] },
    run(limited: GoObject) {
      if (isNil(limited.nominalConcurrencyShares)) limited.nominalConcurrencyShares = 30;
      if (isNil(limited.lendablePercent)) limited.lendablePercent = 0;
    },
  },
  'flowcontrol/v1.SetDefaults_QueuingConfiguration': {
    go: { 'flowcontrol/v1.SetDefaults_QueuingConfiguration': ['a8a1dca3e1b9'] },
    run(queuing: GoObject) {
      if (isZeroValue(queuing.handSize)) queuing.handSize = 8;
      if (isZeroValue(queuing.queues)) queuing.queues = 64;
      if (isZeroValue(queuing.queueLengthLimit)) queuing.queueLengthLimit = 50;
    },
  },
  'authentication/v1.SetDefaults_TokenRequestSpec': {
    go: { 'authentication/v1.SetDefaults_TokenRequestSpec': ['631ce97f03ed'] },
    run(spec: GoObject) {
      if (isNil(spec.expirationSeconds)) spec.expirationSeconds = 3600;
    },
  },
  ...byVersion(['v1', 'v1beta2'], (version) => ({
    [`resource/${version}.SetDefaults_ExactDeviceRequest`]: deviceRequest(`resource/${version}.SetDefaults_ExactDeviceRequest`, '2dbe47d0d417', false),
  })),
  ...byVersion(['v1', 'v1beta1', 'v1beta2'], (version) => ({
    [`resource/${version}.SetDefaults_DeviceSubRequest`]: deviceRequest(`resource/${version}.SetDefaults_DeviceSubRequest`, 'd380523d4e43', false),
  })),
  'resource/v1beta1.SetDefaults_DeviceRequest': deviceRequest('resource/v1beta1.SetDefaults_DeviceRequest', 'b29a150e8d34', true),
  ...byVersion(['v1', 'v1beta1', 'v1beta2', 'v1alpha3'], (version) => ({
    [`resource/${version}.SetDefaults_DeviceTaint`]: {
      go: { [`resource/${version}.SetDefaults_DeviceTaint`]: ['d81559f8eebe'] },
      run(taint: GoObject, context) {
        // metav1.Now truncated to the second.
        if (isNil(taint.timeAdded)) taint.timeAdded = new Date(Math.floor(context.now.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
      },
    },
  })),
  // 1.36 only: node allocatable resource mappings multiply by one unless they say otherwise.
  ...Object.fromEntries([['resource/v1.SetDefaults_Device', '4f7c'], ['resource/v1beta2.SetDefaults_Device', '4f7c'],
    ['resource/v1beta1.SetDefaults_BasicDevice', '7730']].map(([name, hash]) => [name, {
    go: { [name]: [hash] },
    run(device: GoObject) {
      for (const mapping of Object.values(isObject(device.nodeAllocatableResourceMappings) ? device.nodeAllocatableResourceMappings : {})) {
        if (isObject(mapping) && isNil(mapping.allocationMultiplier)) mapping.allocationMultiplier = '1';
      }
    },
  }])),
  'apiextensions/v1.SetDefaults_CustomResourceDefinition': {
    go: { 'apiextensions/v1.SetDefaults_CustomResourceDefinition': ['453cd3e9e723'] },
    run(crd: GoObject) {
      const status = objectAt(crd, 'status');
      if (len(status.storedVersions) === 0) {
        const storage = (Array.isArray(crd.spec?.versions) ? crd.spec.versions : []).find((v: GoObject) => v?.storage === true);
        if (storage) status.storedVersions = [storage.name];
      }
    },
  },
  'apiextensions/v1.SetDefaults_CustomResourceDefinitionSpec': {
    go: { 'apiextensions/v1.SetDefaults_CustomResourceDefinitionSpec': ['6ae67ffbd9e5'] },
    run(spec: GoObject) {
      const names = objectAt(spec, 'names');
      const kind = typeof names.kind === 'string' ? names.kind : '';
      if (len(names.singular) === 0) names.singular = kind.toLowerCase();
      if (len(names.listKind) === 0 && kind.length > 0) names.listKind = `${kind}List`;
      if (isNil(spec.conversion)) spec.conversion = { strategy: 'None' };
    },
  },
};

function defaultWebhook(webhook: GoObject, mutating: boolean): void {
  if (isNil(webhook.failurePolicy)) webhook.failurePolicy = 'Fail';
  if (isNil(webhook.matchPolicy)) webhook.matchPolicy = 'Equivalent';
  if (isNil(webhook.namespaceSelector)) webhook.namespaceSelector = {};
  if (isNil(webhook.objectSelector)) webhook.objectSelector = {};
  if (isNil(webhook.timeoutSeconds)) webhook.timeoutSeconds = 10;
  if (mutating && isNil(webhook.reinvocationPolicy)) webhook.reinvocationPolicy = 'Never';
}

function servicePort(name: string, hashes: string[]): DefaultingFunction {
  return {
    go: { [name]: hashes },
    run(service: GoObject) {
      if (isNil(service.port)) service.port = 443;
    },
  };
}

function failurePolicy(name: string, hash: string): DefaultingFunction {
  return {
    go: { [name]: [hash] },
    run(spec: GoObject) {
      if (isNil(spec.failurePolicy)) spec.failurePolicy = 'Fail';
    },
  };
}

/** Requests for devices: ExactCount of one, unless the request has subrequests (v1beta1: no device class). */
function deviceRequest(name: string, hash: string, needsDeviceClass: boolean): DefaultingFunction {
  return {
    go: { [name]: [hash] },
    run(request: GoObject) {
      if (needsDeviceClass && isZeroValue(request.deviceClassName)) return;
      if (isZeroValue(request.allocationMode)) request.allocationMode = 'ExactCount';
      if (request.allocationMode === 'ExactCount' && isZeroValue(request.count)) request.count = 1;
    },
  };
}

/** copyHPAScalingRules over a copy of the defaults: what the rules set wins, field by field. */
function scalingRules(given: GoObject | null | undefined, defaults: GoObject): GoObject {
  if (isNil(given)) return defaults;
  const out = { ...defaults };
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies', 'tolerance']) if (!isNil(given[key])) out[key] = given[key];
  return out;
}

function byVersion(versions: readonly string[], make: (version: string) => DefaultingFunctions): DefaultingFunctions {
  return Object.assign({}, ...versions.map(make));
}
