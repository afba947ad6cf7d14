// The admission plugins that read a staticManifestsDir (KEP-5793), the kinds each one's loader
// accepts and the kind of its configuration in an AdmissionConfiguration:
// - k8s.io/kubernetes@v1.37.2 pkg/admission/plugin/policy/manifest/loader: acceptVAP/acceptVAPB
//   (ValidatingAdmissionPolicy), acceptMAP/acceptMAPB (MutatingAdmissionPolicy);
// - pkg/admission/plugin/webhook/manifest/loader: the validating and the mutating webhook
//   plugins, each taking only its own configuration kind.
// Any other object in a plugin's directory is an "unsupported resource type" to that plugin.
import { AdmissionKind } from '../admission-kind';

export interface StaticPlugin {
  /** The plugin's name in the AdmissionConfiguration. */
  readonly plugin: string;
  /** The directory StaticAdmissionChart.synthDirectory writes the plugin's objects to. */
  readonly directory: string;
  readonly configurationKind: string;
  readonly kinds: readonly AdmissionKind[];
}

export const STATIC_PLUGINS: readonly StaticPlugin[] = [
  {
    plugin: 'ValidatingAdmissionPolicy',
    directory: 'validating-admission-policies',
    configurationKind: 'ValidatingAdmissionPolicyConfiguration',
    kinds: [AdmissionKind.VALIDATING_ADMISSION_POLICY, AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING],
  },
  {
    plugin: 'MutatingAdmissionPolicy',
    directory: 'mutating-admission-policies',
    configurationKind: 'MutatingAdmissionPolicyConfiguration',
    kinds: [AdmissionKind.MUTATING_ADMISSION_POLICY, AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING],
  },
  { plugin: 'ValidatingAdmissionWebhook', directory: 'validating-webhooks', configurationKind: 'WebhookAdmissionConfiguration', kinds: [AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION] },
  { plugin: 'MutatingAdmissionWebhook', directory: 'mutating-webhooks', configurationKind: 'WebhookAdmissionConfiguration', kinds: [AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION] },
];

/** The plugin of that name, if it reads a staticManifestsDir. */
export function staticPluginNamed(name: unknown): StaticPlugin | undefined {
  return STATIC_PLUGINS.find((p) => p.plugin === name);
}
