/**
 * The cost of narrowing (src/cel/kind-narrowing.ts) against the typed check it comes before, in
 * one run: for every expression of the multi-kind corpus (test/validation/multi-kind-corpus.ts)
 * and every kind its rules match, the expression as the kind sees it, and, as the baseline, the
 * typed compile of the expression against that kind (parse, check and validators, uncached).
 * Prints both times per expression and kind and their ratio.
 *
 *   npx projen bench:kind-narrowing
 */
import { compileProgram } from '../src/cel/checker';
import { KindNarrowing } from '../src/cel/kind-narrowing';
import { KubernetesVersion } from '../src/kubernetes-version';
import { ExpressionField } from '../src/shared/expression-field';
import { policyTypes } from '../src/validation/policy-types';
import { multiKindPolicies } from '../test/validation/multi-kind-corpus';

const ROUNDS = 5;
const MINOR = KubernetesVersion.V1_37.minor;

const cases = multiKindPolicies().map(({ manifest }) => {
  const spec = (manifest as { spec: { validations: Array<{ expression: string }>; variables?: Array<{ expression: string }> } }).spec;
  const types = policyTypes(spec as never, KubernetesVersion.V1_37)!;
  // The pod-spec expressions only: the validations of the variables idiom need the variables declared.
  const expression = spec.variables ? spec.variables[0].expression : spec.validations[0].expression;
  return { expression, objects: types.objects };
});
const checks = cases.reduce((n, c) => n + c.objects.length, 0);

function narrowAll(): void {
  for (const { expression, objects } of cases) {
    const kinds = objects.map((o) => ({ label: o.label, request: o.request, types: o.resource.types, key: o.resource.key }));
    const narrowing = new KindNarrowing(expression, MINOR, kinds);
    objects.forEach((_, i) => narrowing.forKind(i));
  }
}

function typedCompileAll(): void {
  for (const { expression, objects } of cases) {
    for (const o of objects) {
      compileProgram(expression, { field: ExpressionField.VARIABLE, hasParams: false, variables: [], minor: MINOR, objectType: o.resource });
    }
  }
}

function time(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

narrowAll();
typedCompileAll(); // warm-up: environments and schemas built once
const narrowing: number[] = [];
const compiling: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  narrowing.push(time(narrowAll));
  compiling.push(time(typedCompileAll));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const perCheck = (ms: number) => `${((ms * 1000) / checks).toFixed(1)} µs`;
console.log(`${cases.length} expressions, ${checks} (expression, kind) checks, median of ${ROUNDS} rounds`);
console.log(`narrowing:     ${perCheck(median(narrowing))} per check`);
console.log(`typed compile: ${perCheck(median(compiling))} per check (baseline)`);
console.log(`ratio:         ${(median(narrowing) / median(compiling)).toFixed(2)}`);
