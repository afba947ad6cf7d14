/**
 * The matching suite: whether a policy or binding the library warns "matches nothing" (or "never
 * acts") indeed never acts, and one it does not say so of does. Every case is a
 * ValidatingAdmissionPolicy with one include rule (for some, an exclude rule or a
 * namespaceSelector) and a validation that always fails, and its binding (for some, with
 * matchResources), bound with `Warn` so that every policy that acts on a request says so in a
 * warning of its own. All are installed at once; then every target object is sent as a dry-run
 * create, and a CONNECT request to every connect subresource, and the warnings say which policies
 * acted on which request.
 *
 * The library's side is ManifestValidator.validateAll on the same policy and binding: a warning at
 * the include rule's resource entry, at the policy's excludeResourceRules or at the binding's
 * matchResources rules is its claim that nothing acts; a warning at an exclude rule's entry (the
 * exclusion excludes nothing) or at a namespaceSelector (it has no effect) leaves the policy acting.
 */
import { connectCases, connectTargets, DrawnRule, MatchCase, matchCases, matchTargets, MatchTarget } from './cases';
import { subresourceOutcomes } from './subresources';
import { KubernetesVersion, ManifestValidator, ViolationSeverity } from '../../../../src';
import { BuiltinSchemas } from '../../../../src/schemas/builtin-schemas';
import { mapConcurrently } from '../../oracle/map-concurrently';
import { Oracle } from '../../oracle/oracle';
import { CaseOutcome, SuiteResult } from '../../outcomes/suite-result';
import { percent } from '../../outcomes/table';

const NAMESPACE = 'matching';
const PREFIX = 'matching-';
const CONCURRENCY = 8;
/** The object a CONNECT request names: none of that name exists. */
const CONNECT_NAME = 'absent';
/** The options a connect subresource's request needs to decode, which happens before admission. */
const CONNECT_OPTIONS: Record<string, string> = { exec: '?command=true&stdout=true', attach: '?stdout=true', portforward: '?ports=80' };
/**
 * Rounds of requests, a second apart: at least MIN_ROUNDS (policies load one by one, so a policy
 * that has not acted yet gets more chances), and until every policy expected to act has acted, or
 * MAX_ROUNDS.
 */
const MIN_ROUNDS = 3;
const MAX_ROUNDS = 60;

const rule = (r: DrawnRule) => ({ apiGroups: r.apiGroups, apiVersions: ['*'], operations: r.operations ?? ['CREATE'], resources: r.resources });

/** The case's policy and its binding, which warns when the policy acts. */
export function manifestsOf(c: MatchCase, name: string): [any, any] {
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: [rule(c.rule)],
        ...(c.exclude ? { excludeResourceRules: [rule(c.exclude)] } : {}),
        ...(c.namespaceSelector ? { namespaceSelector: c.namespaceSelector } : {}),
      },
      ...(c.matchConditions ? { matchConditions: c.matchConditions.map((expression, i) => ({ name: `c${i}`, expression })) } : {}),
      validations: [{ expression: 'false', message: name }],
    },
  };
  const matchResources = c.binding ? {
    ...(c.binding.include ? { resourceRules: [rule(c.binding.include)] } : {}),
    ...(c.binding.exclude ? { excludeResourceRules: [rule(c.binding.exclude)] } : {}),
  } : undefined;
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName: name, validationActions: ['Warn'], ...(matchResources ? { matchResources } : {}) },
  };
  return [policy, binding];
}

/** The warnings that say a policy or binding matches nothing (or a part of it does), by their paths. */
const REACH = /(ResourceRules(\[\d+\]\.(resources\[\d+\]|operations(\[\d+\])?))?|namespaceSelector|matchConditions\[\d+\]\.expression)$/i;
/** At a match condition, the warnings of its reach (not those of type checking). */
const CONDITION_REACH = /^is (true|false) for every/;
/** Of those, the ones that say the policy or the binding never acts (the rule's operations without an index: CONNECT its only one, and nothing receives it). */
const NEVER_ACTS = /^(spec\.matchConstraints\.resourceRules\[\d+\]\.(resources\[\d+\]|operations)|spec\.matchConstraints\.excludeResourceRules|spec\.matchResources\.(resourceRules|excludeResourceRules)): |^spec\.matchConditions\[\d+\]\.expression: is false for every/;

/** The library's claim: whether the policy acts on its target through its binding, and the warnings behind it. */
export function libraryClaim(manifests: readonly any[], version: KubernetesVersion): { acts: boolean; warnings: string[] } {
  const warnings = ManifestValidator.validateAll([...manifests], { kubernetesVersion: version })
    .filter((v) => v.severity === ViolationSeverity.WARNING && REACH.test(v.path) && (!v.path.includes('matchConditions') || CONDITION_REACH.test(v.message)))
    .map((v) => `${v.path}: ${v.message}`);
  return { acts: !warnings.some((w) => NEVER_ACTS.test(w)), warnings };
}

function urlOf(target: MatchTarget): string {
  const version = target.object.apiVersion.includes('/') ? target.object.apiVersion.split('/', 2)[1] : target.object.apiVersion;
  const base = target.group === '' ? `/api/${version}` : `/apis/${target.group}/${version}`;
  return `${base}${target.namespaced ? `/namespaces/${NAMESPACE}` : ''}/${target.resource}`;
}

/** Which policies acted on each target (by the names in their Warn warnings), or why a target could not be sent. */
async function actedOn(oracle: Oracle, targets: readonly MatchTarget[]): Promise<Map<MatchTarget, Set<string> | string>> {
  const out = new Map<MatchTarget, Set<string> | string>();
  await mapConcurrently(targets, CONCURRENCY, async (target) => {
    if (target.connect !== undefined) {
      // The object does not exist: the apiserver runs admission before it looks the object up
      // (rest.go: ConnectResource), so the request fails after the policies have acted.
      const res = await oracle.request('POST', `${urlOf(target)}/${CONNECT_NAME}/${target.connect}${CONNECT_OPTIONS[target.connect] ?? ''}`);
      out.set(target, policiesThatWarned(res.warnings));
      return;
    }
    const object = target.namespaced ? { ...target.object, metadata: { ...target.object.metadata, namespace: NAMESPACE } } : target.object;
    const res = await oracle.request('POST', `${urlOf(target)}?dryRun=All`, object);
    if (res.status >= 300) {
      out.set(target, `${res.status} ${res.body?.message ?? ''}`.slice(0, 200));
      return;
    }
    out.set(target, policiesThatWarned(res.warnings));
  });
  return out;
}

/** The suite's policies whose Warn warnings a response carries. */
function policiesThatWarned(warnings: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const w of warnings) {
    const m = /ValidatingAdmissionPolicy '([^']+)'/.exec(w);
    if (m && m[1].startsWith(PREFIX)) names.add(m[1]);
  }
  return names;
}

export async function runMatchingSuite(oracle: Oracle, seed: number, version: KubernetesVersion): Promise<SuiteResult> {
  const schemas = BuiltinSchemas.of(version.minor);
  const objects = matchTargets(schemas);
  const connects = connectTargets((await oracle.request('GET', '/openapi/v2')).body);
  const targets = [...objects, ...connects];
  const cases = [...matchCases(objects, schemas, seed), ...connectCases(connects)];
  const named = cases.map((c, i) => ({ c, name: `${PREFIX}${i}`, manifests: manifestsOf(c, `${PREFIX}${i}`) }));
  const created: string[] = [];
  const create = async (url: string, body: any) => {
    const res = await oracle.request('POST', url, body);
    if (res.status >= 300) throw new Error(`matching suite: cannot create ${body.kind} ${body.metadata.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    created.unshift(`${url}/${body.metadata.name}`);
  };
  const acted = new Map<string, Set<string>>(named.map(({ name }) => [name, new Set()]));
  const unsent = new Map<MatchTarget, string>();
  try {
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    // The oracle runs no controller that would create the `default` ServiceAccount a Pod needs.
    await create(`/api/v1/namespaces/${NAMESPACE}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    for (const { manifests: [policy, binding] } of named) {
      await create('/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', policy);
      await create('/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', binding);
    }
    const expectedToAct = named.filter(({ manifests }) => libraryClaim(manifests, version).acts);
    for (let round = 1; ; round++) {
      for (const [target, result] of await actedOn(oracle, targets)) {
        if (typeof result === 'string') {
          unsent.set(target, result);
          continue;
        }
        unsent.delete(target);
        for (const name of result) acted.get(name)?.add(target.kind);
      }
      const pending = expectedToAct.filter(({ name, c }) => !acted.get(name)!.has(c.target.kind) && !unsent.has(c.target));
      if (round >= MIN_ROUNDS && (pending.length === 0 || round >= MAX_ROUNDS)) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    for (const url of created) await oracle.request('DELETE', url);
  }
  const outcomes: CaseOutcome[] = [];
  const notSent: string[] = [];
  for (const { c, name, manifests } of named) {
    if (unsent.has(c.target)) {
      notSent.push(`${c.target.kind}: ${unsent.get(c.target)}`);
      continue;
    }
    const claim = libraryClaim(manifests, version);
    const kinds = [...acted.get(name)!].sort();
    const actsOnTarget = kinds.includes(c.target.kind);
    const drawn = (r: DrawnRule) => `${JSON.stringify(r.apiGroups)} ${JSON.stringify(r.resources)}${r.operations ? ` ${JSON.stringify(r.operations)}` : ''}`;
    const parts = [drawn(c.rule), ...(c.exclude ? [`excluding ${drawn(c.exclude)}`] : []), ...(c.namespaceSelector ? ['with a namespaceSelector'] : []),
      ...(c.matchConditions ? [`when ${c.matchConditions.join(' and ')}`] : []),
      ...(c.binding?.include ? [`binding ${drawn(c.binding.include)}`] : []), ...(c.binding?.exclude ? [`binding excluding ${drawn(c.binding.exclude)}`] : [])];
    outcomes.push({
      name: `${c.variant}: ${parts.join(', ')} (target ${c.target.kind})`,
      apiserverAccepted: true,
      // A policy the library says never matches acts on nothing; one it says matches acts on its target.
      verdictAgrees: claim.acts ? actsOnTarget : kinds.length === 0,
      library: `${claim.acts ? 'acts on its target' : 'acts on nothing'}${claim.warnings.length ? `: ${claim.warnings.join('; ')}` : ''}`,
      apiserver: kinds.length === 0 ? 'acted on nothing' : `acted on ${kinds.join(', ')}`,
    });
  }
  const subresources = await subresourceOutcomes(oracle, version.minor);
  outcomes.push(...subresources);
  const agree = outcomes.filter((o) => o.verdictAgrees).length;
  const policies = outcomes.filter((o) => !subresources.includes(o));
  const neverActing = policies.filter((o) => o.library.startsWith('acts on nothing'));
  return {
    suite: 'matching',
    outcomes,
    rows: [
      ['policies installed with their bindings (target objects sent)', `${named.length} (${targets.length - new Set(notSent).size})`],
      ['  warned that they never act, and acted on nothing', `${neverActing.filter((o) => o.verdictAgrees).length}/${neverActing.length}`],
      ['  not so warned, and acted on their target', `${policies.filter((o) => !neverActing.includes(o) && o.verdictAgrees).length}/${policies.length - neverActing.length}`],
      ['subresources in the apiserver\'s discovery the library knows', `${subresources.filter((o) => o.verdictAgrees).length}/${subresources.length}`],
      ['agree', `${agree}/${outcomes.length} (${percent(agree, outcomes.length)})`],
    ],
    notes: [...new Set(notSent)].map((n) => `not sent (the apiserver refused the object before admission): ${n}`),
  };
}
