import { FieldViolation, invalid, renderValue, warning } from './field-errors';
import { FieldPath } from './field-path';
import type { ExpressionChecker, ExpressionEnvironment, ExpressionTypes } from '../cel/expression-checker';
import { KubernetesVersion } from '../kubernetes-version';
import { CustomResourceSchemas } from '../schemas/custom-resources';

/** What every rule may consult besides the object itself. */
export class RuleContext {
  public constructor(
    public readonly kubernetesVersion: KubernetesVersion,
    private readonly expressions: ExpressionChecker,
    /** The custom resources' schemas known besides the built-in ones (from CRDs). */
    public readonly customResources: CustomResourceSchemas = CustomResourceSchemas.NONE,
    /** The schemas a policy's expressions are type-checked against (policy-types.ts). */
    private readonly types?: ExpressionTypes,
    /** Whether the object is for an apiserver's staticManifestsDir (static-manifests.ts) rather than for the API. */
    public readonly staticManifests = false,
  ) {}

  /** This context, with expressions type-checked against `types` too (warnings). */
  public withTypes(types: ExpressionTypes | undefined): RuleContext {
    return new RuleContext(this.kubernetesVersion, this.expressions, this.customResources, types, this.staticManifests);
  }

  /** Compiles `expression` for the field at `path`, reporting failures as the apiserver does. */
  public checkExpression(path: FieldPath, expression: string, environment: Omit<ExpressionEnvironment, 'kubernetesVersion' | 'types'>): FieldViolation[] {
    const { errors, warnings } = this.expressions.check(expression, { ...environment, kubernetesVersion: this.kubernetesVersion, types: this.types });
    return [
      ...errors.map((detail) => invalid(path, expression, detail)),
      ...warnings.map((detail) => warning(path, `Invalid value: ${renderValue(expression)}: ${detail}`)),
    ];
  }
}
