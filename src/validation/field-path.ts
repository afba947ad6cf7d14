/**
 * A field path in the kube-apiserver's notation (`spec.rules[0].operations`, `metadata.labels[app]`).
 * Immutable: every step returns a new path.
 */
export class FieldPath {
  public static root(name: string): FieldPath {
    return new FieldPath(name);
  }

  private constructor(private readonly rendered: string) {}

  public child(name: string): FieldPath {
    return new FieldPath(this.rendered ? `${this.rendered}.${name}` : name);
  }

  public index(i: number): FieldPath {
    return new FieldPath(`${this.rendered}[${i}]`);
  }

  public key(k: string): FieldPath {
    return new FieldPath(`${this.rendered}[${k}]`);
  }

  /** True when this path is `other` or lies below it. */
  public isWithin(other: FieldPath): boolean {
    const o = other.rendered;
    return this.rendered === o || this.rendered.startsWith(o + '.') || this.rendered.startsWith(o + '[');
  }

  public toString(): string {
    return this.rendered;
  }
}
