/**
 * The static sets of the static suite: the files an apiserver loads from the staticManifestsDir
 * of each admission plugin. Every set is built from one base per plugin (a policy and its binding,
 * or a webhook configuration) that acts on one probe request only, and comes in each form the
 * loader reads (a file per object, multi-document YAML, JSON, `.yml`, a `v1 List`, a typed List,
 * an empty file beside), or with one of the loader's rules broken, drawn for every object of the
 * base it applies to (k8s.io/apiserver@v0.37.2 pkg/admission/plugin/{manifest,policy/manifest,
 * webhook/manifest}: the name, its suffix and uniqueness, v1 only, strict decoding, API validation,
 * no params, bindings of the set's own policies, webhooks by URL, the plugin's own kinds).
 */
import { Yaml } from 'cdk8s';
import { SCOPE_LABEL } from '../reviews/scenario';

export type PluginName = 'ValidatingAdmissionPolicy' | 'MutatingAdmissionPolicy' | 'ValidatingAdmissionWebhook' | 'MutatingAdmissionWebhook';

/** One file of a staticManifestsDir. */
export interface StaticFile {
  readonly plugin: PluginName;
  /** The file's name in the plugin's directory. */
  readonly name: string;
  readonly text: string;
}

/** What shows a loaded set in force: a dry-run create of a labelled ConfigMap in PROBE_NAMESPACE, and what the answer must hold. */
export interface Probe {
  readonly label: string;
  /** `denied`: a 422 whose message holds `text`; `mutated`: admitted with the label `mutated-by: text`; `webhook`: refused, naming the webhook `text`. */
  readonly expect: 'denied' | 'mutated' | 'webhook';
  readonly text: string;
}

export interface StaticSetCase {
  /** `<plugin>, <form or broken rule>`, e.g. `MutatingAdmissionPolicy, the binding's name without the static suffix`. */
  readonly name: string;
  readonly files: readonly StaticFile[];
  /** The rule the case breaks; none for a set in one of the forms the loader reads. */
  readonly broken?: string;
  /** For a valid set: the request that shows it in force. */
  readonly probe?: Probe;
}

export const SUFFIX = '.static.k8s.io';
/** The Namespace probe requests are made in; every base acts only there, on its own label. */
export const PROBE_NAMESPACE = 'static-probes';
export const PROBE_LABEL = 'static-probe';
const V1 = 'admissionregistration.k8s.io/v1';

type Doc = any;

/** The match constraints of a base: ConfigMaps created in PROBE_NAMESPACE with its label. */
function probeScope(id: string) {
  return {
    namespaceSelector: { matchExpressions: [{ key: SCOPE_LABEL, operator: 'In', values: [PROBE_NAMESPACE] }] },
    objectSelector: { matchLabels: { [PROBE_LABEL]: id } },
  };
}

const CONFIG_MAP_RULE = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] };

interface Base {
  readonly plugin: PluginName;
  /** The objects, in the order a file per object lists them. */
  readonly docs: (id: string) => Doc[];
  readonly probe: (id: string) => Probe;
}

const BASES: readonly Base[] = [
  {
    plugin: 'ValidatingAdmissionPolicy',
    docs: (id) => [
      {
        apiVersion: V1,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: `${id}${SUFFIX}` },
        spec: { matchConstraints: { ...probeScope(id), resourceRules: [CONFIG_MAP_RULE] }, validations: [{ expression: 'false', message: `denied by ${id}` }] },
      },
      { apiVersion: V1, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: `${id}${SUFFIX}` }, spec: { policyName: `${id}${SUFFIX}`, validationActions: ['Deny'] } },
    ],
    probe: (id) => ({ label: id, expect: 'denied', text: `denied by ${id}` }),
  },
  {
    plugin: 'MutatingAdmissionPolicy',
    docs: (id) => [
      {
        apiVersion: V1,
        kind: 'MutatingAdmissionPolicy',
        metadata: { name: `${id}${SUFFIX}` },
        spec: {
          matchConstraints: { ...probeScope(id), resourceRules: [CONFIG_MAP_RULE] },
          reinvocationPolicy: 'Never',
          mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: `Object{metadata: Object.metadata{labels: {"mutated-by": "${id}"}}}` } }],
        },
      },
      { apiVersion: V1, kind: 'MutatingAdmissionPolicyBinding', metadata: { name: `${id}${SUFFIX}` }, spec: { policyName: `${id}${SUFFIX}` } },
    ],
    probe: (id) => ({ label: id, expect: 'mutated', text: id }),
  },
  ...(['Validating', 'Mutating'] as const).map((which): Base => ({
    plugin: `${which}AdmissionWebhook`,
    docs: (id) => [{
      apiVersion: V1,
      kind: `${which}WebhookConfiguration`,
      metadata: { name: `${id}${SUFFIX}` },
      webhooks: [{
        name: `${id}.webhooks.example.com`,
        // Nothing listens on port 1: with failurePolicy Fail, a request the webhook matches is refused, naming it.
        clientConfig: { url: `https://127.0.0.1:1/${id}` },
        rules: [CONFIG_MAP_RULE],
        ...probeScope(id),
        failurePolicy: 'Fail',
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        timeoutSeconds: 1,
        ...(which === 'Mutating' ? { reinvocationPolicy: 'Never' } : {}),
      }],
    }],
    probe: (id) => ({ label: id, expect: 'webhook', text: `${id}.webhooks.example.com` }),
  })),
];

const yaml = (docs: readonly Doc[]) => Yaml.stringify(...docs);
const fileOf = (plugin: PluginName, name: string, text: string): StaticFile => ({ plugin, name, text });
const perObject = (plugin: PluginName, id: string, docs: readonly Doc[]) => docs.map((d, i) => fileOf(plugin, `${id}-${i}-${d.kind ?? 'object'}.yaml`, yaml([d])));

/** The forms the loader reads a valid set in (manifest/loader.go: LoadFiles, acceptFileObject). */
const FORMS: ReadonlyArray<{ readonly form: string; readonly files: (plugin: PluginName, id: string, docs: readonly Doc[]) => StaticFile[] }> = [
  { form: 'a YAML file per object', files: perObject },
  { form: 'one multi-document YAML file', files: (plugin, id, docs) => [fileOf(plugin, `${id}.yaml`, yaml(docs))] },
  { form: 'a JSON file per object', files: (plugin, id, docs) => docs.map((d, i) => fileOf(plugin, `${id}-${i}.json`, JSON.stringify(d, null, 2))) },
  { form: 'a .yml file', files: (plugin, id, docs) => [fileOf(plugin, `${id}.yml`, yaml(docs))] },
  { form: 'a v1 List', files: (plugin, id, docs) => [fileOf(plugin, `${id}.yaml`, yaml([{ apiVersion: 'v1', kind: 'List', items: docs }]))] },
  {
    form: 'a List of each kind',
    files: (plugin, id, docs) => [...new Set(docs.map((d) => d.kind as string))]
      .map((kind) => fileOf(plugin, `${id}-${kind}List.yaml`, yaml([{ apiVersion: V1, kind: `${kind}List`, metadata: {}, items: docs.filter((d) => d.kind === kind) }]))),
  },
  { form: 'a YAML file per object and an empty file', files: (plugin, id, docs) => [...perObject(plugin, id, docs), fileOf(plugin, `${id}-empty.yaml`, '')] },
];

const clone = (d: Doc): Doc => JSON.parse(JSON.stringify(d));
const isPolicy = (d: Doc) => /AdmissionPolicy$/.test(d.kind);
const isBinding = (d: Doc) => /AdmissionPolicyBinding$/.test(d.kind);
const isWebhooks = (d: Doc) => /WebhookConfiguration$/.test(d.kind);

/** A change that breaks one rule for one object: the new documents of that object's file (none: the file is left out). */
interface Breakage {
  readonly rule: string;
  /** Whether the change applies to this object. */
  readonly applies: (d: Doc) => boolean;
  readonly change: (d: Doc) => Doc[];
}

/** One invalid value per kind, refused by the API validation the loader runs (defaultAndValidateVAP and the others). */
function apiInvalid(d: Doc): Doc {
  const out = clone(d);
  switch (d.kind) {
    case 'ValidatingAdmissionPolicy': out.spec.validations[0].expression = '1 +'; break;
    case 'MutatingAdmissionPolicy': out.spec.mutations[0].patchType = 'Merge'; break;
    case 'ValidatingAdmissionPolicyBinding': out.spec.validationActions = []; break;
    case 'MutatingAdmissionPolicyBinding': out.spec.matchResources = { matchPolicy: 'Sometimes' }; break;
    default: out.webhooks[0].name = 'no-dots'; break;
  }
  return out;
}

const BREAKAGES: readonly Breakage[] = [
  { rule: 'a name without the static suffix', applies: () => true, change: (d) => [{ ...clone(d), metadata: { name: d.metadata.name.slice(0, -SUFFIX.length) } }] },
  { rule: 'no name (generateName only)', applies: () => true, change: (d) => [{ ...clone(d), metadata: { generateName: 'static-' } }] },
  { rule: 'apiVersion v1beta1', applies: () => true, change: (d) => [{ ...clone(d), apiVersion: 'admissionregistration.k8s.io/v1beta1' }] },
  {
    rule: 'an unknown field (strict decoding)',
    applies: () => true,
    change: (d) => {
      const out = clone(d);
      if (isWebhooks(d)) out.webhooks[0].timeoutSecond = 2;
      else out.spec.validationAction = 'Deny';
      return [out];
    },
  },
  { rule: 'a value the API validation refuses', applies: () => true, change: (d) => [apiInvalid(d)] },
  { rule: 'paramKind', applies: isPolicy, change: (d) => [{ ...clone(d), spec: { ...clone(d.spec), paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } } }] },
  {
    rule: 'paramRef',
    applies: isBinding,
    change: (d) => [{ ...clone(d), spec: { ...clone(d.spec), paramRef: { name: 'params', parameterNotFoundAction: 'Deny' } } }],
  },
  { rule: 'a binding of a policy named without the suffix', applies: isBinding, change: (d) => [{ ...clone(d), spec: { ...clone(d.spec), policyName: 'api-policy' } }] },
  { rule: 'a binding of a policy outside the set', applies: isBinding, change: (d) => [{ ...clone(d), spec: { ...clone(d.spec), policyName: `absent${SUFFIX}` } }] },
  { rule: 'the binding alone (its policy left out)', applies: isPolicy, change: () => [] },
  {
    rule: 'a webhook called through a Service',
    applies: isWebhooks,
    change: (d) => {
      const out = clone(d);
      out.webhooks[0].clientConfig = { service: { namespace: 'default', name: 'webhook', path: '/check' } };
      return [out];
    },
  },
  {
    rule: 'a webhook with neither url nor service',
    applies: isWebhooks,
    change: (d) => {
      const out = clone(d);
      out.webhooks[0].clientConfig = {};
      return [out];
    },
  },
  { rule: 'a duplicate name (the object twice)', applies: () => true, change: (d) => [clone(d), clone(d)] },
  {
    rule: 'an object of another kind',
    applies: (d) => isPolicy(d) || isWebhooks(d),
    change: (d) => [clone(d), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `settings${SUFFIX}`, namespace: 'default' }, data: { a: 'b' } }],
  },
  {
    rule: 'a v1 List with the object named without the suffix',
    applies: () => true,
    change: (d) => [{ apiVersion: 'v1', kind: 'List', items: [{ ...clone(d), metadata: { name: d.metadata.name.slice(0, -SUFFIX.length) } }] }],
  },
];

/** The plugin whose objects a case puts into another plugin's directory. */
const OTHER_PLUGIN: Record<PluginName, PluginName> = {
  ValidatingAdmissionPolicy: 'MutatingAdmissionPolicy',
  MutatingAdmissionPolicy: 'ValidatingAdmissionWebhook',
  ValidatingAdmissionWebhook: 'MutatingAdmissionWebhook',
  MutatingAdmissionWebhook: 'ValidatingAdmissionPolicy',
};

/** Every valid form of every base, each with an id of its own (`v0`, `v1`, ...), so that all can load at once. */
export function validSets(): StaticSetCase[] {
  const out: StaticSetCase[] = [];
  for (const base of BASES) {
    for (const { form, files } of FORMS) {
      const id = `v${out.length}`;
      out.push({ name: `${base.plugin}, ${form}`, files: files(base.plugin, id, base.docs(id)), probe: base.probe(id) });
    }
  }
  return out;
}

/** Every rule broken for every object of every base it applies to, each set alone. */
export function brokenSets(): StaticSetCase[] {
  const out: StaticSetCase[] = [];
  for (const base of BASES) {
    const docs = base.docs('b');
    for (const breakage of BREAKAGES) {
      docs.forEach((target, t) => {
        if (!breakage.applies(target)) return;
        const changed = docs.flatMap((d, i) => (i === t ? breakage.change(d) : [d]));
        const object = docs.length > 1 ? ` (the ${target.kind})` : '';
        out.push({ name: `${base.plugin}, ${breakage.rule}${object}`, files: perObject(base.plugin, 'b', changed), broken: breakage.rule });
      });
    }
    const other = BASES.find((b) => b.plugin === OTHER_PLUGIN[base.plugin])!;
    const foreign = other.docs('c')[0];
    out.push({
      name: `${base.plugin}, a ${foreign.kind} in its directory`,
      files: [...perObject(base.plugin, 'b', docs), fileOf(base.plugin, 'c.yaml', yaml([foreign]))],
      broken: 'an object of another plugin',
    });
  }
  return out;
}
