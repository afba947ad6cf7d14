// How every construct of this library checks itself at synth: it renders its manifest, runs the
// ManifestValidator on it, adds the checks only constructs can make (other objects of the app),
// fails synthesis on errors and prints warnings.
import { ApiObject, ApiObjectProps } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { AdmissionKind } from '../admission-kind';
import { appCustomResources } from '../custom-resource-definitions';
import { KubernetesVersion } from '../kubernetes-version';
import { NameRegistry } from './name-registry';
import { staticChartOf } from './static-scope';
import { TickMap } from './tick-map';
import { validateManifest } from '../validation/manifest-validator';
import { validateStaticVersion } from '../validation/static-manifests';
import { Violation, ViolationSeverity } from '../validation/violation';

/** Context key: when `true`, warnings of this library fail synthesis like errors. */
export const WARNINGS_AS_ERRORS_CONTEXT = 'cdk8s-admission:warningsAsErrors';

/** Context key: when `false`, warnings are not printed at synth (they still fail it with warningsAsErrors). */
export const PRINT_WARNINGS_CONTEXT = 'cdk8s-admission:printWarnings';

/** A warning a user has looked at and accepted, on a construct and everything below it. */
export interface Acknowledgement {
  /** A field path (`spec.validationActions`), which also covers the paths below it, or `*` for every warning. */
  readonly path: string;
  readonly reason: string;
}

const ACKNOWLEDGED = Symbol.for('cdk8s-admission.Acknowledged');

export function acknowledge(scope: IConstruct, acknowledgement: Acknowledgement): void {
  const own = (scope as { [ACKNOWLEDGED]?: Acknowledgement[] })[ACKNOWLEDGED];
  if (own) own.push(acknowledgement);
  else Object.defineProperty(scope, ACKNOWLEDGED, { value: [acknowledgement], enumerable: false });
}

/** The acknowledgement that covers a warning at `path` of `construct`, on it or an ancestor. */
export function acknowledgementOf(construct: IConstruct, path: string): Acknowledgement | undefined {
  for (const scope of construct.node.scopes) {
    const found = (scope as { [ACKNOWLEDGED]?: Acknowledgement[] })[ACKNOWLEDGED]?.find((a) => covers(a.path, path));
    if (found) return found;
  }
  return undefined;
}

function covers(acknowledged: string, path: string): boolean {
  return acknowledged === '*' || path === acknowledged || path.startsWith(`${acknowledged}.`) || path.startsWith(`${acknowledged}[`);
}

/** The warnings of a construct that nobody acknowledged. */
export function activeWarnings(construct: IConstruct, violations: readonly Violation[]): Violation[] {
  return violations.filter((v) => v.severity === ViolationSeverity.WARNING && !acknowledgementOf(construct, v.path));
}

export interface CheckedObject {
  readonly construct: IConstruct;
  readonly kind: AdmissionKind;
  readonly apiObject: ApiObject;
  readonly kubernetesVersion: KubernetesVersion;
  /** Checks that need other constructs (a binding's policy, a webhook's Service). */
  readonly crossChecks?: () => Violation[];
}

const CHECKED = Symbol.for('cdk8s-admission.CheckedObject');

/**
 * The manifest each object rendered for its checks, kept until the same synthesis serializes it:
 * synthesis validates every construct, then serializes, in one synchronous run, so the second
 * rendering would only repeat the first. An entry is used once, every validation pass renders
 * anew, and all are dropped at the next microtask. (One way to be served an old rendering: a
 * synthesis that did not serialize the object (another chart's `toJson()`, a failed synthesis),
 * then a change, then the object's own `apiObject.toJson()` in the same tick, with no synthesis
 * between.)
 *
 * Rendering at every pass costs: cdk8s validates the whole app once per synthesis and again for
 * every chart it serializes. Skipping the rendering of objects checked earlier in the tick is not
 * safe, since nothing tells a validation whether user code ran since the last pass.
 */
const renderedForChecks = new TickMap<ApiObject, any>();

/**
 * The ApiObject of this library's constructs: cluster-scoped, and it reuses the rendering of the
 * checks that ran just before.
 */
export class CheckedApiObject extends ApiObject {
  public constructor(scope: Construct, id: string, props: ApiObjectProps) {
    super(scope, id, props);
    // The six kinds are cluster-scoped: a namespaced chart's namespace must not reach the manifest.
    // (objectMetadata already rejected a namespace given in props, so this one is the chart's.)
    // Cleared here rather than by a JSON patch, which would deep-copy every manifest at every render.
    (this.metadata as { namespace?: string }).namespace = undefined;
  }

  public toJson(): any {
    const rendered = renderedForChecks.get(this);
    if (rendered !== undefined) {
      renderedForChecks.delete(this);
      return rendered;
    }
    return super.toJson();
  }
}
const objectNames = new NameRegistry<IConstruct>();
const printed = new WeakMap<IConstruct, Set<string>>();

export function attachChecks(obj: CheckedObject): void {
  Object.defineProperty(obj.construct, CHECKED, { value: obj, enumerable: false });
  objectNames.register(obj.construct, `${obj.kind}/${obj.apiObject.name}`);

  obj.construct.node.addValidation({
    validate: () => {
      const manifest = ApiObject.prototype.toJson.call(obj.apiObject);
      renderedForChecks.set(obj.apiObject, manifest);
      return failingViolations(obj.construct, violationsOf(obj, manifest)).map((v) => `${v.path}: ${v.message}`);
    },
  });
}

/**
 * What fails the synthesis among a construct's violations: its errors, and its unacknowledged
 * warnings under warningsAsErrors; otherwise those warnings are printed (unless printWarnings is
 * false).
 */
export function failingViolations(construct: IConstruct, violations: readonly Violation[]): Violation[] {
  const warnings = activeWarnings(construct, violations);
  const strict = isTrue(construct.node.tryGetContext(WARNINGS_AS_ERRORS_CONTEXT));
  if (!strict && !isFalse(construct.node.tryGetContext(PRINT_WARNINGS_CONTEXT))) printWarnings(construct, warnings);
  return [...violations.filter((v) => v.severity === ViolationSeverity.ERROR), ...(strict ? warnings : [])];
}

/** The checked objects of `scope`'s app with this kind and name, first created first. */
export function checkedObjectsNamed(scope: IConstruct, kind: AdmissionKind, name: string): CheckedObject[] {
  return objectNames.owners(scope, `${kind}/${name}`).map(checkedObject).filter((o): o is CheckedObject => o !== undefined);
}

export function checkedObject(construct: IConstruct): CheckedObject | undefined {
  return (construct as { [CHECKED]?: CheckedObject })[CHECKED];
}

/** Everything wrong with one construct's manifest, errors and warnings. */
export function violationsOf(obj: CheckedObject, manifest: any = ApiObject.prototype.toJson.call(obj.apiObject)): Violation[] {
  return [
    ...manifestViolations(obj, manifest),
    ...duplicateNames(obj),
    ...(obj.crossChecks?.() ?? []),
  ];
}

/**
 * The last manifest each object's validator run saw, as JSON, and what the validator found in it.
 * cdk8s validates the whole app once per synthesis and again for every chart it serializes, so
 * the same manifest comes back several times; the validator is a pure function of the manifest
 * and the version, so an identical manifest gets the same answer without running it again.
 */
const validatedManifests = new WeakMap<ApiObject, {
  readonly json: string; readonly crds: string; readonly staticManifests: boolean; readonly violations: readonly Violation[];
}>();

/**
 * The validator's findings, as an API object or, in a StaticAdmissionChart, as a file of a
 * staticManifestsDir (with the target version's support for those, reported on every object
 * since each may have its own version).
 */
function manifestViolations(obj: CheckedObject, manifest: any): readonly Violation[] {
  const json = jsonOrUndefined(manifest);
  const crds = appCustomResources(obj.construct);
  const staticManifests = staticChartOf(obj.construct) !== undefined;
  const last = validatedManifests.get(obj.apiObject);
  if (json !== undefined && last !== undefined && last.json === json && last.crds === crds.fingerprint && last.staticManifests === staticManifests) {
    return last.violations;
  }
  const violations = [
    ...(staticManifests ? validateStaticVersion(obj.kubernetesVersion).map((v) => ({ path: '(object)', message: v.message, severity: v.severity })) : []),
    ...validateManifest(manifest, obj.kubernetesVersion, crds, staticManifests),
  ];
  if (json !== undefined) validatedManifests.set(obj.apiObject, { json, crds: crds.fingerprint, staticManifests, violations });
  return violations;
}

/** A manifest that is not JSON data (an escape hatch put a bigint in it) is validated, and not cached. */
function jsonOrUndefined(manifest: unknown): string | undefined {
  try {
    return JSON.stringify(manifest);
  } catch {
    return undefined;
  }
}

/** Two objects of one kind with one name in an app: the later overwrites the earlier on apply. */
function duplicateNames(obj: CheckedObject): Violation[] {
  const same = objectNames.owners(obj.construct, `${obj.kind}/${obj.apiObject.name}`);
  if (same.length < 2 || same[0] === obj.construct) return [];
  return [{
    path: 'metadata.name',
    message: `Duplicate value: ${JSON.stringify(obj.apiObject.name)}: ${same[0].node.path} is a ${obj.kind} with the same name, and one would overwrite the other on apply; give one a different name`,
    severity: ViolationSeverity.ERROR,
    kind: obj.kind,
    name: obj.apiObject.name,
  }];
}

function printWarnings(construct: IConstruct, warnings: Violation[]): void {
  const seen = printed.get(construct) ?? new Set<string>();
  printed.set(construct, seen);
  for (const w of warnings) {
    const line = `[${construct.node.path}] ${w.path}: ${w.message}`;
    if (seen.has(line)) continue;
    seen.add(line);
    // Not console.warn, which jest prints with a stack trace of this function.
    process.stderr.write(`cdk8s-admission warning: ${line}\n`);
  }
}

function isFalse(value: unknown): boolean {
  return value === false || value === 'false';
}

function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}
