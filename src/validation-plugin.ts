import { KubernetesVersion } from './kubernetes-version';
import { countNames, PluginDocument, pluginViolation } from './private/plugin-report';
import { groupByStaticDirectory } from './private/static-layout';
import { checkStructKeys, VALIDATION_PLUGIN_PROPS } from './private/struct-keys';
import { ManifestValidator } from './validation/manifest-validator';
import { staticEntries, validatePluginKinds } from './validation/static-set';
import { Violation, ViolationSeverity } from './validation/violation';

/** Properties of the cdk8s validation plugin (the `properties` of its `cdk8s.yaml` entry). */
export interface AdmissionValidationPluginProps {
  /**
   * The Kubernetes version to validate for, e.g. `'1.30'`.
   * @default - the newest version the library knows
   */
  readonly kubernetesVersion?: string;
  /**
   * Fail the synth on warnings too, not only on what the apiserver would reject.
   * @default false
   */
  readonly warningsAsErrors?: boolean;
  /**
   * Show warnings in the report. They fail the synth only with `warningsAsErrors`; set this to
   * `false` to leave them out of the report (they are then neither shown nor failed on).
   * @default true
   */
  readonly reportWarnings?: boolean;
}

/**
 * A cdk8s CLI validation plugin: `cdk8s synth` runs it over every synthesized manifest of the app,
 * including YAML that came from elsewhere (Helm output, `Include`), and fails on what the
 * apiserver would reject. The files of a static admission set (a directory that an
 * AdmissionConfiguration beside it names as a plugin's `staticManifestsDir`, as
 * `StaticAdmissionChart.synthDirectory` writes it) are checked as the apiserver's loader checks
 * them. In `cdk8s.yaml`:
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
  private readonly reportWarnings: boolean;

  public constructor(props: AdmissionValidationPluginProps = {}) {
    checkStructKeys('AdmissionValidationPlugin', props, VALIDATION_PLUGIN_PROPS);
    this.kubernetesVersion = props.kubernetesVersion ? KubernetesVersion.of(props.kubernetesVersion) : KubernetesVersion.LATEST;
    this.warningsAsErrors = props.warningsAsErrors ?? false;
    this.reportWarnings = props.reportWarnings ?? true;
    if (this.warningsAsErrors && !this.reportWarnings) {
      throw new Error('AdmissionValidationPlugin: warningsAsErrors fails the synth on warnings, which reportWarnings: false leaves out of the report; set one of them');
    }
  }

  /**
   * Validates the manifests of `context` (the cdk8s CLI's ValidationContext: `manifests`,
   * `parseManifest(path)`, `report`, `logger`) and submits the report.
   */
  public async validate(context: any): Promise<void> {
    const documents: PluginDocument[] = [];
    for (const manifestPath of context.manifests as string[]) {
      (context.parseManifest(manifestPath) as unknown[]).forEach((manifest, i) => documents.push({ manifest, manifestPath, positionInFile: i + 1 }));
    }
    const groups = groupByStaticDirectory(documents);
    const violations = [
      ...this.validateGroup(documents, groups.api, false),
      ...groups.staticDirectories.flatMap((dir) => [
        ...this.validateGroup(documents, dir.positions, true),
        ...located(validatePluginKinds(staticEntries(dir.positions.map((i) => documents[i].manifest)), dir.plugins), dir.positions),
      ]),
    ].filter((v) => this.reportWarnings || v.severity === ViolationSeverity.ERROR);
    const nameCounts = countNames(documents);
    for (const v of violations) context.report.addViolation(pluginViolation(v, documents, nameCounts));
    const errors = violations.filter((v) => v.severity === ViolationSeverity.ERROR).length;
    const warnings = violations.length - errors;
    const shownWarnings = this.reportWarnings ? `${count(warnings, 'warning')}${this.warningsAsErrors ? ' (failing, as warningsAsErrors is set)' : ''}` : 'warnings not reported';
    context.logger?.log?.(`cdk8s-admission: ${count(documents.length, 'manifest')} checked for Kubernetes ${this.kubernetesVersion}: ${count(errors, 'error')}, ${shownWarnings}`);
    const failed = errors > 0 || (this.warningsAsErrors && warnings > 0);
    context.report.submit(failed ? 'failure' : 'success');
  }

  /**
   * The violations of the documents at `positions`, validated together, with each attributed to
   * its document's position among all: as API objects, or as the files of one staticManifestsDir.
   */
  private validateGroup(documents: readonly PluginDocument[], positions: readonly number[], staticManifests: boolean): Violation[] {
    if (positions.length === 0) return [];
    const manifests = positions.map((i) => documents[i].manifest);
    const violations = ManifestValidator.validateAll(manifests, { kubernetesVersion: this.kubernetesVersion, staticManifests });
    return located(violations, positions);
  }
}

/** Violations of the documents at `positions`, each with its document's position among all. */
function located(violations: readonly Violation[], positions: readonly number[]): Violation[] {
  return violations.map((v) => ({ ...v, manifestIndex: positions[v.manifestIndex ?? 0] }));
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
