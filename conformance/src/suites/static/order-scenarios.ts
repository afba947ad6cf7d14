/**
 * Scenarios for the order of static and API mutating policies: for every ordered pair of the
 * review suite's mutation templates (without params), a static MutatingAdmissionPolicy with the
 * first and one created through the API with the second, on one ConfigMap that every template
 * finds something to change in. The apiserver runs the static policy first (the composite policy
 * source lists the static hooks before the API's), so where two templates touch the same field,
 * the admitted object shows the order.
 */
import { SUFFIX } from './sets';
import type { StaticReview } from './suite';
import { MUTATIONS } from '../reviews/generated-scenarios';
import { ReviewScenario, SCOPE_LABEL } from '../reviews/scenario';

const V1 = 'admissionregistration.k8s.io/v1';

function mutatingPolicy(name: string, namespace: string, template: (typeof MUTATIONS)[number]): any[] {
  return [
    {
      apiVersion: V1,
      kind: 'MutatingAdmissionPolicy',
      metadata: { name },
      spec: {
        matchConstraints: {
          namespaceSelector: { matchExpressions: [{ key: SCOPE_LABEL, operator: 'In', values: [namespace] }] },
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
        },
        reinvocationPolicy: 'Never',
        mutations: [template.patchType === 'JSONPatch'
          ? { patchType: 'JSONPatch', jsonPatch: { expression: template.expression } }
          : { patchType: 'ApplyConfiguration', applyConfiguration: { expression: template.expression } }],
      },
    },
    { apiVersion: V1, kind: 'MutatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name } },
  ];
}

export function orderScenarios(): StaticReview[] {
  const templates = MUTATIONS.map((t, i) => ({ t, i })).filter(({ t }) => !t.needsParams);
  const out: StaticReview[] = [];
  for (const first of templates) {
    for (const second of templates) {
      if (first.i === second.i) continue;
      const namespace = `ro${out.length}`;
      const staticPolicies = mutatingPolicy(`${namespace}-static${SUFFIX}`, namespace, first.t);
      const apiPolicies = mutatingPolicy(`${namespace}-api`, namespace, second.t);
      const scenario: ReviewScenario = {
        name: `order #${out.length}: static MAP[${first.i}] then API MAP[${second.i}]`,
        namespaces: [{ name: namespace, labels: {} }],
        objects: [],
        policies: [...staticPolicies, ...apiPolicies],
        operation: 'CREATE',
        object: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'cm', namespace, labels: { app: 'web' } },
          data: { k1: 'v1', k2: 'x', replicas: '2', forbidden: 'yes' },
        },
      };
      out.push({ scenario, staticPolicies, apiPolicies });
    }
  }
  return out;
}
