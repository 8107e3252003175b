import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { PreparedCluster } from './cluster/prepared-cluster';
import { buildId, preparedDigest, rememberPreparedDigest, SETTLE_MS } from './render-cache';
import { appendRecords, readRecordFile, writeRecordFile } from './util/record-file';

/** A warning about one input file (as the loader reports it). */
export interface CachedWarning {
  readonly file: string;
  readonly message: string;
}

/** What the loader made of one spec file whose inputs have not changed since. */
export interface CachedSpec {
  /** Digest of the inputs: build, clusters folder, the spec, its defaults chain and the files it reads. */
  readonly inputs: string;
  /** Files the spec read beyond itself and its defaults (cloud config, extra keys), in order. */
  readonly reads: readonly string[];
  /** Line of `metadata.name` in the spec, for the duplicate-name message. */
  readonly nameLine?: number;
  /** Folder `spec.cloudConfig.file` is relative to. */
  readonly cloudConfigBase?: string;
  /** The validated, transformed cluster. */
  readonly prepared: PreparedCluster;
  /** Its {@link preparedDigest}. */
  readonly preparedDigest: string;
  /** The warnings loading it gave, in order. */
  readonly warnings: readonly CachedWarning[];
}

/**
 * The first record of a spec cache file; then records `['spec', file,
 * CachedSpec]` and `['file', path, KnownFile]`, a later record of a name
 * replacing an earlier one (a run appends what changed).
 */
interface SpecCacheHeader {
  readonly version: 3;
  readonly build: string;
}

/** What the cache knows of one input file: its metadata when its content digested as `digest`. */
interface KnownFile {
  /** {@link fileStat} of the file. */
  readonly stat: string;
  /** SHA-256 of its bytes. */
  readonly digest: string;
}

type SpecCacheRecord = readonly ['spec', string, CachedSpec] | readonly ['file', string, KnownFile];

/** Metadata of a file that changes whenever its content can have: device, inode, size, mode, modification and change times. */
function fileStat(st: fs.Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mode}:${st.mtimeMs}:${st.ctimeMs}`;
}


/**
 * The validated-spec cache (issue 18): what loading, validating and
 * transforming each spec file gave, keyed by the digest of every file that
 * load read (the spec, the `defaults.yaml` files above it, its cloud config
 * and extra keys), the clusters folder and the build. An unchanged spec is
 * neither parsed nor validated again; the checks across specs (unique
 * names, hub destinations) always run. Only specs that loaded without a
 * problem are kept. Kept outside the output like the render cache, one file
 * per clusters folder; losing it costs a full load.
 */
export class SpecCache {
  /** Opens the cache of a clusters folder in `dir` (created on save); a missing, unreadable or other build's cache is empty. */
  static forClusters(dir: string, realClusters: string, now = Date.now()): SpecCache {
    const file = path.join(dir, `specs-${createHash('sha256').update(realClusters).digest('hex').slice(0, 16)}.v8`);
    const specs = new Map<string, CachedSpec>();
    const files = new Map<string, KnownFile>();
    const records = readRecordFile(file, { version: 3, build: buildId() } satisfies SpecCacheHeader, (record) => {
      const [kind, name, value] = record as SpecCacheRecord;
      if (kind === 'spec') {
        specs.set(name, value);
      } else {
        files.set(name, value);
      }
    }, () => {
      specs.clear();
      files.clear();
    });
    // appended to only when it is whole and of this build
    return new SpecCache(file, realClusters, specs, files, records, now);
  }

  /** Specs and files stored or learnt this run: what a save appends. */
  private readonly changed = new Set<string>();
  private readonly changedFiles = new Set<string>();
  private readonly digests = new Map<string, string>();
  private readonly seen = new Set<string>();

  /**
   * @param records records after the header in the file as read; -1 when
   * the file is not one to append to (missing, torn, corrupt, another build)
   * @param now the time the run started: a file changed less than
   * {@link SETTLE_MS} before is read every time (its metadata may not change
   * with its next edit)
   */
  private constructor(readonly file: string, private readonly root: string, private readonly specs: Map<string, CachedSpec>,
    private readonly files: Map<string, KnownFile>, private readonly records: number, private readonly now: number) {}

  /** The cached load of `specFile` when it and every file it read digest as recorded. */
  lookup(specFile: string, defaultsChain: readonly string[]): CachedSpec | undefined {
    this.seen.add(specFile);
    const cached = this.specs.get(specFile);
    if (!cached || this.inputsDigest(specFile, defaultsChain, cached.reads) !== cached.inputs) {
      return undefined;
    }
    rememberPreparedDigest(cached.prepared, cached.preparedDigest);
    return cached;
  }

  /** Records a spec that loaded without a problem. */
  store(specFile: string, defaultsChain: readonly string[], reads: readonly string[], loaded: Omit<CachedSpec, 'inputs' | 'reads' | 'preparedDigest'>): void {
    this.seen.add(specFile);
    this.specs.set(specFile, { ...loaded, inputs: this.inputsDigest(specFile, defaultsChain, reads), reads: [...reads], preparedDigest: preparedDigest(loaded.prepared) });
    this.changed.add(specFile);
  }

  /**
   * Writes what changed, best effort: appended to the file when it is whole
   * and of this build (a one-spec change writes one record, not the fleet's),
   * else the whole cache (temporary file, then rename), keeping only the specs
   * this run looked up or stored. The whole cache is also written when a
   * spec is gone or the file holds more than twice the records it needs.
   */
  save(): void {
    // specs not looked up and files not read this run are gone from the clusters folder
    const gone = [...this.specs.keys()].filter((name) => !this.seen.has(name));
    for (const name of gone) {
      this.specs.delete(name);
    }
    for (const name of [...this.files.keys()].filter((f) => !this.digests.has(f))) {
      this.files.delete(name);
      gone.push(name);
    }
    const live = this.specs.size + this.files.size;
    const appended = this.records + this.changed.size + this.changedFiles.size;
    const append = this.records >= 0 && gone.length === 0 && appended <= 2 * live + 64;
    if (append && this.changed.size === 0 && this.changedFiles.size === 0) {
      return;
    }
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    try {
      if (append) {
        appendRecords(this.file, [
          ...[...this.changed].sort(byName).map((name): SpecCacheRecord => ['spec', name, this.specs.get(name)!]),
          ...[...this.changedFiles].sort(byName).map((name): SpecCacheRecord => ['file', name, this.files.get(name)!]),
        ]);
        return;
      }
      writeRecordFile(this.file, { version: 3, build: buildId() } satisfies SpecCacheHeader, (function* (specs, files) {
        for (const name of [...specs.keys()].sort(byName)) {
          yield ['spec', name, specs.get(name)!] satisfies SpecCacheRecord;
        }
        for (const name of [...files.keys()].sort(byName)) {
          yield ['file', name, files.get(name)!] satisfies SpecCacheRecord;
        }
      })(this.specs, this.files));
    } catch {
      // best effort: the next run loads what it cannot find
    }
  }

  /** Digest of the inputs of one spec; a file that cannot be read digests as missing (its load would have failed or differs). */
  private inputsDigest(specFile: string, defaultsChain: readonly string[], reads: readonly string[]): string {
    const hash = createHash('sha256').update(`${buildId()}\0${this.root}\0${specFile}\0`);
    for (const f of [specFile, ...defaultsChain]) {
      hash.update(`${f}\0${this.fileDigest(f)}\0`);
    }
    hash.update('reads\0');
    for (const f of reads) {
      // where it really is, too: the loader refuses a file that resolves outside the clusters folder
      hash.update(`${f}\0${this.realPath(f)}\0${this.fileDigest(f)}\0`);
    }
    return hash.digest('hex');
  }

  /** Where a file really is ('' when it cannot be resolved), once per run (cloud configs are shared by many specs). */
  private realPath(file: string): string {
    let real = this.reals.get(file);
    if (real === undefined) {
      try {
        real = fs.realpathSync.native(file);
      } catch {
        real = '';
      }
      this.reals.set(file, real);
    }
    return real;
  }

  private readonly reals = new Map<string, string>();

  /**
   * Digest of a file's bytes, once per run (defaults files are shared by
   * many specs). A file whose metadata is as when the cache last read it is
   * not read again (the way git's index trusts a file's stat), unless it
   * changed within {@link SETTLE_MS} of that reading.
   */
  private fileDigest(file: string): string {
    let digest = this.digests.get(file);
    if (digest === undefined) {
      try {
        const st = fs.statSync(file);
        const stat = fileStat(st);
        const known = this.files.get(file);
        if (known?.stat === stat) {
          digest = known.digest;
        } else {
          digest = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
          if (st.mtimeMs < this.now - SETTLE_MS && st.ctimeMs < this.now - SETTLE_MS && fileStat(fs.statSync(file)) === stat) {
            this.files.set(file, { stat, digest });
            this.changedFiles.add(file);
          }
        }
      } catch (e) {
        digest = `unreadable:${(e as NodeJS.ErrnoException).code ?? ''}`;
      }
      this.digests.set(file, digest);
    }
    return digest;
  }
}
