// How every construct of this library checks itself at synth: it renders its manifest, runs the
// ManifestValidator on it, adds the checks only constructs can make (other objects of the app),
// fails synthesis on errors and prints warnings.
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
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
  /** Checks that need other constructs (a binding's policy, a webhook's Service). */
  readonly crossChecks?: () => Violation[];
}

const CHECKED = Symbol.for('cdk8s-admission.CheckedObject');
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
      const violations = violationsOf(obj);
      const strict = isTrue(obj.construct.node.tryGetContext(WARNINGS_AS_ERRORS_CONTEXT));
      const failing = violations.filter((v) => strict || v.severity === ViolationSeverity.ERROR);
      if (!strict) printWarnings(obj.construct, violations.filter((v) => v.severity === ViolationSeverity.WARNING));
      return failing.map((v) => `${v.path}: ${v.message}`);
    },
  });
}

export function checkedObject(construct: IConstruct): CheckedObject | undefined {
  return (construct as { [CHECKED]?: CheckedObject })[CHECKED];
}

/** Everything wrong with one construct's manifest, errors and warnings. */
export function violationsOf(obj: CheckedObject): Violation[] {
  const manifest = obj.apiObject.toJson();
  return [
    ...ManifestValidator.validate(manifest, { kubernetesVersion: obj.kubernetesVersion }),
    ...duplicateNames(obj),
    ...(obj.crossChecks?.() ?? []),
  ];
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
