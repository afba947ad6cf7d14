/**
 * The generated review scenarios (scenario.ts). Scenario `i` lives in its own Namespace `rv<i>`
 * (and `rv<i>-params`), and every policy it installs is scoped to that Namespace by its
 * `matchConstraints.namespaceSelector`. The library is given exactly the manifests the apiserver
 * is, scoping included.
 *
 * The generated scenarios are drawn from templates (fast-check, seeded): validating policies with
 * params by name and by selector (found, missing, Allow/Deny), match conditions, namespace and
 * object selectors, exclusions, failure policies, validation actions, messages and message
 * expressions, variables and audit annotations; mutating policies with apply configurations and
 * JSON patches (failing `test` operations, missing paths, reinvocation); requests around each
 * rule's boundary, made as different users.
 */
import * as fc from 'fast-check';
import { Operation, ReviewScenario, ScenarioUser, SCOPE_LABEL } from './scenario';

const V1 = 'admissionregistration.k8s.io/v1';

/** The pieces a validation may need: params, variables, a non-null object. */
interface Piece {
  readonly needsParams?: boolean;
  readonly needsVariable?: string;
}

interface ValidationTemplate extends Piece {
  readonly expression: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly reason?: string;
}

const VALIDATIONS: readonly ValidationTemplate[] = [
  { expression: "!has(object.data) || !('forbidden' in object.data)", message: 'the key forbidden is not allowed' },
  { expression: 'int(object.data.replicas) <= 3', messageExpression: "'replicas ' + object.data.replicas + ' is more than 3'" },
  { expression: "object.metadata.labels.app == 'web'", reason: 'Forbidden' },
  { expression: "has(object.metadata.labels) && 'app' in object.metadata.labels", message: '  an app label is required  ' },
  { expression: "request.userInfo.username != 'bob'", messageExpression: "'user ' + request.userInfo.username + ' may not change configmaps'" },
  { expression: "object.data.all(k, k.startsWith('k'))", messageExpression: "''", message: 'every key starts with k' },
  { expression: "request.operation != 'DELETE' || oldObject.metadata.labels.tier != 'protected'", reason: 'Forbidden', message: 'protected' },
  { expression: "authorizer.group('apps').resource('deployments').namespace(request.namespace).check('create').allowed()", message: 'only deployers' },
  { expression: "namespaceObject.metadata.labels.env != 'prod' || has(object.metadata.labels.owner)", messageExpression: "'in ' + namespaceObject.metadata.name + ' an owner is required'", reason: 'Forbidden' },
  { expression: 'object.metadata.name.size() < 6', messageExpression: "'name ' + object.metadata.name + '\\nis too long'" },
  { expression: 'oldObject == null || object == null || object.data == oldObject.data', message: 'data is immutable', reason: 'RequestEntityTooLarge' },
  { expression: 'object.data.size() <= int(params.data.maxKeys)', messageExpression: "'at most ' + params.data.maxKeys + ' keys'", needsParams: true },
  { expression: '!(params.data.forbiddenName == object.metadata.name)', needsParams: true, message: 'name taken' },
  { expression: 'params == null || params.data.mode != "deny"', needsParams: true, messageExpression: 'string(params.metadata.name) + " denies"' },
  { expression: 'variables.keys <= 2', messageExpression: "'too many keys: ' + string(variables.keys)", needsVariable: 'keys' },
  { expression: "variables.app != 'blocked'", messageExpression: "'app ' + variables.app + ' is blocked'", needsVariable: 'app' },
  { expression: "object.data.replicas.matches('^[0-9]+$')", message: 'replicas is a number' },
  { expression: 'request.dryRun == true', message: 'only dry runs' },
];

interface VariableTemplate {
  readonly name: string;
  readonly expression: string;
}

const VARIABLES: readonly VariableTemplate[] = [
  { name: 'keys', expression: 'object == null || !has(object.data) ? 0 : object.data.size()' },
  { name: 'app', expression: 'object.metadata.labels.app' },
];

const MATCH_CONDITIONS: ReadonlyArray<{ readonly name: string; readonly expression: string } & Piece> = [
  { name: 'not-delete', expression: "request.operation != 'DELETE'" },
  { name: 'has-app', expression: "has(object.metadata.labels) && 'app' in object.metadata.labels" },
  { name: 'not-alice', expression: "request.userInfo.username != 'alice'" },
  { name: 'errors-without-tier', expression: "object.metadata.labels.tier != 'skip'" },
  { name: 'params-enabled', expression: "params.data.enabled == 'true'", needsParams: true },
];

const AUDIT_ANNOTATIONS: ReadonlyArray<{ readonly key: string; readonly valueExpression: string } & Piece> = [
  { key: 'name', valueExpression: "'configmap ' + object.metadata.name" },
  { key: 'app', valueExpression: "has(object.metadata.labels) && 'app' in object.metadata.labels ? string(object.metadata.labels.app) : ''" },
  { key: 'none', valueExpression: 'null' },
  { key: 'blank', valueExpression: "'   '" },
  { key: 'replicas', valueExpression: "'replicas=' + object.data.replicas" },
  { key: 'mode', valueExpression: "params == null ? 'no-params' : string(params.data.mode)", needsParams: true },
];

interface MutationTemplate extends Piece {
  readonly patchType: 'ApplyConfiguration' | 'JSONPatch';
  readonly expression: string;
}

export const MUTATIONS: readonly MutationTemplate[] = [
  { patchType: 'ApplyConfiguration', expression: "Object{metadata: Object.metadata{labels: {'mutated': 'yes'}}}" },
  { patchType: 'ApplyConfiguration', expression: "Object{data: {'added': 'by-policy'}}" },
  { patchType: 'ApplyConfiguration', expression: "Object{data: {'replicas': '5'}}" },
  { patchType: 'ApplyConfiguration', expression: "has(object.data) && 'k1' in object.data ? Object{data: {'k1': object.data.k1 + '-x'}} : Object{}" },
  { patchType: 'ApplyConfiguration', expression: "Object{metadata: Object.metadata{annotations: {'seen-by': request.userInfo.username}}}" },
  { patchType: 'ApplyConfiguration', expression: "Object{metadata: Object.metadata{labels: {'team': params.data.team}}}", needsParams: true },
  { patchType: 'ApplyConfiguration', expression: "has(object.metadata.labels) && 'mutated' in object.metadata.labels ? Object{data: {'saw-mutated': 'true'}} : Object{}" },
  // A nested literal named by another path than its field's: the apiserver refuses the result (type mismatch).
  { patchType: 'ApplyConfiguration', expression: "Object{metadata: Object.metadatax{labels: {'mutated': 'yes'}}}" },
  { patchType: 'JSONPatch', expression: "[JSONPatch{op: 'add', path: '/metadata/labels/patched', value: 'yes'}]" },
  { patchType: 'JSONPatch', expression: "[JSONPatch{op: 'replace', path: '/data/k1', value: 'replaced'}]" },
  { patchType: 'JSONPatch', expression: "[JSONPatch{op: 'test', path: '/data/k1', value: 'v1'}, JSONPatch{op: 'add', path: '/data/tested', value: 'ok'}]" },
  { patchType: 'JSONPatch', expression: "[JSONPatch{op: 'remove', path: '/data/forbidden'}]" },
  { patchType: 'JSONPatch', expression: "[JSONPatch{op: 'add', path: '/data', value: {'fresh': 'map'}}]" },
  { patchType: 'JSONPatch', expression: "[JSONPatch{op: 'copy', from: '/metadata/name', path: '/data/name-copy'}]" },
  { patchType: 'JSONPatch', expression: "[JSONPatch{op: 'move', from: '/data/k2', path: '/data/k2-moved'}]" },
  { patchType: 'JSONPatch', expression: "[JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('example.com/x'), value: 'escaped'}]" },
  { patchType: 'JSONPatch', expression: "has(object.data) && 'replicas' in object.data ? [JSONPatch{op: 'replace', path: '/data/replicas', value: string(int(object.data.replicas) + 1)}] : []" },
  { patchType: 'JSONPatch', expression: "[JSONPatch{op: 'add', path: '/data/mode', value: params.data.mode}]", needsParams: true },
];

const LABEL_VALUES = ['web', 'db', 'blocked'];
const DATA_KEYS = ['k1', 'k2', 'replicas', 'forbidden', 'other'];
const DATA_VALUES: Record<string, readonly string[]> = {
  k1: ['v1', 'v2'], k2: ['x'], replicas: ['2', '3', '4', 'many'], forbidden: ['yes'], other: ['o'],
};

const labelsArb = fc.record({
  app: fc.option(fc.constantFrom(...LABEL_VALUES), { nil: undefined }),
  tier: fc.option(fc.constantFrom('protected', 'skip', 'front'), { nil: undefined }),
  owner: fc.option(fc.constant('me'), { nil: undefined }),
}, { requiredKeys: [] });

// Never empty: the apiserver decodes `data: {}` of a ConfigMap as no data (omitempty), the tester keeps it.
const dataArb = fc.option(fc.subarray(DATA_KEYS, { minLength: 1 }).chain((keys) =>
  fc.tuple(...keys.map((k) => fc.constantFrom(...DATA_VALUES[k]))).map((values) =>
    Object.fromEntries(keys.map((k, i) => [k, values[i]])))), { nil: undefined, freq: 6 });

const configMapArb = fc.record({
  name: fc.constantFrom('cm', 'config', 'settings-long'),
  labels: fc.option(labelsArb, { nil: undefined, freq: 4 }),
  data: dataArb,
});

const paramsArb = fc.record({
  ref: fc.constantFrom('none', 'byName', 'byMissingName', 'bySelector', 'bySelectorNone', 'inParamsNamespace'),
  notFound: fc.constantFrom(undefined, 'Allow', 'Deny'),
  maxKeys: fc.constantFrom('1', '2', '3', 'x'),
  mode: fc.constantFrom('deny', 'allow'),
  team: fc.option(fc.constant('blue'), { nil: undefined }),
  enabled: fc.constantFrom('true', 'false'),
  second: fc.boolean(),
});

/** `arbitrary` one time in `1 + absent`, else undefined: the narrowing parts of a match are the exception. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, absent = 3): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

const matchArb = fc.record({
  operations: fc.constantFrom<string[]>(['*'], ['*'], ['CREATE', 'UPDATE'], ['CREATE'], ['UPDATE', 'DELETE'], ['DELETE']),
  namespaceEnv: sometimes(fc.constantFrom('prod', 'dev')),
  objectSelector: sometimes(fc.constantFrom('app-exists', 'app-web', 'tier-not-protected')),
  excludeName: sometimes(fc.constantFrom('cm', 'config'), 6),
  resourceNames: sometimes(fc.constantFrom(['cm'], ['config', 'settings-long']), 6),
});

const validatingArb = fc.record({
  match: matchArb,
  bindingMatch: sometimes(matchArb),
  failurePolicy: fc.constantFrom(undefined, 'Fail', 'Fail', 'Ignore'),
  params: fc.option(paramsArb, { nil: undefined, freq: 2 }),
  validations: fc.subarray([...VALIDATIONS.keys()], { minLength: 1, maxLength: 3 }),
  variables: fc.subarray([...VARIABLES.keys()]),
  conditions: fc.oneof(
    { weight: 3, arbitrary: fc.constant<number[]>([]) },
    { weight: 2, arbitrary: fc.subarray([...MATCH_CONDITIONS.keys()], { maxLength: 2 }) },
  ),
  annotations: fc.subarray([...AUDIT_ANNOTATIONS.keys()], { maxLength: 2 }),
  actions: fc.constantFrom(['Deny'], ['Deny'], ['Deny'], ['Warn'], ['Audit'], ['Warn', 'Audit'], ['Deny', 'Audit']),
  secondBinding: fc.boolean(),
});

const mutatingArb = fc.record({
  // Mutating policies do not match DELETE.
  match: matchArb.map((m) => ({ ...m, operations: m.operations.includes('DELETE') ? ['CREATE', 'UPDATE'] : m.operations })),
  failurePolicy: fc.constantFrom(undefined, 'Fail', 'Ignore'),
  params: fc.option(paramsArb, { nil: undefined, freq: 3 }),
  mutations: fc.subarray([...MUTATIONS.keys()], { minLength: 1, maxLength: 3 }).chain((m) => fc.shuffledSubarray(m, { minLength: m.length })),
  conditions: fc.subarray([...MATCH_CONDITIONS.keys()], { maxLength: 1 }),
  reinvocation: fc.constantFrom('Never', 'IfNeeded'),
});

const scenarioArb = fc.record({
  operation: fc.constantFrom<Operation>('CREATE', 'CREATE', 'CREATE', 'UPDATE', 'UPDATE', 'DELETE'),
  object: configMapArb,
  stored: configMapArb,
  namespaceEnv: fc.option(fc.constantFrom('prod', 'dev'), { nil: undefined }),
  user: fc.constantFrom(undefined, 'alice', 'bob'),
  validating: fc.array(validatingArb, { maxLength: 2 }),
  mutating: fc.array(mutatingArb, { maxLength: 2 }),
}).filter((s) => s.validating.length + s.mutating.length > 0);

type ScenarioDraw = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;
type MatchDraw = ScenarioDraw['validating'][number]['match'];
type ParamsDraw = NonNullable<ScenarioDraw['validating'][number]['params']>;

/** The users a scenario may impersonate: RBAC lets them do anything with ConfigMaps (suite.ts). */
export const USERS: Record<string, ScenarioUser> = {
  alice: { username: 'alice', groups: ['developers'] },
  bob: { username: 'bob', groups: [] },
};

function configMap(namespace: string, draw: ScenarioDraw['object']): any {
  const metadata: any = { name: draw.name, namespace };
  const labels = Object.fromEntries(Object.entries(draw.labels ?? {}).filter(([, v]) => v !== undefined));
  // Never empty, as data: the apiserver drops an empty map of a typed object.
  if (Object.keys(labels).length > 0) metadata.labels = labels;
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata, ...(draw.data ? { data: draw.data } : {}) };
}

function matchResources(draw: MatchDraw, scope: string | undefined): any {
  const expressions: any[] = scope ? [{ key: SCOPE_LABEL, operator: 'In', values: [scope] }] : [];
  const namespaceSelector = draw.namespaceEnv || expressions.length > 0
    ? {
      ...(draw.namespaceEnv ? { matchLabels: { env: draw.namespaceEnv } } : {}),
      ...(expressions.length > 0 ? { matchExpressions: expressions } : {}),
    }
    : undefined;
  const selectors: Record<string, object> = {
    'app-exists': { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
    'app-web': { matchLabels: { app: 'web' } },
    'tier-not-protected': { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['protected'] }] },
  };
  const objectSelector = draw.objectSelector ? selectors[draw.objectSelector] : undefined;
  const rule = (names?: readonly string[]) => ({
    apiGroups: [''],
    apiVersions: ['v1'],
    resources: ['configmaps'],
    operations: draw.operations,
    ...(names ? { resourceNames: names } : {}),
  });
  return {
    ...(namespaceSelector ? { namespaceSelector } : {}),
    ...(objectSelector ? { objectSelector } : {}),
    resourceRules: [rule(draw.resourceNames)],
    ...(draw.excludeName ? { excludeResourceRules: [rule([draw.excludeName])] } : {}),
  };
}

/** The param ConfigMaps of a policy, and the paramRef of its binding. */
function params(draw: ParamsDraw, policy: string, namespace: string): { objects: any[]; paramRef?: any } {
  const paramsNamespace = `${namespace}-params`;
  const object = (name: string, ns: string, extra: object) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns, labels: { policy } },
    data: { maxKeys: draw.maxKeys, mode: draw.mode, enabled: draw.enabled, ...(draw.team ? { team: draw.team } : {}), forbiddenName: 'config', ...extra },
  });
  const objects = [object(`${policy}-params`, namespace, {}), object(`${policy}-params`, paramsNamespace, { mode: 'allow' })];
  if (draw.second) objects.push(object(`${policy}-params-2`, namespace, { maxKeys: '4', mode: 'allow' }));
  const notFound = draw.notFound ? { parameterNotFoundAction: draw.notFound } : { parameterNotFoundAction: 'Deny' };
  switch (draw.ref) {
    case 'none': return { objects };
    case 'byName': return { objects, paramRef: { name: `${policy}-params`, ...notFound } };
    case 'byMissingName': return { objects, paramRef: { name: `${policy}-absent`, ...notFound } };
    case 'bySelector': return { objects, paramRef: { selector: { matchLabels: { policy } }, ...notFound } };
    case 'bySelectorNone': return { objects, paramRef: { selector: { matchLabels: { policy: 'nobody' } }, ...notFound } };
    case 'inParamsNamespace': return { objects, paramRef: { name: `${policy}-params`, namespace: paramsNamespace, ...notFound } };
  }
}

const PARAM_KIND = { apiVersion: 'v1', kind: 'ConfigMap' };

/** What the spec of a validating and a mutating policy share: failure policy, paramKind, match constraints and conditions. */
function commonSpec(
  draw: { failurePolicy?: string; params?: ParamsDraw; match: MatchDraw },
  conditions: ReadonlyArray<{ readonly name: string; readonly expression: string }>,
  namespace: string,
): object {
  return {
    ...(draw.failurePolicy ? { failurePolicy: draw.failurePolicy } : {}),
    ...(draw.params ? { paramKind: PARAM_KIND } : {}),
    matchConstraints: matchResources(draw.match, namespace),
    ...(conditions.length > 0 ? { matchConditions: conditions.map(({ name: n, expression }) => ({ name: n, expression })) } : {}),
  };
}

function validatingPolicy(draw: ScenarioDraw['validating'][number], name: string, namespace: string): { manifests: any[]; objects: any[] } {
  const hasParams = draw.params !== undefined;
  const variables = draw.variables.map((i) => VARIABLES[i]);
  const usable = (p: Piece) => (!p.needsParams || hasParams) && (!p.needsVariable || variables.some((v) => v.name === p.needsVariable));
  let validations = draw.validations.map((i) => VALIDATIONS[i]).filter(usable);
  if (validations.length === 0) validations = [VALIDATIONS[0]];
  const conditions = draw.conditions.map((i) => MATCH_CONDITIONS[i]).filter(usable);
  const annotations = draw.annotations.map((i) => AUDIT_ANNOTATIONS[i]).filter(usable);
  const p = draw.params ? params(draw.params, name, namespace) : { objects: [] as any[] };
  const policy = {
    apiVersion: V1,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      ...commonSpec(draw, conditions, namespace),
      ...(variables.length > 0 ? { variables } : {}),
      validations: validations.map(({ expression, message, messageExpression, reason }) => ({
        expression, ...(message ? { message } : {}), ...(messageExpression ? { messageExpression } : {}), ...(reason ? { reason } : {}),
      })),
      ...(annotations.length > 0 ? { auditAnnotations: annotations.map(({ key, valueExpression }) => ({ key, valueExpression })) } : {}),
    },
  };
  const binding = (bindingName: string, actions: readonly string[]) => ({
    apiVersion: V1,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: bindingName },
    spec: {
      policyName: name,
      validationActions: actions,
      ...(p.paramRef ? { paramRef: p.paramRef } : {}),
      ...(draw.bindingMatch ? { matchResources: matchResources(draw.bindingMatch, undefined) } : {}),
    },
  });
  const bindings = [binding(`${name}-binding`, draw.actions)];
  if (draw.secondBinding) bindings.push(binding(`${name}-warn`, ['Warn']));
  return { manifests: [policy, ...bindings], objects: p.objects };
}

function mutatingPolicy(draw: ScenarioDraw['mutating'][number], name: string, namespace: string): { manifests: any[]; objects: any[] } {
  const hasParams = draw.params !== undefined;
  const usable = (p: Piece) => !p.needsParams || hasParams;
  let mutations = draw.mutations.map((i) => MUTATIONS[i]).filter(usable);
  if (mutations.length === 0) mutations = [MUTATIONS[0]];
  const conditions = draw.conditions.map((i) => MATCH_CONDITIONS[i]).filter(usable);
  const p = draw.params ? params(draw.params, name, namespace) : { objects: [] as any[] };
  const policy = {
    apiVersion: V1,
    kind: 'MutatingAdmissionPolicy',
    metadata: { name },
    spec: {
      ...commonSpec(draw, conditions, namespace),
      mutations: mutations.map((m) => (m.patchType === 'JSONPatch'
        ? { patchType: 'JSONPatch', jsonPatch: { expression: m.expression } }
        : { patchType: 'ApplyConfiguration', applyConfiguration: { expression: m.expression } })),
      reinvocationPolicy: draw.reinvocation,
    },
  };
  const binding = {
    apiVersion: V1,
    kind: 'MutatingAdmissionPolicyBinding',
    metadata: { name: `${name}-binding` },
    spec: { policyName: name, ...(p.paramRef ? { paramRef: p.paramRef } : {}) },
  };
  return { manifests: [policy, binding], objects: p.objects };
}

function describe(draw: ScenarioDraw): string {
  const parts = [
    `${draw.operation}${draw.user ? ` as ${draw.user}` : ''}`,
    ...draw.validating.map((v) => `VAP[${v.validations.join(',')}; ${v.actions.join('+')}${v.failurePolicy ? `; ${v.failurePolicy}` : ''}${v.params ? `; params ${v.params.ref}` : ''}${v.conditions.length ? `; conditions ${v.conditions.join(',')}` : ''}]`),
    ...draw.mutating.map((m) => `MAP[${m.mutations.join(',')}${m.failurePolicy ? `; ${m.failurePolicy}` : ''}${m.params ? `; params ${m.params.ref}` : ''}; ${m.reinvocation}]`),
  ];
  return parts.join(' ');
}

/** Scenario `index` from a draw. */
function scenario(draw: ScenarioDraw, index: number): ReviewScenario {
  const namespace = `rv${index}`;
  const manifests: any[] = [];
  const objects: any[] = [];
  draw.validating.forEach((v, i) => {
    const built = validatingPolicy(v, `${namespace}-validate-${i}`, namespace);
    manifests.push(...built.manifests);
    objects.push(...built.objects);
  });
  draw.mutating.forEach((m, i) => {
    const built = mutatingPolicy(m, `${namespace}-mutate-${i}`, namespace);
    manifests.push(...built.manifests);
    objects.push(...built.objects);
  });
  const object = configMap(namespace, draw.object);
  // UPDATE and DELETE need the object stored first, under the same name.
  const stored = draw.operation === 'CREATE' ? undefined : configMap(namespace, { ...draw.stored, name: draw.object.name });
  return {
    name: `generated #${index}: ${describe(draw)}`,
    namespaces: [
      { name: namespace, labels: draw.namespaceEnv ? { env: draw.namespaceEnv } : {} },
      { name: `${namespace}-params`, labels: {} },
    ],
    objects: stored ? [...objects, stored] : objects,
    policies: manifests,
    operation: draw.operation,
    object: draw.operation === 'DELETE' ? stored : object,
    ...(draw.user ? { user: USERS[draw.user] } : {}),
  };
}

/** `count` generated scenarios, reproducible from `seed`, numbered from `firstIndex`. */
export function generatedScenarios(count: number, seed: number, firstIndex = 0): ReviewScenario[] {
  return fc.sample(scenarioArb, { seed, numRuns: count }).map((draw, i) => scenario(draw, firstIndex + i));
}
