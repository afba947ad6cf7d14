/**
 * How validation time grows with the size of one manifest: a ValidatingAdmissionPolicy with N
 * variables, each using the one before it (the worst case for typing `variables.*`), N
 * validations, and a ValidatingWebhookConfiguration with N webhooks, for N and 2N. Linear growth
 * shows as a ratio near 2 between the two sizes; quadratic as 4. Each expression differs (a
 * distinct constant, or variable names distinct per round) so that the caches of compiled
 * expressions and of environments do not hide the work. Best of 5. (16,000 webhooks
 * would be over the apiserver's 3 MiB request limit, an error.)
 *
 *   npx projen bench:validation-scaling
 */
import { ManifestValidator } from '../src';

const G = 'admissionregistration.k8s.io/v1';
const SIZES = [2000, 4000, 8000];
let salt = 0;

const rules = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }];

function policy(spec: object): object {
  return { apiVersion: G, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: rules }, ...spec } };
}

function chainedVariables(n: number): object {
  const s = salt++;
  return policy({
    variables: Array.from({ length: n }, (_, i) => ({ name: `v${s}_${i}`, expression: i === 0 ? `${s}` : `variables.v${s}_${i - 1} + ${i}` })),
    validations: [{ expression: `variables.v${s}_${n - 1} > 0` }],
  });
}

function validations(n: number): object {
  const s = salt++;
  return policy({ validations: Array.from({ length: n }, (_, i) => ({ expression: `object.spec.priority != ${s * 100000 + i}` })) });
}

function webhooks(n: number): object {
  const s = salt++;
  return {
    apiVersion: G,
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'w' },
    webhooks: Array.from({ length: n }, (_, i) => ({
      name: `w${i}.example.com`,
      clientConfig: { service: { namespace: 'hooks', name: 'hook' } },
      rules,
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      matchConditions: [{ name: 'c', expression: `request.namespace != 'ns-${s}-${i}'` }],
    })),
  };
}

function time(build: (n: number) => object, n: number): number {
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const manifest = build(n);
    const start = process.hrtime.bigint();
    const violations = ManifestValidator.validate(manifest);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (violations.some((v) => v.severity === 'error')) throw new Error(`unexpected errors: ${JSON.stringify(violations.slice(0, 2))}`);
    best = Math.min(best, ms);
  }
  return best;
}

for (const [what, build] of [['chained variables', chainedVariables], ['validations', validations], ['webhooks', webhooks]] as const) {
  time(build, 50); // warm-up
  const times = SIZES.map((n) => time(build, n));
  const cells = SIZES.map((n, i) => `${n}: ${times[i].toFixed(0)} ms`).join(', ');
  const ratios = times.slice(1).map((t, i) => (t / times[i]).toFixed(2)).join(', ');
  console.log(`${what.padEnd(18)} ${cells}; ratio per doubling ${ratios}`);
}
