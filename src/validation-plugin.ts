import { KubernetesVersion } from './kubernetes-version';
import { checkStructKeys, VALIDATION_PLUGIN_PROPS } from './private/struct-keys';
import { ManifestValidator } from './validation/manifest-validator';
import { ViolationSeverity } from './validation/violation';

/** Properties of the cdk8s validation plugin (the `properties` of its `cdk8s.yaml` entry). */
export interface AdmissionValidationPluginProps {
  /**
   * The Kubernetes version to validate for, e.g. `'1.30'`.
   * @default - the newest version the library knows
   */
  readonly kubernetesVersion?: string;
  /**
   * Report warnings as violations too (and fail on them).
   * @default false
   */
  readonly warningsAsErrors?: boolean;
}

/**
 * A cdk8s CLI validation plugin: `cdk8s synth` runs it over every synthesized manifest of the app,
 * including YAML that came from elsewhere (Helm output, `Include`), and fails on what the
 * apiserver would reject. In `cdk8s.yaml`:
 *
 * ```yaml
 * validations:
 *   - package: cdk8s-admission     # from npm; or the app's copy: ./node_modules/cdk8s-admission
 *     version: <the exact version>
 *     class: AdmissionValidationPlugin
 *     properties:
 *       kubernetesVersion: '1.30'
 * ```
 */
export class AdmissionValidationPlugin {
  private readonly kubernetesVersion: KubernetesVersion;
  private readonly warningsAsErrors: boolean;

  public constructor(props: AdmissionValidationPluginProps = {}) {
    checkStructKeys('AdmissionValidationPlugin', props, VALIDATION_PLUGIN_PROPS);
    this.kubernetesVersion = props.kubernetesVersion ? KubernetesVersion.of(props.kubernetesVersion) : KubernetesVersion.LATEST;
    this.warningsAsErrors = props.warningsAsErrors ?? false;
  }

  /**
   * Validates the manifests of `context` (the cdk8s CLI's ValidationContext: `manifests`,
   * `parseManifest(path)`, `report`, `logger`) and submits the report.
   */
  public async validate(context: any): Promise<void> {
    const documents: Array<{ manifest: unknown; path: string }> = [];
    for (const path of context.manifests as string[]) {
      for (const manifest of context.parseManifest(path) as unknown[]) documents.push({ manifest, path });
    }
    const violations = ManifestValidator.validateAll(documents.map((d) => d.manifest), { kubernetesVersion: this.kubernetesVersion })
      .filter((v) => this.warningsAsErrors || v.severity === ViolationSeverity.ERROR);
    for (const v of violations) {
      const manifestPath = documents[v.manifestIndex ?? 0]?.path ?? '';
      context.report.addViolation({
        ruleName: `cdk8s-admission: ${v.path}`,
        recommendation: v.message,
        fix: 'see the cdk8s-admission README for the rule, and the apiserver field path for the field to change',
        violatingResources: [{ resourceName: v.name ?? `${v.kind ?? 'object'} #${v.manifestIndex}`, locations: [v.path], manifestPath }],
      });
    }
    context.logger?.log?.(`cdk8s-admission: ${documents.length} manifests checked for Kubernetes ${this.kubernetesVersion}, ${violations.length} violations`);
    context.report.submit(violations.length > 0 ? 'failure' : 'success');
  }
}
