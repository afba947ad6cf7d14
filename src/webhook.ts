import { ApiObject, Duration } from 'cdk8s';
import { IConstruct } from 'constructs';
import { FailurePolicy, MatchPolicy, ReinvocationPolicy, SideEffects } from './enums';
import { LabelSelector, LabelSelectorOperator, renderLabelSelector } from './label-selector';
import { MatchCondition, nonEmpty } from './policy-parts';
import { checkStructKeys, WEBHOOK_OPTIONS } from './private/struct-keys';
import { renderResourceRule, ResourceRule } from './resource-rule';
import { renderValue } from './validation/field-errors';
import { unmatchableReason } from './validation/selector-satisfiability';
import { Violation, ViolationSeverity } from './validation/violation';
import type * as wire from './wire/admissionregistration';
import type * as wireMeta from './wire/meta';

const NAMESPACE_LABEL = 'kubernetes.io/metadata.name';
const DEFAULT_TIMEOUT = Duration.seconds(5);

/** How a webhook is configured, whatever its endpoint. */
export interface WebhookOptions {
  /** The webhook's fully qualified name, e.g. `validate.pods.example.com` (at least three DNS labels). */
  readonly name: string;

  /**
   * The URL path on the Service, e.g. `/validate-pods`. Not for `forUrl` (the URL has the path).
   * @default - none: requests go to the Service's root
   */
  readonly path?: string;

  /**
   * The Service port. Not for `forUrl` (the URL has the port).
   * @default - the Service's port when it exposes exactly one, else 443
   */
  readonly port?: number;

  /**
   * The requests sent to the webhook.
   * @default - none: the webhook receives nothing until rules are given
   */
  readonly rules?: ResourceRule[];

  /**
   * What happens when the webhook cannot be called or fails.
   * @default FailurePolicy.FAIL
   */
  readonly failurePolicy?: FailurePolicy;

  /**
   * How rules match requests made through other versions of a resource.
   * @default MatchPolicy.EQUIVALENT
   */
  readonly matchPolicy?: MatchPolicy;

  /**
   * Only objects in namespaces matching this selector. Unless `excludeSystemNamespaces` is false,
   * a requirement excluding the webhook's own namespace and kube-system is added to it.
   * @default - all namespaces but the excluded ones
   */
  readonly namespaceSelector?: LabelSelector;

  /**
   * Only objects matching this selector.
   * @default - all objects (`{}`)
   */
  readonly objectSelector?: LabelSelector;

  /**
   * CEL conditions that must all be true for the webhook to be called.
   * @default - none
   */
  readonly matchConditions?: MatchCondition[];

  /**
   * Whether calling the webhook has side effects. Only `None` and `NoneOnDryRun` exist in v1; with
   * `NoneOnDryRun` the webhook must skip its side effects when `request.dryRun` is true.
   * @default SideEffects.NONE
   */
  readonly sideEffects?: SideEffects;

  /**
   * How long the apiserver waits for the webhook, in whole seconds from 1 to 30. A timeout counts
   * as a failure under the failurePolicy.
   * @default Duration.seconds(5)
   */
  readonly timeout?: Duration;

  /**
   * The AdmissionReview versions the webhook accepts, in order of preference.
   * @default ['v1']
   */
  readonly admissionReviewVersions?: string[];

  /**
   * Whether a mutating webhook is called again after later mutations. Only for
   * MutatingWebhookConfiguration: an error on a validating one.
   * @default - `ReinvocationPolicy.NEVER` on a mutating configuration
   */
  readonly reinvocationPolicy?: ReinvocationPolicy;

  /**
   * Keeps the webhook away from the requests that would lock a cluster out: the webhook's own
   * namespace (its pods could not start while it is down) and kube-system, excluded through
   * `namespaceSelector` (`kubernetes.io/metadata.name NotIn [...]`). Set to false only for a
   * webhook that must see them, and give it `failurePolicy: Ignore`.
   * @default true
   */
  readonly excludeSystemNamespaces?: boolean;
}

/** Where a webhook is called. */
interface Endpoint {
  readonly url?: string;
  readonly serviceName?: string;
  readonly namespace?: string;
  /** The Service's ApiObject, when it is part of the app. */
  readonly service?: ApiObject;
}

/**
 * One admission webhook: an endpoint and the requests it receives. Add it to a
 * ValidatingWebhookConfiguration or a MutatingWebhookConfiguration.
 *
 * Safe by default, and written out: `sideEffects: None`, `admissionReviewVersions: [v1]`,
 * `failurePolicy: Fail`, `matchPolicy: Equivalent`, a 5 second timeout, explicit selectors, and
 * the webhook's own namespace and kube-system excluded.
 */
export class Webhook {
  /**
   * A webhook served by a Service of this app: a cdk8s-plus `Service`, or any construct whose
   * ApiObject (`ApiObject.of`) is a Service. Its name and namespace (the chart's counts) are read
   * from it; the configuration is written after it, and the port is checked against its ports.
   */
  public static forService(service: IConstruct, options: WebhookOptions): Webhook {
    const apiObject = serviceApiObject(service);
    const namespace = apiObject.metadata.namespace;
    if (!namespace) {
      throw new Error(`${service.node.path}: Service ${apiObject.name} has no namespace, and a webhook's Service reference needs one: `
        + 'set metadata.namespace on the Service, or a namespace on its chart');
    }
    return new Webhook({ serviceName: apiObject.name, namespace, service: apiObject }, options);
  }

  /** A webhook served by a Service defined outside this app. */
  public static forServiceName(serviceName: string, namespace: string, options: WebhookOptions): Webhook {
    const name = checkedName(options);
    if (typeof serviceName !== 'string' || typeof namespace !== 'string' || !serviceName || !namespace) {
      throw new Error(`webhook ${name}: the Service name and namespace are both required, as strings`);
    }
    return new Webhook({ serviceName, namespace }, options);
  }

  /**
   * A webhook served outside the cluster, at an `https://host[:port][/path]` URL (no user
   * information, query or fragment; the URL is checked at synth with the apiserver's rules).
   */
  public static forUrl(url: string, options: WebhookOptions): Webhook {
    const name = checkedName(options);
    for (const [option, value] of [['path', options.path], ['port', options.port]] as const) {
      if (value !== undefined) throw new Error(`webhook ${name}: '${option}' is for Service webhooks; put it in the URL`);
    }
    return new Webhook({ url }, options);
  }

  /** The webhook's name. */
  public readonly name: string;

  /** The Service's ApiObject, when the Service is part of the app. @internal */
  public readonly _service?: ApiObject;

  /** Whether a reinvocationPolicy was set (for the validating configuration's check). @internal */
  public readonly _hasReinvocationPolicy: boolean;

  private readonly endpoint: Endpoint;
  private readonly options: WebhookOptions;
  private readonly timeoutSeconds: number;

  private constructor(endpoint: Endpoint, options: WebhookOptions) {
    checkedName(options);
    for (const [i, rule] of (options.rules ?? []).entries()) {
      if (rule.resourceNames && rule.resourceNames.length > 0) {
        throw new Error(`webhook ${options.name}: rules[${i}] names resources, which webhook rules cannot do (resourceNames is a policy feature); `
          + 'use an objectSelector or a matchCondition on object.metadata.name');
      }
    }
    this.name = options.name;
    this.endpoint = endpoint;
    this.options = options;
    this.checkExclusionLeavesNamespaces();
    this._service = endpoint.service;
    this._hasReinvocationPolicy = options.reinvocationPolicy !== undefined;
    this.timeoutSeconds = wholeSeconds(options.timeout ?? DEFAULT_TIMEOUT, options.name);
  }

  /** @internal */
  public _render(mutating: boolean, caBundle: string | undefined): wire.MutatingWebhook {
    const o = this.options;
    const service = this.serviceAsRendered();
    return {
      name: o.name,
      clientConfig: { ...this.renderClientConfig(service), ...(caBundle !== undefined ? { caBundle } : {}) },
      ...nonEmpty('rules', (o.rules ?? []).map(renderResourceRule)),
      failurePolicy: o.failurePolicy ?? FailurePolicy.FAIL,
      matchPolicy: o.matchPolicy ?? MatchPolicy.EQUIVALENT,
      namespaceSelector: this.renderNamespaceSelector(service),
      objectSelector: renderLabelSelector(o.objectSelector),
      ...nonEmpty('matchConditions', (o.matchConditions ?? []).map((c) => ({ name: c.name, expression: c.expression }))),
      sideEffects: o.sideEffects ?? SideEffects.NONE,
      timeoutSeconds: this.timeoutSeconds,
      admissionReviewVersions: [...(o.admissionReviewVersions ?? ['v1'])],
      ...(mutating ? { reinvocationPolicy: o.reinvocationPolicy ?? ReinvocationPolicy.NEVER } : {}),
    };
  }

  /** The Service port checks, for a Service of this app. @internal */
  public _checkService(path: string): Violation[] {
    if (!this._service) return [];
    const service = this.serviceAsRendered();
    const port = this.servicePort(service);
    if (service.ports.includes(port)) return [];
    const what = this.options.port !== undefined ? `port ${port}` : `the default port ${port} (the Service has ${service.ports.length === 0 ? 'no ports' : 'several ports'})`;
    return [{
      path: `${path}.clientConfig.service.port`,
      message: `Invalid value: ${port}: ${what} is not exposed by Service ${service.namespace}/${service.name} `
        + `(${this._service.node.path}), which exposes ${service.ports.length > 0 ? service.ports.join(', ') : 'none'}: set the webhook's port to one of them`,
      severity: ViolationSeverity.ERROR,
    }];
  }

  private renderClientConfig(service: RenderedService): wire.WebhookClientConfig {
    if (this.endpoint.url !== undefined) return { url: this.endpoint.url };
    return {
      service: {
        name: service.name,
        namespace: service.namespace,
        ...(this.options.path !== undefined ? { path: this.options.path } : {}),
        port: this.servicePort(service),
      },
    };
  }

  /**
   * The Service's name, namespace and ports. A Service of this app is read at each rendering, so
   * that a rename after the webhook was created (`addJsonPatch` on metadata.name) is followed.
   */
  private serviceAsRendered(): RenderedService {
    const fallback = { name: this.endpoint.serviceName ?? '', namespace: this.endpoint.namespace ?? '', ports: [] };
    const service = this.endpoint.service;
    if (!service) return fallback;
    const manifest = service.toJson() ?? {};
    const metadata = manifest.metadata ?? {};
    const ports: Array<{ port?: unknown }> = Array.isArray(manifest.spec?.ports) ? manifest.spec.ports : [];
    return {
      name: typeof metadata.name === 'string' ? metadata.name : fallback.name,
      namespace: typeof metadata.namespace === 'string' ? metadata.namespace : fallback.namespace,
      ports: ports.map((p) => p?.port).filter((p): p is number => typeof p === 'number'),
    };
  }

  private servicePort(service: RenderedService): number {
    if (this.options.port !== undefined) return this.options.port;
    return service.ports.length === 1 ? service.ports[0] : 443;
  }

  /**
   * A namespaceSelector that only the default exclusion makes match nothing (asking for
   * kube-system, say) would silently never call the webhook: the user asked for namespaces
   * the library removed. (Checked at construction, with the Service's namespace as it is then.)
   */
  private checkExclusionLeavesNamespaces(): void {
    const own = renderLabelSelector(this.options.namespaceSelector);
    if (this.options.excludeSystemNamespaces === false || unmatchableReason(own) !== undefined) return;
    const asCreated = { name: this.endpoint.serviceName ?? '', namespace: this.endpoint.namespace ?? '', ports: [] };
    if (unmatchableReason(this.renderNamespaceSelector(asCreated)) === undefined) return;
    const excluded = [this.endpoint.namespace, 'kube-system'].filter((n) => !!n).join(' and ');
    throw new Error(`webhook ${this.name}: namespaceSelector selects only namespaces the webhook excludes by default (${excluded}, `
      + 'kept away from webhooks so that a failing webhook cannot lock the cluster out); to call the webhook there, set '
      + 'excludeSystemNamespaces: false, and failurePolicy: Ignore so that its outages do not block them');
  }

  private renderNamespaceSelector(service: RenderedService): wireMeta.LabelSelector {
    const selector = renderLabelSelector(this.options.namespaceSelector);
    if (this.options.excludeSystemNamespaces === false) return selector;
    const namespace = this.endpoint.url === undefined ? service.namespace : undefined;
    const excluded = [...new Set([namespace, 'kube-system'].filter((n): n is string => !!n))];
    return {
      ...selector,
      matchExpressions: [...(selector.matchExpressions ?? []), { key: NAMESPACE_LABEL, operator: LabelSelectorOperator.NOT_IN, values: excluded }],
    };
  }
}

/** A webhook's Service as the current rendering sees it. */
interface RenderedService {
  readonly name: string;
  readonly namespace: string;
  readonly ports: readonly number[];
}

/** The options' webhook name, once the options are known to be a WebhookOptions with a string name. */
function checkedName(options: WebhookOptions): string {
  if (typeof options?.name !== 'string') {
    throw new Error(`Webhook: options.name must be a string, the webhook's fully qualified name (validate.pods.example.com), got ${renderValue(options?.name).slice(0, 60)}`);
  }
  checkStructKeys(`webhook ${options.name}`, options, WEBHOOK_OPTIONS);
  return options.name;
}

function serviceApiObject(service: IConstruct): ApiObject {
  let apiObject: ApiObject;
  try {
    apiObject = ApiObject.of(service);
  } catch {
    throw new Error(`${service.node.path}: Webhook.forService needs a Service (a cdk8s-plus Service or an ApiObject of kind Service), and this construct has no ApiObject`);
  }
  if (apiObject.kind !== 'Service') {
    throw new Error(`${service.node.path}: Webhook.forService needs a Service, not a ${apiObject.kind}`);
  }
  return apiObject;
}

function wholeSeconds(timeout: Duration, name: string): number {
  try {
    return timeout.toSeconds();
  } catch {
    throw new Error(`webhook ${name}: timeout ${timeout.toHumanString()} is not a whole number of seconds (timeoutSeconds is an integer from 1 to 30)`);
  }
}
