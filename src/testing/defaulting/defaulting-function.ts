/** What a ported defaulting function can read besides the object. */
export interface DefaultingContext {
  /** The target release's minor version, where ported code follows several releases' versions. */
  readonly minor: number;
  /** The time the apiserver would take as now (metav1.Now), for defaults that are times. */
  readonly now: Date;
  /** A feature gate's default in the target release. */
  gate(name: string): boolean;
}

/**
 * A hand-written Kubernetes defaulting function (a `SetDefaults_` of some defaults.go), ported.
 * `go` names every Go function the port follows (the function and the helpers it calls) with the
 * hashes (or hash prefixes) of the versions of their code it implements (schemas/go-types.json,
 * `functions`; `-` for a helper a release does not have); the port serves a release only when all
 * of them match that release's code.
 */
export interface DefaultingFunction {
  readonly go: { readonly [qualifiedName: string]: readonly string[] };
  /** Defaults `value` (the Go value the generated defaulter passes, a JSON object) in place. */
  readonly run: (value: any, context: DefaultingContext) => void;
}

export type DefaultingFunctions = { readonly [name: string]: DefaultingFunction };
