import { Construct } from 'constructs';
import { AdmissionKind } from './admission-kind';
import { WebhookConfiguration, WebhookConfigurationProps } from './webhook-configuration';

/** Properties of a MutatingWebhookConfiguration. */
export interface MutatingWebhookConfigurationProps extends WebhookConfigurationProps {}

/**
 * A MutatingWebhookConfiguration: webhooks the apiserver calls, one after another, to change the
 * requests they match. Written after the Services of its webhooks. Each webhook's
 * `reinvocationPolicy` defaults to `Never`, written out.
 */
export class MutatingWebhookConfiguration extends WebhookConfiguration {
  public constructor(scope: Construct, id: string, props: MutatingWebhookConfigurationProps = {}) {
    super(scope, id, AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION, props);
  }
}
