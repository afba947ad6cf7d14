import { KubernetesVersion } from '../kubernetes-version';
import { ExpressionChecker, ExpressionEnvironment } from './expression-checker';
import { FieldViolation, invalid } from './field-errors';
import { FieldPath } from './field-path';

/** What every rule may consult besides the object itself. */
export class RuleContext {
  public constructor(
    public readonly kubernetesVersion: KubernetesVersion,
    private readonly expressions: ExpressionChecker,
  ) {}

  /** Compiles `expression` for the field at `path`, reporting failures as the apiserver does. */
  public checkExpression(path: FieldPath, expression: string, environment: Omit<ExpressionEnvironment, 'kubernetesVersion'>): FieldViolation[] {
    const details = this.expressions.check(expression, { ...environment, kubernetesVersion: this.kubernetesVersion });
    return details.map((detail) => invalid(path, expression, detail));
  }
}
