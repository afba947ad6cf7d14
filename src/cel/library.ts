import { CelEnvironment } from './engine';

/**
 * A Kubernetes CEL library: its declarations (types, functions with their signatures, namespace
 * objects) and their implementations, installed into an engine environment.
 */
export interface CelLibrary {
  /** The name used in the version-gate table (version-gates.ts). */
  readonly name: string;
  install(env: CelEnvironment): void;
}

/**
 * Registers a namespace object (`sets`, `strings`, `lists`, `format`, `ip`, `jsonpatch`): the
 * engine has no dotted global function names, so `sets.contains(a, b)` is declared as a receiver
 * function on a constant of a namespace type. Returns the namespace type's name.
 */
export function registerNamespace(env: CelEnvironment, name: string): string {
  const typeName = `${name}.namespace`;
  const Namespace = { [typeName]: class {} }[typeName];
  env.registerType(typeName, { ctor: Namespace, fields: {} });
  env.registerConstant(name, typeName, new Namespace());
  return typeName;
}

/** The names of namespace objects: referring to one other than as `ns.fn(...)` is an error. */
export const NAMESPACE_OBJECTS: ReadonlySet<string> = new Set(['sets', 'strings', 'lists', 'format', 'ip', 'jsonpatch', 'cel']);

export function registerOpaqueType(env: CelEnvironment, name: string, ctor: new (...args: any[]) => unknown): void {
  env.registerType(name, { ctor, fields: {} });
}
