/**
 * The manifest cases: the corpus (the example app's manifests and every manifest the jest suite
 * validated, recorded by record-corpus.ts and read by corpus/) and the generated ones (valid bases
 * mutated one to three fields at a time, drawn by fast-check from a seed).
 */
import * as fc from 'fast-check';
import { Base } from './bases';
import { applyMutation, describe, Mutation, mutationsAt, pathsOf } from './mutations';
import { STATIC_SUFFIX } from '../../../../src/validation/static-suffix';
import { VIRTUAL_RESOURCES } from '../../../../src/validation/virtual-resources';

export interface ManifestCase {
  readonly name: string;
  /** Where the case comes from: `corpus` (tests and examples), `generated`, or `limit` (a limit of the apiserver, on both sides). */
  readonly source: string;
  /** The kind and apiVersion whose collection the case is created in. */
  readonly kind: string;
  readonly apiVersion: string;
  readonly manifest: unknown;
}

const ADMISSION_GROUP = 'admissionregistration.k8s.io/';

/** The admissionregistration objects in a list of manifests, as corpus cases (one per distinct object). */
export function corpusCases(label: string, manifests: readonly unknown[], served: (kind: string, version: string) => boolean): ManifestCase[] {
  const seen = new Set<string>();
  const out: ManifestCase[] = [];
  for (const m of manifests) {
    if (typeof m !== 'object' || m === null) continue;
    const { apiVersion, kind } = m as { apiVersion?: unknown; kind?: unknown };
    if (typeof apiVersion !== 'string' || !apiVersion.startsWith(ADMISSION_GROUP) || typeof kind !== 'string') continue;
    if (!served(kind, apiVersion.slice(ADMISSION_GROUP.length))) continue;
    const key = JSON.stringify(m);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name: `${label} #${out.length} ${kind} ${nameOf(m)}`, source: 'corpus', kind, apiVersion, manifest: m });
  }
  return out;
}

function nameOf(m: object): string {
  const name = (m as { metadata?: { name?: unknown } }).metadata?.name;
  return typeof name === 'string' ? name.slice(0, 60) : '(no name)';
}

/** The apiserver's request size limit (3 MiB of JSON), on both sides: a base grown by a long validation message. */
export function sizeLimitCases(bases: readonly Base[]): ManifestCase[] {
  const base = bases.find((b) => b.manifest.kind === 'ValidatingAdmissionPolicy' && Array.isArray((b.manifest as any).spec?.validations));
  if (!base) return [];
  return [3 * 1024 * 1024, 3 * 1024 * 1024 + 1].map((bytes) => {
    const manifest = JSON.parse(JSON.stringify(base.manifest));
    manifest.spec.validations[0].message = '';
    manifest.spec.validations[0].message = 'x'.repeat(bytes - Buffer.byteLength(JSON.stringify(manifest)));
    return { name: `request size limit: ${base.name} of ${bytes} bytes`, source: 'limit', kind: base.manifest.kind, apiVersion: base.manifest.apiVersion, manifest };
  });
}

/**
 * The names and rules whose meaning depends on the version's feature gates, drawn from the
 * library's tables so that every entry is sent: each base named with and around the static
 * suffix (ManifestBasedAdmissionControlConfig), and each webhook base with a rule on every
 * virtual resource, alone, among others, and through its group's wildcard
 * (ExcludeAdmissionWebhookVirtualResources).
 */
export function gatedCases(bases: readonly Base[]): ManifestCase[] {
  const out: ManifestCase[] = [];
  const seen = new Set<string>();
  const add = (base: Base, mutations: Mutation[]) => {
    const manifest = mutations.reduce((m, mu) => applyMutation(m, mu), base.manifest);
    const key = JSON.stringify(manifest);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ name: `${base.name} | ${mutations.map(describe).join('; ')}`, source: 'generated', kind: base.manifest.kind, apiVersion: base.manifest.apiVersion, manifest });
  };
  for (const base of bases) {
    for (const name of [`baseline${STATIC_SUFFIX}`, STATIC_SUFFIX.slice(1), `a${STATIC_SUFFIX}.example.com`, 'a-static.k8s.io']) {
      add(base, [{ path: ['metadata', 'name'], value: name }]);
    }
    if (!Array.isArray((base.manifest as { webhooks?: unknown }).webhooks)) continue;
    const rule = (apiGroups: string[], resources: string[]) => ({ path: ['webhooks', 0, 'rules', 1], value: { apiGroups, apiVersions: ['*'], operations: ['CREATE'], resources } });
    for (const gr of VIRTUAL_RESOURCES) {
      add(base, [rule([gr.group], [gr.resource])]);
      add(base, [rule(['', gr.group], ['configmaps', gr.resource, gr.resource])]);
      add(base, [rule([gr.group], ['*'])]);
      add(base, [rule(['*'], [gr.resource])]);
    }
  }
  return out;
}

/** `count` distinct mutated manifests, reproducible from `seed`. */
export function generatedCases(bases: readonly Base[], count: number, seed: number): ManifestCase[] {
  const candidates = bases.map((b) => pathsOf(b.manifest)
    .filter((p) => p.path[0] !== 'apiVersion' && p.path[0] !== 'kind')
    .flatMap((p) => mutationsAt(p.path, p.value)));
  const arbitrary = fc.integer({ min: 0, max: bases.length - 1 }).chain((b) =>
    fc.tuple(fc.constant(b), fc.array(fc.integer({ min: 0, max: candidates[b].length - 1 }), { minLength: 1, maxLength: 3 })));
  const out: ManifestCase[] = [];
  const seen = new Set<string>();
  let round = 0;
  while (out.length < count && round < 20) {
    for (const [b, picks] of fc.sample(arbitrary, { seed: seed + round, numRuns: count })) {
      if (out.length >= count) break;
      const base = bases[b];
      const mutations: Mutation[] = picks.map((i) => candidates[b][i]);
      const manifest = mutations.reduce((m, mu) => applyMutation(m, mu), base.manifest);
      const key = JSON.stringify(manifest);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        name: `${base.name} | ${mutations.map(describe).join('; ')}`,
        source: 'generated',
        kind: base.manifest.kind,
        apiVersion: base.manifest.apiVersion,
        manifest,
      });
    }
    round++;
  }
  return out;
}
