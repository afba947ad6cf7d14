// How every construct of this library checks itself at synth: it renders its manifest, runs the
// ManifestValidator on it, adds the checks only constructs can make (other objects of the app),
// fails synthesis on errors and prints warnings. What is serialized is always what was checked.
import { ApiObject, ApiObjectProps } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { AdmissionKind } from './admission-kind';
import { KubernetesVersion } from './kubernetes-version';
import { ManifestValidator } from './validation/manifest-validator';
import { Violation, ViolationSeverity } from './validation/violation';

/** Context key: when `true`, warnings of this library fail synthesis like errors. */
export const WARNINGS_AS_ERRORS_CONTEXT = 'cdk8s-admission:warningsAsErrors';

export interface CheckedObject {
  readonly construct: IConstruct;
  readonly kind: AdmissionKind;
  readonly apiObject: ApiObject;
  readonly kubernetesVersion: KubernetesVersion;
  /**
   * Checks against other objects of this library (a binding's policy, names used twice). When one
   * of those changes, its own serialization has the app checked again, so these need not run at
   * every validation pass.
   */
  readonly crossChecks?: () => Violation[];
  /** Checks against objects this library does not check (a webhook's Service): run at every validation pass. */
  readonly externalChecks?: () => Violation[];
}

const CHECKED = Symbol.for('cdk8s-admission.CheckedObject');

/**
 * What one object's check found: the manifest it checked and its violations against objects this
 * library does not check (both as JSON), and the errors that fail synthesis.
 */
interface CheckResult {
  readonly json: string;
  readonly external: string;
  readonly failing: readonly string[];
}

/**
 * The checks made since the last microtask. cdk8s validates the whole app once per synthesis and
 * again for every chart it serializes, all in one synchronous run; an object that passed its
 * check in this run is not rendered and checked again at every pass, only its checks against
 * objects outside this library run again. What makes that safe is `CheckedApiObject.toJson`: serialization
 * renders afresh, and a manifest that differs from the one checked (the app changed between two
 * syntheses in one tick) has the app checked again first.
 */
const checkedThisTick = new Map<ApiObject, CheckResult>();
let clearScheduled = false;

function remember(apiObject: ApiObject, result: CheckResult): void {
  checkedThisTick.set(apiObject, result);
  if (!clearScheduled) {
    clearScheduled = true;
    queueMicrotask(() => {
      checkedThisTick.clear();
      clearScheduled = false;
    });
  }
}

/** The ApiObject of this library's constructs: cluster-scoped, and never serialized unchecked after a check. */
export class CheckedApiObject extends ApiObject {
  public constructor(scope: Construct, id: string, props: ApiObjectProps) {
    super(scope, id, props);
    // The six kinds are cluster-scoped: a namespaced chart's namespace must not reach the manifest.
    // (objectMetadata already rejected a namespace given in props, so this one is the chart's.)
    // Cleared here rather than by a JSON patch, which would deep-copy every manifest at every render.
    (this.metadata as { namespace?: string }).namespace = undefined;
  }

  public toJson(): any {
    const manifest = super.toJson();
    const checked = checkedThisTick.get(this);
    if (checked !== undefined && checked.json !== JSON.stringify(manifest)) recheckApp(this);
    return manifest;
  }
}

const byRoot = new WeakMap<IConstruct, Map<string, CheckedObject[]>>();
const printed = new WeakMap<IConstruct, Set<string>>();

export function attachChecks(obj: CheckedObject): void {
  Object.defineProperty(obj.construct, CHECKED, { value: obj, enumerable: false });
  const names = byRoot.get(obj.construct.node.root) ?? new Map<string, CheckedObject[]>();
  byRoot.set(obj.construct.node.root, names);
  const key = `${obj.kind}/${obj.apiObject.name}`;
  names.set(key, [...(names.get(key) ?? []), obj]);

  obj.construct.node.addValidation({
    validate: () => {
      const earlier = checkedThisTick.get(obj.apiObject);
      const unchanged = earlier !== undefined && earlier.failing.length === 0 && JSON.stringify(externalViolations(obj)) === earlier.external;
      return unchanged ? [] : [...check(obj).failing];
    },
  });
}

/** Renders one object, checks it, prints its warnings and remembers the result for this tick. */
function check(obj: CheckedObject): CheckResult {
  const manifest = ApiObject.prototype.toJson.call(obj.apiObject);
  const json = JSON.stringify(manifest);
  const external = externalViolations(obj);
  const violations = violationsOf(obj, manifest, json, external);
  const strict = isTrue(obj.construct.node.tryGetContext(WARNINGS_AS_ERRORS_CONTEXT));
  if (!strict) printWarnings(obj.construct, violations.filter((v) => v.severity === ViolationSeverity.WARNING));
  const failing = violations.filter((v) => strict || v.severity === ViolationSeverity.ERROR).map((v) => `${v.path}: ${v.message}`);
  const result = { json, external: JSON.stringify(external), failing };
  remember(obj.apiObject, result);
  return result;
}

/**
 * Something changed after the checks of this tick (between two syntheses in one tick): checks
 * every object of the app again and fails the way cdk8s fails validation, with every error at once.
 */
function recheckApp(changed: ApiObject): void {
  const errors: string[] = [];
  for (const objects of byRoot.get(changed.node.root)?.values() ?? []) {
    for (const obj of objects) {
      for (const error of check(obj).failing) errors.push(`[${obj.construct.node.path}] ${error}`);
    }
  }
  if (errors.length > 0) throw new Error(`Validation failed with the following errors:\n  ${errors.join('\n  ')}`);
}

export function checkedObject(construct: IConstruct): CheckedObject | undefined {
  return (construct as { [CHECKED]?: CheckedObject })[CHECKED];
}

/** Everything wrong with one construct's manifest, errors and warnings. */
export function violationsOf(
  obj: CheckedObject,
  manifest: any = ApiObject.prototype.toJson.call(obj.apiObject),
  json: string = JSON.stringify(manifest),
  external: Violation[] = externalViolations(obj),
): Violation[] {
  return [...manifestViolations(obj, manifest, json), ...duplicateNames(obj), ...(obj.crossChecks?.() ?? []), ...external];
}

function externalViolations(obj: CheckedObject): Violation[] {
  return obj.externalChecks?.() ?? [];
}

/**
 * The last manifest each object's validator run saw, as JSON, and what the validator found in it.
 * The validator is a pure function of the manifest and the version, so a manifest checked again
 * unchanged (the app checked again after a change elsewhere, `AdmissionWarnings.of`, the next
 * synthesis) gets the same answer without running it again.
 */
const validatedManifests = new WeakMap<ApiObject, { readonly json: string; readonly violations: readonly Violation[] }>();

function manifestViolations(obj: CheckedObject, manifest: any, json: string): readonly Violation[] {
  const last = validatedManifests.get(obj.apiObject);
  if (last !== undefined && last.json === json) return last.violations;
  const violations = ManifestValidator.validate(manifest, { kubernetesVersion: obj.kubernetesVersion });
  validatedManifests.set(obj.apiObject, { json, violations });
  return violations;
}

/** Two objects of one kind with one name in an app: the later overwrites the earlier on apply. */
function duplicateNames(obj: CheckedObject): Violation[] {
  const same = byRoot.get(obj.construct.node.root)?.get(`${obj.kind}/${obj.apiObject.name}`) ?? [];
  if (same.length < 2 || same[0] === obj) return [];
  return [{
    path: 'metadata.name',
    message: `Duplicate value: ${JSON.stringify(obj.apiObject.name)}: ${same[0].construct.node.path} is a ${obj.kind} with the same name, and one would overwrite the other on apply; give one a different name`,
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
    console.warn(`cdk8s-admission warning: ${line}`);
  }
}

function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}
