/**
 * Review scenarios at the apiserver's runtime cost limits: expressions whose cost, as cel-go
 * charges it, falls just inside or just outside the per-expression limit (1,000,000) and the
 * per-binding budget (10,000,000), and blow-ups that must stop at a limit. They check
 * PolicyTester's size-based cost meter (src/testing/cost-meter.ts) against the real charge.
 * Traversing the list doubled 40 times is left out: the 1.37 apiserver was seen to run it until
 * the request's deadline (a 504 after about 30 s) instead of stopping at the cost limit.
 */
import { ReviewScenario, SCOPE_LABEL } from './scenario';

const V1 = 'admissionregistration.k8s.io/v1';

interface CostCase {
  readonly what: string;
  readonly variables?: ReadonlyArray<{ readonly name: string; readonly expression: string }>;
  readonly validations: readonly string[];
}

const TEXT = 'abcdefghij'.repeat(100); // 1,000 characters, in the object's data
// Each match costs ceil((1 + 1000) * 0.1) * ceil(4000 * 0.25) = 101,000, plus 3 to select the text.
const REGEX = `'${'a?'.repeat(2000)}'`;
const matches = (n: number) => Array.from({ length: n }, () => `object.data.text.matches(${REGEX})`).join(' && ');
const doubling = (base: string) => [
  { name: 'v0', expression: base },
  ...Array.from({ length: 40 }, (_, i) => ({ name: `v${i + 1}`, expression: `variables.v${i} + variables.v${i}` })),
];

const CASES: readonly CostCase[] = [
  { what: '9 regex matches of a 1,000-character text (909,027)', validations: [matches(9)] },
  { what: '10 regex matches of a 1,000-character text (1,010,030)', validations: [matches(10)] },
  { what: 'lists.range just inside the per-call limit', validations: ['size(lists.range(999980)) > 0'] },
  { what: 'lists.range just outside the per-call limit', validations: ['size(lists.range(1000000)) > 0'] },
  { what: 'a string doubled 40 times', variables: doubling("'ab'"), validations: ['size(variables.v40) > 0'] },
  { what: 'a list doubled 40 times', variables: doubling('[1, 2]'), validations: ['size(variables.v40) > 0'] },
  {
    what: '12 validations of 909,027 each exhaust the binding budget of 10,000,000',
    validations: Array.from({ length: 12 }, () => matches(9)),
  },
];

/** The cost scenarios, numbered from `firstIndex` (their Namespaces are rv<index>). */
export function costScenarios(firstIndex: number): ReviewScenario[] {
  return CASES.map((c, i) => {
    const index = firstIndex + i;
    const namespace = `rv${index}`;
    const name = `${namespace}-cost`;
    return {
      name: `cost #${index}: ${c.what}`,
      namespaces: [{ name: namespace, labels: {} }],
      objects: [],
      policies: [
        {
          apiVersion: V1,
          kind: 'ValidatingAdmissionPolicy',
          metadata: { name },
          spec: {
            failurePolicy: 'Fail',
            matchConstraints: {
              namespaceSelector: { matchExpressions: [{ key: SCOPE_LABEL, operator: 'In', values: [namespace] }] },
              resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
            },
            ...(c.variables ? { variables: c.variables } : {}),
            validations: c.validations.map((expression) => ({ expression, message: 'denied' })),
          },
        },
        { apiVersion: V1, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: `${name}-binding` }, spec: { policyName: name, validationActions: ['Deny'] } },
      ],
      operation: 'CREATE',
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cost', namespace }, data: { text: TEXT } },
    };
  });
}
