import * as fs from 'fs';
import * as path from 'path';

/**
 * What the Go source of each Kubernetes release says about its API types, as
 * scripts/generate-go-types.ts writes it into schemas/go-types.json (read on first use): the Go
 * structs as encoding/json lays them out, each kind's generated defaulter as steps, a hash of each
 * hand-written defaulting function, and the feature gates' defaults.
 */

/** A struct field: its JSON name ('' for an inline embedded struct), flags and type. */
export type GoField = readonly [json: string, flags: string, type: string];

/**
 * A step of a generated defaulter (scripts/go-api-extractor/main.go describes them); `then` and
 * `do` are indices of step lists.
 */
export interface DefaulterStep {
  /** A hand-written defaulter, such as `core/v1.SetDefaults_PodSpec`, called on the value at `path`. */
  readonly call?: string;
  /** Another type's generated defaulter, on the value at `path`. */
  readonly object?: string;
  readonly path?: readonly string[];
  /** A declarative default: `value` at this path when the field is nil (`when: nil`) or its type's zero value. */
  readonly default?: readonly string[];
  readonly value?: unknown;
  readonly when?: 'nil' | 'zero';
  /** Steps (an index of `steps`) when the value at this path is set. */
  readonly if?: readonly string[];
  readonly then?: number;
  /** Steps (an index) for every item of the list at this path. */
  readonly each?: readonly string[];
  readonly do?: number;
}

interface MinorEntry {
  readonly structs: readonly number[];
  readonly defaulters: { readonly [definition: string]: number };
  readonly functions: { readonly [name: string]: string };
  readonly featureGates: { readonly [gate: string]: boolean };
}

interface GoTypesFile {
  readonly kubernetes: { readonly [minor: string]: string };
  readonly structs: ReadonlyArray<readonly [string, readonly GoField[]]>;
  readonly steps: ReadonlyArray<readonly DefaulterStep[]>;
  readonly minors: { readonly [minor: string]: MinorEntry };
}

/** From src/schemas/ and from lib/schemas/ alike. */
const FILE = path.join(__dirname, '..', '..', 'schemas', 'go-types.json');

let file: GoTypesFile | undefined;
const byMinor = new Map<number, GoTypes>();

export class GoTypes {
  /** The Go types of a target minor; a minor newer than the newest generated uses the newest. */
  public static of(minor: number): GoTypes {
    let types = byMinor.get(minor);
    if (!types) {
      file ??= JSON.parse(fs.readFileSync(FILE, 'utf8')) as GoTypesFile;
      const known = Object.keys(file.minors).map(Number);
      const chosen = Math.min(minor, Math.max(...known));
      const entry = file.minors[String(chosen)];
      if (!entry) throw new Error(`no Go types for Kubernetes 1.${minor}`);
      types = new GoTypes(chosen, file.kubernetes[String(chosen)], entry, file);
      byMinor.set(minor, types);
    }
    return types;
  }

  private readonly structs = new Map<string, readonly GoField[]>();

  private constructor(
    public readonly minor: number,
    /** The Kubernetes release the types come from, such as `v1.37.2`. */
    public readonly release: string,
    private readonly entry: MinorEntry,
    private readonly data: GoTypesFile,
  ) {
    for (const i of entry.structs) {
      const [name, fields] = data.structs[i];
      this.structs.set(name, fields);
    }
  }

  /** A struct's fields by OpenAPI definition name (`io.k8s.api.core.v1.PodSpec`). */
  public struct(definition: string): readonly GoField[] | undefined {
    return this.structs.get(definition);
  }

  /** The steps of a kind's generated defaulter, if it has one. */
  public defaulter(definition: string): readonly DefaulterStep[] | undefined {
    const i = own(this.entry.defaulters, definition);
    return i === undefined ? undefined : this.steps(i);
  }

  public steps(index: number): readonly DefaulterStep[] {
    return this.data.steps[index];
  }

  /** The hash of a hand-written defaulting function's code in this release (`core/v1.SetDefaults_Pod`). */
  public functionHash(name: string): string | undefined {
    return own(this.entry.functions, name);
  }

  /** Every hand-written defaulting function of this release, by name. */
  public functions(): { readonly [name: string]: string } {
    return this.entry.functions;
  }

  /** A feature gate's default in this release (false for a gate it does not know). */
  public featureGate(gate: string): boolean {
    return own(this.entry.featureGates, gate) ?? false;
  }

  /** Every kind with a generated defaulter. */
  public defaultedKinds(): readonly string[] {
    return Object.keys(this.entry.defaulters);
  }
}

function own<T>(o: { readonly [key: string]: T }, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}
