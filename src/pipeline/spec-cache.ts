import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as v8 from 'v8';
import { PreparedCluster } from '../cluster/prepared-cluster';
import { CachedLoad, FleetMember, StoredLoad } from '../fleet/load';
import { buildId, preparedDigest, rememberPreparedDigest, SETTLE_MS } from './render-cache';
import { copyBytes, encodeRecord, encodeRecords, RawRecord, readRecordAt, readRecordFile, writeAll } from '../util/record-file';

/** A warning about one input file (as the loader reports it). */
export interface CachedWarning {
  readonly file: string;
  readonly message: string;
}

/**
 * What the spec cache knows of one spec file, in memory: everything but the
 * prepared cluster, which stays on disk (the record after this one) and is
 * read only for a cluster that is rendered.
 */
export interface CachedSpec {
  /** Digest of the inputs: build, clusters folder, the spec, its defaults chain and the files it reads. */
  readonly inputs: string;
  /** Files the spec read beyond itself and its defaults (cloud config, extra keys), in order. */
  readonly reads: readonly string[];
  /** Line of `metadata.name` in the spec, for the duplicate-name message. */
  readonly nameLine?: number;
  /** Folder `spec.cloudConfig.file` is relative to. */
  readonly cloudConfigBase?: string;
  /** What synth keeps of the cluster. */
  readonly member: FleetMember;
  /** The prepared cluster's `preparedDigest`. */
  readonly preparedDigest: string;
  /** The warnings loading it gave, in order. */
  readonly warnings: readonly CachedWarning[];
  /** Bytes of the prepared cluster's record (the next one): a check that the two belong together. */
  readonly preparedBytes: number;
  /**
   * The spec file's own metadata and digest, as a file record would hold
   * them: in the spec's record, which a run holds until it looks the spec
   * up, rather than in the table of files, which a run holds to the end.
   *
   * @default - none (the file had changed within {@link SETTLE_MS} of its reading): the next run reads the spec file
   */
  readonly own?: KnownFile;
}

/**
 * The first record of a spec cache file; then pairs of records `['spec',
 * file, CachedSpec]` and the v8 serialization of the prepared cluster, and
 * records `['file', path, KnownFile]`; a later pair or record of a name
 * replaces an earlier one (a run appends what changed).
 */
interface SpecCacheHeader {
  readonly version: 5;
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

/**
 * A spec the cache knows: where its pair of records is (in the cache file as
 * read, or in this run's spool), and its record until the run looked it up
 * (a spec is looked up once per run; the save copies the pair as bytes).
 * One object per spec file, what the run did with it included: ten
 * thousand specs would otherwise also fill a set per fact (looked up,
 * stored), each with a hash table of its own.
 */
interface SpecEntry {
  /**
   * The spec's record, as read from the cache file.
   *
   * @default - none once looked up or stored: ten thousand records would stay in memory for nothing
   */
  spec?: CachedSpec;
  /** {@link IN_SPOOL}, {@link SEEN} and {@link STORED}. */
  flags: number;
  /** Where the prepared cluster's record is: a {@link RawRecord}'s fields, held in the entry. */
  readonly offset: number;
  readonly length: number;
  readonly pairStart: number;
}

/** A {@link SpecEntry}'s pair of records is in this run's spool (else in the cache file as read). */
const IN_SPOOL = 1;
/** The run looked the spec up or stored it (a spec never seen is gone from the clusters folder). */
const SEEN = 2;
/** The run stored the spec: its pair is appended at the save. */
const STORED = 4;

/**
 * An input file the run or the cache knows: what the cache file records of
 * it, and its digest this run (one object per file, for the same reason as
 * {@link SpecEntry}).
 */
interface FileEntry {
  /**
   * The file's {@link fileStat} as the cache records it (saved with it).
   *
   * @default - none: the file is not recorded (read this run within {@link SETTLE_MS} of a change, or unreadable)
   */
  stat?: string;
  /**
   * The digest of its bytes recorded with `stat`.
   *
   * @default - none, as `stat`
   */
  known?: string;
  /**
   * Its digest this run.
   *
   * @default - not read this run: a recorded file no run reads is gone from the clusters folder
   */
  digest?: string;
  /** Whether `known` was learnt this run (appended at the save). */
  changed: boolean;
}

/** A file's digest this run, and what the cache can record of it (a file record, or {@link CachedSpec.own}). */
interface FileRead {
  readonly digest: string;
  readonly known: KnownFile | undefined;
}

/** Metadata of a file that changes whenever its content can have: device, inode, size, mode, modification and change times. */
function fileStat(st: fs.Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mode}:${st.mtimeMs}:${st.ctimeMs}`;
}

/** A folder's real path (links resolved), or its absolute path when it cannot be resolved (it does not exist yet). */
function realPathOf(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Bytes copied at a time when pairs of records move between files. */
const COPY_BYTES = 1 << 20;

/**
 * The validated-spec cache: what loading, validating and
 * transforming each spec file gave, keyed by the digest of every file that
 * load read (the spec, the `defaults.yaml` files above it, its cloud config
 * and extra keys), the clusters folder and the build. An unchanged spec is
 * neither parsed nor validated again; the checks across specs (unique
 * names, hub destinations) always run. Only specs that loaded without a
 * problem are kept. Kept outside the output like the render cache, one file
 * per clusters folder; losing it costs a full load.
 *
 * Memory does not follow the fleet: the prepared clusters stay on disk,
 * where the run's lookups read one only when it is rendered, and the
 * clusters this run loads go to a spool file (unlinked, read by offset)
 * instead of being held for the save. A spec file's own metadata and
 * digest travel in its record ({@link CachedSpec.own}); the table of files
 * the run holds to the end has the files specs share only.
 */
export class SpecCache {
  /**
   * Opens the cache of a clusters folder in `dir` (created on save); a
   * missing, unreadable or other build's cache is empty. `clusters` is the
   * folder as the loader is given it (relative or not): the files a spec
   * reads are named below it; the cache file is chosen by its real path.
   */
  static forClusters(dir: string, clusters: string, now = Date.now()): SpecCache {
    const file = path.join(dir, `specs-${createHash('sha256').update(realPathOf(clusters)).digest('hex').slice(0, 16)}.v8`);
    const specs = new Map<string, SpecEntry>();
    const files = new Map<string, FileEntry>();
    let fd: number | undefined;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      fd = undefined;
    }
    let records = -1;
    if (fd !== undefined) {
      let pending: readonly [string, CachedSpec] | undefined;
      records = readRecordFile(
        fd,
        { version: 5, build: buildId() } satisfies SpecCacheHeader,
        (record) => {
          if (record instanceof RawRecord) {
            if (!pending || pending[1].preparedBytes !== record.length) {
              throw new Error('a prepared cluster without its spec record');
            }
            specs.set(pending[0], { spec: pending[1], flags: 0, offset: record.offset, length: record.length, pairStart: record.pairStart });
            pending = undefined;
            return;
          }
          const [kind, name, value] = record as SpecCacheRecord;
          if (pending) {
            throw new Error(`spec record of ${pending[0]} without its prepared cluster`);
          }
          if (kind === 'spec') {
            pending = [name, value];
          } else {
            const { stat, digest } = value;
            files.set(name, { stat, known: digest, digest: undefined, changed: false });
          }
        },
        () => {
          specs.clear();
          files.clear();
        },
        (value) => Array.isArray(value) && value[0] === 'spec',
      );
    }
    // appended to only when it is whole and of this build
    return new SpecCache(file, path.resolve(clusters), specs, files, records, now, fd);
  }

  /** This run's spool (unlinked once open): the pairs of the specs it stores, appended; and its size. */
  private spool?: { readonly fd: number; size: number };

  /**
   * @param records records after the header in the file as read; -1 when
   * the file is not one to append to (missing, torn, corrupt, another build)
   * @param now the time the run started: a file changed less than
   * {@link SETTLE_MS} before is read every time (its metadata may not change
   * with its next edit)
   * @param fd the cache file as read (its prepared clusters are read from it), until the save
   */
  private constructor(
    readonly file: string,
    private readonly root: string,
    private readonly specs: Map<string, SpecEntry>,
    private readonly files: Map<string, FileEntry>,
    private readonly records: number,
    private readonly now: number,
    private fd: number | undefined,
  ) {}

  /** The cached load of `specFile` when it and every file it read digest as recorded; its prepared cluster is read when asked. */
  lookup(specFile: string, defaultsChain: readonly string[]): CachedLoad | undefined {
    const entry = this.specs.get(specFile);
    const spec = entry?.spec;
    if (!entry || !spec) {
      return undefined;
    }
    // what stays in memory is where the pair of records is: the save copies it as bytes
    entry.spec = undefined;
    entry.flags |= SEEN;
    const own = this.readFile(specFile, spec.own);
    // a changed spec is stored next: its file is not read twice
    this.lastRead = { file: specFile, read: own };
    // the loader reads only files below the clusters folder: a record naming another (a crafted cache) is not trusted
    if (!spec.reads.every((f) => this.below(f)) || this.inputsDigest(specFile, own.digest, defaultsChain, spec.reads) !== spec.inputs) {
      return undefined;
    }
    const { nameLine, cloudConfigBase, member, preparedDigest: digest, warnings } = spec;
    return { nameLine, cloudConfigBase, member, preparedDigest: digest, warnings, prepared: () => this.read(entry, member.name, digest) };
  }

  /** Whether a path (absolute, or relative as the clusters folder was given) is below the clusters folder, without `..`. */
  private below(file: string): boolean {
    const rel = path.relative(this.root, path.resolve(file));
    return rel !== '' && !path.isAbsolute(rel) && rel.split(path.sep).every((p) => p !== '..' && p !== '.' && p !== '');
  }

  /** Records a spec that loaded without a problem: its pair of records goes to the spool, not to memory. */
  store(specFile: string, defaultsChain: readonly string[], reads: readonly string[], loaded: StoredLoad): void {
    const bytes = v8.serialize(loaded.prepared);
    const own = this.lastRead?.file === specFile ? this.lastRead.read : this.readFile(specFile, undefined);
    this.lastRead = undefined;
    const spec: CachedSpec = {
      inputs: this.inputsDigest(specFile, own.digest, defaultsChain, reads),
      reads: [...reads],
      nameLine: loaded.nameLine,
      cloudConfigBase: loaded.cloudConfigBase,
      member: loaded.member,
      preparedDigest: preparedDigest(loaded.prepared),
      warnings: loaded.warnings,
      preparedBytes: bytes.length,
      ...(own.known ? { own: own.known } : {}),
    };
    const head = encodeRecord(['spec', specFile, spec] satisfies SpecCacheRecord);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(bytes.length);
    const spool = this.openSpool();
    const start = spool.size;
    for (const piece of [head, length, bytes]) {
      writeAll(spool.fd, piece, spool.size);
      spool.size += piece.length;
    }
    this.specs.set(specFile, {
      spec: undefined,
      flags: IN_SPOOL | SEEN | STORED,
      offset: start + head.length + 4,
      length: bytes.length,
      pairStart: start,
    });
  }

  /**
   * Writes what changed, best effort: appended to the file when it is whole
   * and of this build (a one-spec change writes one pair of records, not the
   * fleet's), else the whole cache (temporary file, then rename), keeping
   * only the specs this run looked up or stored. The whole cache is also
   * written when a spec is gone or the file holds more than twice the
   * records it needs. Pairs are copied as bytes, never decoded.
   */
  save(): void {
    try {
      this.write();
    } catch {
      // best effort: the next run loads what it cannot find
    } finally {
      this.close();
    }
  }

  private write(): void {
    // specs not looked up and files not read this run are gone from the clusters folder
    let gone = 0;
    const stored: string[] = [];
    for (const [name, entry] of this.specs) {
      if ((entry.flags & SEEN) === 0) {
        this.specs.delete(name);
        gone++;
      } else if ((entry.flags & STORED) !== 0) {
        stored.push(name);
      }
    }
    const learnt: string[] = [];
    let recorded = 0;
    for (const [name, entry] of this.files) {
      if (entry.known === undefined) {
        continue;
      }
      if (entry.digest === undefined) {
        this.files.delete(name);
        gone++;
        continue;
      }
      recorded++;
      if (entry.changed) {
        learnt.push(name);
      }
    }
    const live = 2 * this.specs.size + recorded;
    const appended = this.records + 2 * stored.length + learnt.length;
    const append = this.records >= 0 && gone === 0 && appended <= 2 * live + 64;
    if (append && stored.length === 0 && learnt.length === 0) {
      return;
    }
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const buffer = Buffer.allocUnsafe(COPY_BYTES);
    // in batches (encodeRecords): a serializer per record keeps memory outside the heap
    const fileRecords = (names: string[]) =>
      encodeRecords(names.sort(byName).map((name) => ['file', name, this.recorded(name)] satisfies SpecCacheRecord));
    if (append) {
      const out = fs.openSync(this.file, 'a');
      try {
        // a pair per write: the records of concurrent runs do not interleave
        for (const name of stored.sort(byName)) {
          this.copyPair(this.specs.get(name)!, out, buffer);
        }
        for (const record of fileRecords(learnt)) {
          writeAll(out, record);
        }
      } finally {
        fs.closeSync(out);
      }
      return;
    }
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    const out = fs.openSync(tmp, 'w');
    try {
      writeAll(out, encodeRecord({ version: 5, build: buildId() } satisfies SpecCacheHeader));
      for (const name of [...this.specs.keys()].sort(byName)) {
        this.copyPair(this.specs.get(name)!, out, buffer);
      }
      for (const record of fileRecords([...this.files.keys()].filter((name) => this.files.get(name)!.known !== undefined))) {
        writeAll(out, record);
      }
    } finally {
      fs.closeSync(out);
    }
    fs.renameSync(tmp, this.file);
  }

  /** What the cache records of a file it knows. */
  private recorded(file: string): KnownFile {
    const { stat, known } = this.files.get(file)!;
    return { stat: stat!, digest: known! };
  }

  /** Copies a spec's pair of records, as bytes, to the end of `out`. */
  private copyPair(entry: SpecEntry, out: number, buffer: Buffer): void {
    const from = (entry.flags & IN_SPOOL) !== 0 ? this.spool!.fd : this.fd!;
    const { pairStart, offset, length } = entry;
    copyBytes(from, pairStart, offset + length - pairStart, out, buffer);
  }

  /** Closes the cache file and the spool (and removes the spool where it could not be unlinked while open). */
  private close(): void {
    for (const fd of [this.fd, this.spool?.fd]) {
      if (fd !== undefined) {
        fs.closeSync(fd);
      }
    }
    if (this.spool) {
      fs.rmSync(this.spoolFile, { force: true });
    }
    this.fd = undefined;
    this.spool = undefined;
  }

  /** Where this run's spool is created. */
  private get spoolFile(): string {
    return `${this.file}.${process.pid}.spool`;
  }

  /** The prepared cluster of an entry (of the cluster `name`, whose `preparedDigest` is `digest`), read from where its record is. */
  private read(entry: SpecEntry, name: string, digest: string): PreparedCluster {
    const fd = (entry.flags & IN_SPOOL) !== 0 ? this.spool?.fd : this.fd;
    let prepared: PreparedCluster | undefined;
    try {
      prepared = fd === undefined ? undefined : (readRecordAt(fd, entry) as PreparedCluster | undefined);
    } catch {
      prepared = undefined;
    }
    if (prepared?.spec?.metadata?.name !== name) {
      throw new Error(`the spec cache ${this.file} does not hold the cluster ${name} it listed; delete the file (or run with --no-cache)`);
    }
    rememberPreparedDigest(prepared, digest);
    return prepared;
  }

  /** The spool, opened (and unlinked, so that no run leaves one behind) on the first store. */
  private openSpool(): { readonly fd: number; size: number } {
    if (!this.spool) {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const name = this.spoolFile;
      const fd = fs.openSync(name, 'w+');
      try {
        fs.unlinkSync(name);
      } catch {
        // not where open files can be unlinked: it is a temporary file all the same
      }
      this.spool = { fd, size: 0 };
    }
    return this.spool;
  }

  /** Digest of the inputs of one spec; a file that cannot be read digests as missing (its load would have failed or differs). */
  private inputsDigest(specFile: string, specDigest: string, defaultsChain: readonly string[], reads: readonly string[]): string {
    const hash = createHash('sha256').update(`${buildId()}\0${this.root}\0${specFile}\0`);
    hash.update(`${specFile}\0${specDigest}\0`);
    for (const f of defaultsChain) {
      // where it really is, too: the loader refuses a defaults file linked from outside the clusters folder
      hash.update(`${f}\0${this.realPath(f)}\0${this.fileDigest(f)}\0`);
    }
    hash.update('reads\0');
    for (const f of reads) {
      // where it really is, and whether it has other names: the loader refuses a file that resolves outside the clusters folder, and a hard link
      hash.update(`${f}\0${this.realPath(f)}\0${this.fileDigest(f)}\0${this.hardLinked(f)}\0`);
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

  /** Whether a file has more than one name (a hard link), once per run. */
  private hardLinked(file: string): boolean {
    let linked = this.links.get(file);
    if (linked === undefined) {
      try {
        linked = fs.statSync(file).nlink > 1;
      } catch {
        linked = false;
      }
      this.links.set(file, linked);
    }
    return linked;
  }

  private readonly links = new Map<string, boolean>();

  /** The spec file the last lookup read, and what it found: the store of a changed spec follows its lookup. */
  private lastRead?: { readonly file: string; readonly read: FileRead };

  /**
   * A file's digest this run: the recorded one (`known`) while its metadata
   * is as recorded (the way git's index trusts a file's stat), else its
   * bytes', with what to record once it has not changed for
   * {@link SETTLE_MS} (a change within one timestamp tick could hide).
   */
  private readFile(file: string, known: KnownFile | undefined): FileRead {
    try {
      const st = fs.statSync(file);
      if (!st.isFile()) {
        // a device or a folder is never an input: not read (a FIFO or /dev/zero would never end)
        return { digest: 'unreadable:not a file', known: undefined };
      }
      const stat = fileStat(st);
      if (known?.stat === stat) {
        return { digest: known.digest, known };
      }
      const digest = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
      const settled = st.mtimeMs < this.now - SETTLE_MS && st.ctimeMs < this.now - SETTLE_MS && fileStat(fs.statSync(file)) === stat;
      return { digest, known: settled ? { stat, digest } : undefined };
    } catch (e) {
      return { digest: `unreadable:${(e as NodeJS.ErrnoException).code ?? ''}`, known: undefined };
    }
  }

  /**
   * Digest of a file specs share (defaults files, cloud configs), once per
   * run ({@link readFile}); what it learns is saved with the cache. A spec
   * file's own is kept in its record instead ({@link CachedSpec.own}).
   */
  private fileDigest(file: string): string {
    let entry = this.files.get(file);
    if (entry?.digest !== undefined) {
      return entry.digest;
    }
    if (!entry) {
      entry = { stat: undefined, known: undefined, digest: undefined, changed: false };
      this.files.set(file, entry);
    }
    const recorded = entry.stat !== undefined && entry.known !== undefined ? { stat: entry.stat, digest: entry.known } : undefined;
    const read = this.readFile(file, recorded);
    if (read.known && read.known !== recorded) {
      entry.stat = read.known.stat;
      entry.known = read.known.digest;
      entry.changed = true;
    }
    entry.digest = read.digest;
    return entry.digest;
  }
}
