import { Chart } from 'cdk8s';
import { AdmissionKind } from '../admission-kind';
import { KubernetesVersion, toKubernetesVersion } from '../kubernetes-version';
import { checkStructKeys, DENIAL_EXPECTATION, POLICY_TESTER_OPTIONS } from '../private/struct-keys';
import { CustomResourceSchemas } from '../schemas/custom-resources';
import { StaticAdmissionChart } from '../static-admission-chart';
import { AdmissionPlugin } from './admission-plugins/admission-plugin';
import { AdmissionRequest } from './admission-request';
import { AdmissionResult } from './admission-result';
import {
  allowedFailure, auditedFailure, DenialExpectation, deniedFailure, matchedByFailure, mutatedFailure, noPolicyMatchedFailure, warnedFailure,
} from './assertions';
import { CelRuntime } from './cel-runtime';
import { GoObject } from './defaulting/go-values';
import { Explanation } from './explain/explanation';
import { withExplanation } from './explain/result-explanation';
import { ReviewRecorder } from './explain/review-recorder';
import { checkAdmissible, checkDecodable, checkedManifests, checkedRequest, checkStaticAdmissible, yamlDocuments } from './input-checks';
import { MatchLog } from './match-log';
import { RequestAttributes } from './matching';
import { MutatingDispatcher } from './mutating-dispatcher';
import { ObjectPipeline } from './object-pipeline';
import { decideWith, Permission } from './permissions';
import { CoverageRecorder } from './policy-coverage/coverage-recorder';
import { PolicyCoverage } from './policy-coverage/policy-coverage';
import { runCoverage } from './policy-coverage/run-coverage';
import { MatchMiss } from './policy-match';
import { PolicySet } from './policy-set';
import { RequestModel, requestLine } from './request-model';
import { ReviewObserver } from './review-observer';
import { ValidatingDispatcher } from './validating-dispatcher';

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

  /**
   * The static set the apiserver loads from its staticManifestsDir at start, besides the objects
   * created through the API: parsed objects, or strings of YAML (`StaticAdmissionChart.toStaticManifests()`,
   * or the files `synthDirectory` wrote). Static policies run before the API's, bind only with
   * static bindings, and are the only ones the apiserver runs on requests for admission policies
   * and bindings. `fromChart` of a StaticAdmissionChart takes its set from the chart.
   * @default - none
   */
  readonly staticManifests?: any[];
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
  /**
   * A tester for the manifests of a chart (synthesized, so the chart's checks run first). A
   * StaticAdmissionChart's objects are the tester's static set.
   */
  public static fromChart(chart: Chart, options: PolicyTesterOptions = {}): PolicyTester {
    if (StaticAdmissionChart.isStaticAdmissionChart(chart)) {
      const given = Array.isArray(options?.staticManifests) ? options.staticManifests : [];
      return new PolicyTester([], { ...options, staticManifests: [...chart.toStaticManifests(), ...given] }, 'PolicyTester.fromChart');
    }
    return new PolicyTester(checkedManifests(chart.toJson(), 'PolicyTester.fromChart'), options, 'PolicyTester.fromChart');
  }

  /** A tester for manifests: parsed objects, or strings of (multi-document) YAML or JSON. */
  public static fromManifests(manifests: any[], options: PolicyTesterOptions = {}): PolicyTester {
    if (!Array.isArray(manifests)) throw new Error(`PolicyTester.fromManifests: manifests must be an array, got ${typeof manifests}`);
    return new PolicyTester(checkedManifests(parsedManifests(manifests, 'PolicyTester.fromManifests: manifest'), 'PolicyTester.fromManifests'),
      options, 'PolicyTester.fromManifests');
  }

  /** A tester for a multi-document YAML text. */
  public static fromYaml(yaml: string, options: PolicyTesterOptions = {}): PolicyTester {
    if (typeof yaml !== 'string') throw new Error(`PolicyTester.fromYaml: expected YAML text, got ${typeof yaml}`);
    return new PolicyTester(checkedManifests(yamlDocuments(yaml, 'PolicyTester.fromYaml'), 'PolicyTester.fromYaml'), options, 'PolicyTester.fromYaml');
  }

  private readonly manifests: readonly any[];
  /** The target minor, whose built-in schemas request objects are decoded with. */
  private readonly minor: number;
  /** The schemas of the CRDs among the manifests, which custom resources are decoded with. */
  private readonly customResources: CustomResourceSchemas;
  private readonly policies: PolicySet;
  private readonly requests: RequestModel;
  private readonly mutating: MutatingDispatcher;
  private readonly validating: ValidatingDispatcher;
  /** The dispatchers of the static set alone, for requests for admission policies and bindings (when there is a static set). */
  private readonly staticDispatchers?: { readonly mutating: MutatingDispatcher; readonly validating: ValidatingDispatcher };
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
    const staticManifests = staticSetOf(options.staticManifests, source);
    checkStaticAdmissible(staticManifests, version, source);
    this.manifests = manifests;
    const runtime = new CelRuntime(version.minor);
    this.minor = version.minor;
    this.customResources = CustomResourceSchemas.fromManifests(manifests);
    this.policies = new PolicySet(manifests, staticManifests);
    this.requests = new RequestModel(this.minor, this.customResources, manifests, decideWith(options.permissions ?? []));
    const dispatchers = (policies: PolicySet) => ({
      mutating: new MutatingDispatcher(policies, this.requests, runtime, manifests, this.minor, this.customResources),
      validating: new ValidatingDispatcher(policies, this.requests, runtime, manifests),
    });
    ({ mutating: this.mutating, validating: this.validating } = dispatchers(this.policies));
    if (this.policies.hasStaticPolicies) this.staticDispatchers = dispatchers(this.policies.staticOnly());
    this.disabledPlugins = new Set(checkedPlugins(options.disabledAdmissionPlugins, source));
    const run = runCoverage();
    if (options.coverage ?? run !== undefined) {
      this.coverageRecorder = new CoverageRecorder(this.policies.covered(), runtime);
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
    const given = this.requests.attributes(checked);
    recorder?.requested(requestLine(given, checked.userInfo?.username));
    const pipeline = new ObjectPipeline(this.minor, this.customResources, this.manifests, this.disabledPlugins, this.storedManifests, new Date());
    const kind = this.requests.kindOfResource(given);
    const oldObject = checked.oldObject === undefined || checked.oldObject === null ? undefined : pipeline.stored(checked.oldObject, kind);
    let object = checked.object === undefined || checked.object === null ? undefined : pipeline.defaulted(checked.object, kind);
    const log = new MatchLog();
    // The apiserver runs no API-defined policy on the policies and bindings themselves, so that no
    // policy can lock itself in, but runs the static ones (policy/generic/plugin.go: Dispatch,
    // isExcludedFromAPIHooks); webhook configurations are not exempt.
    let { mutating, validating, policies } = { mutating: this.mutating, validating: this.validating, policies: this.policies };
    if (isAdmissionPolicyResource(given)) {
      this.policies.apiOnly().missEvery(log, MatchMiss.EXEMPT,
        'the apiserver runs no admission policy created through the API on admission policies and their bindings');
      if (!this.staticDispatchers) {
        const admitted = object ? pipeline.forValidation(given.operation, object, oldObject, true) : undefined;
        const exempt: AdmissionResult = { allowed: true, denials: [], warnings: [], auditAnnotations: {}, policies: log.list() };
        return admitted ? { ...exempt, admittedObject: admitted } : exempt;
      }
      ({ mutating, validating } = this.staticDispatchers);
      policies = this.policies.staticOnly();
    }
    if (object) object = pipeline.afterPlugins(given, object, oldObject);
    const request: AdmissionRequest = { ...checked, object, oldObject };
    const mutated = mutating.dispatch(request, object, pipeline, (o) => pipeline.afterPlugins(given, o, oldObject), log, recorder);
    // A denial by a mutating policy ends admission: validating policies do not run.
    if (mutated.denials.length > 0) {
      policies.missEvery(log, MatchMiss.NOT_REACHED, 'a mutating policy denied the request before validating policies ran',
        AdmissionKind.VALIDATING_ADMISSION_POLICY);
      return { allowed: false, denials: mutated.denials, warnings: [], auditAnnotations: {}, policies: log.list() };
    }
    // The object the mutating policies left is the caller's (patchedObject) only when they changed it.
    const admitted = mutated.object ? pipeline.forValidation(given.operation, mutated.object as GoObject, oldObject, !mutated.changed) : undefined;
    const validated = { ...request, object: admitted };
    const result = validating.dispatch(validated, this.requests.attributes(validated), admitted, log, recorder);
    return {
      ...result,
      policies: log.list(),
      ...(admitted ? { admittedObject: admitted } : {}),
      ...(mutated.changed ? { patchedObject: mutated.object } : {}),
    };
  }
}

/** Manifests given as objects or strings of (multi-document) YAML or JSON, as objects. */
function parsedManifests(manifests: readonly unknown[], what: string): unknown[] {
  return manifests.flatMap((m, i) => (typeof m === 'string' ? yamlDocuments(m, `${what} ${i}`) : [m]));
}

/** The static set of the options, checked and copied like the other manifests. */
function staticSetOf(given: unknown, source: string): unknown[] {
  if (given === undefined) return [];
  if (!Array.isArray(given)) throw new Error(`${source}: options.staticManifests must be a list of manifests, got ${typeof given}`);
  return checkedManifests(parsedManifests(given, `${source}: options.staticManifests[]`), `${source}: options.staticManifests`);
}

const POLICY_RESOURCES: ReadonlySet<string> = new Set([
  'validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings',
]);

function isAdmissionPolicyResource(a: RequestAttributes): boolean {
  return a.group === 'admissionregistration.k8s.io' && POLICY_RESOURCES.has(a.resource);
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
