import { Chart } from 'cdk8s';
import { CelAuthorizer } from '../cel/libraries/authz';
import { Operation } from '../enums';
import { AdmissionPlugin } from './admission-plugins/admission-plugin';
import { GoObject } from './defaulting/go-values';
import { apiVersionOf, ObjectPipeline } from './object-pipeline';
import { KubernetesVersion, toKubernetesVersion } from '../kubernetes-version';
import { BuiltinSchemas } from '../schemas/builtin-schemas';
import { CustomResourceSchemas } from '../schemas/custom-resources';
import { checkStructKeys, POLICY_TESTER_OPTIONS } from '../struct-keys';
import { AdmissionRequest } from './admission-request';
import { AdmissionResult, PolicyDenial } from './admission-result';
import { applyMutation, ObjectSchema } from './apply-mutation';
import { Activation, BUDGET_EXCEEDED, CelRuntime, EvaluationScope } from './cel-runtime';
import { CostBudget, MATCH_CONDITIONS_BUDGET } from './cost-meter';
import { checkAdmissible, checkDecodable, checkedManifests, checkedRequest, yamlDocuments } from './input-checks';
import { matchResourcesMatch, RequestAttributes } from './matching';
import { resolveParams } from './params';
import { decideWith, Permission } from './permissions';
import { builtInResource, groupVersionKind } from './resource-table';
import { resourceRoot } from './structured-merge';
import { ExpressionField } from '../validation/expression-field';
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
   * Default mutating admission plugins the cluster runs without (its `--disable-admission-plugins`).
   * @default - none: every default plugin PolicyTester models runs, as on a kube-apiserver with its default plugins
   */
  readonly disabledAdmissionPlugins?: AdmissionPlugin[];
}

const GROUP = 'admissionregistration.k8s.io/';
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
type Vap = Named<wire.ValidatingAdmissionPolicySpec>;
type Vapb = Named<wire.ValidatingAdmissionPolicyBindingSpec>;
type Map_ = Named<wire.MutatingAdmissionPolicySpec>;
type Mapb = Named<wire.MutatingAdmissionPolicyBindingSpec>;

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
  }

  /**
   * What admission control decides for `request`. The objects are reviewed as the apiserver's
   * admission sees them: decoded and defaulted for their version, changed by the default mutating
   * admission plugins, by the mutating policies (each mutation defaulted again), and prepared for
   * storage (system fields, the kind's strategy) before the validating policies see them.
   */
  public review(input: AdmissionRequest): AdmissionResult {
    const checked = checkedRequest(input);
    checkDecodable(checked, this.minor, this.customResources);
    const given = this.attributes(checked);
    const pipeline = new ObjectPipeline(this.minor, this.customResources, this.manifests, this.disabledPlugins, this.storedManifests, new Date());
    const kind = this.kindOfResource(given);
    const oldObject = checked.oldObject === undefined || checked.oldObject === null ? undefined : pipeline.stored(checked.oldObject, kind);
    let object = checked.object === undefined || checked.object === null ? undefined : pipeline.defaulted(checked.object, kind);
    // The apiserver runs no API-defined policy on the policies and bindings themselves, so that no
    // policy can lock itself in (policy/generic/plugin.go); webhook configurations are not exempt.
    if (isAdmissionPolicyResource(given)) {
      const admitted = object ? pipeline.forValidation(given.operation, object, oldObject, true) : undefined;
      return { allowed: true, denials: [], warnings: [], auditAnnotations: {}, ...(admitted ? { admittedObject: admitted } : {}) };
    }
    if (object) object = pipeline.afterPlugins(given, object, oldObject);
    const request: AdmissionRequest = { ...checked, object, oldObject };
    const mutated = this.mutate(request, object, pipeline, (o) => pipeline.afterPlugins(given, o, oldObject));
    // A denial by a mutating policy ends admission: validating policies do not run.
    if (mutated.denials.length > 0) return { allowed: false, denials: mutated.denials, warnings: [], auditAnnotations: {} };
    // The object the mutating policies left is the caller's (patchedObject) only when they changed it.
    const admitted = mutated.object ? pipeline.forValidation(given.operation, mutated.object as GoObject, oldObject, !mutated.changed) : undefined;
    const result = this.validate({ ...request, object: admitted }, this.attributes({ ...request, object: admitted }), admitted);
    return { ...result, ...(admitted ? { admittedObject: admitted } : {}), ...(mutated.changed ? { patchedObject: mutated.object } : {}) };
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
    request: AdmissionRequest, input: unknown, pipeline: ObjectPipeline, reinvokePlugins: (object: GoObject) => GoObject,
  ): { object: unknown; changed: boolean; denials: PolicyDenial[] } {
    // The apiserver calls no patcher when there is no object (DELETE, some CONNECT).
    if (input === undefined || input === null) return { object: input, changed: false, denials: [] };
    let object: unknown = input;
    const pass = (reinvoke: ReadonlySet<string> | undefined) => {
      const denials: PolicyDenial[] = [];
      const ranIfNeeded = new Set<string>();
      let applied = false;
      const a = this.attributes({ ...request, object });
      for (const invocation of this.mutatingInvocations(a, denials)) {
        const { spec, policyName, bindingName, key } = invocation;
        const fail = (message: string, reason: string, mutationIndex?: number) =>
          denyMutation(denials, spec, policyName, bindingName, message, reason, mutationIndex);
        // Each mutation sees the object as the mutations before it left it.
        const scopeFor = () => this.runtime.scope(spec.variables ?? [], invocation.hasParams,
          { ...this.activation(request, a, object), ...(invocation.hasParams ? { params: invocation.param ?? null } : {}) });
        let scope = scopeFor();
        if (!this.conditionsHold(spec.matchConditions ?? [], scope, spec.failurePolicy, (m) => fail(m, 'Invalid'))) continue;
        if (reinvoke && !reinvoke.has(key)) continue;
        (spec.mutations ?? []).forEach((mutation, i) => {
          const jsonPatch = mutation.patchType === 'JSONPatch';
          const expression = (jsonPatch ? mutation.jsonPatch?.expression : mutation.applyConfiguration?.expression) ?? '';
          const value = scope.evaluate(expression, jsonPatch ? ExpressionField.JSON_PATCH : ExpressionField.APPLY_CONFIGURATION);
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
  private mutatingInvocations(a: RequestAttributes, denials: PolicyDenial[]): MutatingInvocation[] {
    const out: MutatingInvocation[] = [];
    const bindings = this.of<Mapb>('MutatingAdmissionPolicyBinding');
    for (const policy of this.of<Map_>('MutatingAdmissionPolicy')) {
      const spec = policy.spec ?? {};
      const policyName = policy.metadata?.name ?? '';
      for (const binding of bindings.filter((b) => b.spec?.policyName === policyName)) {
        if (!this.policyApplies(spec, binding.spec?.matchResources, a)) continue;
        const bindingName = binding.metadata?.name ?? '';
        const configurationError = (message: string) =>
          denyMutation(denials, spec, policyName, bindingName, `failed to configure binding: ${message}`, 'Forbidden');
        const params = resolveParams(spec.paramKind, binding.spec?.paramRef, this.manifests, a.namespace, paramKindNamespaced(spec.paramKind));
        if (params.kind === 'notFound') {
          if (params.action === 'Deny') configurationError(NO_PARAMS);
          continue;
        }
        if (params.kind === 'error') {
          configurationError(params.message);
          continue;
        }
        const hasParams = params.kind === 'objects';
        for (const param of hasParams ? params.objects : [undefined]) {
          const meta = (param as { metadata?: { name?: string; namespace?: string } } | undefined)?.metadata;
          const key = JSON.stringify([policyName, bindingName, meta?.namespace ?? '', meta?.name ?? '']);
          out.push({ spec, policyName, bindingName, hasParams, param, key });
        }
      }
    }
    return out;
  }

  private validate(request: AdmissionRequest, a: RequestAttributes, object: unknown): Omit<AdmissionResult, 'patchedObject'> {
    const denials: PolicyDenial[] = [];
    const warnings: string[] = [];
    const auditAnnotations: { [key: string]: string } = {};
    const auditFailures: object[] = [];
    const base = this.activation(request, a, object);
    for (const policy of this.of<Vap>('ValidatingAdmissionPolicy')) {
      const spec = policy.spec ?? {};
      const policyName = policy.metadata?.name ?? '';
      for (const binding of this.of<Vapb>('ValidatingAdmissionPolicyBinding').filter((b) => b.spec?.policyName === policyName)) {
        if (!this.policyApplies(spec, binding.spec?.matchResources, a)) continue;
        const bindingName = binding.metadata?.name ?? '';
        const actions = binding.spec?.validationActions ?? [];
        const name = `ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}'`;
        const fail = (validationMessage: string, reason: string, expressionIndex?: number) => {
          if (actions.includes('Deny')) denials.push(denial(name, policyName, bindingName, validationMessage, reason, expressionIndex));
          // The apiserver's warning recorder drops a text it already has (several params, the same failure).
          const warning = `Validation failed for ${name}: ${validationMessage}`;
          if (actions.includes('Warn') && !warnings.includes(warning)) warnings.push(warning);
          if (actions.includes('Audit')) {
            auditFailures.push({
              message: validationMessage,
              policy: policyName,
              binding: bindingName,
              // A failure that is not a validation's (a match condition's error) is the policy's only decision.
              expressionIndex: expressionIndex ?? 0,
              validationActions: actions,
            });
          }
        };
        // Configuration errors and audit-annotation errors deny whatever the validationActions (under Fail).
        const deny = (validationMessage: string) => denials.push(denial(name, policyName, bindingName, validationMessage, 'Invalid'));
        const failsClosed = spec.failurePolicy !== 'Ignore';
        const params = resolveParams(spec.paramKind, binding.spec?.paramRef, this.manifests, a.namespace, paramKindNamespaced(spec.paramKind));
        if (params.kind === 'notFound') {
          if (params.action === 'Deny' && failsClosed) deny(`failed to configure binding: ${NO_PARAMS}`);
          continue;
        }
        if (params.kind === 'error') {
          if (failsClosed) deny(`failed to configure binding: ${params.message}`);
          continue;
        }
        const hasParams = params.kind === 'objects';
        for (const param of hasParams ? params.objects : [undefined]) {
          const activation = hasParams ? { ...base, params: param ?? null } : base;
          const scope = this.runtime.scope(spec.variables ?? [], hasParams, activation);
          if (!this.conditionsHold(spec.matchConditions ?? [], scope, spec.failurePolicy, (m) => fail(m, 'Invalid'))) continue;
          // Failures are reported once every validation ran: running out of the binding's budget
          // makes the whole evaluation one error, and the failures before it are not reported.
          const failures: Array<() => void> = [];
          let outOfBudget = false;
          for (const [i, v] of (spec.validations ?? []).entries()) {
            const result = scope.evaluate(v.expression, ExpressionField.VALIDATION);
            if ('error' in result && result.error === BUDGET_EXCEEDED) {
              outOfBudget = true;
              break;
            }
            if ('error' in result) {
              if (failsClosed) failures.push(() => fail(errorMessage(v.expression, result), 'Invalid', i));
            } else if (result.value !== true) {
              const message = this.messageFor(v, scope);
              failures.push(() => fail(message, v.reason ?? 'Invalid', i));
            }
          }
          if (outOfBudget) {
            if (failsClosed) fail(BUDGET_EXCEEDED, 'Invalid');
          } else {
            failures.forEach((report) => report());
          }
          for (const annotation of spec.auditAnnotations ?? []) {
            const result = scope.evaluate(annotation.valueExpression, ExpressionField.AUDIT_ANNOTATION_VALUE);
            if ('error' in result) {
              if (failsClosed) deny(errorMessage(annotation.valueExpression, result));
              continue;
            }
            if (typeof result.value === 'string' && result.value.trim() !== '') {
              // One value per param; distinct values from several params are joined, as the apiserver does.
              const key = `${policyName}/${annotation.key}`;
              const values = new Set((auditAnnotations[key] ?? '').split(', ').filter((x) => x !== ''));
              values.add(result.value.trim());
              auditAnnotations[key] = [...values].join(', ');
            }
          }
        }
      }
    }
    if (auditFailures.length > 0) auditAnnotations[AUDIT_FAILURE_KEY] = JSON.stringify(auditFailures);
    return { allowed: denials.length === 0, denials, warnings, auditAnnotations };
  }

  /** The policy's own constraints and the binding's matchResources both select the request. */
  private policyApplies(
    spec: { matchConstraints?: wire.MatchResources } | undefined, bindingMatch: wire.MatchResources | undefined, a: RequestAttributes,
  ): boolean {
    if (!spec?.matchConstraints || !matchResourcesMatch(spec.matchConstraints, a, true)) return false;
    return !bindingMatch || matchResourcesMatch(bindingMatch, a, false);
  }

  /**
   * Any false match condition skips the policy; errors (with none false) skip it under
   * failurePolicy Ignore and fail the request under Fail, with every error (one as it is, several
   * as `[e1, e2]`, as the apiserver aggregates them).
   */
  private conditionsHold(
    conditions: readonly wire.MatchCondition[], scope: EvaluationScope, failurePolicy: string | undefined, onError: (message: string) => void,
  ): boolean {
    const errors: string[] = [];
    const conditionScope = scope.forMatchConditions(new CostBudget(MATCH_CONDITIONS_BUDGET));
    for (const c of conditions) {
      const result = conditionScope.evaluate(c.expression, ExpressionField.MATCH_CONDITION);
      if ('error' in result) {
        errors.push(errorMessage(c.expression, result));
        continue;
      }
      if (result.value !== true) return false;
    }
    if (errors.length === 0) return true;
    if (failurePolicy !== 'Ignore') onError(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    return false;
  }

  /** messageExpression (a non-empty, one-line string of at most 5 KiB), else message, else `failed expression: ...`. */
  private messageFor(v: wire.Validation, scope: EvaluationScope): string {
    if (v.messageExpression) {
      const result = scope.evaluate(v.messageExpression, ExpressionField.MESSAGE_EXPRESSION);
      if (!('error' in result) && typeof result.value === 'string') {
        const text = result.value.trim();
        if (text !== '' && !/[\r\n]/.test(text) && Buffer.byteLength(text) <= MAX_MESSAGE_BYTES) return text;
      }
    }
    if (v.message && v.message.trim() !== '') return v.message.trim();
    return `failed expression: ${v.expression.trim()}`;
  }
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
