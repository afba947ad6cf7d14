// Which manifests the cdk8s CLI plugin reads as the files of a staticManifestsDir: those in a
// directory that an AdmissionConfiguration beside it names, by its last path element, as a
// plugin's staticManifestsDir: the layout StaticAdmissionChart.synthDirectory writes, wherever the
// app puts it. Everything else is an API object.
import * as path from 'path';

/** What the plugin knows of a manifest: its document and its file. */
export interface LocatedManifest {
  readonly manifest: unknown;
  readonly manifestPath: string;
}

/** The positions of the API manifests, and of each static directory's manifests. */
export interface ManifestGroups {
  readonly api: number[];
  readonly staticDirectories: number[][];
}

export function groupByStaticDirectory(documents: readonly LocatedManifest[]): ManifestGroups {
  const staticDirectories = new Set<string>();
  for (const { manifest, manifestPath } of documents) {
    for (const dir of staticManifestsDirs(manifest)) staticDirectories.add(path.join(path.dirname(manifestPath), path.posix.basename(dir)));
  }
  const api: number[] = [];
  const byDirectory = new Map<string, number[]>();
  documents.forEach(({ manifestPath }, i) => {
    const dir = path.dirname(manifestPath);
    if (!staticDirectories.has(dir)) {
      api.push(i);
      return;
    }
    byDirectory.set(dir, [...(byDirectory.get(dir) ?? []), i]);
  });
  return { api, staticDirectories: [...byDirectory.values()] };
}

/** The staticManifestsDir of each plugin of an AdmissionConfiguration (apiserver.config.k8s.io/v1). */
function staticManifestsDirs(manifest: unknown): string[] {
  const m = manifest as { apiVersion?: unknown; kind?: unknown; plugins?: unknown } | null;
  if (m?.apiVersion !== 'apiserver.config.k8s.io/v1' || m.kind !== 'AdmissionConfiguration' || !Array.isArray(m.plugins)) return [];
  return m.plugins
    .map((p) => (p as { configuration?: { staticManifestsDir?: unknown } } | null)?.configuration?.staticManifestsDir)
    .filter((d): d is string => typeof d === 'string' && d !== '');
}
