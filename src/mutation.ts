import { PatchType } from './enums';
import type * as wire from './wire/admissionregistration';

/**
 * How a MutatingPolicy changes an object: a CEL expression producing an apply configuration or
 * a JSON patch. The factory implies the patch type, so the two can never be mixed up.
 */
export class Mutation {
  /**
   * Merges the object the expression builds into the request's object, like server-side apply:
   * `Object{metadata: Object.metadata{labels: {"team": "platform"}}}`. Idempotent by construction.
   * Atomic lists and maps cannot be modified this way.
   */
  public static applyConfiguration(expression: string): Mutation {
    return new Mutation(PatchType.APPLY_CONFIGURATION, expression);
  }

  /**
   * Applies the RFC 6902 operations the expression returns, a `list(JSONPatch)`:
   * `[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/team"), value: "platform"}]`.
   */
  public static jsonPatch(expression: string): Mutation {
    return new Mutation(PatchType.JSON_PATCH, expression);
  }

  private constructor(
    /** How the expression's result is applied. */
    public readonly patchType: PatchType,
    /** The CEL expression. */
    public readonly expression: string,
  ) {}

  /** @internal */
  public _render(): wire.Mutation {
    return this.patchType === PatchType.APPLY_CONFIGURATION
      ? { patchType: this.patchType, applyConfiguration: { expression: this.expression } }
      : { patchType: this.patchType, jsonPatch: { expression: this.expression } };
  }
}
