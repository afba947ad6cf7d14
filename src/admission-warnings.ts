import { IConstruct } from 'constructs';
import { checkedObject, violationsOf, WARNINGS_AS_ERRORS_CONTEXT } from './admission-checks';
import { ViolationSeverity } from './validation/violation';

/**
 * The warnings of this library's constructs: problems the apiserver accepts but that are likely
 * mistakes or risks to the cluster (a cluster-wide Deny on a failing policy, a namespace dropped
 * from a cluster-scoped object, ...).
 *
 * At synth they are printed to stderr (`cdk8s-admission warning: [path] field: message`) and do
 * not fail it, unless the context key `cdk8s-admission:warningsAsErrors` is `true`.
 * In tests, read them with `AdmissionWarnings.of(chart)`.
 */
export class AdmissionWarnings {
  /** The context key that turns warnings into synthesis errors. */
  public static readonly AS_ERRORS_CONTEXT = WARNINGS_AS_ERRORS_CONTEXT;

  /** Every warning of the admission constructs at or below `scope`, as `[construct path] field.path: message`. */
  public static of(scope: IConstruct): string[] {
    const out: string[] = [];
    for (const construct of scope.node.findAll()) {
      const obj = checkedObject(construct);
      if (!obj) continue;
      for (const v of violationsOf(obj)) {
        if (v.severity === ViolationSeverity.WARNING) out.push(`[${construct.node.path}] ${v.path}: ${v.message}`);
      }
    }
    return out;
  }

  private constructor() {}
}
