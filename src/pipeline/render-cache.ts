import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { isPlainName } from './output-journal';
import { FleetEntry } from './fleet-summary';
import { RenderedFile } from '../gitops/layout';
import { byCodePoint, listFiles } from './output';
import { ArgoCdMember, FLEET_DIRECTORY } from '../gitops/repo-path';
import { appendRecords, readRecordFile, writeRecordFile } from '../util/record-file';
import { byTreeOrder } from '../util/tree-order';
import { PreparedCluster } from '../cluster/prepared-cluster';

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
  /**
   * The cluster's fleet summary line.
   *
   * @default - none: the record of the fleet folder (`_fleet/`), which is no cluster
   */
  readonly entry?: FleetEntry;
  /**
   * Fingerprint of the folder's metadata ({@link unitFingerprint} over
   * `files`), taken when its content was last found to digest as `digest`
   * and no file had changed for {@link SETTLE_MS}. While it holds, the
   * content needs no reading.
   *
   * @default - none: the content is read and digested
   */
  readonly stat?: string;
  /**
   * The folder's files when `stat` was taken: paths relative to the folder,
   * `/`-separated, sorted, one per line, the cluster's name written as NUL
   * ({@link fileListTemplate}), so that clusters of one shape share one
   * string in memory and in the cache file.
   *
   * @default - none
   */
  readonly files?: string;
}

/** What checking a folder against the cache needs: a {@link CachedCluster} without its key and summary line. */
export type UnitCheck = Pick<CachedCluster, 'digest' | 'stat' | 'files'>;

/** The part of a record a worker checks a folder with (small to send). */
export function unitCheckOf(record: CachedCluster): UnitCheck {
  return record.stat === undefined ? { digest: record.digest } : { digest: record.digest, stat: record.stat, files: record.files };
}

/**
 * The first record of a render cache file; then records `[unit,
 * CachedCluster]`, or `[unit, null]` for a unit no longer in the fleet. A
 * later record of a unit replaces an earlier one: a run appends what
 * changed.
 */
interface RenderCacheHeader {
  readonly version: 4;
  /**
   * The {@link buildId} that wrote it: every key of another build differs, so
   * its records are not even read (an upgrade would otherwise hold a whole
   * stale cache in memory through its first, full, render).
   */
  readonly build: string;
}

/** A cluster's record as the file holds it: its file list and its summary line's images named by {@link listId}. */
type StoredCluster = Omit<CachedCluster, 'files' | 'entry'> & {
  readonly files?: string;
  readonly entry?: Omit<FleetEntry, 'images'> & { readonly images: string };
};

/**
 * A record of the file: a unit's record (null: gone), or a shared value that
 * unit records name: a file list (`files`) or a summary line's images
 * (`images`, the bulk of a line: a dozen image references of a release).
 */
type RenderCacheRecord =
  | readonly [string, StoredCluster | null]
  | { readonly list: string; readonly files: string }
  | { readonly list: string; readonly images: Readonly<Record<string, string>> };

const listIds = new Map<string, string>();

/** Name of a file list in the cache file: clusters of one shape share it (one copy on disk and in memory). */
function listId(template: string): string {
  let id = listIds.get(template);
  if (id === undefined) {
    id = createHash('sha256').update(template).digest('hex').slice(0, 16);
    listIds.set(template, id);
  }
  return id;
}

/** A unit's file list as a {@link CachedCluster} keeps it: relative to the unit, its name as NUL. */
export function fileListTemplate(unit: string, files: readonly string[]): string {
  return files
    .map((f) =>
      f
        .slice(unit.length + 1)
        .split(unit)
        .join('\0'),
    )
    .join('\n');
}

/** The file list (paths relative to the output) of a {@link fileListTemplate}. */
export function fileListOf(unit: string, template: string): string[] {
  return template.split('\n').map((f) => `${unit}/${f.split('\0').join(unit)}`);
}

/** Whether every path of a {@link fileListTemplate} is plain names below its unit (the unit's name, NUL, is one). */
function isPlainFileList(template: string): boolean {
  return template.split('\n').every((f) => f.split('/').every((part) => isPlainName(part.split('\0').join('u'))));
}

/** A render cache file: read once, updated in memory, what changed appended back (best effort). */
export class RenderCache {
  /** Opens the cache of an output folder in `dir` (created on save); a missing, unreadable or other build's cache is empty. */
  static forOutput(dir: string, realOutput: string): RenderCache {
    const file = path.join(dir, `${createHash('sha256').update(realOutput).digest('hex').slice(0, 16)}.v8`);
    const clusters = new Map<string, CachedCluster>();
    const lists = new Map<string, string>();
    const images = new Map<string, Readonly<Record<string, string>>>();
    const records = readRecordFile(
      file,
      { version: 4, build: buildId() } satisfies RenderCacheHeader,
      (value) => {
        const stored = value as RenderCacheRecord;
        if (!Array.isArray(stored)) {
          const shared = stored as { list: string; files?: string; images?: Readonly<Record<string, string>> };
          if (shared.files !== undefined) {
            // a list naming anything but plain names below its unit (a crafted cache) is dropped: as if missing
            if (isPlainFileList(shared.files)) {
              lists.set(shared.list, shared.files);
            }
          } else if (shared.images !== undefined) {
            images.set(shared.list, shared.images);
          }
          return;
        }
        const [unit, record] = stored as readonly [string, StoredCluster | null];
        if (record === null) {
          clusters.delete(unit);
          return;
        }
        const { files: id, stat, entry: line, ...rest } = record;
        const lineImages = line && images.get(line.images);
        if (line && !lineImages) {
          // its shared part is missing (a torn file): as if never recorded
          clusters.delete(unit);
          return;
        }
        const entry = line && { ...line, images: lineImages! };
        const files = id === undefined ? undefined : lists.get(id);
        // a fingerprint whose file list is missing is dropped: the folder is read next time
        clusters.set(unit, { ...rest, ...(entry ? { entry } : {}), ...(files !== undefined && stat !== undefined ? { stat, files } : {}) });
      },
      () => {
        clusters.clear();
        lists.clear();
        images.clear();
      },
    );
    return new RenderCache(file, clusters, records, new Set([...lists.keys(), ...images.keys()]));
  }

  /** The records of these units as the file holds them, each file list not in `written` before the first record naming it. */
  private *stored(units: readonly string[], written: Set<string>): Generator<RenderCacheRecord> {
    for (const unit of units) {
      const record = this.clusters.get(unit);
      if (!record) {
        yield [unit, null];
        continue;
      }
      const { files, entry, ...rest } = record;
      let line: StoredCluster['entry'];
      if (entry) {
        const id = listId(JSON.stringify(entry.images));
        if (!written.has(id)) {
          written.add(id);
          yield { list: id, images: entry.images };
        }
        line = { ...entry, images: id };
      }
      let list: string | undefined;
      if (files !== undefined) {
        list = listId(files);
        if (!written.has(list)) {
          written.add(list);
          yield { list, files };
        }
      }
      yield [unit, { ...rest, ...(line ? { entry: line } : {}), ...(list !== undefined ? { files: list } : {}) }];
    }
  }

  /**
   * Units recorded or removed this run: what a save appends. Not kept when
   * there is no file to append to (none, torn, another build's): the save
   * writes the whole cache then, and a first synth of ten thousand clusters
   * would hold ten thousand names for nothing.
   */
  private readonly changed = new Set<string>();

  /**
   * @param records records after the header in the file as read; -1 when
   * the file is not one to append to (missing, torn, corrupt, another build)
   */
  private constructor(
    readonly file: string,
    private readonly clusters: Map<string, CachedCluster>,
    private readonly records: number,
    /** The file lists the file holds. */
    private readonly lists: Set<string>,
  ) {}

  /** The folders the cache has a record of (clusters and the fleet folder), sorted. */
  units(): string[] {
    return [...this.clusters.keys()].sort(byCodePoint);
  }

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
    if (this.clusters.get(name) !== cached) {
      this.clusters.set(name, cached);
      this.changedUnit(name);
    }
  }

  /** Keeps only these clusters (the current fleet) and the fleet folder. */
  retain(names: ReadonlySet<string>): void {
    for (const name of [...this.clusters.keys()]) {
      // the fleet folder's record stays: no cluster takes its name (cluster names are DNS labels, no `_`)
      if (!names.has(name) && name !== FLEET_DIRECTORY) {
        this.clusters.delete(name);
        this.changedUnit(name);
      }
    }
  }

  private changedUnit(name: string): void {
    if (this.records >= 0) {
      this.changed.add(name);
    }
  }

  /**
   * Writes what changed, best effort: appended to the file when it is whole
   * and of this build (a one-cluster change writes one record), else the
   * whole cache (temporary file, then rename), also when the file holds more
   * than twice the records it needs.
   */
  save(): void {
    if (this.changed.size === 0 && this.records >= 0) {
      return;
    }
    const changed = [...this.changed].sort(byCodePoint);
    try {
      if (this.records >= 0 && this.records + changed.length <= 2 * (this.clusters.size + this.lists.size) + 64) {
        appendRecords(this.file, this.stored(changed, this.lists));
        return;
      }
      // record by record: the file is tens of megabytes at ten thousand clusters, never held whole
      writeRecordFile(
        this.file,
        { version: 4, build: buildId() } satisfies RenderCacheHeader,
        this.stored([...this.clusters.keys()].sort(byCodePoint), new Set()),
      );
    } catch {
      // best effort: the next run renders what it cannot find
    }
  }
}

let build: string | undefined;

/**
 * Digest of the code that renders: every source file of this build (the
 * `src/` folder above this module's, and `imports/` beside it). Any change of
 * ccm-gitops invalidates every cached cluster.
 */
export function buildId(): string {
  if (build === undefined) {
    const hash = createHash('sha256');
    const src = path.join(__dirname, '..');
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
          hash
            .update(`${path.relative(src, full)}\0`)
            .update(fs.readFileSync(full))
            .update('\0');
        }
      }
    };
    walk(src);
    walk(path.join(src, '..', 'imports'));
    build = hash.digest('hex');
  }
  return build;
}

const preparedDigests = new WeakMap<PreparedCluster, string>();

/**
 * Digest of a prepared cluster (its JSON, Maps and Sets spelled out),
 * computed once per object. The spec cache hands down the digest it stored
 * with the cluster ({@link rememberPreparedDigest}), so an unchanged spec
 * costs no serialization.
 */
export function preparedDigest(cluster: PreparedCluster): string {
  let digest = preparedDigests.get(cluster);
  if (digest === undefined) {
    // Maps and Sets would stringify as {}: spelled out, so that different ones never digest the same
    const json = JSON.stringify(cluster, (_k, v: unknown) =>
      v instanceof Map ? { Map: [...v] } : v instanceof Set ? { Set: [...v] } : typeof v === 'function' ? String(v) : v,
    );
    digest = createHash('sha256').update(json).digest('hex');
    preparedDigests.set(cluster, digest);
  }
  return digest;
}

/** Records the {@link preparedDigest} of a cluster read back from the spec cache (where it was computed from the same object). */
export function rememberPreparedDigest(cluster: PreparedCluster, digest: string): void {
  preparedDigests.set(cluster, digest);
}

/** Digest of everything a cluster's render depends on: the prepared cluster, the output's path in the repository (GitOps paths name it) and the build. */
export function clusterKey(cluster: PreparedCluster, outputPath = 'dist'): string {
  return clusterKeyOf(preparedDigest(cluster), outputPath);
}

/** The {@link clusterKey} of a cluster whose {@link preparedDigest} is known (the spec cache keeps it: the cluster need not be read). */
export function clusterKeyOf(digest: string, outputPath = 'dist'): string {
  return createHash('sha256').update(buildId()).update('\0').update(outputPath).update('\0').update(digest).digest('hex');
}

/**
 * Digest of everything the Argo CD roots (the fleet folder, `_fleet/`)
 * depend on: the build, the output's path in the repository, and the name
 * and `spec.gitops` of every cluster Argo CD applies, by name (the roots
 * read nothing else of a spec: test/render-cache.test.ts holds them to it). While it and the folder on disk are as the
 * cache recorded, the roots are not rendered again.
 */
export function fleetFolderKey(specs: readonly ArgoCdMember[], outputPath = 'dist'): string {
  const hash = createHash('sha256').update(buildId()).update('\0').update(outputPath).update('\0');
  const argocd = specs.filter((s) => s.spec.gitops.engine === 'argocd').sort((a, b) => byCodePoint(a.metadata.name, b.metadata.name));
  for (const s of argocd) {
    hash.update(s.metadata.name).update('\0').update(JSON.stringify(s.spec.gitops)).update('\n');
  }
  return hash.digest('hex');
}

/**
 * Digest of a unit's files (paths relative to the output, `/`-separated):
 * paths and contents, in {@link byTreeOrder}, the order in which a unit
 * given a part at a time is digested ({@link UnitDigest}).
 */
export function unitDigest(files: readonly RenderedFile[]): string {
  const digest = new UnitDigest();
  digest.add(files);
  return digest.digest();
}

/**
 * {@link unitDigest} of a unit given a part at a time (the fleet folder):
 * each part's files in {@link byTreeOrder} after those of the parts before
 * (as {@link UnitParts} takes them), none held.
 */
export class UnitDigest {
  private readonly hash = createHash('sha256');

  /** The next part. */
  add(files: readonly RenderedFile[]): void {
    for (const f of [...files].sort((a, b) => byTreeOrder(a.path, b.path))) {
      this.hash.update(f.path).update('\0').update(f.content).update('\0');
    }
  }

  /** The digest of the parts added (once). */
  digest(): string {
    return this.hash.digest('hex');
  }
}

/** Digest of a unit as it is on disk, the same way; undefined when it does not exist. */
export function diskDigest(target: string, unit: string): string | undefined {
  return digestFiles(target, listFiles(path.join(target, unit), unit));
}

function digestFiles(target: string, files: readonly string[]): string | undefined {
  if (files.length === 0) {
    return undefined;
  }
  const hash = createHash('sha256');
  for (const rel of files) {
    hash
      .update(rel)
      .update('\0')
      .update(fs.readFileSync(path.join(target, ...rel.split('/'))))
      .update('\0');
  }
  return hash.digest('hex');
}

/**
 * A file or folder changed less than this long ago may still change within
 * the same timestamp tick: its metadata is not trusted to stand for its
 * content (git's "racily clean" entries), and the content is read next time.
 */
export const SETTLE_MS = 2000;

/**
 * Fingerprint of a unit's metadata: for the unit's folder, every folder
 * above a listed file and every listed file, its inode, size, mode and
 * modification and change times. Writing a file changes its
 * times; adding, removing or renaming an entry changes its folder's; the
 * change time cannot be set back. Undefined when an entry is gone, or (with
 * `settledBeforeMs`, a time in milliseconds) changed after that time.
 */
export function unitFingerprint(target: string, unit: string, files: readonly string[], settledBeforeMs?: number): string | undefined {
  const dirs = new Set<string>([unit]);
  for (const f of files) {
    for (let i = f.indexOf('/', unit.length + 1); i > 0; i = f.indexOf('/', i + 1)) {
      dirs.add(f.slice(0, i));
    }
  }
  // one string hashed once, paths joined by hand: a check of a large fleet makes one per file
  let text = '';
  const prefix = `${target}${path.sep}`;
  for (const rel of [...[...dirs].sort(byCodePoint), ...files]) {
    // times in milliseconds with their fraction (sub-microsecond here): cheaper than bigint stats, and precise enough beside SETTLE_MS
    const st = fs.lstatSync(prefix + rel, { throwIfNoEntry: false });
    if (!st || (settledBeforeMs !== undefined && (st.mtimeMs > settledBeforeMs || st.ctimeMs > settledBeforeMs))) {
      return undefined;
    }
    text += `${rel}\0${st.ino}\0${st.size}\0${st.mode}\0${st.mtimeMs}\0${st.ctimeMs}\n`;
  }
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Whether a unit on disk is still what the cache recorded: by its metadata
 * fingerprint when the record has one and it holds, else by reading and
 * digesting its files. When the content matches, `record` is the record
 * with a fresh fingerprint to keep (none while a file changed within
 * {@link SETTLE_MS}).
 */
export function verifyUnit<T extends UnitCheck>(target: string, unit: string, cached: T, now = Date.now()): { same: boolean; record: T } {
  if (cached.stat !== undefined && cached.files !== undefined && unitFingerprint(target, unit, fileListOf(unit, cached.files)) === cached.stat) {
    return { same: true, record: cached };
  }
  const files = listFiles(path.join(target, unit), unit);
  const { stat: _stat, files: _files, ...rest } = cached;
  const plain = rest as T;
  if (digestFiles(target, files) !== cached.digest) {
    return { same: false, record: plain };
  }
  const stat = unitFingerprint(target, unit, files, now - SETTLE_MS);
  return { same: true, record: stat === undefined ? plain : { ...plain, stat, files: fileListTemplate(unit, files) } };
}
