import { ApiObject, ApiObjectMetadata, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { AdmissionKind } from './admission-kind';
import { CaBundle } from './ca-bundle';
import { KubernetesVersion } from './kubernetes-version';
import { attachChecks, CheckedApiObject } from './private/admission-checks';
import { NameRegistry } from './private/name-registry';
import { objectMetadata } from './private/object-metadata';
import { checkStructKeys, MUTATING_WEBHOOK_CONFIGURATION_PROPS, VALIDATING_WEBHOOK_CONFIGURATION_PROPS } from './private/struct-keys';
import { Violation, ViolationSeverity } from './validation/violation';
import { Webhook } from './webhook';

/** Properties of a ValidatingWebhookConfiguration or MutatingWebhookConfiguration. */
export interface WebhookConfigurationProps {
  /**
   * The configuration's name (`metadata.name`).
   * @default - a name generated from the construct path
   */
  readonly name?: string;

  /**
   * Labels and annotations. `namespace` is not allowed: webhook configurations are cluster-scoped.
   * @default - none besides the chart's labels
   */
  readonly metadata?: ApiObjectMetadata;

  /**
   * The webhooks; more with `addWebhook`.
   * @default - none
   */
  readonly webhooks?: Webhook[];

  /**
   * The CA the apiserver trusts for every webhook of the configuration: a literal PEM bundle, or
   * cert-manager's CA injection (one source per configuration).
   * @default - no caBundle: the webhooks' serving certificates must be trusted by the apiserver's system roots
   */
  readonly caBundle?: CaBundle;

  /**
   * The Kubernetes version to write the configuration for.
   * @default - the context value `cdk8s-admission:kubernetesVersion`, else `KubernetesVersion.LATEST`
   */
  readonly kubernetesVersion?: KubernetesVersion;
}

const webhookNames = new NameRegistry<WebhookConfiguration>();

/** What both webhook configuration kinds share. */
export abstract class WebhookConfiguration extends Construct {
  /** The ApiObject this configuration renders to (an escape hatch, e.g. for `addJsonPatch`). */
  public readonly apiObject: ApiObject;

  /** The Kubernetes version the configuration is written for. */
  public readonly kubernetesVersion: KubernetesVersion;

  private readonly webhooks: Webhook[] = [];
  private readonly caBundle?: CaBundle;
  private readonly mutating: boolean;

  protected constructor(scope: Construct, id: string, kind: AdmissionKind, props: WebhookConfigurationProps) {
    super(scope, id);
    this.mutating = kind === AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION;
    checkStructKeys(this.node.path, props, this.mutating ? MUTATING_WEBHOOK_CONFIGURATION_PROPS : VALIDATING_WEBHOOK_CONFIGURATION_PROPS);
    this.caBundle = props.caBundle;
    this.kubernetesVersion = props.kubernetesVersion ?? KubernetesVersion.fromContext(this);
    const metadata = objectMetadata(props, this);
    const annotations = { ...metadata.annotations };
    const manual = Object.keys(annotations).find((k) => k.startsWith('cert-manager.io/inject-'));
    if (manual && props.caBundle) {
      throw new Error(`${this.node.path}: both the ${manual} annotation and caBundle are set; a configuration has one CA source: `
        + 'remove the annotation and keep caBundle (CaBundle.fromCertManagerCertificate sets the annotation itself)');
    }
    const injection = props.caBundle?._annotation;
    if (injection) annotations[injection.key] = injection.value;

    this.apiObject = new CheckedApiObject(this, 'Resource', {
      apiVersion: this.kubernetesVersion.apiVersionFor(kind),
      kind,
      metadata: { ...metadata, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) },
      webhooks: Lazy.any({ produce: () => this.webhooks.map((w) => w._render(this.mutating, this.caBundle?._caBundle)) }),
    });
    attachChecks({
      construct: this,
      kind,
      apiObject: this.apiObject,
      kubernetesVersion: this.kubernetesVersion,
      crossChecks: () => this.crossChecks(),
    });
    for (const webhook of props.webhooks ?? []) this.addWebhook(webhook);
  }

  /** The configuration's name (`metadata.name`). */
  public get name(): string {
    return this.apiObject.name;
  }

  /** Adds a webhook. A webhook backed by a Service of the app makes the configuration come after it. */
  public addWebhook(webhook: Webhook): void {
    if (!this.mutating && webhook._hasReinvocationPolicy) {
      throw new Error(`${this.node.path}: webhook ${webhook.name} sets reinvocationPolicy, which only mutating webhooks have: `
        + 'remove it, or add the webhook to a MutatingWebhookConfiguration');
    }
    this.webhooks.push(webhook);
    if (webhook._service) this.node.addDependency(webhook._service);
    webhookNames.register(this, webhook.name);
  }

  private crossChecks(): Violation[] {
    return this.webhooks.flatMap((webhook, i) => {
      const path = `webhooks[${i}]`;
      const owners = webhookNames.owners(this, webhook.name);
      const other = owners.find((c) => c !== this);
      const duplicate: Violation[] = other && owners.indexOf(this) > owners.indexOf(other)
        ? [{
          path: `${path}.name`,
          message: `Duplicate value: ${JSON.stringify(webhook.name)}: ${other.node.path} has a webhook with the same name; webhook names `
            + 'identify webhooks in metrics, audit annotations and errors, so keep them unique across the app',
          severity: ViolationSeverity.ERROR,
        }]
        : [];
      return [...duplicate, ...webhook._checkService(path)];
    });
  }
}
