/**
 * Reviews per second of PolicyTester for a realistic policy set (10 validating policies, with
 * params, variables, match conditions and messageExpressions) over a set of objects, against raw
 * evaluation of the same expressions (compiled once, called with the same activations) in the same
 * run. The ratio is what matching, params lookup, decision logic and JSON↔CEL conversion cost.
 * A tester with coverage on (every evaluation traced, branches counted) runs in the same rounds:
 * its ratio to the plain tester is what coverage costs. Best of 5 rounds, rotating the order.
 *
 *   npx projen bench:policy-tester
 */
import { Operation, PolicyTester } from '../src';
import { compileProgram } from '../src/cel/checker';
import { ExpressionField } from '../src/shared/expression-field';
import { toCel } from '../src/testing/cel-runtime';

const ROUNDS = 5;
const OBJECTS = 200;
const REVIEWS_PER_ROUND = 2_000;
const G = 'admissionregistration.k8s.io/v1';

const validations = (i: number) => [
  { expression: `object.spec.replicas <= int(params.data.maxReplicas) + ${i}`, messageExpression: "'too many replicas: ' + string(object.spec.replicas)" },
  { expression: 'object.spec.template.spec.containers.all(c, !c.image.endsWith(":latest"))', message: 'pin images' },
  { expression: 'variables.team != ""', message: 'team label required' },
];

function manifests(): any[] {
  const out: any[] = [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits', namespace: 'params' }, data: { maxReplicas: '5' } }];
  for (let i = 0; i < 10; i++) {
    out.push({
      apiVersion: G,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: `policy-${i}` },
      spec: {
        failurePolicy: 'Fail',
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] },
        matchConditions: [{ name: 'not-system', expression: '!request.userInfo.username.startsWith("system:")' }],
        variables: [{ name: 'team', expression: "has(object.metadata.labels) && 'team' in object.metadata.labels ? object.metadata.labels.team : ''" }],
        validations: validations(i),
      },
    }, {
      apiVersion: G,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: `binding-${i}` },
      spec: { policyName: `policy-${i}`, validationActions: ['Deny'], paramRef: { name: 'limits', namespace: 'params', parameterNotFoundAction: 'Deny' } },
    });
  }
  return out;
}

function objects(): any[] {
  return Array.from({ length: OBJECTS }, (_, i) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `web-${i}`, namespace: `team-${i % 7}`, labels: i % 3 === 0 ? {} : { team: `t${i % 5}` } },
    spec: { replicas: i % 9, template: { spec: { containers: [{ name: 'app', image: i % 4 === 0 ? 'app:latest' : `app:1.${i}` }] } } },
  }));
}

function time(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const tester = PolicyTester.fromManifests(manifests());
const covering = PolicyTester.fromManifests(manifests(), { coverage: true });
const samples = objects();

// The raw baseline: the same expressions, compiled once, evaluated with prebuilt activations.
const params = toCel(manifests()[0]);
const raw = Array.from({ length: 10 }, (_, i) => validations(i)).flat().map((v) => v.expression)
  .map((expression) => compileProgram(expression.replace('variables.team', '(has(object.metadata.labels) && "team" in object.metadata.labels ? object.metadata.labels.team : "")'),
    { field: ExpressionField.VALIDATION, hasParams: true, variables: [], minor: 36 }).program!);
const condition = compileProgram('!request.userInfo.username.startsWith("system:")', { field: ExpressionField.MATCH_CONDITION, hasParams: true, variables: [], minor: 36 }).program!;
const activations = samples.map((o) => ({ object: toCel(o), oldObject: null, namespaceObject: null, params, request: { userInfo: { username: 'alice', groups: [] } } }));

const runTester = () => {
  for (let i = 0; i < REVIEWS_PER_ROUND; i++) tester.review({ operation: Operation.CREATE, object: samples[i % OBJECTS] });
};
const runCovering = () => {
  for (let i = 0; i < REVIEWS_PER_ROUND; i++) covering.review({ operation: Operation.CREATE, object: samples[i % OBJECTS] });
};
const runRaw = () => {
  for (let i = 0; i < REVIEWS_PER_ROUND; i++) {
    const activation = activations[i % OBJECTS];
    for (let p = 0; p < 10; p++) {
      if (condition(activation) !== true) continue;
      for (let v = 0; v < 3; v++) raw[p * 3 + v](activation);
    }
  }
};

const runs = { tester: runTester, covering: runCovering, raw: runRaw };
type Run = keyof typeof runs;
const names = Object.keys(runs) as Run[];
for (const name of names) runs[name]();
const best: Record<Run, number> = { tester: Infinity, covering: Infinity, raw: Infinity };
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < names.length; k++) {
    const which = names[(round + k) % names.length];
    best[which] = Math.min(best[which], time(runs[which]));
  }
}
const perSecond = (ms: number) => Math.round(REVIEWS_PER_ROUND / (ms / 1000));
console.log(`PolicyTester: ${REVIEWS_PER_ROUND} reviews of 10 policies (params, variables, match conditions), best of ${ROUNDS}`);
console.log(`  PolicyTester.review     ${best.tester.toFixed(1)} ms  ${perSecond(best.tester)} reviews/s`);
console.log(`  raw CEL evaluation      ${best.raw.toFixed(1)} ms  ${perSecond(best.raw)} reviews/s`);
console.log(`  ratio                   ${(best.tester / best.raw).toFixed(2)}x`);
console.log(`  with coverage on        ${best.covering.toFixed(1)} ms  ${perSecond(best.covering)} reviews/s  (${(best.covering / best.tester).toFixed(2)}x the tester's time)`);
