/**
 * A field path in the kube-apiserver's notation (`spec.rules[0].operations`, `metadata.labels[app]`).
 * Immutable: every step returns a new path. The text is built only when asked for, since the
 * validator takes a step for every field of every manifest and needs the text only for violations.
 */
export class FieldPath {
  public static root(name: string): FieldPath {
    return new FieldPath(undefined, name);
  }

  private rendered?: string;

  /** @param step the name of a child, or a subscript (`[0]`, `[key]`) when `subscript` */
  private constructor(private readonly parent: FieldPath | undefined, private readonly step: string, private readonly subscript = false) {}

  public child(name: string): FieldPath {
    return new FieldPath(this, name);
  }

  public index(i: number): FieldPath {
    return new FieldPath(this, `[${i}]`, true);
  }

  public key(k: string): FieldPath {
    return new FieldPath(this, `[${k}]`, true);
  }

  /** True when this path is `other` or lies below it. */
  public isWithin(other: FieldPath): boolean {
    const mine = this.toString();
    const o = other.toString();
    return mine === o || mine.startsWith(o + '.') || mine.startsWith(o + '[');
  }

  public toString(): string {
    if (this.rendered === undefined) {
      const above = this.parent?.toString() ?? '';
      this.rendered = above === '' || this.subscript ? above + this.step : `${above}.${this.step}`;
    }
    return this.rendered;
  }
}
