import { Chart } from 'cdk8s';
import { AdmissionKind } from '../admission-kind';
import { CelAuthorizer } from '../cel/libraries/authz';
import { Operation } from '../enums';
import { AdmissionPlugin } from './admission-plugins/admission-plugin';
import {
  allowedFailure, auditedFailure, DenialExpectation, deniedFailure, matchedByFailure, mutatedFailure, noPolicyMatchedFailure, warnedFailure,
} from './assertions';
import { GoObject } from './defaulting/go-values';
import { apiVersionOf, ObjectPipeline } from './object-pipeline';
import { KubernetesVersion, toKubernetesVersion } from '../kubernetes-version';
import { BuiltinSchemas } from '../schemas/builtin-schemas';
import { CustomResourceSchemas } from '../schemas/custom-resources';
import { checkStructKeys, DENIAL_EXPECTATION, POLICY_TESTER_OPTIONS } from '../struct-keys';
import { AdmissionRequest } from './admission-request';
import { AdmissionResult, PolicyDenial } from './admission-result';
import { applyMutation, ObjectSchema } from './apply-mutation';
import { Activation, BUDGET_EXCEEDED, CelRuntime, EvaluationScope } from './cel-runtime';
import { CostBudget, MATCH_CONDITIONS_BUDGET } from './cost-meter';
import { Explanation } from './explain/explanation';
import { withExplanation } from './explain/result-explanation';
import { ReviewRecorder } from './explain/review-recorder';
import { checkAdmissible, checkDecodable, checkedManifests, checkedRequest, yamlDocuments } from './input-checks';
import { MatchLog } from './match-log';
import { matchResourcesMismatch, Mismatch, RequestAttributes } from './matching';
import { resolveParams } from './params';
import { decideWith, Permission } from './permissions';
import { CoveredPolicy, CoverageRecorder } from './policy-coverage/coverage-recorder';
import { PolicyCoverage } from './policy-coverage/policy-coverage';
import { runCoverage } from './policy-coverage/run-coverage';
import { MatchMiss } from './policy-match';
import { builtInResource, groupVersionKind } from './resource-table';
import { PolicyKind, ReviewObserver } from './review-observer';
import { resourceRoot } from './structured-merge';
import { ExpressionField } from '../shared/expression-field';
import type * as wire from '../wire/admissionregistration';

/** Options of PolicyTester. */
export interface PolicyTesterOptions {
  /**
   * The Kubernetes version whose CEL environment expressions are evaluated in.
   * @default KubernetesVersion.LATEST
   */
  readonly kubernetesVersion?: KubernetesVersion;

  /**
   * What users may do, for `authorizer` checks in expressions.
   * @default - nothing: every authorizer check returns "no opinion" (`allowed()` is false)
   */
  readonly permissions?: Permission[];

  /**
   * Whether reviews record what they cover of the policies (`PolicyTester.coverage()`): the
   * bindings that act, the outcomes of match conditions and validations, the expressions
   * evaluated and the CEL branches taken. It costs time per review (each expression's evaluation
   * is traced).
   * @default - off, unless the jest coverage setup (`cdk8s-admission/lib/jest-coverage`) turned it on for the run
   */
  readonly coverage?: boolean;

  /**
   * Default mutating admission plugins the cluster runs without (its `--disable-admission-plugins`).
   * @default - none: every default plugin PolicyTester models runs, as on a kube-apiserver with its default plugins
   */
  readonly disabledAdmissionPlugins?: AdmissionPlugin[];
}

const GROUP = 'admissionregistration.k8s.io/';
/** The policy kinds with their binding kinds, mutating first (the order admission runs them). */
const POLICY_KINDS = [
  [AdmissionKind.MUTATING_ADMISSION_POLICY, 'MutatingAdmissionPolicyBinding'],
  [AdmissionKind.VALIDATING_ADMISSION_POLICY, 'ValidatingAdmissionPolicyBinding'],
] as const;
const AUDIT_FAILURE_KEY = 'validation.policy.admission.k8s.io/validation_failure';
const MAX_MESSAGE_BYTES = 5 * 1024;
const NO_PARAMS = 'no params found for policy binding with `Deny` parameterNotFoundAction';

/** The HTTP status codes of the reasons a denial can have (the apiserver's reasonToCode). */
const CODES: { readonly [reason: string]: number } = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };

/** A mutating policy's denial keeps the 403 of the Forbidden error it is built from, whatever its reason. */
const MUTATING_CODE = 403;

function denial(
  who: string, policy: string, binding: string, validationMessage: string, reason: string, expressionIndex?: number, code?: number,
): PolicyDenial {
  return {
    policy,
    binding,
    validationMessage,
    reason,
    code: code ?? CODES[reason] ?? 422,
    message: `${who} denied request: ${validationMessage}`,
    ...(expressionIndex !== undefined ? { expressionIndex } : {}),
  };
}

interface Named<T> { readonly metadata?: { readonly name?: string }; readonly spec?: T }

/** One evaluation of a mutating policy: a binding that matches, with one of its params. */
interface MutatingInvocation {
  readonly spec: wire.MutatingAdmissionPolicySpec;
  readonly policyName: string;
  readonly bindingName: string;
  readonly hasParams: boolean;
  readonly param: unknown;
  /** Policy, binding and param: what reinvocation is tracked by. */
  readonly key: string;
}

/**
 * Unit-tests admission policies without a cluster: give it the policies, bindings, parameter
 * objects and Namespaces (from a chart or manifests), then `review()` requests and assert what
 * the apiserver would decide, with the messages it would return.
 *
 * Mutating policies run first (in name order, with reinvocation), then validating policies on the
 * mutated object.
 */
export class PolicyTester {
  /** A tester for the manifests of a chart (synthesized, so the chart's checks run first). */
  public static fromChart(chart: Chart, options: PolicyTesterOptions = {}): PolicyTester {
    return new PolicyTester(checkedManifests(chart.toJson(), 'PolicyTester.fromChart'), options, 'PolicyTester.fromChart');
  }

  /** A tester for manifests: parsed objects, or strings of (multi-document) YAML or JSON. */
  public static fromManifests(manifests: any[], options: PolicyTesterOptions = {}): PolicyTester {
    if (!Array.isArray(manifests)) throw new Error(`PolicyTester.fromManifests: manifests must be an array, got ${typeof manifests}`);
    const parsed = manifests.flatMap((m, i) => (typeof m === 'string' ? yamlDocuments(m, `PolicyTester.fromManifests: manifest ${i}`) : [m]));
    return new PolicyTester(checkedManifests(parsed, 'PolicyTester.fromManifests'), options, 'PolicyTester.fromManifests');
  }

  /** A tester for a multi-document YAML text. */
  public static fromYaml(yaml: string, options: PolicyTesterOptions = {}): PolicyTester {
    if (typeof yaml !== 'string') throw new Error(`PolicyTester.fromYaml: expected YAML text, got ${typeof yaml}`);
    return new PolicyTester(checkedManifests(yamlDocuments(yaml, 'PolicyTester.fromYaml'), 'PolicyTester.fromYaml'), options, 'PolicyTester.fromYaml');
  }

  private readonly manifests: readonly any[];
  private readonly runtime: CelRuntime;
  /** The target minor, whose built-in schemas request objects are decoded with. */
  private readonly minor: number;
  /** The schemas of the CRDs among the manifests, which custom resources are decoded with. */
  private readonly customResources: CustomResourceSchemas;
  private readonly byKind = new Map<string, any[]>();
  private readonly decide: ReturnType<typeof decideWith>;
  private readonly disabledPlugins: ReadonlySet<AdmissionPlugin>;
  /** The manifests as stored (defaulted), by `group/Kind`, for the admission plugins. */
  private readonly storedManifests = new Map<string, GoObject[]>();
  /** What reviews covered, when coverage is on. */
  private readonly coverageRecorder?: CoverageRecorder;

  /** `manifests` are checked copies: changing the caller's objects between reviews must not leave stale converted values. */
  private constructor(manifests: readonly any[], options: PolicyTesterOptions, source: string) {
    checkStructKeys(`${source}: options`, options, POLICY_TESTER_OPTIONS);
    const version = toKubernetesVersion(options.kubernetesVersion, `${source}: options.kubernetesVersion`);
    checkAdmissible(manifests, version, source);
    this.manifests = manifests;
    this.decide = decideWith(options.permissions ?? []);
    this.runtime = new CelRuntime(version.minor);
    this.minor = version.minor;
    this.customResources = CustomResourceSchemas.fromManifests(manifests);
    this.disabledPlugins = new Set(checkedPlugins(options.disabledAdmissionPlugins, source));
    const run = runCoverage();
    if (options.coverage ?? run !== undefined) {
      this.coverageRecorder = new CoverageRecorder(this.coveredPolicies(), this.runtime);
      run?.recorders.push(this.coverageRecorder);
    }
  }

  /**
   * What admission control decides for `request`. The objects are reviewed as the apiserver's
   * admission sees them: decoded and defaulted for their version, changed by the default mutating
   * admission plugins, by the mutating policies (each mutation defaulted again), and prepared for
   * storage (system fields, the kind's strategy) before the validating policies see them.
   */
  public review(input: AdmissionRequest): AdmissionResult {
    const result = this.run(input, this.coverageRecorder?.observer());
    this.coverageRecorder?.reviewed(result);
    return withExplanation(result, () => this.explain(input));
  }

  /**
   * What this tester's reviews covered of its policies so far. Coverage is recorded when the
   * tester was created with `coverage: true`, or in a jest run with the coverage setup
   * (`cdk8s-admission/lib/jest-coverage`); otherwise this is an error. A tester with no policies
   * has an empty report.
   */
  public coverage(): PolicyCoverage {
    if (!this.coverageRecorder) {
      throw new Error('PolicyTester.coverage: coverage is off for this tester: create it with the option coverage: true '
        + "(or load 'cdk8s-admission/lib/jest-coverage' in jest's setupFilesAfterEnv)");
    }
    return PolicyCoverage._fromRecord(this.coverageRecorder.record());
  }

  /**
   * Reviews `request` and fails, with its explanation, unless it is allowed and at least one
   * policy acted on it: a request no policy matched is not "allowed by the policies"
   * (`assertNoPolicyMatched` says that). Returns the result.
   */
  public assertAllowed(request: AdmissionRequest): AdmissionResult {
    return this.asserted(request, (r) => allowedFailure(r));
  }

  /** Reviews `request` and fails, with its explanation, unless it is denied by a denial like `expected`. Returns the result. */
  public assertDenied(request: AdmissionRequest, expected?: DenialExpectation): AdmissionResult {
    if (expected !== undefined) checkStructKeys('assertDenied: expected', expected, DENIAL_EXPECTATION);
    return this.asserted(request, (r) => deniedFailure(r, expected));
  }

  /** Reviews `request` and fails, with its explanation, unless a warning matches `messagePattern` (a JavaScript regular expression; any warning by default). */
  public assertWarned(request: AdmissionRequest, messagePattern?: string): AdmissionResult {
    return this.asserted(request, (r) => warnedFailure(r, messagePattern));
  }

  /** Reviews `request` and fails, with its explanation, unless the audit annotation `key` (`<policy>/<key>`) was recorded, matching `valuePattern` when given. */
  public assertAudited(request: AdmissionRequest, key: string, valuePattern?: string): AdmissionResult {
    return this.asserted(request, (r) => auditedFailure(r, key, valuePattern));
  }

  /**
   * Reviews `request` and fails, with its explanation, unless the mutating policies changed the
   * object so that it contains `expected`: a partial object (objects by the keys given, lists
   * whole), or a JSON patch (a list of operations) whose add, replace and remove operations the
   * mutated object satisfies.
   */
  public assertMutated(request: AdmissionRequest, expected: any): AdmissionResult {
    return this.asserted(request, (r) => mutatedFailure(r, expected));
  }

  /** Reviews `request` and fails, with its explanation, unless `policy` (through `binding`, when given) acted on it. */
  public assertMatchedBy(request: AdmissionRequest, policy: string, binding?: string): AdmissionResult {
    return this.asserted(request, (r) => matchedByFailure(r, policy, binding));
  }

  /** Reviews `request` and fails, with its explanation, if any policy acted on it: the test says that no policy applies. */
  public assertNoPolicyMatched(request: AdmissionRequest): AdmissionResult {
    return this.asserted(request, (r) => noPolicyMatchedFailure(r));
  }

  private asserted(request: AdmissionRequest, failure: (result: AdmissionResult) => string | undefined): AdmissionResult {
    const result = this.review(request);
    const why = failure(result);
    if (why !== undefined) throw new Error(`${why}\n\n${this.explain(request)}`);
    return result;
  }

  /**
   * What admission control decides for `request`, and why, as text: the decision, then every
   * policy and binding, with what kept it from acting or, for each of its evaluations, the value
   * of each expression and, under an expression that was false or failed, its sub-expressions
   * with their values. The request is reviewed exactly as `review` reviews it.
   */
  public explain(input: AdmissionRequest): string {
    return this.explanation(input).text;
  }

  /** The explanation of `explain`, as data: the decision, each policy's match and the expressions it evaluated. */
  public explanation(input: AdmissionRequest): Explanation {
    const recorder = new ReviewRecorder();
    return recorder.explanation(this.run(input, recorder));
  }

  private run(input: AdmissionRequest, recorder: ReviewObserver | undefined): AdmissionResult {
    const checked = checkedRequest(input);
    checkDecodable(checked, this.minor, this.customResources);
    const given = this.attributes(checked);
    recorder?.requested(requestLine(given, checked.userInfo?.username));
    const pipeline = new ObjectPipeline(this.minor, this.customResources, this.manifests, this.disabledPlugins, this.storedManifests, new Date());
    const kind = this.kindOfResource(given);
    const oldObject = checked.oldObject === undefined || checked.oldObject === null ? undefined : pipeline.stored(checked.oldObject, kind);
    let object = checked.object === undefined || checked.object === null ? undefined : pipeline.defaulted(checked.object, kind);
    const log = new MatchLog();
    // The apiserver runs no API-defined policy on the policies and bindings themselves, so that no
    // policy can lock itself in (policy/generic/plugin.go); webhook configurations are not exempt.
    if (isAdmissionPolicyResource(given)) {
      const admitted = object ? pipeline.forValidation(given.operation, object, oldObject, true) : undefined;
      this.missEveryPolicy(log, MatchMiss.EXEMPT, 'the apiserver runs no admission policy on admission policies and their bindings');
      const policies = log.list();
      return { allowed: true, denials: [], warnings: [], auditAnnotations: {}, policies, ...(admitted ? { admittedObject: admitted } : {}) };
    }
    if (object) object = pipeline.afterPlugins(given, object, oldObject);
    const request: AdmissionRequest = { ...checked, object, oldObject };
    const mutated = this.mutate(request, object, pipeline, (o) => pipeline.afterPlugins(given, o, oldObject), log, recorder);
    // A denial by a mutating policy ends admission: validating policies do not run.
    if (mutated.denials.length > 0) {
      this.missEveryPolicy(log, MatchMiss.NOT_REACHED, 'a mutating policy denied the request before validating policies ran',
        AdmissionKind.VALIDATING_ADMISSION_POLICY);
      return { allowed: false, denials: mutated.denials, warnings: [], auditAnnotations: {}, policies: log.list() };
    }
    // The object the mutating policies left is the caller's (patchedObject) only when they changed it.
    const admitted = mutated.object ? pipeline.forValidation(given.operation, mutated.object as GoObject, oldObject, !mutated.changed) : undefined;
    const result = this.validate({ ...request, object: admitted }, this.attributes({ ...request, object: admitted }), admitted, log, recorder);
    return {
      ...result,
      policies: log.list(),
      ...(admitted ? { admittedObject: admitted } : {}),
      ...(mutated.changed ? { patchedObject: mutated.object } : {}),
    };
  }

  /** Records every (policy, binding) of a kind, or of both, as not acting, for one reason. */
  private missEveryPolicy(log: MatchLog, miss: MatchMiss, reason: string, only?: AdmissionKind): void {
    for (const [kind, bindingKind] of POLICY_KINDS) {
      if (only !== undefined && only !== kind) continue;
      this.eachBinding<unknown>(kind, bindingKind, log, (_spec, policy, binding) => log.missed(kind, policy, binding, miss, reason));
    }
  }

  /**
   * Calls `visit` for each binding of each policy of a kind, in name order, and records a policy
   * that no binding names as such (the apiserver evaluates a policy only through its bindings).
   */
  private eachBinding<S>(
    kind: AdmissionKind.VALIDATING_ADMISSION_POLICY | AdmissionKind.MUTATING_ADMISSION_POLICY, bindingKind: string, log: MatchLog,
    visit: (spec: S, policyName: string, bindingName: string, binding: Named<any>) => void,
  ): void {
    for (const policy of this.of<Named<S>>(kind)) {
      const policyName = policy.metadata?.name ?? '';
      const own = this.bindingsOf(bindingKind, policyName);
      if (own.length === 0) log.missed(kind, policyName, undefined, MatchMiss.NO_BINDING, `no ${bindingKind} names policy '${policyName}'`);
      for (const binding of own) visit((policy.spec ?? {}) as S, policyName, binding.metadata?.name ?? '', binding);
    }
  }

  /** The bindings of a kind that name a policy, in name order. */
  private bindingsOf(bindingKind: string, policyName: string): Named<any>[] {
    return this.of<Named<{ policyName?: string }>>(bindingKind).filter((b) => b.spec?.policyName === policyName);
  }

  /** Every policy with the names of its bindings: what a coverage record counts. */
  private coveredPolicies(): CoveredPolicy[] {
    return POLICY_KINDS.flatMap(([kind, bindingKind]) => this.of<Named<unknown>>(kind).map((policy) => {
      const name = policy.metadata?.name ?? '';
      return { kind, name, spec: policy.spec ?? {}, bindings: this.bindingsOf(bindingKind, name).map((b) => b.metadata?.name ?? '') };
    }));
  }

  /** The kind of the request's resource, for an object that does not say its own. */
  private kindOfResource(a: RequestAttributes): { group: string; version: string; kind: string } | undefined {
    const builtin = BuiltinSchemas.of(this.minor).resource(a.group, a.version, a.resource, a.subResource);
    if (builtin) return builtin;
    const custom = this.customResources.resource(a.group, a.version, a.resource);
    return custom && a.subResource === '' ? { group: custom.group, version: custom.version, kind: custom.kind } : undefined;
  }

  /** The admissionregistration objects of a kind, in name order (computed once). */
  private of<T>(kind: string): T[] {
    let objects = this.byKind.get(kind);
    if (!objects) {
      objects = this.manifests
        .filter((m) => m.kind === kind && typeof m.apiVersion === 'string' && m.apiVersion.startsWith(GROUP))
        .sort((a, b) => String(a.metadata?.name).localeCompare(String(b.metadata?.name)));
      this.byKind.set(kind, objects);
    }
    return objects;
  }

  private attributes(request: AdmissionRequest): RequestAttributes {
    const object = request.object ?? request.oldObject;
    const gvk = groupVersionKind(object);
    const known = gvk ? builtInResource(gvk) ?? BuiltinSchemas.of(this.minor).resourceOfKind(gvk.group, gvk.version, gvk.kind)
      ?? this.customResources.kind(gvk.group, gvk.version, gvk.kind) : undefined;
    const resource = request.resource ?? (gvk && known ? { group: gvk.group, version: gvk.version, resource: known.resource } : undefined);
    if (!resource) {
      const what = gvk ? `${apiVersionOf(gvk)} ${gvk.kind}` : object ? 'an object without apiVersion and kind' : 'a request without an object';
      throw new Error(`review: cannot infer the resource of ${what}: give \`resource: { group, version, resource }\` in the request, `
        + 'or the custom resource\'s CustomResourceDefinition among the tester\'s manifests');
    }
    if (request.operation === Operation.ALL) throw new Error('review: a request has one operation: CREATE, UPDATE, DELETE or CONNECT, not *');
    // For a Namespace itself, the apiserver's request namespace is the Namespace's name.
    const namespace = request.namespace ?? (isNamespace(object) ? object?.metadata?.name : object?.metadata?.namespace) ?? '';
    const namespaced = known ? known.namespaced : namespace !== '';
    const givenNamespace = request.namespaceObject?.metadata?.name;
    if (givenNamespace !== undefined && givenNamespace !== namespace) {
      throw new Error(namespaced
        ? `review: namespaceObject is Namespace '${givenNamespace}', but the request is in namespace '${namespace}'`
        : `review: a ${resource.resource} request is cluster-scoped: it has no namespaceObject (give the Namespace among the manifests if a policy reads it)`);
    }
    return {
      operation: request.operation,
      group: resource.group,
      version: resource.version,
      resource: resource.resource,
      subResource: request.subResource ?? '',
      name: request.name ?? object?.metadata?.name ?? '',
      namespace,
      namespaced,
      isNamespaceObject: resource.group === '' && resource.resource === 'namespaces',
      objectLabels: isNamespace(object)
        ? withNameLabel(request.object)?.metadata?.labels
        : request.object?.metadata?.labels ?? (request.object ? {} : undefined),
      oldObjectLabels: request.oldObject?.metadata?.labels ?? (request.oldObject ? {} : undefined),
      namespaceLabels: this.namespaceObject(request, namespace)?.metadata?.labels ?? {},
    };
  }

  /** The request's Namespace: given, found among the manifests, or one without labels; with the label the apiserver always sets. */
  private namespaceObject(request: AdmissionRequest, namespace: string): any {
    if (!namespace) return null;
    const found = request.namespaceObject
      ?? this.manifests.find((m) => m.kind === 'Namespace' && m.metadata?.name === namespace)
      ?? { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } };
    return withNameLabel(found);
  }

  private activation(request: AdmissionRequest, a: RequestAttributes, object: unknown): Activation {
    const u = request.userInfo ?? {};
    const username = u.username ?? 'test-user';
    return {
      authorizer: new CelAuthorizer(this.decide, username,
        { group: a.group, resource: a.resource, subresource: a.subResource, namespace: a.namespace, name: a.name }),
      object: object ?? null,
      oldObject: request.oldObject ?? null,
      namespaceObject: a.namespaced ? this.namespaceObject(request, a.namespace) : null,
      request: {
        kind: requestKind(request, object),
        resource: { group: a.group, version: a.version, resource: a.resource },
        subResource: a.subResource,
        requestKind: requestKind(request, object),
        requestResource: { group: a.group, version: a.version, resource: a.resource },
        requestSubResource: a.subResource,
        name: a.name,
        namespace: a.namespace,
        operation: a.operation,
        userInfo: { username, uid: u.uid ?? '', groups: u.groups ?? ['system:authenticated'], extra: u.extra ?? {} },
        dryRun: request.dryRun ?? false,
        options: null,
      },
    };
  }

  /**
   * The mutating policies, as the apiserver's dispatcher runs them: every invocation (policy,
   * binding and param) in turn, each mutation on the object the ones before it left, defaulted
   * again. When any mutation applied, admission runs its chain once more: the built-in mutating
   * plugins, then the `IfNeeded` invocations that ran (the dispatcher marks them for it). Errors
   * under `Fail` deny the request at the end of the pass they happen in.
   */
  private mutate(
    request: AdmissionRequest, input: unknown, pipeline: ObjectPipeline, reinvokePlugins: (object: GoObject) => GoObject, log: MatchLog,
    recorder: ReviewObserver | undefined,
  ): { object: unknown; changed: boolean; denials: PolicyDenial[] } {
    // The apiserver calls no patcher when there is no object (DELETE, some CONNECT).
    if (input === undefined || input === null) {
      const a = this.attributes(request);
      this.eachBinding<wire.MutatingAdmissionPolicySpec>(AdmissionKind.MUTATING_ADMISSION_POLICY, 'MutatingAdmissionPolicyBinding', log,
        (spec, policyName, bindingName, binding) => {
          if (this.logMismatch(log, AdmissionKind.MUTATING_ADMISSION_POLICY, spec, policyName, bindingName, binding, a)) return;
          log.missed(AdmissionKind.MUTATING_ADMISSION_POLICY, policyName, bindingName, MatchMiss.NOT_REACHED,
            `the ${a.operation} request has no object: the apiserver runs no mutating policy on it`);
        });
      return { object: input, changed: false, denials: [] };
    }
    let object: unknown = input;
    const pass = (reinvoke: ReadonlySet<string> | undefined) => {
      const denials: PolicyDenial[] = [];
      const ranIfNeeded = new Set<string>();
      let applied = false;
      const a = this.attributes({ ...request, object });
      // What acted is the first pass's: reinvocation runs only invocations that acted then.
      const passLog = reinvoke ? undefined : log;
      for (const invocation of this.mutatingInvocations(a, denials, passLog)) {
        const { spec, policyName, bindingName, key } = invocation;
        const fail = (message: string, reason: string, mutationIndex?: number) =>
          denyMutation(denials, spec, policyName, bindingName, message, reason, mutationIndex);
        const observer = recorder && (!reinvoke || reinvoke.has(key))
          ? recorder.evaluation(AdmissionKind.MUTATING_ADMISSION_POLICY, policyName, bindingName, invocation.param, reinvoke !== undefined)
          : undefined;
        // Each mutation sees the object as the mutations before it left it.
        const scopeFor = () => this.runtime.scope(spec.variables ?? [], invocation.hasParams,
          { ...this.activation(request, a, object), ...(invocation.hasParams ? { params: invocation.param ?? null } : {}) }, undefined, observer);
        let scope = scopeFor();
        const conditions = this.matchConditions(spec.matchConditions ?? [], scope, spec.failurePolicy, (m) => fail(m, 'Invalid'));
        if (passLog) logConditions(passLog, AdmissionKind.MUTATING_ADMISSION_POLICY, policyName, bindingName, conditions);
        if (!conditions.holds) continue;
        if (reinvoke && !reinvoke.has(key)) continue;
        (spec.mutations ?? []).forEach((mutation, i) => {
          const jsonPatch = mutation.patchType === 'JSONPatch';
          const expression = (jsonPatch ? mutation.jsonPatch?.expression : mutation.applyConfiguration?.expression) ?? '';
          const value = scope.evaluate(expression, jsonPatch ? ExpressionField.JSON_PATCH : ExpressionField.APPLY_CONFIGURATION,
            `spec.mutations[${i}].${jsonPatch ? 'jsonPatch' : 'applyConfiguration'}.expression`);
          if ('error' in value) return fail(errorMessage(expression, value), 'Invalid', i);
          let next: unknown;
          try {
            // The apiserver defaults the object again after each mutation (mutating/dispatcher.go, dispatchOne).
            next = pipeline.defaulted(applyMutation(object, mutation.patchType ?? '', value.value, this.schemaOf(object)));
          } catch (e) {
            return fail((e as Error).message, 'Invalid', i);
          }
          // Any mutation that applies marks the object for reinvocation, even when it changed nothing.
          applied = true;
          if (JSON.stringify(next) !== JSON.stringify(object)) {
            object = next;
            scope = scopeFor();
          }
        });
        if (spec.reinvocationPolicy === 'IfNeeded') ranIfNeeded.add(key);
      }
      return { denials, ranIfNeeded, applied };
    };
    const first = pass(undefined);
    if (first.denials.length > 0) return { object: input, changed: false, denials: first.denials };
    if (first.applied) {
      // A mutation asks admission to run its chain once more (pkg/admission/reinvocation.go): the
      // built-in plugins run again, then the IfNeeded invocations that ran.
      object = reinvokePlugins(object as GoObject);
      if (first.ranIfNeeded.size > 0) {
        const second = pass(first.ranIfNeeded);
        if (second.denials.length > 0) return { object: input, changed: false, denials: second.denials };
      }
    }
    return { object, changed: first.applied && JSON.stringify(object) !== JSON.stringify(input), denials: [] };
  }

  /** The schema an apply configuration is merged into `object` with, when its kind has one. */
  private schemaOf(object: unknown): ObjectSchema | undefined {
    const gvk = groupVersionKind(object);
    if (!gvk) return undefined;
    const schemas = BuiltinSchemas.of(this.minor);
    const builtin = schemas.kind((object as { apiVersion: string }).apiVersion, gvk.kind);
    if (builtin) return { root: { $ref: builtin.name }, schemas };
    const custom = this.customResources.kind(gvk.group, gvk.version, gvk.kind);
    return custom ? { root: resourceRoot(custom.schema), schemas } : undefined;
  }

  /**
   * The (policy, binding, param) invocations of the mutating policies that match a request, in
   * name order; configuration errors (missing params) are added to `denials` under `Fail`.
   */
  private mutatingInvocations(a: RequestAttributes, denials: PolicyDenial[], log: MatchLog | undefined): MutatingInvocation[] {
    const out: MutatingInvocation[] = [];
    const kind = AdmissionKind.MUTATING_ADMISSION_POLICY;
    this.eachBinding<wire.MutatingAdmissionPolicySpec>(kind, 'MutatingAdmissionPolicyBinding', log ?? new MatchLog(),
      (spec, policyName, bindingName, binding) => {
        if (this.logMismatch(log, kind, spec, policyName, bindingName, binding, a)) return;
        const params = resolveParams(spec.paramKind, binding.spec?.paramRef, this.manifests, a.namespace, paramKindNamespaced(spec.paramKind));
        if (params.kind === 'notFound' || params.kind === 'error') {
          if (params.kind === 'error' || params.action === 'Deny') {
            const message = params.kind === 'error' ? params.message : NO_PARAMS;
            denyMutation(denials, spec, policyName, bindingName, `failed to configure binding: ${message}`, 'Forbidden');
          }
          if (log) logMissingParams(log, kind, policyName, bindingName, params, spec.failurePolicy !== 'Ignore');
          return;
        }
        const hasParams = params.kind === 'objects';
        for (const param of hasParams ? params.objects : [undefined]) {
          const meta = (param as { metadata?: { name?: string; namespace?: string } } | undefined)?.metadata;
          const key = JSON.stringify([policyName, bindingName, meta?.namespace ?? '', meta?.name ?? '']);
          out.push({ spec, policyName, bindingName, hasParams, param, key });
        }
      });
    return out;
  }

  private validate(
    request: AdmissionRequest, a: RequestAttributes, object: unknown, log: MatchLog, recorder: ReviewObserver | undefined,
  ): Omit<AdmissionResult, 'patchedObject' | 'policies'> {
    const decision: ValidatingDecision = { denials: [], warnings: [], auditAnnotations: {}, auditFailures: [] };
    const base = this.activation(request, a, object);
    const kind = AdmissionKind.VALIDATING_ADMISSION_POLICY;
    this.eachBinding<wire.ValidatingAdmissionPolicySpec>(kind, 'ValidatingAdmissionPolicyBinding', log, (spec, policyName, bindingName, binding) => {
      if (this.logMismatch(log, kind, spec, policyName, bindingName, binding, a)) return;
      const actions: string[] = binding.spec?.validationActions ?? [];
      const failsClosed = spec.failurePolicy !== 'Ignore';
      const params = resolveParams(spec.paramKind, binding.spec?.paramRef, this.manifests, a.namespace, paramKindNamespaced(spec.paramKind));
      if (params.kind === 'notFound' || params.kind === 'error') {
        // A configuration error denies whatever the validationActions (under Fail).
        if (failsClosed && (params.kind === 'error' || params.action === 'Deny')) {
          const message = params.kind === 'error' ? params.message : NO_PARAMS;
          decision.denials.push(denial(validatingWho(policyName, bindingName), policyName, bindingName, `failed to configure binding: ${message}`, 'Invalid'));
        }
        logMissingParams(log, kind, policyName, bindingName, params, failsClosed);
        return;
      }
      const hasParams = params.kind === 'objects';
      for (const param of hasParams ? params.objects : [undefined]) {
        const observer = recorder?.evaluation(kind, policyName, bindingName, param, false);
        const scope = this.runtime.scope(spec.variables ?? [], hasParams, hasParams ? { ...base, params: param ?? null } : base, undefined, observer);
        this.validateInvocation(spec, policyName, bindingName, actions, scope, decision, log);
      }
    });
    const { denials, warnings, auditAnnotations, auditFailures } = decision;
    if (auditFailures.length > 0) auditAnnotations[AUDIT_FAILURE_KEY] = JSON.stringify(auditFailures);
    return { allowed: denials.length === 0, denials, warnings, auditAnnotations };
  }

  /**
   * One evaluation of a validating policy (a binding with one of its params): match conditions,
   * validations and audit annotations, reported through the binding's validationActions.
   */
  private validateInvocation(
    spec: wire.ValidatingAdmissionPolicySpec, policyName: string, bindingName: string, actions: readonly string[],
    scope: EvaluationScope, decision: ValidatingDecision, log: MatchLog,
  ): void {
    const name = validatingWho(policyName, bindingName);
    const fail = (validationMessage: string, reason: string, expressionIndex?: number) => {
      if (actions.includes('Deny')) decision.denials.push(denial(name, policyName, bindingName, validationMessage, reason, expressionIndex));
      // The apiserver's warning recorder drops a text it already has (several params, the same failure).
      const warning = `Validation failed for ${name}: ${validationMessage}`;
      if (actions.includes('Warn') && !decision.warnings.includes(warning)) decision.warnings.push(warning);
      if (actions.includes('Audit')) {
        decision.auditFailures.push({
          message: validationMessage,
          policy: policyName,
          binding: bindingName,
          // A failure that is not a validation's (a match condition's error) is the policy's only decision.
          expressionIndex: expressionIndex ?? 0,
          validationActions: actions,
        });
      }
    };
    const failsClosed = spec.failurePolicy !== 'Ignore';
    const conditions = this.matchConditions(spec.matchConditions ?? [], scope, spec.failurePolicy, (m) => fail(m, 'Invalid'));
    logConditions(log, AdmissionKind.VALIDATING_ADMISSION_POLICY, policyName, bindingName, conditions);
    if (!conditions.holds) return;
    // Failures are reported once every validation ran: running out of the binding's budget
    // makes the whole evaluation one error, and the failures before it are not reported.
    const failures: Array<() => void> = [];
    let outOfBudget = false;
    for (const [i, v] of (spec.validations ?? []).entries()) {
      const result = scope.evaluate(v.expression, ExpressionField.VALIDATION, `spec.validations[${i}].expression`);
      if ('error' in result && result.error === BUDGET_EXCEEDED) {
        outOfBudget = true;
        break;
      }
      if ('error' in result) {
        if (failsClosed) failures.push(() => fail(errorMessage(v.expression, result), 'Invalid', i));
      } else if (result.value !== true) {
        const message = this.messageFor(v, i, scope);
        failures.push(() => fail(message, v.reason ?? 'Invalid', i));
      }
    }
    if (outOfBudget) {
      if (failsClosed) fail(BUDGET_EXCEEDED, 'Invalid');
    } else {
      failures.forEach((report) => report());
    }
    for (const [i, annotation] of (spec.auditAnnotations ?? []).entries()) {
      const result = scope.evaluate(annotation.valueExpression, ExpressionField.AUDIT_ANNOTATION_VALUE, `spec.auditAnnotations[${i}].valueExpression`);
      if ('error' in result) {
        // An audit annotation's error denies whatever the validationActions (under Fail).
        if (failsClosed) decision.denials.push(denial(name, policyName, bindingName, errorMessage(annotation.valueExpression, result), 'Invalid'));
        continue;
      }
      if (typeof result.value === 'string' && result.value.trim() !== '') {
        // One value per param; distinct values from several params are joined, as the apiserver does.
        const key = `${policyName}/${annotation.key}`;
        const values = new Set((decision.auditAnnotations[key] ?? '').split(', ').filter((x) => x !== ''));
        values.add(result.value.trim());
        decision.auditAnnotations[key] = [...values].join(', ');
      }
    }
  }

  /**
   * Records why the policy's constraints or the binding's matchResources do not select the
   * request, and says whether they did not.
   */
  private logMismatch(
    log: MatchLog | undefined, kind: AdmissionKind.VALIDATING_ADMISSION_POLICY | AdmissionKind.MUTATING_ADMISSION_POLICY,
    spec: { matchConstraints?: wire.MatchResources }, policyName: string, bindingName: string,
    binding: Named<{ matchResources?: wire.MatchResources }>, a: RequestAttributes,
  ): boolean {
    const constraints = spec.matchConstraints;
    const policyMiss: Mismatch | undefined = constraints
      ? matchResourcesMismatch(constraints, a, true, 'spec.matchConstraints')
      : { miss: 'Resource', field: 'spec.matchConstraints', reason: 'the policy has no spec.matchConstraints: it matches nothing' };
    if (policyMiss) {
      log?.mismatched(kind, policyName, bindingName, policyMiss, 'policy');
      return true;
    }
    const bindingMatch = binding.spec?.matchResources;
    const bindingMiss = bindingMatch ? matchResourcesMismatch(bindingMatch, a, false, 'spec.matchResources') : undefined;
    if (bindingMiss) log?.mismatched(kind, policyName, bindingName, bindingMiss, 'binding');
    return bindingMiss !== undefined;
  }

  /**
   * Any false match condition skips the policy; errors (with none false) skip it under
   * failurePolicy Ignore and fail the request under Fail, with every error (one as it is, several
   * as `[e1, e2]`, as the apiserver aggregates them).
   */
  private matchConditions(
    conditions: readonly wire.MatchCondition[], scope: EvaluationScope, failurePolicy: string | undefined, onError: (message: string) => void,
  ): ConditionOutcome {
    const errors: string[] = [];
    let firstError: { field: string; reason: string } | undefined;
    const conditionScope = scope.forMatchConditions(new CostBudget(MATCH_CONDITIONS_BUDGET));
    for (const [i, c] of conditions.entries()) {
      const result = conditionScope.evaluate(c.expression, ExpressionField.MATCH_CONDITION, `spec.matchConditions[${i}].expression`);
      if ('error' in result) {
        const message = errorMessage(c.expression, result);
        errors.push(message);
        firstError ??= { field: `spec.matchConditions[${i}]`, reason: `match condition '${c.name}' failed: ${message}` };
        continue;
      }
      if (result.value !== true) return { holds: false, denied: false, field: `spec.matchConditions[${i}]`, reason: `match condition '${c.name}' is false` };
    }
    if (errors.length === 0) return { holds: true };
    if (failurePolicy === 'Ignore') return { holds: false, denied: false, field: firstError!.field, reason: `${firstError!.reason} (failurePolicy Ignore)` };
    onError(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    return { holds: false, denied: true, ...firstError! };
  }

  /** messageExpression (a non-empty, one-line string of at most 5 KiB), else message, else `failed expression: ...`. */
  private messageFor(v: wire.Validation, index: number, scope: EvaluationScope): string {
    if (v.messageExpression) {
      const result = scope.evaluate(v.messageExpression, ExpressionField.MESSAGE_EXPRESSION, `spec.validations[${index}].messageExpression`);
      if (!('error' in result) && typeof result.value === 'string') {
        const text = result.value.trim();
        if (text !== '' && !/[\r\n]/.test(text) && Buffer.byteLength(text) <= MAX_MESSAGE_BYTES) return text;
      }
    }
    if (v.message && v.message.trim() !== '') return v.message.trim();
    return `failed expression: ${v.expression.trim()}`;
  }
}

/** What a validating policy's invocations decide, gathered across bindings and params. */
interface ValidatingDecision {
  readonly denials: PolicyDenial[];
  readonly warnings: string[];
  readonly auditAnnotations: { [key: string]: string };
  readonly auditFailures: object[];
}

/** How a binding's match conditions decide: all hold, or one is false or erred (and, under Fail, denied). */
type ConditionOutcome =
  | { readonly holds: true }
  | { readonly holds: false; readonly denied: boolean; readonly field: string; readonly reason: string };


/** A policy acted when its conditions held, or when their errors denied the request. */
function logConditions(log: MatchLog, kind: PolicyKind, policyName: string, bindingName: string, outcome: ConditionOutcome): void {
  if (outcome.holds || outcome.denied) {
    log.acted(kind, policyName, bindingName);
  } else {
    log.missed(kind, policyName, bindingName, MatchMiss.MATCH_CONDITION, `policy '${policyName}': ${outcome.reason}`, outcome.field);
  }
}

/** A binding without its params acted when that denied the request (parameterNotFoundAction Deny, or a configuration error, under Fail). */
function logMissingParams(
  log: MatchLog, kind: PolicyKind, policyName: string, bindingName: string,
  params: { readonly kind: 'notFound'; readonly action: string } | { readonly kind: 'error'; readonly message: string }, failsClosed: boolean,
): void {
  if (failsClosed && (params.kind === 'error' || params.action === 'Deny')) {
    log.acted(kind, policyName, bindingName);
  } else if (params.kind === 'error') {
    log.missed(kind, policyName, bindingName, MatchMiss.PARAMS_NOT_FOUND, `binding '${bindingName}': ${params.message} (failurePolicy Ignore)`, 'spec.paramRef');
  } else {
    const why = params.action === 'Deny' ? 'failurePolicy Ignore' : 'parameterNotFoundAction Allow';
    log.missed(kind, policyName, bindingName, MatchMiss.PARAMS_NOT_FOUND, `binding '${bindingName}': no params found for spec.paramRef (${why})`, 'spec.paramRef');
  }
}

/** `CREATE apps/v1 deployments/scale team-a/web by alice`. */
function requestLine(a: RequestAttributes, username: string | undefined): string {
  const resource = `${a.group ? `${a.group}/` : ''}${a.version} ${a.resource}${a.subResource ? `/${a.subResource}` : ''}`;
  const name = a.namespace ? `${a.namespace}/${a.name}` : a.name;
  return `${a.operation} ${resource}${name ? ` ${name}` : ''} by ${username ?? 'test-user'}`;
}

function validatingWho(policyName: string, bindingName: string): string {
  return `ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}'`;
}

function requestKind(request: AdmissionRequest, object: unknown) {
  const gvk = groupVersionKind(object ?? request.oldObject);
  return gvk ? { group: gvk.group, version: gvk.version, kind: gvk.kind } : { group: '', version: '', kind: '' };
}

/** An evaluation error as the apiserver words it: compile errors as they are, runtime errors with their expression. */
function errorMessage(expression: string, result: { readonly error: string; readonly compilation?: boolean }): string {
  return result.compilation ? result.error : `expression '${expression}' resulted in error: ${result.error}`;
}

/** A mutating policy's failure, which denies under failurePolicy Fail. */
function denyMutation(
  denials: PolicyDenial[], spec: wire.MutatingAdmissionPolicySpec, policyName: string, bindingName: string,
  message: string, reason: string, mutationIndex?: number,
): void {
  if (spec.failurePolicy === 'Ignore') return;
  denials.push(denial(`policy '${policyName}' with binding '${bindingName}'`, policyName, bindingName, message, reason, mutationIndex, MUTATING_CODE));
}

const POLICY_RESOURCES: ReadonlySet<string> = new Set([
  'validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings',
]);

function isAdmissionPolicyResource(a: RequestAttributes): boolean {
  return a.group === 'admissionregistration.k8s.io' && POLICY_RESOURCES.has(a.resource);
}

function isNamespace(object: unknown): boolean {
  const gvk = groupVersionKind(object);
  return gvk?.group === '' && gvk.kind === 'Namespace';
}

/** The apiserver labels every Namespace with `kubernetes.io/metadata.name: <name>`. */
function withNameLabel(namespace: any): any {
  const name = namespace?.metadata?.name;
  if (!name) return namespace;
  return { ...namespace, metadata: { ...namespace.metadata, labels: { ...namespace.metadata.labels, 'kubernetes.io/metadata.name': name } } };
}

/** Whether a paramKind is namespaced, for the built-in kinds; undefined (decided from the param objects) otherwise. */
function paramKindNamespaced(paramKind: wire.ParamKind | undefined): boolean | undefined {
  const gvk = paramKind ? groupVersionKind(paramKind) : undefined;
  return gvk ? builtInResource(gvk)?.namespaced : undefined;
}

/** The plugins an option names, each one PolicyTester models. */
function checkedPlugins(plugins: unknown, source: string): AdmissionPlugin[] {
  if (plugins === undefined) return [];
  const known = Object.values(AdmissionPlugin) as string[];
  if (!Array.isArray(plugins)) throw new Error(`${source}: options.disabledAdmissionPlugins must be a list of AdmissionPlugin values, got ${typeof plugins}`);
  for (const p of plugins) {
    if (!known.includes(p)) throw new Error(`${source}: options.disabledAdmissionPlugins: ${JSON.stringify(p)} is not a plugin PolicyTester models (${known.join(', ')})`);
  }
  return plugins as AdmissionPlugin[];
}
