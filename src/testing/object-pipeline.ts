import { randomUUID } from 'crypto';
import { BuiltinSchemas } from '../schemas/builtin-schemas';
import { CustomResourceKind, CustomResourceSchemas } from '../schemas/custom-resources';
import { goRoundTripField } from '../schemas/go-json';
import { AdmissionPlugin } from './admission-plugins/admission-plugin';
import { pluginsActOn, runMutatingPlugins } from './admission-plugins/default-plugins';
import { BuiltinDefaulter } from './defaulting/builtin-defaulter';
import { afterConversions } from './defaulting/conversion';
import { DefaultingContext } from './defaulting/defaulting-function';
import { deepCopy, GoObject, isObject, objectAt } from './defaulting/go-values';
import { structuralDefaults } from './defaulting/structural-defaulting';
import { prepareForCreate, prepareForUpdate, timeText } from './registry-strategy';
import { GroupVersionKind, groupVersionKind } from './resource-table';

/** How one kind is defaulted: a built-in kind by its Go type, a custom resource by its CRD. */
type KindDefaulting = { readonly builtin: string } | { readonly custom: CustomResourceKind };

/** The request's attributes the stages read. */
export interface PipelineRequest {
  readonly operation: string;
  readonly group: string;
  readonly resource: string;
  readonly subResource: string;
  readonly namespace: string;
}

/**
 * What the apiserver does to a request's objects around admission, stage by stage, for one
 * tester (one target minor, its CRDs and manifests):
 *
 * 1. decoding and defaulting (`defaulted`): the request body as the Go type decodes and the
 *    scheme defaults it; a stored object (`stored`) likewise, with the system fields it has;
 * 2. the default mutating admission plugins (`afterPlugins`), on CREATE and UPDATE;
 * 3. (the mutating policies, each mutation followed by `defaulted` again: policy-tester.ts);
 * 4. the registry's preparation for storage (`forValidation`): system fields and the kind's strategy.
 *
 * The validating policies then see the result.
 */
export class ObjectPipeline {
  private readonly schemas: BuiltinSchemas;
  private readonly defaulter: BuiltinDefaulter;

  /**
   * One review's pipeline; `storedManifests` caches the tester's manifests as stored (defaulted)
   * across its reviews, by `group/Kind`.
   */
  public constructor(
    private readonly minor: number,
    private readonly customResources: CustomResourceSchemas,
    private readonly manifests: readonly unknown[],
    private readonly disabledPlugins: ReadonlySet<AdmissionPlugin>,
    private readonly storedManifests: Map<string, GoObject[]>,
    /** The review's time: creation timestamps and other times the apiserver takes from its clock. */
    public readonly now: Date,
  ) {
    this.schemas = BuiltinSchemas.of(minor);
    this.defaulter = BuiltinDefaulter.of(minor);
  }

  /** The object as the apiserver decodes and defaults it; `fallback` names its kind when the object does not. */
  public defaulted(object: unknown, fallback?: GroupVersionKind): GoObject {
    const gvk = groupVersionKind(object) ?? fallback;
    if (!gvk) throw new Error('review: an object without apiVersion and kind needs `resource` in the request, to know its kind');
    const how = this.defaultingOf(gvk);
    const typed = isObject(object) ? { ...object, apiVersion: apiVersionOf(gvk), kind: gvk.kind } : object;
    if ('custom' in how) return structuralDefaults(typed, how.custom.schema) as GoObject;
    return afterConversions(this.defaulter.default(typed, how.builtin, this.context()) as GoObject, gvk);
  }

  /** A stored object: defaulted, with the UID, creation time and generation every stored object has. */
  public stored(object: unknown, fallback?: GroupVersionKind): GoObject {
    const out = this.defaulted(object, fallback);
    const metadata = objectAt(out, 'metadata');
    metadata.uid ??= randomUUID();
    metadata.creationTimestamp ??= timeText(this.now);
    return out;
  }

  /** The object after the default mutating admission plugins, encoded as the Go types encode it. */
  public afterPlugins(request: PipelineRequest, object: GoObject, oldObject: GoObject | undefined): GoObject {
    if ((request.operation !== 'CREATE' && request.operation !== 'UPDATE') || !pluginsActOn(request.group, request.resource)) return object;
    const out = deepCopy(object);
    runMutatingPlugins({ ...request, object: out, oldObject, objectsOf: (groupKind) => this.manifestsOf(groupKind) }, this.disabledPlugins);
    if (JSON.stringify(out) === JSON.stringify(object)) return object;
    const how = this.defaultingOf(groupVersionKind(out)!);
    // The plugins change Go objects; what they add is encoded as the Go types encode it (not defaulted).
    return 'builtin' in how ? this.defaulter.encoded(out, how.builtin) as GoObject : out;
  }

  /**
   * The object validating admission sees: prepared for storage by the registry, encoded as its Go
   * type encodes it. `owned`: the object is the pipeline's own, to change in place.
   */
  public forValidation(operation: string, object: GoObject, oldObject: GoObject | undefined, owned: boolean): GoObject {
    if (operation !== 'CREATE' && !(operation === 'UPDATE' && oldObject)) return object;
    const gvk = groupVersionKind(object)!;
    const context = { gate: (name: string) => this.defaulter.types.featureGate(name), now: this.now };
    const prepared = owned ? object : deepCopy(object);
    if (operation === 'CREATE') prepareForCreate(prepared, gvk, context);
    else prepareForUpdate(prepared, oldObject!, gvk);
    // What the strategies set is written as the Go types write it but a reset status (`{}`), whose
    // fields without omitempty the encoding writes as zeros.
    const how = this.defaultingOf(gvk);
    if ('builtin' in how && prepared.status !== undefined) {
      const status = goRoundTripField(prepared.status, how.builtin, 'status', this.defaulter.types);
      if (status !== undefined) prepared.status = status;
    }
    return prepared;
  }

  /** Throws, saying why, when PolicyTester cannot default objects of this kind as the apiserver does. */
  public defaultingOf(gvk: GroupVersionKind): KindDefaulting {
    const builtin = this.schemas.kind(apiVersionOf(gvk), gvk.kind);
    if (builtin) {
      const problem = this.defaulter.problem(builtin.name);
      if (problem) throw new Error(`review: PolicyTester cannot default ${apiVersionOf(gvk)} ${gvk.kind} as the apiserver of Kubernetes ${this.defaulter.types.release} does: ${problem}`);
      return { builtin: builtin.name };
    }
    const custom = this.customResources.kind(gvk.group, gvk.version, gvk.kind);
    if (custom) return { custom };
    throw new Error(`review: ${apiVersionOf(gvk)} ${gvk.kind} is not a built-in kind of Kubernetes 1.${this.minor}, and no CustomResourceDefinition `
      + 'among the tester\'s manifests defines it: add the CRD to the manifests, so that PolicyTester decodes and defaults the object as the apiserver would');
  }

  private context(): DefaultingContext {
    return { minor: this.defaulter.types.minor, gate: (name) => this.defaulter.types.featureGate(name), now: this.now };
  }

  /** The tester's manifests of a kind, defaulted as the apiserver stores them. */
  private manifestsOf(groupKind: string): GoObject[] {
    let found = this.storedManifests.get(groupKind);
    if (!found) {
      found = this.manifests
        .filter((m) => {
          const gvk = groupVersionKind(m);
          return gvk !== undefined && `${gvk.group}/${gvk.kind}` === groupKind;
        })
        .map((m) => this.defaulted(m));
      this.storedManifests.set(groupKind, found);
    }
    return found;
  }
}

export function apiVersionOf(gvk: GroupVersionKind): string {
  return gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
}
