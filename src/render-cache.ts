import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { FleetEntry } from './fleet-summary';
import { RenderedFile } from './gitops/layout';
import { byCodePoint, listFiles } from './output';
import { PreparedCluster } from './openshift/platform';

/**
 * What the last synth into an output rendered for each cluster: the digest
 * of its inputs (the validated, transformed cluster and the build of
 * ccm-gitops) and of the folder it rendered. A cluster whose inputs digest
 * the same and whose folder on disk still digests the same needs no render:
 * rendering is a pure function of the two. Kept outside the output (the
 * committed tree stays what it is), in the user's cache folder; losing it
 * only costs a full render.
 */
export interface CachedCluster {
  /** Digest of the inputs: {@link clusterKey}. */
  readonly key: string;
  /** Digest of the rendered folder: {@link unitDigest}. */
  readonly digest: string;
  /** The cluster's fleet summary line. */
  readonly entry: FleetEntry;
}

interface CacheFile {
  readonly version: 1;
  readonly clusters: Record<string, CachedCluster>;
}

/** A render cache file: read once, updated in memory, written back whole (best effort). */
export class RenderCache {
  /** Opens the cache of an output folder in `dir` (created on save); a missing or unreadable cache is empty. */
  static forOutput(dir: string, realOutput: string): RenderCache {
    const file = path.join(dir, `${createHash('sha256').update(realOutput).digest('hex').slice(0, 16)}.json`);
    let clusters: Record<string, CachedCluster> = {};
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as CacheFile;
      if (parsed.version === 1 && parsed.clusters && typeof parsed.clusters === 'object') {
        clusters = parsed.clusters;
      }
    } catch {
      clusters = {};
    }
    return new RenderCache(file, new Map(Object.entries(clusters)));
  }

  private constructor(readonly file: string, private readonly clusters: Map<string, CachedCluster>) {}

  /** The record of a cluster, whatever its key. */
  get(name: string): CachedCluster | undefined {
    return this.clusters.get(name);
  }

  /** The record of a cluster, when its inputs digest to `key`. */
  lookup(name: string, key: string): CachedCluster | undefined {
    const c = this.clusters.get(name);
    return c && c.key === key ? c : undefined;
  }

  /** Records what a cluster rendered to. */
  record(name: string, cached: CachedCluster): void {
    this.clusters.set(name, cached);
  }

  /** Keeps only these clusters (the current fleet). */
  retain(names: ReadonlySet<string>): void {
    for (const name of [...this.clusters.keys()]) {
      if (!names.has(name)) {
        this.clusters.delete(name);
      }
    }
  }

  /** Writes the cache (temporary file, then rename); a cache that cannot be written is skipped silently. */
  save(): void {
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      const sorted = Object.fromEntries([...this.clusters.entries()].sort(([a], [b]) => byCodePoint(a, b)));
      fs.writeFileSync(tmp, JSON.stringify({ version: 1, clusters: sorted } satisfies CacheFile));
      fs.renameSync(tmp, this.file);
    } catch {
      // best effort: the next run renders what it cannot find
    }
  }
}

let build: string | undefined;

/**
 * Digest of the code that renders: every source file of this build (the
 * folder this module is in, and `imports/` beside it). Any change of
 * ccm-gitops invalidates every cached cluster.
 */
export function buildId(): string {
  if (build === undefined) {
    const hash = createHash('sha256');
    const walk = (dir: string): void => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => byCodePoint(a.name, b.name));
      } catch {
        return;
      }
      for (const e of entries) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) {
          walk(full);
        } else if (/\.(js|ts|json)$/.test(e.name)) {
          hash.update(`${path.relative(__dirname, full)}\0`).update(fs.readFileSync(full)).update('\0');
        }
      }
    };
    walk(__dirname);
    walk(path.join(__dirname, '..', 'imports'));
    build = hash.digest('hex');
  }
  return build;
}

/** Digest of everything a cluster's render depends on: the prepared cluster, the output's path in the repository (GitOps paths name it) and the build. */
export function clusterKey(cluster: PreparedCluster, outputPath = 'dist'): string {
  // Maps and Sets would stringify as {}: spelled out, so that different ones never digest the same
  const json = JSON.stringify(cluster, (_k, v: unknown) => (v instanceof Map ? { Map: [...v] } : v instanceof Set ? { Set: [...v] } : typeof v === 'function' ? String(v) : v));
  return createHash('sha256').update(buildId()).update('\0').update(outputPath).update('\0').update(json).digest('hex');
}

/** Digest of a unit's files (paths relative to the output, `/`-separated): paths and contents, in path order. */
export function unitDigest(files: readonly RenderedFile[]): string {
  const hash = createHash('sha256');
  for (const f of [...files].sort((a, b) => byCodePoint(a.path, b.path))) {
    hash.update(f.path).update('\0').update(f.content).update('\0');
  }
  return hash.digest('hex');
}

/** Digest of a unit as it is on disk, the same way; undefined when it does not exist. */
export function diskDigest(target: string, unit: string): string | undefined {
  const files = listFiles(path.join(target, unit), unit).sort(byCodePoint);
  if (files.length === 0) {
    return undefined;
  }
  const hash = createHash('sha256');
  for (const rel of files) {
    hash.update(rel).update('\0').update(fs.readFileSync(path.join(target, ...rel.split('/')))).update('\0');
  }
  return hash.digest('hex');
}
