import { AdmissionKind } from '../admission-kind';
import { AdmissionRequest } from './admission-request';
import { PolicyDenial } from './admission-result';
import { applyMutation, ObjectSchema } from './apply-mutation';
import {
  denial, errorMessage, logConditions, logMismatch, logMissingParams, matchConditions, NO_PARAMS, paramKindNamespaced,
} from './binding-evaluation';
import { CelRuntime } from './cel-runtime';
import { GoObject } from './defaulting/go-values';
import { MatchLog } from './match-log';
import { RequestAttributes } from './matching';
import { ObjectPipeline } from './object-pipeline';
import { resolveParams } from './params';
import { MatchMiss } from './policy-match';
import { PolicySet } from './policy-set';
import { RequestModel } from './request-model';
import { groupVersionKind } from './resource-table';
import { ReviewObserver } from './review-observer';
import { resourceRoot } from './structured-merge';
import { BuiltinSchemas } from '../schemas/builtin-schemas';
import { CustomResourceSchemas } from '../schemas/custom-resources';
import { ExpressionField } from '../shared/expression-field';
import type * as wire from '../wire/admissionregistration';

const KIND = AdmissionKind.MUTATING_ADMISSION_POLICY;

/** A mutating policy's denial keeps the 403 of the Forbidden error it is built from, whatever its reason. */
const MUTATING_CODE = 403;

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

/** What the mutating policies made of the object: the result, whether it changed, and their denials. */
export interface MutationOutcome {
  readonly object: unknown;
  readonly changed: boolean;
  readonly denials: PolicyDenial[];
}

/**
 * The mutating policies, as the apiserver's mutating dispatcher runs them
 * (k8s.io/apiserver pkg/admission/plugin/policy/mutating/dispatcher.go): every invocation (policy,
 * binding and param) in turn, each mutation on the object the ones before it left, defaulted
 * again. When any mutation applied, admission runs its chain once more: the built-in mutating
 * plugins, then the `IfNeeded` invocations that ran (the dispatcher marks them for it). Errors
 * under `Fail` deny the request at the end of the pass they happen in.
 */
export class MutatingDispatcher {
  constructor(
    private readonly policies: PolicySet,
    private readonly requests: RequestModel,
    private readonly runtime: CelRuntime,
    private readonly manifests: readonly any[],
    private readonly minor: number,
    private readonly customResources: CustomResourceSchemas,
  ) {}

  public dispatch(
    request: AdmissionRequest, input: unknown, pipeline: ObjectPipeline, reinvokePlugins: (object: GoObject) => GoObject, log: MatchLog,
    recorder: ReviewObserver | undefined,
  ): MutationOutcome {
    // The apiserver calls no patcher when there is no object (DELETE, some CONNECT).
    if (input === undefined || input === null) {
      const a = this.requests.attributes(request);
      this.policies.eachBinding<wire.MutatingAdmissionPolicySpec>(KIND, log, (spec, policyName, bindingName, binding) => {
        if (logMismatch(log, KIND, spec, policyName, bindingName, binding, a)) return;
        log.missed(KIND, policyName, bindingName, MatchMiss.NOT_REACHED, `the ${a.operation} request has no object: the apiserver runs no mutating policy on it`);
      });
      return { object: input, changed: false, denials: [] };
    }
    let object: unknown = input;
    const pass = (reinvoke: ReadonlySet<string> | undefined) => {
      const denials: PolicyDenial[] = [];
      const ranIfNeeded = new Set<string>();
      let applied = false;
      const a = this.requests.attributes({ ...request, object });
      // What acted is the first pass's: reinvocation runs only invocations that acted then.
      const passLog = reinvoke ? undefined : log;
      for (const invocation of this.invocations(a, denials, passLog)) {
        const { spec, policyName, bindingName, key } = invocation;
        const fail = (message: string, reason: string, mutationIndex?: number) =>
          denyMutation(denials, spec, policyName, bindingName, message, reason, mutationIndex);
        const observer = recorder && (!reinvoke || reinvoke.has(key))
          ? recorder.evaluation(KIND, policyName, bindingName, invocation.param, reinvoke !== undefined)
          : undefined;
        // Each mutation sees the object as the mutations before it left it.
        const scopeFor = () => this.runtime.scope(spec.variables ?? [], invocation.hasParams,
          { ...this.requests.activation(request, a, object), ...(invocation.hasParams ? { params: invocation.param ?? null } : {}) },
          undefined, observer);
        let scope = scopeFor();
        const conditions = matchConditions(spec.matchConditions ?? [], scope, spec.failurePolicy, (m) => fail(m, 'Invalid'));
        if (passLog) logConditions(passLog, KIND, policyName, bindingName, conditions);
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

  /**
   * The (policy, binding, param) invocations of the mutating policies that match a request, in
   * name order; configuration errors (missing params) are added to `denials` under `Fail`.
   */
  private invocations(a: RequestAttributes, denials: PolicyDenial[], log: MatchLog | undefined): MutatingInvocation[] {
    const out: MutatingInvocation[] = [];
    this.policies.eachBinding<wire.MutatingAdmissionPolicySpec>(KIND, log ?? new MatchLog(), (spec, policyName, bindingName, binding) => {
      if (logMismatch(log, KIND, spec, policyName, bindingName, binding, a)) return;
      const params = resolveParams(spec.paramKind, binding.spec?.paramRef, this.manifests, a.namespace, paramKindNamespaced(spec.paramKind));
      if (params.kind === 'notFound' || params.kind === 'error') {
        if (params.kind === 'error' || params.action === 'Deny') {
          const message = params.kind === 'error' ? params.message : NO_PARAMS;
          denyMutation(denials, spec, policyName, bindingName, `failed to configure binding: ${message}`, 'Forbidden');
        }
        if (log) logMissingParams(log, KIND, policyName, bindingName, params, spec.failurePolicy !== 'Ignore');
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
}

/** A mutating policy's failure, which denies under failurePolicy Fail. */
function denyMutation(
  denials: PolicyDenial[], spec: wire.MutatingAdmissionPolicySpec, policyName: string, bindingName: string,
  message: string, reason: string, mutationIndex?: number,
): void {
  if (spec.failurePolicy === 'Ignore') return;
  denials.push(denial(`policy '${policyName}' with binding '${bindingName}'`, policyName, bindingName, message, reason, mutationIndex, MUTATING_CODE));
}
