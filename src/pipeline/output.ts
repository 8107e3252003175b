import * as fs from 'fs';
import * as path from 'path';
import { byTreeOrder, treeFiles } from '../util/tree-order';
import { writeInChunks } from '../util/write-in-chunks';
import { FLEET_DIRECTORY } from '../gitops/repo-path';
import { RenderedFile } from '../gitops/layout';
import { envErrors } from './output-errors';
import { Journal, applyJournal, readJournal, recoverInterruptedRun, takeLock, releaseLock } from './output-journal';
import {
  OUTPUT_MARKER,
  markerFile,
  byCodePoint,
  resolveOutput,
  previousClusters,
  kustomizationResources,
  listFiles,
  sameContent,
  samePieces,
  checkPath,
  checkUnit,
  writeFiles,
} from './output-files';
import { UserError } from '../util/user-error';
export { markerFile, byCodePoint, isLink, listFiles, sameContent, samePieces, OUTPUT_MARKER, MARKER_TEXT } from './output-files';
export { outputSidecars, interruptedRunFile } from './output-journal';
export { isErrnoError, errnoText } from './output-errors';

/** Root file of a `synth --shard` output: the digest of the inputs of each of its clusters, which `assemble` checks. */
export const SHARD_RECORD = '.shard.json';
/** Most paths listed in one error message. */
const MAX_LISTED = 50;

/** Options of an output tree. */
export interface OutputOptions {
  /**
   * Delete files in the output folder that ccm-gitops did not write (without it,
   * such files make the write fail, listing them).
   *
   * @default false
   */
  readonly force?: boolean;
}

/** What a commit changed. */
export interface CommitResult {
  /** Top-level folders (clusters, `_fleet`) replaced or added. */
  readonly replaced: readonly string[];
  /** Top-level folders removed. */
  readonly removed: readonly string[];
  /** Files written (in replaced folders and at the root). */
  readonly written: number;
}

/**
 * Where a synth puts what it renders. The tree is made of top-level
 * folders ("units": one per cluster, `_fleet`) and a few root files.
 */
export interface TreeSink {
  /** Whether the output holds a unit now (for `--only`: kept units need one). */
  hasUnit(unit: string): boolean;
  /** The complete files of one unit (paths relative to the output, all below `unit/`). */
  putUnit(unit: string, files: readonly RenderedFile[]): void;
  /** A unit that stays as it is on disk. */
  keepUnit(unit: string): void;
  /** A file at the root of the output. */
  putRootFile(file: RenderedFile): void;
  /**
   * A file at the root of the output given as its pieces (the fleet summary):
   * compared and written a piece at a time.
   *
   * @default - the pieces joined, through {@link TreeSink.putRootFile}
   */
  putRootFilePieces?(path: string, pieces: () => Iterable<string>): void;
  /**
   * For rendering in worker threads: where workers compare and stage units
   * themselves ({@link compareAndStageUnit}, {@link compareUnitFiles}); their results
   * come back through {@link TreeSink.acceptUnit}.
   */
  readonly remote?: RemoteSink;
  /** Takes a unit's result computed by a worker. */
  acceptUnit?(unit: string, result: UnitResult): void;
  /**
   * A unit given a part at a time (the fleet folder: a file or two per
   * cluster), compared with the disk (and staged) as the parts come, none
   * held ({@link UnitParts}).
   *
   * @default - the parts collected, then {@link TreeSink.putUnit} ({@link openUnitParts})
   */
  openUnit?(unit: string): UnitParts;
  /** Rethrows an error a worker met comparing or staging a unit, as the sink would have thrown it. */
  rethrow?(e: unknown): never;
}

/**
 * A unit of a {@link TreeSink} given a part at a time: each part is compared
 * with the unit's folder on disk in one pass over both, in tree order
 * ({@link byTreeOrder}), and dropped.
 */
export interface UnitParts {
  /**
   * The next files of the unit, in any order among themselves, each after
   * every file of the parts given before in {@link byTreeOrder} (the Argo
   * CD roots' shares: whole groups, in their folders' order).
   */
  put(files: readonly RenderedFile[]): void;
  /**
   * Every part given: what is left on disk is compared, and the unit's
   * result goes to the sink. A unit given no file is not put (as
   * {@link putFiles} with no file of it).
   *
   * @returns whether the unit on disk already had exactly these files
   * (false when the sink cannot tell: {@link openUnitParts} for a sink
   * without {@link TreeSink.openUnit})
   */
  close(): boolean;
}

/**
 * A unit given a part at a time to `sink`: streamed where the sink can
 * ({@link TreeSink.openUnit}), else the parts collected and put whole at
 * close.
 */
export function openUnitParts(sink: TreeSink, unit: string): UnitParts {
  if (sink.openUnit) {
    return sink.openUnit(unit);
  }
  const files: RenderedFile[] = [];
  return {
    put: (part) => {
      checkUnit(unit, part);
      files.push(...part);
    },
    close: () => {
      if (files.length > 0) {
        sink.putUnit(unit, files);
      }
      return false;
    },
  };
}

/** What a unit given in parts is against its folder on disk, file by file ({@link UnitMerge}). */
interface UnitMergeEvents {
  /** On disk with this content. */
  same(file: RenderedFile): void;
  /**
   * Not on disk, or on disk with other content (or not read: see
   * `readAfterDifference` of {@link UnitMerge}).
   */
  differs(file: RenderedFile, state: 'changed' | 'missing'): void;
  /** On disk, not given. */
  extra(rel: string): void;
}

/**
 * Compares a unit, given whole or a part at a time, with its folder on
 * disk: the files and a sorted walk of the folder ({@link treeFiles}) are
 * merged in {@link byTreeOrder}, so neither side is held whole.
 */
class UnitMerge {
  private readonly disk: Iterator<string>;
  /** The next file on disk not yet matched; undefined once the walk is done. */
  private next: string | undefined;
  private last: string | undefined;
  private differed = false;
  /** Files given so far. */
  count = 0;

  /**
   * @param readAfterDifference whether files on disk are still read and
   * compared once a difference was found; when not (a unit that is written
   * whole when it differs), a later file found on disk is reported as
   * `changed` unread
   */
  constructor(
    private readonly target: string,
    private readonly unit: string,
    private readonly on: UnitMergeEvents,
    private readonly readAfterDifference = true,
  ) {
    checkPath(unit);
    this.disk = treeFiles(path.join(target, unit), unit);
    this.advance();
  }

  put(part: readonly RenderedFile[]): void {
    checkUnit(this.unit, part);
    for (const f of [...part].sort((a, b) => byTreeOrder(a.path, b.path))) {
      if (this.last !== undefined && byTreeOrder(this.last, f.path) >= 0) {
        throw new UserError('output', `internal error: ${JSON.stringify(f.path)} is given after ${JSON.stringify(this.last)} in ${this.unit}/`);
      }
      this.last = f.path;
      this.count++;
      while (this.next !== undefined && byTreeOrder(this.next, f.path) < 0) {
        this.extra(this.next);
      }
      if (this.next === f.path) {
        this.advance();
        if ((this.readAfterDifference || !this.differed) && sameContent(path.join(this.target, ...f.path.split('/')), f.content)) {
          this.on.same(f);
        } else {
          this.differed = true;
          this.on.differs(f, 'changed');
        }
      } else {
        this.differed = true;
        this.on.differs(f, 'missing');
      }
    }
  }

  /** The files left on disk are extra. */
  finish(): void {
    while (this.next !== undefined) {
      this.extra(this.next);
    }
  }

  /** Whether files were given and each is on disk as given, with none extra (once finished). */
  get same(): boolean {
    return this.count > 0 && !this.differed;
  }

  private extra(rel: string): void {
    this.differed = true;
    this.on.extra(rel);
    this.advance();
  }

  private advance(): void {
    const r = this.disk.next();
    this.next = r.done ? undefined : r.value;
  }
}

/** What workers need to compare (and stage) units for a sink. */
export interface RemoteSink {
  /** `write`: compare, then stage when different; `check`: compare only. */
  readonly mode: 'write' | 'check';
  /** The real output folder. */
  readonly target: string;
  /** The staging folder (mode `write`). */
  readonly staging: string;
  /**
   * The output's path relative to the repository root, which the GitOps files name.
   *
   * @default 'dist'
   */
  readonly outputPath?: string;
}

/** A unit compared (and staged) away from the sink. */
export interface UnitResult {
  /** Mode write: whether the unit on disk already had exactly these files. */
  readonly same?: boolean;
  /** Mode write: files on disk the unit does not have. */
  readonly extra?: readonly string[];
  /** Mode write: files staged. */
  readonly written?: number;
  /** Mode check: the differences. */
  readonly stale?: readonly StaleFile[];
}

/**
 * Compares a unit with the output and stages it, when it differs, below
 * `staging` (safe in a worker thread). No file is read once the unit is
 * known to differ: it is staged whole.
 */
export function compareAndStageUnit(target: string, staging: string, unit: string, files: readonly RenderedFile[]): UnitResult {
  const extra: string[] = [];
  const merge = new UnitMerge(target, unit, { same: () => undefined, differs: () => undefined, extra: (rel) => extra.push(rel) }, false);
  merge.put(files);
  merge.finish();
  if (merge.same) {
    return { same: true, extra: [], written: 0 };
  }
  fs.mkdirSync(staging, { recursive: true });
  writeFiles(staging, files);
  return { same: false, extra, written: files.length };
}

/** Differences of a unit pushed to `stale` as {@link UnitMerge} finds them. */
function staleEvents(stale: StaleFile[]): UnitMergeEvents {
  return {
    same: () => undefined,
    differs: (f, state) => stale.push({ path: f.path, state }),
    extra: (rel) => stale.push({ path: rel, state: 'extra' }),
  };
}

/** Every difference between a unit on disk and its computed files, in {@link byTreeOrder} (safe in a worker thread). */
export function compareUnitFiles(target: string, unit: string, files: readonly RenderedFile[]): StaleFile[] {
  const stale: StaleFile[] = [];
  const merge = new UnitMerge(target, unit, staleEvents(stale));
  merge.put(files);
  merge.finish();
  return stale;
}

/**
 * A journaled, incremental writer of an output tree.
 *
 * Each unit is compared with the output first and staged, in a sibling
 * folder `.<out>.new-<pid>`, only when it differs: an unchanged fleet writes
 * no file, and a change to one cluster writes that cluster's folder (and the
 * fleet files when they change). `commit` then swaps the staged units in,
 * each with two renames, under a journal `.<out>.journal`: a run that fails
 * before the commit leaves the output as it was; a run killed during the
 * commit leaves a journal that the next run completes before anything else.
 * A lock file `.<out>.lock` keeps two synths from writing one output at once.
 *
 * Refuses a non-empty folder without the marker, and files in the output
 * that ccm-gitops did not write unless `force` is set. A symbolic link as
 * output stays a link: the tree is written into its target.
 */
export class OutputTree implements TreeSink {
  /** Opens (locks, and completes an interrupted commit of) the output folder `dir`. */
  static open(dir: string, options: OutputOptions = {}): OutputTree {
    return new OutputTree(dir, options);
  }

  private readonly target: string;
  private readonly parent: string;
  private readonly staging: string;
  private readonly backup: string;
  private readonly journal: string;
  private readonly lock: string;
  private readonly units = new Set<string>();
  private readonly replaced: string[] = [];
  private readonly rootFiles = new Set<string>();
  private readonly stagedRootFiles: string[] = [];
  private readonly foreign: string[] = [];
  private readonly knownClusters: ReadonlySet<string>;
  private readonly existed: boolean;
  private written = 0;
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly options: OutputOptions,
  ) {
    this.target = resolveOutput(dir);
    this.parent = path.dirname(this.target);
    const base = path.basename(this.target);
    this.staging = path.join(this.parent, `.${base}.new-${process.pid}`);
    this.backup = path.join(this.parent, `.${base}.old-${process.pid}`);
    this.journal = path.join(this.parent, `.${base}.journal`);
    this.lock = path.join(this.parent, `.${base}.lock`);
    envErrors(dir, 'write', () => fs.mkdirSync(this.parent, { recursive: true }));
    envErrors(dir, 'write', () => takeLock(this.lock, dir));
    try {
      envErrors(dir, 'write', () => recoverInterruptedRun(this.parent, base, this.target, this.journal, dir));
      // a leftover of an earlier process that had this process id
      fs.rmSync(this.staging, { recursive: true, force: true });
      this.existed = fs.existsSync(this.target);
      if (this.existed) {
        const entries = fs.readdirSync(this.target);
        if (entries.length > 0 && !entries.includes(OUTPUT_MARKER)) {
          throw new UserError(
            'output',
            `refusing to replace ${dir}: it is not empty and was not written by ccm-gitops (no ${OUTPUT_MARKER} file); remove it or pass another --out`,
          );
        }
      }
      this.knownClusters = previousClusters(this.target);
    } catch (e) {
      releaseLock(this.lock);
      throw e;
    }
  }

  hasUnit(unit: string): boolean {
    return fs.existsSync(path.join(this.target, unit));
  }

  get remote(): RemoteSink {
    return { mode: 'write', target: this.target, staging: this.staging };
  }

  putUnit(unit: string, files: readonly RenderedFile[]): void {
    this.acceptUnit(
      unit,
      envErrors(this.dir, 'write', () => compareAndStageUnit(this.target, this.staging, unit, files)),
    );
  }

  acceptUnit(unit: string, result: UnitResult): void {
    this.units.add(unit);
    if (result.same) {
      return;
    }
    this.foreign.push(...(result.extra ?? []).filter((rel) => !this.writtenByUs(rel)));
    this.written += result.written ?? 0;
    this.replaced.push(unit);
  }

  /**
   * A unit given in parts, compared with the output as they come: nothing
   * is staged while every file so far is as on disk (those files' paths are
   * held); at the first difference the files so far are copied from the
   * output into staging, and every later file is written there.
   */
  openUnit(unit: string): UnitParts {
    let held: string[] | undefined = [];
    const extra: string[] = [];
    const made = new Set<string>();
    const place = (rel: string): string => {
      const dest = path.join(this.staging, ...rel.split('/'));
      const dir = path.dirname(dest);
      if (!made.has(dir)) {
        if (made.size >= 256) {
          // parts come in tree order: the folders of the last few are the ones written to again
          made.clear();
        }
        fs.mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      return dest;
    };
    const stage = (): void => {
      if (held) {
        this.makeStaging();
        for (const rel of held) {
          fs.copyFileSync(path.join(this.target, ...rel.split('/')), place(rel));
        }
        held = undefined;
      }
    };
    // the walk of the folder on disk starts here: an error reading it is the environment's, as in put and close
    const merge = envErrors(
      this.dir,
      'write',
      () =>
        new UnitMerge(
          this.target,
          unit,
          {
            same: (f) => (held ? held.push(f.path) : fs.writeFileSync(place(f.path), f.content)),
            differs: (f) => {
              stage();
              fs.writeFileSync(place(f.path), f.content);
            },
            extra: (rel) => {
              extra.push(rel);
              stage();
            },
          },
          false,
        ),
    );
    return {
      put: (files) => envErrors(this.dir, 'write', () => merge.put(files)),
      close: () => {
        envErrors(this.dir, 'write', () => merge.finish());
        if (merge.count === 0) {
          // as a unit with no file is not put: the commit removes the folder
          return false;
        }
        const same = merge.same;
        this.acceptUnit(unit, same ? { same, extra: [], written: 0 } : { same, extra, written: merge.count });
        return same;
      },
    };
  }

  /** Rethrows an error a worker met while staging, as this writer would have. */
  rethrow(e: unknown): never {
    return envErrors(this.dir, 'write', () => {
      throw e;
    });
  }

  keepUnit(unit: string): void {
    this.units.add(unit);
  }

  putRootFile(file: RenderedFile): void {
    this.putRootFilePieces(file.path, () => [file.content]);
  }

  putRootFilePieces(rel: string, pieces: () => Iterable<string>): void {
    checkPath(rel);
    if (rel.includes('/')) {
      throw new UserError('output', `internal error: ${JSON.stringify(rel)} is not a root file`);
    }
    this.rootFiles.add(rel);
    if (samePieces(path.join(this.target, rel), pieces())) {
      return;
    }
    envErrors(this.dir, 'write', () => {
      this.makeStaging();
      writeInChunks(path.join(this.staging, rel), pieces());
    });
    this.written++;
    this.stagedRootFiles.push(rel);
  }

  /**
   * Swaps the staged units and files in, removes the units and root files
   * this run did not put or keep, and releases the output. Throws, changing
   * nothing, when that would delete files ccm-gitops did not write (unless
   * `force`).
   */
  commit(): CommitResult {
    try {
      this.putRootFile(markerFile());
      const removed: string[] = [];
      const deletedFiles: string[] = [];
      if (this.existed) {
        for (const entry of fs.readdirSync(this.target, { withFileTypes: true })) {
          if (entry.isDirectory() && !this.units.has(entry.name)) {
            removed.push(entry.name);
            this.foreign.push(...listFiles(path.join(this.target, entry.name), entry.name).filter((rel) => !this.writtenByUs(rel)));
          } else if (!entry.isDirectory() && !this.rootFiles.has(entry.name) && !this.units.has(entry.name)) {
            deletedFiles.push(entry.name);
            if (entry.name !== SHARD_RECORD) {
              // a shard's record is ccm-gitops's own: a whole-fleet synth into a shard's output removes it
              this.foreign.push(entry.name);
            }
          }
        }
      }
      if (this.foreign.length > 0 && !this.options.force) {
        const sorted = [...this.foreign].sort(byCodePoint);
        const listed = sorted
          .slice(0, MAX_LISTED)
          .map((rel) => `  ${this.dir}/${rel}\n`)
          .join('');
        const more = sorted.length > MAX_LISTED ? `  … and ${sorted.length - MAX_LISTED} more\n` : '';
        throw new UserError(
          'output',
          `refusing to delete ${sorted.length} file${sorted.length === 1 ? '' : 's'} in ${this.dir} that ccm-gitops did not write:\n${listed}${more}` +
            'move them out of the output folder, or pass --force to delete them; nothing was written',
        );
      }
      removed.sort(byCodePoint);
      const journal: Journal = {
        staging: path.basename(this.staging),
        backup: path.basename(this.backup),
        units: [...this.replaced].sort(byCodePoint),
        removed: [...removed, ...deletedFiles],
        rootFiles: [...this.stagedRootFiles].sort(byCodePoint),
      };
      if (journal.units.length + journal.removed.length + journal.rootFiles.length > 0) {
        envErrors(this.dir, 'write', () => {
          fs.mkdirSync(this.target, { recursive: true });
          const tmp = `${this.journal}.tmp`;
          fs.writeFileSync(tmp, `${JSON.stringify(journal)}\n`);
          fs.renameSync(tmp, this.journal);
        });
        // from here on the new tree is decided: a failure or kill is completed by the next run
        envErrors(this.dir, 'commit', () => applyJournal(this.parent, this.target, journal, this.journal, this.dir));
      }
      return { replaced: journal.units, removed, written: this.written };
    } finally {
      this.close();
    }
  }

  /** Drops what was staged and releases the output (after a failure); the output stays as it was. */
  close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    if (!fs.existsSync(this.journal)) {
      // best effort, after a failure or a commit that reported its own leftover: never hides the error being thrown
      for (const folder of [this.staging, this.backup]) {
        try {
          fs.rmSync(folder, { recursive: true, force: true });
        } catch {
          // the next run removes it, or names it
        }
      }
    }
    releaseLock(this.lock);
  }

  private makeStaging(): void {
    fs.mkdirSync(this.staging, { recursive: true });
  }

  /**
   * Whether a file found in the output, that this run does not render, was
   * written by an earlier run: anything in `_fleet/`; in the folder of a
   * cluster of the previous fleet summary, kustomizations, the files a
   * kustomization in the same folder lists, and the cluster's plan files
   * (`MIGRATION.md`, `.migration.json`, ...).
   */
  private writtenByUs(rel: string): boolean {
    const parts = rel.split('/');
    if (parts[0] === FLEET_DIRECTORY) {
      return true;
    }
    if (!this.knownClusters.has(parts[0]) || parts.length < 2) {
      return false;
    }
    const name = parts[parts.length - 1];
    if (name === 'kustomization.yaml') {
      return true;
    }
    if (parts.length === 2 && /^(\.[a-z0-9-]+\.json|[A-Z][A-Z0-9-]*\.md)$/.test(name)) {
      return true;
    }
    // listed by the kustomization of its folder or of a folder above it in the cluster (`manifests/ccm-gitops-<c>.yaml`)
    for (let depth = parts.length - 1; depth >= 1; depth--) {
      if (kustomizationResources(path.join(this.target, ...parts.slice(0, depth))).has(parts.slice(depth).join('/'))) {
        return true;
      }
    }
    return false;
  }
}

/**
 * Compares computed units with an output folder without writing: collects
 * every missing, changed and extra file.
 */
export class OutputCheck implements TreeSink {
  /** Differences found so far, in the order found. */
  readonly stale: StaleFile[] = [];
  private readonly target: string;
  private readonly units = new Set<string>();
  private readonly rootFiles = new Set<string>();

  constructor(dir: string) {
    const abs = path.resolve(dir);
    this.target = fs.existsSync(abs) ? fs.realpathSync(abs) : abs;
    const journal = path.join(path.dirname(this.target), `.${path.basename(this.target)}.journal`);
    if (fs.existsSync(journal)) {
      // a crafted journal is named as such, not as work for synth to complete
      readJournal(journal, path.dirname(this.target), path.basename(this.target));
      throw new UserError('output', `${dir} is half-written by an interrupted synth (${journal}); run ccm-gitops synth to complete it`);
    }
  }

  hasUnit(unit: string): boolean {
    return fs.existsSync(path.join(this.target, unit));
  }

  get remote(): RemoteSink {
    return { mode: 'check', target: this.target, staging: '' };
  }

  putUnit(unit: string, files: readonly RenderedFile[]): void {
    this.acceptUnit(unit, { stale: compareUnitFiles(this.target, unit, files) });
  }

  acceptUnit(unit: string, result: UnitResult): void {
    this.units.add(unit);
    this.stale.push(...(result.stale ?? []));
  }

  /** A unit given in parts: its differences found as they come. */
  openUnit(unit: string): UnitParts {
    const before = this.stale.length;
    const merge = new UnitMerge(this.target, unit, staleEvents(this.stale));
    return {
      put: (files) => merge.put(files),
      close: () => {
        merge.finish();
        if (merge.count === 0) {
          // as a unit with no file is not put: finish() reports the folder's files as extra
          this.stale.length = before;
          return false;
        }
        this.units.add(unit);
        return merge.same;
      },
    };
  }

  keepUnit(unit: string): void {
    this.units.add(unit);
  }

  putRootFile(file: RenderedFile): void {
    this.putRootFilePieces(file.path, () => [file.content]);
  }

  putRootFilePieces(rel: string, pieces: () => Iterable<string>): void {
    this.rootFiles.add(rel);
    const full = path.join(this.target, rel);
    if (!fs.existsSync(full)) {
      this.stale.push({ path: rel, state: 'missing' });
    } else if (!samePieces(full, pieces())) {
      this.stale.push({ path: rel, state: 'changed' });
    }
  }

  /** Every difference, sorted by path (extra units and root files included). */
  finish(): StaleFile[] {
    this.putRootFile(markerFile());
    if (fs.existsSync(this.target) && fs.statSync(this.target).isDirectory()) {
      for (const entry of fs.readdirSync(this.target, { withFileTypes: true })) {
        if (entry.isDirectory() && !this.units.has(entry.name)) {
          this.stale.push(...listFiles(path.join(this.target, entry.name), entry.name).map((p) => ({ path: p, state: 'extra' as const })));
        } else if (!entry.isDirectory() && !this.rootFiles.has(entry.name)) {
          this.stale.push({ path: entry.name, state: 'extra' });
        }
      }
    }
    return [...this.stale].sort((a, b) => byCodePoint(a.path, b.path));
  }
}

/** Differences between a computed tree and the files on disk. */
export interface StaleFile {
  /** Path relative to the output folder. */
  readonly path: string;
  /** How it differs. */
  readonly state: 'changed' | 'missing' | 'extra';
}

/** Puts a list of files into a sink: root files one by one, the others grouped by top-level folder. */
export function putFiles(sink: TreeSink, files: readonly RenderedFile[]): void {
  const units = new Map<string, RenderedFile[]>();
  for (const f of files) {
    checkPath(f.path);
    const slash = f.path.indexOf('/');
    if (slash < 0) {
      sink.putRootFile(f);
    } else {
      const unit = f.path.slice(0, slash);
      // pushed, not copied: `_fleet` holds a file or two per cluster, and copying made this quadratic in the fleet
      const list = units.get(unit);
      if (list) {
        list.push(f);
      } else {
        units.set(unit, [f]);
      }
    }
  }
  for (const [unit, unitFiles] of units) {
    sink.putUnit(unit, unitFiles);
  }
}

/**
 * Writes the rendered tree to `outDir` as a whole (files it does not list are
 * deleted, even those ccm-gitops did not write), through an {@link OutputTree}:
 * a failure leaves `outDir` as it was. Refuses to replace a non-empty
 * directory that ccm-gitops did not write.
 */
export function writeTreeAtomically(outDir: string, files: readonly RenderedFile[]): CommitResult {
  const out = OutputTree.open(outDir, { force: true });
  try {
    putFiles(
      out,
      files.filter((f) => f.path !== OUTPUT_MARKER),
    );
  } catch (e) {
    out.close();
    throw e;
  }
  return out.commit();
}

/**
 * Refuses an output folder inside the clusters folder (or the same folder):
 * the next synth would read its own output as cluster specs. Compares real
 * paths, so symbolic links do not hide it.
 */
export function checkOutputOutside(out: string, clusters: string): void {
  const real = (p: string): string => {
    const abs = path.resolve(p);
    let existing = abs;
    while (!fs.existsSync(existing) && path.dirname(existing) !== existing) {
      existing = path.dirname(existing);
    }
    return path.join(fs.realpathSync(existing), path.relative(existing, abs));
  };
  const rel = path.relative(real(clusters), real(out));
  if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) {
    throw new UserError(
      'usage',
      `--out ${out} is inside the clusters folder ${clusters}: synth would read its own output as cluster specs; pass an --out outside it`,
    );
  }
}
