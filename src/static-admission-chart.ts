import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Chart, ChartProps, Yaml } from 'cdk8s';
import { Construct } from 'constructs';
import { KubernetesVersion } from './kubernetes-version';
import { checkedObject, failingViolations } from './private/admission-checks';
import { ForeignViolations, isStaticChart, markStaticChart } from './private/static-scope';
import { checkStructKeys, STATIC_ADMISSION_CHART_PROPS } from './private/struct-keys';
import { ManifestValidator } from './validation/manifest-validator';
import { STATIC_PLUGINS, StaticPlugin } from './validation/static-plugins';
import { STATIC_SUFFIX } from './validation/static-suffix';

/** Properties of a StaticAdmissionChart. */
export interface StaticAdmissionChartProps extends ChartProps {
  /**
   * The directory of the control-plane hosts where the output of `synthDirectory` is installed:
   * the AdmissionConfiguration points each admission plugin at a subdirectory of it, and the
   * apiserver's `--admission-control-config-file` names its `admission-configuration.yaml`.
   * An absolute path, as the apiserver requires.
   * @default '/etc/kubernetes/admission'
   */
  readonly hostDirectory?: string;

  /**
   * The kubeconfig file the webhook admission plugins use to authenticate to webhooks
   * (`kubeConfigFile` of their WebhookAdmissionConfiguration), an absolute path on the hosts.
   * @default - none: the webhook plugins authenticate to no webhook
   */
  readonly webhookKubeConfigFile?: string;
}

/** The apiVersion of the AdmissionConfiguration and of every plugin configuration in it. */
const CONFIG_API_VERSION = 'apiserver.config.k8s.io/v1';

/** The file of the AdmissionConfiguration in the synthesized directory. */
const ADMISSION_CONFIGURATION_FILE = 'admission-configuration.yaml';

/**
 * A chart of admission configurations that an apiserver loads from files at start (Kubernetes
 * 1.36 alpha, 1.37 beta: a `staticManifestsDir` per admission plugin, KEP-5793), rather than
 * creates through the API. Static policies are in force from the apiserver's first request,
 * cannot be deleted through the API, run before the policies created through it, and also see
 * requests for admission policies and bindings, which API policies never do.
 *
 * The policies, bindings and webhook configurations defined in this chart are checked as the
 * apiserver's loader checks the files (names ending with `.static.k8s.io`, which generated names
 * get, no params, webhooks by URL only, each binding's policy in the same chart), and are written
 * by `synthDirectory` in the loader's layout, with the AdmissionConfiguration that points at it.
 * They are not part of the app's `synth()` output (`toJson()` is empty): they are not objects to
 * apply to a cluster, and the apiserver refuses their names through the API.
 */
export class StaticAdmissionChart extends Chart {
  /** Whether `x` is a StaticAdmissionChart (of any copy of this library). */
  public static isStaticAdmissionChart(x: any): x is StaticAdmissionChart {
    return isStaticChart(x);
  }

  /** The directory of the control-plane hosts where the set is installed. */
  public readonly hostDirectory: string;

  /** Where the apiserver's `--admission-control-config-file` points: the AdmissionConfiguration in `hostDirectory`. */
  public readonly admissionConfigurationFile: string;

  private readonly webhookKubeConfigFile?: string;

  public constructor(scope: Construct, id: string, props: StaticAdmissionChartProps = {}) {
    super(scope, id, props);
    checkStructKeys(this.node.path, props, STATIC_ADMISSION_CHART_PROPS);
    if (props.namespace !== undefined) {
      throw new Error(`${this.node.path}: namespace ${JSON.stringify(props.namespace)} is not allowed: admission configurations are cluster-scoped; remove it`);
    }
    markStaticChart(this, () => this.foreignViolations());
    this.hostDirectory = absoluteHostPath(props.hostDirectory ?? '/etc/kubernetes/admission', `${this.node.path}: hostDirectory`);
    this.webhookKubeConfigFile = props.webhookKubeConfigFile === undefined
      ? undefined : absoluteHostPath(props.webhookKubeConfigFile, `${this.node.path}: webhookKubeConfigFile`);
    this.admissionConfigurationFile = path.posix.join(this.hostDirectory, ADMISSION_CONFIGURATION_FILE);
    this.node.addValidation({ validate: () => this.checkForeignObjects() });
  }

  /** Generated names end with the static suffix, which the loader requires. */
  public generateObjectName(apiObject: ApiObject): string {
    return super.generateObjectName(apiObject) + STATIC_SUFFIX;
  }

  /** Empty: the objects of a static chart are written by `synthDirectory`, not applied (see the class). */
  public toJson(): any[] {
    return [];
  }

  /**
   * The objects of the set, as `synthDirectory` writes them, after the app's validation (which
   * throws, listing every problem, when any construct has an error).
   */
  public toStaticManifests(): any[] {
    return super.toJson();
  }

  /**
   * The AdmissionConfiguration the apiserver's `--admission-control-config-file` names: each
   * plugin with objects in the set, pointed at its directory under `hostDirectory`. To merge into
   * an AdmissionConfiguration of your own, take its `plugins`.
   */
  public toAdmissionConfiguration(): any {
    return admissionConfiguration(this.pluginsWithObjects(this.toStaticManifests()), this.hostDirectory, this.webhookKubeConfigFile);
  }

  /**
   * Writes the set into `outdir` as the apiserver reads it: `admission-configuration.yaml`, and a
   * directory per admission plugin with one file per object (`validating-admission-policies/`,
   * `mutating-admission-policies/`, `validating-webhooks/`, `mutating-webhooks/`). Install it as
   * `hostDirectory` on every control-plane host. Nothing is written when the app has an error, and
   * each plugin directory is replaced whole, so a file left from an earlier synthesis cannot
   * remain; other files in `outdir` are left alone.
   * @returns the paths written, relative to `outdir`
   */
  public synthDirectory(outdir: string): string[] {
    if (typeof outdir !== 'string' || outdir === '') throw new Error(`${this.node.path}: synthDirectory needs an output directory, got ${JSON.stringify(outdir)}`);
    const manifests = this.toStaticManifests();
    const plugins = this.pluginsWithObjects(manifests);
    const files = new Map<string, string>();
    files.set(ADMISSION_CONFIGURATION_FILE, Yaml.stringify(admissionConfiguration(plugins, this.hostDirectory, this.webhookKubeConfigFile)));
    for (const m of manifests) {
      const plugin = STATIC_PLUGINS.find((p) => p.kinds.includes(m.kind))!;
      files.set(path.posix.join(plugin.directory, fileName(m)), Yaml.stringify(m));
    }
    writeReplacing(outdir, files, STATIC_PLUGINS.map((p) => p.directory));
    return [...files.keys()];
  }

  private pluginsWithObjects(manifests: readonly any[]): readonly StaticPlugin[] {
    return STATIC_PLUGINS.filter((p) => manifests.some((m) => p.kinds.includes(m.kind)));
  }

  /**
   * The objects of the chart that are not this library's constructs (an `Include`, a plain
   * ApiObject), checked as the loader checks them: the set is validated whole, and only their own
   * violations are kept here, since the constructs report theirs. Their errors and warnings are
   * reported as the constructs' are, each at the object's path, and a warning is acknowledged on
   * the object or a scope above it.
   */
  private foreignViolations(): ForeignViolations[] {
    const objects = this.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject && Chart.of(c) === this);
    const foreign = objects.map((o, i) => (checkedObject(o.node.scope!) === undefined ? i : -1)).filter((i) => i >= 0);
    if (foreign.length === 0) return [];
    const manifests = objects.map((o) => ApiObject.prototype.toJson.call(o));
    const violations = ManifestValidator.validateAll(manifests, { staticManifests: true, kubernetesVersion: KubernetesVersion.fromContext(this) });
    return foreign.map((i) => ({ construct: objects[i], violations: violations.filter((v) => v.manifestIndex === i) }));
  }

  private checkForeignObjects(): string[] {
    return this.foreignViolations().flatMap(({ construct, violations }) =>
      failingViolations(construct, violations).map((v) => `${construct.node.path}: ${v.path}: ${v.message}`));
  }
}

function absoluteHostPath(value: unknown, what: string): string {
  if (typeof value !== 'string' || !path.posix.isAbsolute(value)) {
    throw new Error(`${what} must be an absolute path on the control-plane hosts (the apiserver refuses a relative one), got ${JSON.stringify(value)}`);
  }
  return path.posix.normalize(value);
}

function admissionConfiguration(plugins: readonly StaticPlugin[], hostDirectory: string, kubeConfigFile: string | undefined): any {
  return {
    apiVersion: CONFIG_API_VERSION,
    kind: 'AdmissionConfiguration',
    plugins: plugins.map((p) => ({
      name: p.plugin,
      configuration: {
        apiVersion: CONFIG_API_VERSION,
        kind: p.configurationKind,
        ...(kubeConfigFile !== undefined && p.configurationKind === 'WebhookAdmissionConfiguration' ? { kubeConfigFile } : {}),
        staticManifestsDir: path.posix.join(hostDirectory, p.directory),
      },
    })),
  };
}

/** `Kind.name.yaml`: a policy and its binding may share a name, the files may not. */
function fileName(manifest: any): string {
  return `${manifest.kind}.${manifest.metadata.name}.yaml`;
}

/**
 * Writes `files` under `outdir`, each directory in `owned` replaced whole: the new content is
 * written beside it first, then swapped in.
 */
function writeReplacing(outdir: string, files: ReadonlyMap<string, string>, owned: readonly string[]): void {
  fs.mkdirSync(outdir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(outdir, '.staging-'));
  try {
    for (const [file, text] of files) {
      fs.mkdirSync(path.join(staging, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(staging, file), text);
    }
    for (const dir of owned) {
      fs.rmSync(path.join(outdir, dir), { recursive: true, force: true });
      if (fs.existsSync(path.join(staging, dir))) fs.renameSync(path.join(staging, dir), path.join(outdir, dir));
    }
    fs.renameSync(path.join(staging, ADMISSION_CONFIGURATION_FILE), path.join(outdir, ADMISSION_CONFIGURATION_FILE));
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
