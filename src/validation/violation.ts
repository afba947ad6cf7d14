/** How serious a violation is. */
export enum ViolationSeverity {
  /** The kube-apiserver rejects the object (or strict field validation does). Synthesis fails. */
  ERROR = 'error',
  /** The apiserver accepts the object, but it is likely a mistake or a risk to the cluster. */
  WARNING = 'warning',
}

/** One problem found in a manifest. */
export interface Violation {
  /**
   * The kube-apiserver's field path of the problem, e.g. `spec.validations[0].message` or
   * `webhooks[1].clientConfig.url`. Cross-object problems use the path in the object they are reported on.
   */
  readonly path: string;

  /**
   * What is wrong and what is allowed, in the apiserver's words where it has them,
   * e.g. `Unsupported value: "Maybe": supported values: "Fail", "Ignore"`.
   */
  readonly message: string;

  /** Whether the apiserver would reject the object (`error`) or it is advice (`warning`). */
  readonly severity: ViolationSeverity;

  /**
   * The `kind` of the manifest the violation is about, when it could be read.
   * @default - not known
   */
  readonly kind?: string;

  /**
   * The `metadata.name` of the manifest the violation is about, when it could be read.
   * @default - not known
   */
  readonly name?: string;

  /**
   * The position of the manifest in the list given to `ManifestValidator.validateAll`.
   * @default - not set by `ManifestValidator.validate`
   */
  readonly manifestIndex?: number;
}
