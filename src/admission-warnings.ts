import { IConstruct } from 'constructs';
import {
  acknowledge, acknowledgementOf, activeWarnings, checkedObject, PRINT_WARNINGS_CONTEXT, violationsOf, WARNINGS_AS_ERRORS_CONTEXT,
} from './private/admission-checks';
import { foreignViolationsOf } from './private/static-scope';
import { ViolationSeverity } from './validation/violation';

/**
 * The warnings of this library's constructs: problems the apiserver accepts but that are likely
 * mistakes or risks to the cluster (a cluster-wide Deny on a failing policy, a namespace dropped
 * from a cluster-scoped object, ...).
 *
 * At synth they are printed to stderr, one line each (`cdk8s-admission warning: [path] field: message`),
 * and do not fail it, unless the context key `cdk8s-admission:warningsAsErrors` is `true`.
 * `cdk8s-admission:printWarnings: false` stops the printing. A warning that was looked at and is
 * accepted is acknowledged on its construct (`AdmissionWarnings.acknowledge`), with the reason:
 * it is then neither printed nor an error. In tests, read them with `AdmissionWarnings.of(chart)`.
 */
export class AdmissionWarnings {
  /** The context key that turns warnings into synthesis errors. */
  public static readonly AS_ERRORS_CONTEXT = WARNINGS_AS_ERRORS_CONTEXT;

  /** The context key that, set to `false`, stops warnings from being printed at synth. */
  public static readonly PRINT_CONTEXT = PRINT_WARNINGS_CONTEXT;

  /**
   * Every warning of the admission constructs at or below `scope` that is not acknowledged, as
   * `[construct path] field.path: message`.
   */
  public static of(scope: IConstruct): string[] {
    return AdmissionWarnings.collect(scope, false);
  }

  /** The acknowledged warnings at or below `scope`, as `[construct path] field.path: message (acknowledged: reason)`. */
  public static acknowledged(scope: IConstruct): string[] {
    return AdmissionWarnings.collect(scope, true);
  }

  /**
   * Accepts the warnings at `fieldPath` (and below it) of `scope` and of every construct under
   * it: they are no longer printed, listed by `of`, or turned into errors by warningsAsErrors.
   * @param scope an admission construct, or a scope (a chart) holding several
   * @param fieldPath the warning's field path as printed (`spec.validationActions`, `webhooks[0].namespaceSelector`), or `*` for all
   * @param reason why the warning is acceptable here, for the next reader (listed by `acknowledged`)
   */
  public static acknowledge(scope: IConstruct, fieldPath: string, reason: string): void {
    if (typeof fieldPath !== 'string' || fieldPath.trim() === '') {
      throw new Error(`${scope.node.path}: AdmissionWarnings.acknowledge needs the warning's field path (as printed, e.g. spec.validationActions), or '*'`);
    }
    if (typeof reason !== 'string' || reason.trim() === '') {
      throw new Error(`${scope.node.path}: AdmissionWarnings.acknowledge needs a reason: say why the warning at ${fieldPath} is acceptable here`);
    }
    acknowledge(scope, { path: fieldPath, reason });
  }

  private static collect(scope: IConstruct, acknowledged: boolean): string[] {
    const out: string[] = [];
    const checked = scope.node.findAll().flatMap((construct) => {
      const obj = checkedObject(construct);
      return [...(obj ? [{ construct, violations: violationsOf(obj) }] : []), ...foreignViolationsOf(construct)];
    });
    for (const { construct, violations } of checked) {
      const active = new Set(activeWarnings(construct, violations));
      for (const v of violations) {
        if (v.severity !== ViolationSeverity.WARNING || active.has(v) !== !acknowledged) continue;
        const line = `[${construct.node.path}] ${v.path}: ${v.message}`;
        out.push(acknowledged ? `${line} (acknowledged: ${acknowledgementOf(construct, v.path)!.reason})` : line);
      }
    }
    return out;
  }

  private constructor() {}
}
