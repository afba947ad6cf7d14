import { DefaultingContext, DefaultingFunction, DefaultingFunctions } from './defaulting-function';
import { deepCopy, GoObject, isObject, isZeroValue } from './go-values';
import { APPS_V1 } from './ports/apps-v1';
import { BATCH_V1 } from './ports/batch-v1';
import { CORE_V1 } from './ports/core-v1';
import { NETWORKING_V1 } from './ports/networking-v1';
import { OTHER_GROUPS } from './ports/other-groups';
import { RBAC_V1 } from './ports/rbac-v1';
import { STORAGE_V1 } from './ports/storage-v1';
import { goRoundTrip } from '../../schemas/go-json';
import { DefaulterStep, GoTypes } from '../../schemas/go-types';

/** Every ported defaulting function, by the Go name the generated defaulters call it by. */
export const DEFAULTING_FUNCTIONS: DefaultingFunctions = {
  ...CORE_V1, ...APPS_V1, ...BATCH_V1, ...NETWORKING_V1, ...RBAC_V1, ...STORAGE_V1, ...OTHER_GROUPS,
};

const byMinor = new Map<number, BuiltinDefaulter>();

/**
 * Built-in objects as the apiserver of a release decodes and defaults them (the scheme's
 * defaulting, runtime.Scheme.Default, which runs each kind's generated SetObjectDefaults_<Kind>):
 * the Go round trip (src/schemas/go-json.ts), the kind's generated defaulter from
 * schemas/go-types.json, with the hand-written functions it calls ported in ./ports, and the
 * round trip again (what encoding the defaulted Go object writes).
 */
export class BuiltinDefaulter {
  public static of(minor: number): BuiltinDefaulter {
    let defaulter = byMinor.get(minor);
    if (!defaulter) {
      defaulter = new BuiltinDefaulter(GoTypes.of(minor));
      byMinor.set(minor, defaulter);
    }
    return defaulter;
  }

  private readonly problems = new Map<string, string | undefined>();

  private constructor(public readonly types: GoTypes) {}

  /**
   * Why a kind (an OpenAPI definition name) cannot be defaulted for this release, or undefined:
   * it has no Go type, or its defaulter calls a function that is not ported for this release's
   * version of it.
   */
  public problem(definition: string): string | undefined {
    if (!this.problems.has(definition)) this.problems.set(definition, this.findProblem(definition));
    return this.problems.get(definition);
  }

  /** `object` decoded, defaulted and encoded again; `problem()` must be undefined for its kind. */
  public default(object: unknown, definition: string, context: DefaultingContext): unknown {
    const decoded = goRoundTrip(object, definition, this.types);
    const steps = this.types.defaulter(definition);
    if (!steps) return decoded;
    this.run(steps, decoded, context);
    return goRoundTrip(decoded, definition, this.types);
  }

  /** `object` decoded and encoded again, without defaults (what Go objects changed by admission plugins encode to). */
  public encoded(object: unknown, definition: string): unknown {
    return goRoundTrip(object, definition, this.types);
  }

  private run(steps: readonly DefaulterStep[], node: unknown, context: DefaultingContext): void {
    if (!isObject(node)) return;
    for (const step of steps) {
      if (step.call !== undefined) {
        const target = valueAt(node, step.path!);
        if (isObject(target)) DEFAULTING_FUNCTIONS[step.call].run(target, context);
      } else if (step.object !== undefined) {
        const target = valueAt(node, step.path!);
        const steps2 = this.types.defaulter(step.object);
        if (steps2) this.run(steps2, target, context);
      } else if (step.default !== undefined) {
        const path = step.default;
        const parent = valueAt(node, path.slice(0, -1));
        const key = path[path.length - 1];
        if (!isObject(parent)) continue;
        const current = parent[key];
        if (step.when === 'nil' ? current === undefined || current === null : isZeroValue(current)) parent[key] = deepCopy(step.value);
      } else if (step.if !== undefined) {
        const v = valueAt(node, step.if);
        if (v !== undefined && v !== null) this.run(this.types.steps(step.then!), node, context);
      } else if (step.each !== undefined) {
        const items = valueAt(node, step.each);
        if (Array.isArray(items)) for (const item of items) this.run(this.types.steps(step.do!), item, context);
      }
    }
  }

  private findProblem(definition: string): string | undefined {
    if (!this.types.struct(definition)) return `Kubernetes ${this.types.release} has no Go type ${definition}`;
    const calls = new Set<string>();
    const seen = new Set<number>();
    const visit = (steps: readonly DefaulterStep[]) => {
      for (const step of steps) {
        if (step.call) calls.add(step.call);
        if (step.object) {
          const nested = this.types.defaulter(step.object);
          if (nested) visit(nested);
        }
        for (const index of [step.then, step.do]) {
          if (index !== undefined && !seen.has(index)) {
            seen.add(index);
            visit(this.types.steps(index));
          }
        }
      }
    };
    visit(this.types.defaulter(definition) ?? []);
    for (const name of [...calls].sort()) {
      const port: DefaultingFunction | undefined = Object.prototype.hasOwnProperty.call(DEFAULTING_FUNCTIONS, name)
        ? DEFAULTING_FUNCTIONS[name] : undefined;
      if (!port) return `its defaulter calls ${name}, which PolicyTester has not ported`;
      for (const [go, hashes] of Object.entries(port.go)) {
        const hash = this.types.functionHash(go);
        if (hash === undefined ? !hashes.includes('-') : !hashes.some((h) => h !== '-' && hash.startsWith(h))) {
          return `its defaulter calls ${name}, and PolicyTester's port of it follows another version of ${go} than Kubernetes ${this.types.release} has`;
        }
      }
    }
    return undefined;
  }
}

function valueAt(node: GoObject, path: readonly string[]): unknown {
  let current: unknown = node;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}
