/**
 * Apply configurations' `Object{...}` literals, against the real apiserver: the library warns at
 * synth when a literal has a field the object's schema lacks, a value of another type, or a nested
 * literal not named by its field path; the apiserver accepts such policies and denies the request
 * when one runs (server-side apply: `field not declared in schema`, `expected string, got ...`;
 * the dynamic type resolver: `type mismatch: unexpected type name`). Each case is a
 * MutatingAdmissionPolicy on Deployments (matched by the Deployment's name) whose literal is built
 * from the Deployment schema along a random path of fields, then changed or not; the verdict
 * compared is "the library warns" against "the apiserver denies the dry-run create".
 */
import { KubernetesVersion, ManifestValidator } from '../../../../src';
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';
import { builtinObjectTypes, CelObjectTypes } from '../../../../src/schemas/cel-object-types';
import { seededRandom } from '../../generators/seeded-random';
import { Oracle } from '../../oracle/oracle';
import { CaseOutcome } from '../../outcomes/suite-result';

const NAMESPACE = 'apply-literals';
type Change = 'none' | 'unknown field' | 'wrong type' | 'misnamed literal';
const CHANGES: readonly Change[] = ['none', 'unknown field', 'wrong type', 'misnamed literal'];

interface LiteralCase {
  readonly name: string;
  readonly change: Change;
  readonly expression: string;
}

/** A value of a scalar type, and one of another. */
const VALUES: Record<string, [string, string]> = {
  string: ["'x'", '7'],
  int: ['2', "'two'"],
  bool: ['true', "'yes'"],
  double: ['1.5', "'half'"],
};

/** Fields the apiserver sets or checks on its own, whose literal would be refused for other reasons. */
const AVOID = new Set(['status', 'apiVersion', 'kind', 'metadata', 'selector', 'name', 'namespace', 'uid', 'resourceVersion', 'generation']);

function literalFor(types: CelObjectTypes, rnd: () => number, change: Change): string | undefined {
  const steps: Array<{ typeName: string; field: string; list: boolean }> = [];
  let type = types.root;
  for (let depth = 0; depth < 5; depth++) {
    const fields = types.types.get(type)!;
    const names = Object.keys(fields).filter((f) => !AVOID.has(f) && /^[a-z][A-Za-z]*$/.test(f));
    const messages = names.filter((f) => types.types.has(elementOf(fields[f])));
    const scalars = names.filter((f) => VALUES[fields[f]] !== undefined);
    const path = ['Object', ...steps.map((s) => s.field)].join('.');
    if ((rnd() < 0.35 || messages.length === 0) && scalars.length > 0) {
      const field = scalars[Math.floor(rnd() * scalars.length)];
      const [good, bad] = VALUES[fields[field]];
      let leaf = `${path}{${field}: ${good}}`;
      if (change === 'unknown field') leaf = `${path}{${field}x: ${good}}`;
      if (change === 'wrong type') leaf = `${path}{${field}: ${bad}}`;
      return wrap(leaf, steps, change);
    }
    if (messages.length === 0) return undefined;
    const field = messages[Math.floor(rnd() * messages.length)];
    steps.push({ typeName: path, field, list: fields[field].startsWith('list<') });
    type = elementOf(fields[field]);
  }
  return undefined;
}

/** Nests `leaf` in the literals of the path to it, each named by its field path (but one, for a misnamed literal). */
function wrap(leaf: string, steps: ReadonlyArray<{ typeName: string; field: string; list: boolean }>, change: Change): string | undefined {
  if (change === 'misnamed literal' && steps.length === 0) return undefined;
  let inner = leaf;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    if (change === 'misnamed literal' && i === steps.length - 1) inner = inner.replace(/^Object[\w.]*\{/, `${step.typeName}{`);
    inner = `${step.typeName}{${step.field}: ${step.list ? `[${inner}]` : inner}}`;
  }
  return inner;
}

function elementOf(type: string): string {
  const m = /^(?:list<(.*)>|map<string, (.*)>)$/.exec(type);
  return m ? elementOf(m[1] ?? m[2]) : type;
}

export function applyLiteralCases(count: number, seed: number, schemas: BuiltinSchemas): LiteralCase[] {
  const types = builtinObjectTypes(schemas, 'io.k8s.api.apps.v1.Deployment');
  const rnd = seededRandom(seed);
  const out: LiteralCase[] = [];
  const seen = new Set<string>();
  for (let attempts = 0; out.length < count && attempts < count * 20; attempts++) {
    const change = CHANGES[out.length % CHANGES.length];
    const expression = literalFor(types, rnd, change);
    if (!expression || seen.has(expression)) continue;
    seen.add(expression);
    out.push({ name: `apply-literal-${out.length}`, change, expression });
  }
  return out;
}

function policyOf(c: LiteralCase): { policy: any; binding: any } {
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicy',
    metadata: { name: c.name },
    spec: {
      matchConstraints: {
        resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], operations: ['CREATE'] }],
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': NAMESPACE } },
      },
      failurePolicy: 'Fail',
      reinvocationPolicy: 'Never',
      matchConditions: [{ name: 'this-case', expression: `object.metadata.name == '${c.name}'` }],
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: c.expression } }],
    },
  };
  const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: c.name }, spec: { policyName: c.name } };
  return { policy, binding };
}

/** The MAP errors that come from the literal itself (not from the patched object's validation). */
const LITERAL_DENIAL = /field not declared in schema|expected (?:numeric|string|bool|map|list)|type mismatch: unexpected type name|cannot convert/;

export async function applyLiteralOutcomes(oracle: Oracle, cases: readonly LiteralCase[], version: KubernetesVersion): Promise<CaseOutcome[]> {
  await oracle.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  for (const c of cases) {
    const { policy, binding } = policyOf(c);
    const created = await oracle.request('POST', '/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies', policy);
    if (created.status >= 300) throw new Error(`creating ${c.name}: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
    await oracle.request('POST', '/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings', binding);
  }
  // The policy informer picks new policies up asynchronously.
  await new Promise((r) => setTimeout(r, 3000));
  const outcomes: CaseOutcome[] = [];
  for (const c of cases) {
    const warnings = ManifestValidator.validate(policyOf(c).policy, { kubernetesVersion: version })
      .filter((v) => v.message.includes('type checking against')).map((v) => v.message);
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: c.name, namespace: NAMESPACE },
      spec: { replicas: 1, selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
    };
    const res = await oracle.request('POST', `/apis/apps/v1/namespaces/${NAMESPACE}/deployments?dryRun=All`, deployment);
    const message: string = typeof res.body?.message === 'string' ? res.body.message : '';
    const denied = res.status >= 400 && LITERAL_DENIAL.test(message);
    outcomes.push({
      name: `apply literal (${c.change}): ${c.expression}`,
      apiserverAccepted: !denied,
      verdictAgrees: denied === (warnings.length > 0),
      library: warnings.length > 0 ? `warns: ${warnings[0].replace(/^.*?type checking against /, '')}` : 'no warning',
      apiserver: res.status < 300 ? 'applied' : `${res.status}: ${message.slice(0, 300)}`,
    });
  }
  return outcomes;
}
