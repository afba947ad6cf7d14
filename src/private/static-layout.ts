// Which manifests the cdk8s CLI plugin reads as the files of a staticManifestsDir: those in a
// directory that an AdmissionConfiguration beside it names, by its last path element, as a
// plugin's staticManifestsDir: the layout StaticAdmissionChart.synthDirectory writes, wherever the
// app puts it. Everything else is an API object.
import * as path from 'path';
import { StaticPlugin, staticPluginNamed } from '../validation/static-plugins';

/** What the plugin knows of a manifest: its document and its file. */
export interface LocatedManifest {
  readonly manifest: unknown;
  readonly manifestPath: string;
}

/** The manifests of one staticManifestsDir, and the admission plugins that read it. */
export interface StaticDirectory {
  readonly positions: number[];
  readonly plugins: readonly StaticPlugin[];
}

/** The positions of the API manifests, and of each static directory's manifests. */
export interface ManifestGroups {
  readonly api: number[];
  readonly staticDirectories: StaticDirectory[];
}

export function groupByStaticDirectory(documents: readonly LocatedManifest[]): ManifestGroups {
  const readers = new Map<string, StaticPlugin[]>();
  for (const { manifest, manifestPath } of documents) {
    for (const { dir, plugin } of staticManifestsDirs(manifest)) {
      const key = path.join(path.dirname(manifestPath), path.posix.basename(dir));
      const plugins = readers.get(key) ?? [];
      if (plugin && !plugins.includes(plugin)) plugins.push(plugin);
      readers.set(key, plugins);
    }
  }
  const api: number[] = [];
  const byDirectory = new Map<string, number[]>();
  documents.forEach(({ manifestPath }, i) => {
    const dir = path.dirname(manifestPath);
    if (!readers.has(dir)) {
      api.push(i);
      return;
    }
    byDirectory.set(dir, [...(byDirectory.get(dir) ?? []), i]);
  });
  return { api, staticDirectories: [...byDirectory].map(([dir, positions]) => ({ positions, plugins: readers.get(dir)! })) };
}

/** The staticManifestsDir of each plugin of an AdmissionConfiguration (apiserver.config.k8s.io/v1), with the plugin. */
function staticManifestsDirs(manifest: unknown): Array<{ dir: string; plugin?: StaticPlugin }> {
  const m = manifest as { apiVersion?: unknown; kind?: unknown; plugins?: unknown } | null;
  if (m?.apiVersion !== 'apiserver.config.k8s.io/v1' || m.kind !== 'AdmissionConfiguration' || !Array.isArray(m.plugins)) return [];
  return m.plugins.flatMap((p) => {
    const entry = p as { name?: unknown; configuration?: { staticManifestsDir?: unknown } } | null;
    const dir = entry?.configuration?.staticManifestsDir;
    return typeof dir === 'string' && dir !== '' ? [{ dir, plugin: staticPluginNamed(entry?.name) }] : [];
  });
}
