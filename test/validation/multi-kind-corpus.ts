/**
 * A corpus of realistic multi-kind policies: the pod-spec policies of typed-corpus.ts, each written
 * once for several workload kinds in the idioms people use to reach the pod spec of whichever
 * kind the request is for (a ternary on the kind, a variable, has() or request.kind tests,
 * variables holding the kind tests, a branch per kind). None may get a warning; with one field
 * misspelled, each gets exactly one.
 */
import { POD_SPEC_POLICIES, validatingPolicy, Workload, WORKLOADS } from './typed-corpus';

const KINDS: Readonly<Record<string, string>> = {
  pods: 'Pod',
  deployments: 'Deployment',
  statefulsets: 'StatefulSet',
  daemonsets: 'DaemonSet',
  replicasets: 'ReplicaSet',
  jobs: 'Job',
  cronjobs: 'CronJob',
};

const byResource = (...resources: string[]) => resources.map((r) => WORKLOADS.find((w) => w.resource === r)!);

/** The kind sets policies are written for, and whether their rules name versions or `*`. */
const KIND_SETS: ReadonlyArray<{ name: string; workloads: readonly Workload[]; version: 'v1' | '*' }> = [
  { name: 'workloads', workloads: WORKLOADS, version: 'v1' },
  { name: 'pods-and-controllers', workloads: byResource('pods', 'deployments', 'statefulsets', 'daemonsets'), version: 'v1' },
  { name: 'batch', workloads: byResource('pods', 'jobs', 'cronjobs'), version: 'v1' },
  { name: 'any-version', workloads: WORKLOADS, version: '*' },
  { name: 'pods-and-deployments', workloads: byResource('pods', 'deployments', 'replicasets'), version: '*' },
];

/** How a policy reaches a pod-spec path (`podSpec` or `podMeta`) of whichever kind it sees. */
type Accessor = (workloads: readonly Workload[], part: 'podSpec' | 'podMeta') => string;

/** The workloads grouped by where the part is, in the order the kinds come. */
function byPath(workloads: readonly Workload[], part: 'podSpec' | 'podMeta'): Array<[string, Workload[]]> {
  const groups = new Map<string, Workload[]>();
  for (const w of workloads) groups.set(w[part], [...(groups.get(w[part]) ?? []), w]);
  return [...groups];
}

/** `subject == 'Pod'`, or `subject in ['Deployment', ...]`, for the kinds of the workloads. */
function kindTest(subject: string, workloads: readonly Workload[]): string {
  const kinds = workloads.map((w) => `'${KINDS[w.resource]}'`);
  return kinds.length === 1 ? `${subject} == ${kinds[0]}` : `${subject} in [${kinds.join(', ')}]`;
}

/** `object.kind == 'Pod' ? <pod's> : object.kind in ['Job', ...] ? <theirs> : <the rest's>`, with `subject` the kind tested. */
function kindTernary(subject: string): Accessor {
  return (workloads, part) => {
    const groups = byPath(workloads, part);
    const last = groups.pop()!;
    const tests = groups.map(([path, ws]) => `${kindTest(subject, ws)} ? ${path} : `);
    return groups.length === 0 ? last[0] : `(${tests.join('')}${last[0]})`;
  };
}

/** `has(object.spec.jobTemplate) ? <cronjob's> : has(object.spec.template) ? <template's> : object.spec`. */
const hasTernary: Accessor = (workloads, part) => {
  const groups = byPath(workloads, part);
  if (groups.length === 1) return groups[0][0];
  const guard = (path: string) => (path.includes('jobTemplate') ? 'has(object.spec.jobTemplate)' : path.includes('template') ? 'has(object.spec.template)' : undefined);
  const ordered = [...groups].sort(([a], [b]) => b.length - a.length); // the deepest path is tested first
  const last = ordered.pop()!;
  return `(${ordered.map(([path]) => `${guard(path)} ? ${path} : `).join('')}${last[0]})`;
};

interface Idiom {
  readonly name: string;
  /**
   * The validation's expression, and the variables it uses. Where the template is written more
   * than once (a branch per kind), `others` is the template of every copy after the first.
   */
  readonly write: (template: string, workloads: readonly Workload[], others?: string) => {
    expression: string; variables?: Array<{ name: string; expression: string }>;
  };
}

const substitute = (template: string, spec: string, meta: string) => template.replace(/\bS\./g, `${spec}.`).replace(/\bM\./g, `${meta}.`);

const IDIOMS: readonly Idiom[] = [
  { name: 'kind-ternary', write: (t, ws) => ({ expression: substitute(t, kindTernary('object.kind')(ws, 'podSpec'), kindTernary('object.kind')(ws, 'podMeta')) }) },
  { name: 'request-kind', write: (t, ws) => ({ expression: substitute(t, kindTernary('request.kind.kind')(ws, 'podSpec'), kindTernary('request.kind.kind')(ws, 'podMeta')) }) },
  { name: 'has-ternary', write: (t, ws) => ({ expression: substitute(t, hasTernary(ws, 'podSpec'), hasTernary(ws, 'podMeta')) }) },
  {
    name: 'variables',
    write: (t, ws) => ({
      expression: substitute(t, 'variables.podSpec', 'variables.podMeta'),
      variables: [
        { name: 'podSpec', expression: kindTernary('object.kind')(ws, 'podSpec') },
        { name: 'podMeta', expression: hasTernary(ws, 'podMeta') },
      ],
    }),
  },
  {
    // variables.isPod ? <pod's> : variables.isCronJob ? <cronjob's> : <the rest's>, each variable a kind test.
    name: 'guard-variables',
    write: (t, ws) => {
      const groups = byPath(ws, 'podSpec');
      const tests = groups.slice(0, -1).map(([, group], i) => ({ name: `guard${i}`, expression: kindTest('object.kind', group) }));
      const pick = (part: 'podSpec' | 'podMeta') => (tests.length === 0 ? groups[0][1][0][part]
        : `(${tests.map((v, i) => `variables.${v.name} ? ${groups[i][1][0][part]} : `).join('')}${groups.at(-1)![1][0][part]})`);
      return { expression: substitute(t, pick('podSpec'), pick('podMeta')), variables: tests };
    },
  },
  {
    // (object.kind == 'Pod' && <for pods>) || (object.kind in [...] && <for those>) || ...
    name: 'branch-per-kind',
    write: (t, ws, others = t) => ({
      expression: byPath(ws, 'podSpec').map(([spec, group], i) => {
        return `(${kindTest('object.kind', group)} && (${substitute(i === 0 ? t : others, spec, group[0].podMeta)}))`;
      }).join(' || '),
    }),
  },
];

export interface MultiKindPolicy {
  readonly name: string;
  readonly manifest: unknown;
  /** The same policy with one field misspelled, and the misspelled name. */
  readonly misspelled: { readonly manifest: unknown; readonly field: string };
}

function manifest(name: string, workloads: readonly Workload[], version: string, written: ReturnType<Idiom['write']>): unknown {
  return validatingPolicy(name, version, workloads, {
    ...(written.variables ? { variables: written.variables } : {}),
    validations: [{ expression: written.expression }],
  });
}

/** The name with its last two letters swapped (its first two, where those are alike). */
export function misspell(field: string): string {
  const swap = (s: string, i: number) => s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
  return field.at(-1) !== field.at(-2) ? swap(field, field.length - 2) : swap(field, 1);
}

/** The template with the first field it selects from the pod spec or metadata (`S.x`, `S.?x`, `M.x`) misspelled. */
function misspelledTemplate(template: string): { template: string; field: string } {
  const m = /\b([SM])\.(\??)([A-Za-z]+)/.exec(template)!;
  const field = misspell(m[3]);
  return { template: template.slice(0, m.index) + `${m[1]}.${m[2]}${field}` + template.slice(m.index + m[0].length), field };
}

export function multiKindPolicies(): MultiKindPolicy[] {
  const out: MultiKindPolicy[] = [];
  for (const [i, [policy, template]] of POD_SPEC_POLICIES.entries()) {
    for (let j = 0; j < 4; j++) {
      const idiom = IDIOMS[(i + j) % IDIOMS.length];
      const set = KIND_SETS[(i + 2 * j) % KIND_SETS.length];
      const name = `${policy}-${idiom.name}-${set.name}`;
      const wrong = misspelledTemplate(template);
      const written = idiom.write(wrong.template, set.workloads, template); // one misspelled field, in the first branch only
      out.push({
        name,
        manifest: manifest(name, set.workloads, set.version, idiom.write(template, set.workloads)),
        misspelled: { manifest: manifest(name, set.workloads, set.version, written), field: wrong.field },
      });
    }
  }
  return out;
}
