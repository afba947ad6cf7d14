import { Construct } from 'constructs';
import { AdmissionKind } from './admission-kind';
import { WebhookConfiguration, WebhookConfigurationProps } from './webhook-configuration';

/** Properties of a ValidatingWebhookConfiguration. */
export interface ValidatingWebhookConfigurationProps extends WebhookConfigurationProps {}

/**
 * A ValidatingWebhookConfiguration: webhooks the apiserver asks, in parallel, whether to admit
 * the requests they match. Written after the Services of its webhooks.
 */
export class ValidatingWebhookConfiguration extends WebhookConfiguration {
  public constructor(scope: Construct, id: string, props: ValidatingWebhookConfigurationProps = {}) {
    super(scope, id, AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION, props);
  }
}
