import { IConstruct } from 'constructs';

/**
 * Names that must be unique across an app (object names per kind, webhook names), with the
 * constructs that use them in the order they registered. A construct removed from the tree
 * (`node.tryRemoveChild`) no longer counts.
 */
export class NameRegistry<T extends IConstruct> {
  private readonly byRoot = new WeakMap<IConstruct, Map<string, T[]>>();

  public register(owner: T, name: string): void {
    const names = this.byRoot.get(owner.node.root) ?? new Map<string, T[]>();
    this.byRoot.set(owner.node.root, names);
    names.set(name, [...(names.get(name) ?? []), owner]);
  }

  /** The constructs of `scope`'s app that registered `name`, first registered first. */
  public owners(scope: IConstruct, name: string): T[] {
    const registered = this.byRoot.get(scope.node.root)?.get(name) ?? [];
    return registered.length < 2 ? registered : registered.filter(isInTree);
  }
}

/** False for a construct removed from its scope, or below one. */
function isInTree(construct: IConstruct): boolean {
  for (let c: IConstruct = construct; c.node.scope !== undefined; c = c.node.scope) {
    if (c.node.scope.node.tryFindChild(c.node.id) !== c) return false;
  }
  return true;
}
