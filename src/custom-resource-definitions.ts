import { ApiObject, Yaml } from 'cdk8s';
import { IConstruct } from 'constructs';
import { TickMap } from './private/tick-map';
import { CustomResourceSchemas } from './schemas/custom-resources';

const REGISTERED = Symbol.for('cdk8s-admission.CustomResourceDefinitions');

/**
 * The CustomResourceDefinitions whose schemas the app's policies are type-checked against, for
 * custom resources defined outside the app (installed by an operator's chart, another repository).
 * A CRD that is an object of the app (an `ApiObject`, an `Include`) is used without this.
 *
 * Policies whose rules match a custom resource then get the same type warnings as for built-in
 * resources (a misspelled field, a type error), at synth.
 */
export class CustomResourceDefinitions {
  /**
   * Adds CRD manifests (apiextensions.k8s.io/v1 CustomResourceDefinition, as parsed JSON or YAML)
   * to the app of `scope`.
   * @throws if one is not a CustomResourceDefinition with a schema for at least one version
   */
  public static add(scope: IConstruct, ...crds: any[]): void {
    crds.forEach((crd, i) => {
      if (CustomResourceSchemas.fromManifests([crd]).kinds.length === 0) {
        throw new Error(`${scope.node.path}: CustomResourceDefinitions.add: argument ${i} is not an apiextensions.k8s.io/v1 CustomResourceDefinition `
          + 'with spec.group, spec.names.kind and plural, and a schema.openAPIV3Schema in at least one of spec.versions');
      }
    });
    registeredOn(scope).push(...crds);
  }

  /**
   * Adds the CRDs of a YAML or JSON file (several documents allowed; objects of other kinds in it
   * are passed over) to the app of `scope`.
   * @throws if the file holds no CustomResourceDefinition with a schema
   */
  public static addFromFile(scope: IConstruct, file: string): void {
    const documents = Yaml.load(file).filter((d) => d !== null && d !== undefined);
    const crds = documents.filter((d) => CustomResourceSchemas.fromManifests([d]).kinds.length > 0);
    if (crds.length === 0) throw new Error(`${scope.node.path}: CustomResourceDefinitions.addFromFile: ${file} holds no CustomResourceDefinition with a schema`);
    registeredOn(scope).push(...crds);
  }

  private constructor() {}
}

function registeredOn(scope: IConstruct): unknown[] {
  const root = scope.node.root as { [REGISTERED]?: unknown[] } & IConstruct;
  perPass.delete(root);
  if (!root[REGISTERED]) Object.defineProperty(root, REGISTERED, { value: [], enumerable: false });
  return root[REGISTERED]!;
}

/**
 * The custom resources' schemas of the app of `scope`: its CRD objects and those added with
 * CustomResourceDefinitions. Read once per synthesis pass (cached until the next microtask, as the
 * checks' renderings are; `add` drops the cache). A CRD object added to the app within the same
 * tick as a check that already read them is seen from the next tick.
 */
export function appCustomResources(scope: IConstruct): CustomResourceSchemas {
  const root = scope.node.root;
  let found = perPass.get(root);
  if (!found) {
    const inApp = root.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c)
      && c.apiVersion === 'apiextensions.k8s.io/v1' && c.kind === 'CustomResourceDefinition');
    found = CustomResourceSchemas.fromManifests(inApp.map((o) => o.toJson()))
      .with(CustomResourceSchemas.fromManifests((root as { [REGISTERED]?: unknown[] })[REGISTERED] ?? []));
    perPass.set(root, found);
  }
  return found;
}

const perPass = new TickMap<IConstruct, CustomResourceSchemas>();
