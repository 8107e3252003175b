import { FleetEntry, fleetSummaryStreams, StreamedFile } from './fleet-summary';
import { RenderedFile } from '../gitops/layout';
import { markerFile, RemoteSink, SHARD_RECORD, TreeSink } from './output';
import { FleetFolderParts } from './fleet-folder-parts';
import { readUnitFiles } from '../util/read-tree';
import { argoCdShares } from '../gitops/argocd-groups';
import { canRenderInParallel, defaultJobs, RenderPool } from './render-pool';
import { CachedCluster, clusterKeyOf, fleetFolderKey, preparedDigest, RenderCache, UnitCheck, unitCheckOf } from './render-cache';
import { PoolTask, RenderOutcome, runTask, upToDate } from './render-worker';
import * as fs from 'fs';
import * as path from 'path';
import { OUTPUT_MARKER } from './output';
import { argoCdMemberOf, FleetMember, fleetSpecFiles, InputWarning, LoadCache, LoadedCluster, specStream, streamSpecFiles } from '../fleet/load';
import { PreparedCluster } from '../cluster/prepared-cluster';
import { ArgoCdMember, argoCdMembers, FLEET_DIRECTORY, repositoryPathOf } from '../gitops/repo-path';
import { refuseSecretsInKeptUnit, refuseSecretsInOutput, refuseSecretsInPieces } from './output-secret-guard';
import type { SynthProgress } from './progress';
import { globMatch } from '../util/glob';
import { isLink } from './output-files';
import { Shard, ShardRecord, shardInputsDigest, shardRecordContent, readShardRecord, loadShardRecord, inShard, byName } from './shard';
import { checkGitopsPaths, existingFleetEntries, checkPhaseTransitions } from './synth-checks';
import { UserError } from '../util/user-error';
export { checkGitopsPaths, staleFiles, checkPhaseTransitions } from './synth-checks';
export { parseShard, shardOf, shardInputsDigest } from './shard';
export type { Shard } from './shard';

/** Thrown for a synth request that cannot be served (e.g. `--only` matching nothing). */
export { refuseSecretsInOutput } from './output-secret-guard';

/** What to render. */
export interface SynthOptions {
  /** Folder of cluster specs. */
  readonly clusters: string;
  /** Output folder (read for `only`, never written here). */
  readonly out: string;
  /**
   * Render only the clusters whose name matches one of these names or globs
   * (`*`, `?`); the others keep the output they have in `out` (rendered when
   * they have none).
   *
   * @default - every cluster
   */
  readonly only?: readonly string[];
  /**
   * Worker threads that render (and compare and stage) clusters in parallel
   * ({@link synthesizeIntoAsync} only); 1 renders on the main thread. Small
   * fleets always render on the main thread.
   *
   * @default - one per core
   */
  readonly jobs?: number;
  /**
   * The render cache: clusters whose inputs and folder on disk are as the
   * cache recorded are not rendered again. Updated, not saved, by the synth.
   *
   * @default - no cache: every cluster is rendered
   */
  readonly cache?: RenderCache;
  /**
   * The spec cache: specs whose files (and the files they read) are as when
   * they last loaded without a problem are not parsed and validated again.
   *
   * @default - no cache: every spec is loaded
   */
  readonly specCache?: LoadCache;
  /**
   * Render only this share of the fleet (for a CI job matrix): the clusters
   * whose name hashes to shard `index` of `count` ({@link shardOf}). The
   * output holds their folders and fleet files covering them only; `assemble`
   * puts the shards' outputs together.
   *
   * @default - the whole fleet
   */
  readonly shard?: Shard;
  /**
   * Assemble instead of render: take every cluster's folder and summary line
   * from these outputs of `--shard` runs (each cluster must be in exactly one),
   * and write the fleet files for the whole fleet.
   *
   * @default - render
   */
  readonly assembleFrom?: readonly string[];
  /**
   * Why to render although a cluster's record of its last phase is lost,
   * corrupt or contradicted by the rendered tree (the one-phase check is
   * skipped for those clusters, each named in a warning with this reason).
   *
   * @default - refuse
   */
  readonly forcePhase?: string;
  /**
   * Told of each cluster loaded and settled, for a progress line (the CLI
   * prints one on long runs, none with --quiet).
   *
   * @default - none
   */
  readonly progress?: SynthProgress;
}

/** The result: the complete tree to write and what was rendered. */
export interface SynthResult {
  /** Every file of the output tree, marker included. */
  readonly files: RenderedFile[];
  /** Names of the clusters rendered in this run. */
  readonly rendered: readonly string[];
  /** Number of clusters in the fleet. */
  readonly clusters: number;
  /** Transform warnings. */
  readonly warnings: readonly InputWarning[];
}

/** What a streamed synth did. */
export interface SynthSummary {
  /** Names of the clusters rendered in this run, sorted. */
  readonly rendered: readonly string[];
  /** Number of clusters in the fleet. */
  readonly clusters: number;
  /** Clusters kept from the output as they were (`only`). */
  readonly kept: number;
  /**
   * Of the clusters in `rendered`, those whose inputs and folder were as the
   * render cache recorded them: checked, not rendered again.
   */
  readonly unchanged: number;
  /** Transform warnings. */
  readonly warnings: readonly InputWarning[];
}

/** Turns a name or glob into a matcher over cluster names. */
export function nameMatcher(pattern: string): (name: string) => boolean {
  // not a regular expression: one of many stars backtracks exponentially
  return (name) => globMatch(pattern, name);
}

/**
 * The rendering code (cdk8s, the charts), loaded on this thread when it
 * first renders: a run whose clusters render in the workers, or are all
 * unchanged, never loads it here (the loader needs none of it).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start-up
const rendering = () => require('./render') as typeof import('./render');

/** Renders waiting for a worker beyond which loading pauses: each holds its cluster (a few kilobytes). */
const RENDER_BACKLOG = 16;
/** Clusters loaded between two turns of the event loop, where a lost worker's exit is seen. */
const TURN_EVERY = 64;

/** Wait for every task to be done (throws a task's error). */
const DRAIN = 'drain';
/** Stop the workers. */
const CLOSE = 'close';
/**
 * What a {@link FleetRun} with workers waits for: {@link DRAIN}, {@link CLOSE},
 * or outcomes until the condition holds ({@link RenderPool.settled}).
 */
type Pause = typeof DRAIN | typeof CLOSE | (() => boolean);

/**
 * Loads, validates and renders the fleet into `sink` one cluster at a time,
 * on this thread ({@link synthesizeIntoAsync} renders in worker threads):
 * what is kept of a cluster is its {@link FleetMember} and summary line
 * (neither the fleet nor the tree is held whole). Nothing is committed here:
 * when a spec or a check across the fleet fails (found once the last spec is
 * loaded), the error is thrown and the sink discards what was staged. With
 * `only`, clusters outside the selection that have output in `out` are kept
 * as they are (their fleet summary line is the render cache's, else read
 * back from `.fleet.json`, once), the others are rendered.
 */
export function synthesizeInto(options: SynthOptions, sink: TreeSink): SynthSummary {
  if (options.assembleFrom) {
    return assemble(options, sink);
  }
  const step = new FleetRun(options, sink, fleetSpecFiles(options.clusters), false).run().next();
  if (!step.done) {
    throw new Error('internal: a synth without render workers waited for them');
  }
  return step.value;
}

/**
 * {@link synthesizeInto} with the clusters rendered (and compared and
 * staged) by worker threads while this thread loads the specs, when the
 * fleet is large enough for them to pay ({@link SynthOptions.jobs}). A
 * worker that is lost (out of memory, killed) fails the synth at once.
 */
export async function synthesizeIntoAsync(options: SynthOptions, sink: TreeSink): Promise<SynthSummary> {
  if (options.assembleFrom) {
    return assemble(options, sink);
  }
  const run = new FleetRun(options, sink, fleetSpecFiles(options.clusters), true);
  return run.withWorkers();
}

/** `assemble`: the specs are validated (and their members kept), not rendered. */
function assemble(options: SynthOptions, sink: TreeSink): SynthSummary {
  const outputPath = repositoryPathOf(options.out);
  const inputs = new Map<string, string>();
  const loaded = streamSpecFiles(fleetSpecFiles(options.clusters), options.clusters, options.specCache, (c) => {
    if (!c.nameTaken && inShard(c.member.name, options.shard)) {
      inputs.set(c.member.name, shardInputsDigest(c.prepared()));
    }
  });
  const overridden = checkPhaseTransitions({ clusters: loaded.members }, options.out, options.forcePhase);
  checkGitopsPaths({ clusters: loaded.members }, outputPath);
  return assembleInto(
    loaded.members.filter((m) => inShard(m.name, options.shard)),
    inputs,
    [...overridden, ...loaded.warnings],
    options.assembleFrom!,
    sink,
    outputPath,
    options.clusters,
  );
}

/**
 * The Argo CD roots of the run: their cache key, and whether nothing they
 * depend on changed. Their clusters are built from the members when needed
 * ({@link FleetRun.argoCdClusters}), not held through the render.
 */
interface ArgoCdRoots {
  readonly key?: string;
  readonly unchanged: boolean;
}

/**
 * One streamed synth ({@link synthesizeInto}): the specs are loaded one at a
 * time, and each cluster is placed as it comes ({@link FleetRun.place}):
 * kept (outside `--only`, with output), checked against the render cache,
 * or rendered; by the worker threads when there are some, else at once on
 * this thread. What the run holds per cluster is its member, its summary
 * line and its index in the fleet.
 */
class FleetRun {
  private readonly outputPath: string;
  private readonly matchers: readonly ((name: string) => boolean)[];
  private readonly cache?: RenderCache;
  /** The sink's worker side (where clusters are compared and staged away from it), with the output path. */
  private readonly remote?: RemoteSink;
  /** Whether a kept cluster's summary line can be the render cache's (the output is one this cache knows). */
  private readonly cachedLines: boolean;
  private readonly pool?: RenderPool;
  /** The output's summary lines by name (`.fleet.json`), read when a kept cluster's line is not in the cache. */
  private existingEntries?: Map<string, FleetEntry>;
  /**
   * Without workers, a task runs on this thread at once (its cluster is
   * compared or staged, then dropped), with its follow-up; the first error is
   * kept until every spec is loaded (the specs' problems come first), and no
   * task runs after it.
   */
  private serialFailure?: { readonly error: unknown };

  /** This run's clusters (its shard), in the order loaded; their summary lines by the same index. */
  private readonly members: FleetMember[] = [];
  private readonly entries: FleetEntry[] = [];
  private readonly rendered: string[] = [];
  private readonly kept = new Set<number>();
  /** With --shard: the digest of the inputs each of this shard's clusters was rendered from, by name ({@link SHARD_RECORD}). */
  private readonly shardInputs = new Map<string, string>();
  /** With --shard: what the output's record says of the clusters it keeps as they are. */
  private previousShardInputs?: ReadonlyMap<string, string>;
  /** Kept clusters the cache does not know: their folders pass the last guard once the fleet is valid. */
  private readonly guardLater: number[] = [];
  /** Rendered on this thread (no remote sink): the clusters, by index. */
  private readonly onMain: { index: number; cluster: () => PreparedCluster }[] = [];
  /** Without --only to wait for: clusters outside the selection that have no output to keep. */
  private readonly unmatched: { index: number; cluster: LoadedCluster }[] = [];
  /** The folders whose cache check decides what happens to them, by name: the cluster's index. */
  private readonly checked = new Map<string, number>();
  /** A checked cluster's key and cluster (read from the spec cache only if its folder changed). */
  private readonly keys = new Map<number, string>();
  private readonly later = new Map<number, () => PreparedCluster>();
  /** The fleet folder's cache record (the workers check the folder against it while the specs load). */
  private readonly fleetRecord?: CachedCluster;
  private fleetFolder?: FleetFolderCheck;
  /** The fleet folder, given to the sink a share of the Argo CD roots at a time as the workers render them. */
  private fleetParts?: FleetFolderParts;
  /** Set once a spec has a problem: the run will fail, so no more clusters are sent to render. */
  private failing = false;
  /** Clusters to render found as the render cache recorded them (inputs and folder), so not rendered. */
  private unchanged = 0;

  constructor(
    private readonly options: SynthOptions,
    private readonly sink: TreeSink,
    private readonly specFiles: readonly string[],
    workers: boolean,
  ) {
    this.outputPath = repositoryPathOf(options.out);
    this.matchers = (options.only ?? []).map(nameMatcher);
    this.cache = options.cache;
    this.remote = sink.remote && sink.acceptUnit ? { ...sink.remote, outputPath: this.outputPath } : undefined;
    this.cachedLines =
      this.matchers.length > 0 && this.remote !== undefined && this.cache !== undefined && fs.existsSync(path.join(options.out, OUTPUT_MARKER));
    this.fleetRecord = this.remote ? this.cache?.get(FLEET_DIRECTORY) : undefined;
    options.progress?.start(specFiles.length);
    // workers from the start: they load the rendering code while this thread loads the first specs
    const jobs = options.jobs ?? defaultJobs();
    const parallel = workers && this.remote !== undefined && canRenderInParallel(jobs, specFiles.length, options.jobs !== undefined);
    this.pool = parallel ? new RenderPool(jobs, this.remote, specFiles.length, (o) => this.onOutcome(o)) : undefined;
  }

  /**
   * Runs {@link FleetRun.run}, doing what it waits for: the pool's outcomes,
   * as its workers' messages arrive. The pool is closed (its threads ended)
   * before this settles, so nothing is staged after an error is reported.
   */
  async withWorkers(): Promise<SynthSummary> {
    const steps = this.run();
    const pool = this.pool;
    try {
      for (let step = steps.next(); ;) {
        if (step.done) {
          return step.value;
        }
        let failure: { readonly error: unknown } | undefined;
        try {
          await (step.value === DRAIN ? pool!.drain() : step.value === CLOSE ? pool!.close() : pool!.settled(step.value));
        } catch (e) {
          failure = { error: e };
        }
        step = failure ? steps.throw(failure.error) : steps.next();
      }
    } finally {
      await pool?.close();
    }
  }

  /**
   * Loads and places every cluster, runs the checks across the fleet, waits
   * for the renders, and puts the fleet files. Yields what it waits for
   * (only with workers): see {@link Pause}.
   */
  *run(): Generator<Pause, SynthSummary, void> {
    const warnings = yield* this.load();
    const roots = this.argoCdRoots();
    yield* this.renderRest(roots);
    this.cache?.retain(new Set(this.members.map((m) => m.name)));
    const order = this.members.map((_m, i) => i).sort((a, b) => byName(this.nameOf(a), this.nameOf(b)));
    const summary = guardedSummary(order.map((i) => this.entries[i]));
    this.putArgoCdRoots(roots);
    putSummary(this.sink, summary);
    if (this.options.shard) {
      this.sink.putRootFile({ path: SHARD_RECORD, content: shardRecordContent(this.options.shard, this.shardInputs) });
    }
    const { members, rendered } = this;
    return { rendered: rendered.sort(byName), clusters: members.length, kept: members.length - rendered.length, unchanged: this.unchanged, warnings };
  }

  /** Loads the specs, each cluster placed as it loads, then runs the checks across the fleet. */
  private *load(): Generator<Pause, readonly InputWarning[], void> {
    const { options, members } = this;
    if (this.fleetRecord) {
      // the fleet folder's metadata is checked by the workers too; whether its content is still what renders is decided at the end
      this.submit({ kind: 'verify', index: CHECK_TASK, unit: FLEET_DIRECTORY, check: unitCheckOf(this.fleetRecord) });
    }
    const loading = specStream(this.specFiles, options.clusters, options.specCache, () => {
      this.failing = true;
    });
    let step = loading.next();
    for (let count = 1; !step.done; step = loading.next(), count++) {
      this.onLoaded(step.value);
      const pool = this.pool;
      // loading waits while enough renders wait for a worker (they hold their clusters); it lets the workers' messages in now and then
      if (pool && (pool.waitingRenders > RENDER_BACKLOG || count % TURN_EVERY === 0)) {
        yield () => pool.waitingRenders <= RENDER_BACKLOG;
      }
    }
    const loaded = step.value;
    const overridden = checkPhaseTransitions({ clusters: loaded.members }, options.out, options.forcePhase);
    checkGitopsPaths({ clusters: loaded.members }, this.outputPath);
    if (this.matchers.length > 0 && !members.some((m) => this.selected(m.name))) {
      throw new UserError(
        'input',
        `no cluster matches --only ${options.only!.join(' ')}; clusters: ${members
          .map((m) => m.name)
          .sort(byName)
          .join(', ')}`,
      );
    }
    this.guardLater.forEach((i) => this.guardKept(i));
    this.unmatched.forEach(({ index, cluster }) => this.dispatch(index, cluster));
    return [...overridden, ...loaded.warnings];
  }

  /**
   * The Argo CD roots depend on the specs' names and spec.gitops only: not
   * rendered while these and the folder are as the cache recorded.
   */
  private argoCdRoots(): ArgoCdRoots {
    const key = this.cache && this.remote ? fleetFolderKey(this.argoCdClusters(), this.outputPath) : undefined;
    return { key, unchanged: key !== undefined && this.fleetRecord?.key === key };
  }

  /**
   * The clusters of the Argo CD roots (`argoCdMembers`), built anew each
   * time they are needed rather than held from the last spec loaded to the
   * end, where the memory peak is; the workers' tasks let go of theirs once sent.
   */
  private argoCdClusters(): ArgoCdMember[] {
    return this.members.filter((m) => m.gitops.engine === 'argocd').map(argoCdMemberOf);
  }

  /** Waits for what is still rendering (the Argo CD roots too, by the workers); the sink learns of an error first. */
  private *renderRest(roots: ArgoCdRoots): Generator<Pause, void, void> {
    const { pool, remote, sink } = this;
    try {
      if (remote && !roots.unchanged) {
        const shares = argoCdShares(this.argoCdClusters(), ARGOCD_SHARE);
        this.fleetParts = new FleetFolderParts(sink, shares.length);
        shares.forEach((share, k) => this.submit({ kind: 'argocd', index: ARGOCD_TASK, share: k, members: share }));
      }
      if (pool) {
        yield DRAIN;
      } else if (this.serialFailure) {
        throw this.serialFailure.error;
      } else if (!remote) {
        for (const { index, cluster } of this.onMain) {
          const r = rendering().renderCluster(cluster(), this.outputPath);
          refuseSecretsInOutput(r.files);
          sink.putUnit(r.name, r.files);
          this.entries[index] = r.entry;
          this.options.progress?.rendered();
        }
      }
    } catch (e) {
      sink.rethrow?.(e);
      throw e;
    } finally {
      // the workers' heaps go before the fleet files are built
      if (pool) {
        yield CLOSE;
      }
    }
  }

  /**
   * Puts the Argo CD roots: accepted as they are when neither their inputs
   * nor their folder changed; else the folder the workers streamed to the
   * sink as they rendered it is closed (or, without workers, rendered and
   * streamed here), and its cache record kept.
   */
  private putArgoCdRoots(roots: ArgoCdRoots): void {
    const { remote, cache, fleetRecord, fleetFolder, sink } = this;
    if (roots.unchanged && fleetFolder?.same && remote) {
      // the Argo CD roots' inputs digest as recorded and the workers found their folder as recorded: nothing to render
      cache!.record(FLEET_DIRECTORY, fleetFolder.check ? { key: fleetRecord!.key, ...fleetFolder.check } : fleetRecord!);
      sink.acceptUnit!(FLEET_DIRECTORY, upToDate(remote));
      return;
    }
    const parts = this.fleetParts ?? argoCdRootsHere(sink, this.argoCdClusters(), this.outputPath);
    const { same, digest } = parts.close();
    if (!remote || !cache || parts.files === 0) {
      return;
    }
    // a folder found as recorded keeps its record's fingerprint (the workers' check refreshed it): the next run need not read it
    const record = cache.get(FLEET_DIRECTORY);
    const kept =
      same && record?.digest === digest && fleetFolder?.same ? (fleetFolder.check ? { key: record.key, ...fleetFolder.check } : record) : undefined;
    cache.record(FLEET_DIRECTORY, kept ? { ...kept, key: roots.key ?? kept.key } : { key: roots.key ?? digest, digest });
  }

  /** A cluster as the loader hands it over: placed (unless a spec already failed); the workers' outcomes so far are taken. */
  private onLoaded(c: LoadedCluster): void {
    this.options.progress?.loaded();
    if (!this.failing) {
      this.place(c);
    }
    this.pool?.poll();
  }

  /** One cluster: kept, checked against the cache, or rendered. */
  private place(c: LoadedCluster): void {
    const { cache, sink, remote } = this;
    const name = c.member.name;
    if (!inShard(name, this.options.shard) || c.nameTaken) {
      // another shard's, or a name taken (the loader refuses the fleet once every spec is read)
      return;
    }
    const i = this.members.push(c.member) - 1;
    const keptEntry = this.selected(name) ? undefined : ((this.cachedLines ? cache!.get(name)?.entry : undefined) ?? this.existingEntry(name));
    if (keptEntry && sink.hasUnit(name)) {
      if (this.options.shard) {
        // a kept folder was rendered from the inputs its last record names, not from today's
        this.previousShardInputs ??= readShardRecord(this.options.out)?.clusters ?? new Map();
        const before = this.previousShardInputs.get(name);
        if (before !== undefined) {
          this.shardInputs.set(name, before);
        }
      }
      sink.keepUnit(name);
      this.options.progress?.rendered();
      this.entries[i] = keptEntry;
      this.kept.add(i);
      if (remote && cache?.get(name)) {
        // a kept folder the cache knows is checked like the others, and read only when it changed
        this.checked.set(name, i);
        this.submit({ kind: 'verify', index: CHECK_TASK, unit: name, check: unitCheckOf(cache.get(name)!) });
      } else {
        this.guardLater.push(i);
      }
      return;
    }
    this.rendered.push(name);
    if (this.options.shard) {
      this.shardInputs.set(name, shardInputsDigest(c.prepared()));
    }
    if (!remote) {
      this.onMain.push({ index: i, cluster: () => c.prepared() });
    } else if (this.matchers.length > 0 && !this.selected(name)) {
      // outside --only but without output to keep: rendered once some cluster is known to match (a mistyped --only renders nothing)
      this.unmatched.push({ index: i, cluster: c });
    } else {
      this.dispatch(i, c);
    }
  }

  /** Sends a cluster to render, or its folder to be checked against the cache. */
  private dispatch(i: number, c: LoadedCluster): void {
    const { cache } = this;
    const name = c.member.name;
    // a cluster whose inputs digest as the cache recorded only needs its folder checked
    const record = cache ? (cache.get(name) ?? null) : undefined;
    const key = cache ? clusterKeyOf(c.preparedDigest ?? preparedDigest(c.prepared()), this.outputPath) : undefined;
    if (record && key === record.key) {
      this.keys.set(i, key);
      this.checked.set(name, i);
      this.later.set(i, () => c.prepared());
      this.submit({ kind: 'verify', index: CHECK_TASK, unit: name, check: unitCheckOf(record) });
    } else {
      this.submit({ kind: 'render', index: i, cluster: c.prepared(), cached: record, key });
    }
  }

  /** What follows an outcome: nothing, or a render (a checked folder found changed). */
  private onOutcome(o: RenderOutcome): PoolTask | undefined {
    if (o.index === ARGOCD_TASK) {
      this.fleetParts!.put(o.share!, o.files!);
      return undefined;
    }
    if (o.index !== CHECK_TASK) {
      this.take(o.index, o);
      return undefined;
    }
    const same = o.fromCache === true;
    if (o.unit === FLEET_DIRECTORY) {
      this.fleetFolder = { same, check: o.check };
      return undefined;
    }
    const { cache, kept, sink } = this;
    const i = this.checked.get(o.unit)!;
    const cluster = this.later.get(i);
    this.later.delete(i);
    if (!same) {
      if (kept.has(i)) {
        // changed since the cache recorded it (by hand?): kept output passes the last guard too,
        // and its summary line is the output's (as without the cache)
        this.guardKept(i);
        this.entries[i] = this.existingEntry(o.unit) ?? this.entries[i];
        return undefined;
      }
      return { kind: 'render', index: i, cluster: cluster!(), cached: null, key: this.keys.get(i) };
    }
    // a folder found as the cache recorded it: its summary line is the record's
    const record = cache!.get(o.unit)!;
    if (o.check) {
      const { stat: _s, files: _f, ...plain } = record;
      cache!.record(o.unit, { ...plain, ...o.check });
    }
    if (!kept.has(i)) {
      this.entries[i] = record.entry!;
      sink.acceptUnit!(this.nameOf(i), upToDate(this.remote!));
      this.unchanged++;
      this.options.progress?.rendered();
    }
    return undefined;
  }

  /** A rendered cluster's outcome: its cache record and summary line kept, its folder's comparison handed to the sink. */
  private take(i: number, o: RenderOutcome): void {
    const name = this.nameOf(i);
    const entry = o.entry;
    if (o.cache) {
      this.cache?.record(name, { ...o.cache, entry });
    }
    if (entry && o.result) {
      this.entries[i] = entry;
      this.sink.acceptUnit!(name, o.result);
      this.options.progress?.rendered();
    }
  }

  /** Sends a task to the workers, or runs it here (the first error kept, no task run after it). */
  private submit(task: PoolTask): void {
    if (this.pool) {
      this.pool.submit([task]);
    } else if (!this.serialFailure) {
      this.runHere(task);
    }
  }

  private runHere(task: PoolTask): void {
    try {
      let next: PoolTask | undefined = task;
      while (next) {
        next = this.onOutcome(runTask(next, this.remote!));
      }
    } catch (e) {
      this.serialFailure = { error: e };
    }
  }

  /** Whether `--only` selects the cluster (every cluster without it). */
  private selected(name: string): boolean {
    return this.matchers.length === 0 || this.matchers.some((m) => m(name));
  }

  private nameOf(i: number): string {
    return this.members[i].name;
  }

  /** A kept cluster's summary line from the output's `.fleet.json` (read once, when first needed). */
  private existingEntry(name: string): FleetEntry | undefined {
    return (this.existingEntries ??= existingFleetEntries(this.options.out)).get(name);
  }

  /** Kept output is committed again as it is: the last guard reads it too (only --only keeps clusters). */
  private guardKept(i: number): void {
    refuseSecretsInKeptUnit(this.options.out, this.nameOf(i));
  }
}

/** The fleet summary of the lines (tens of megabytes at ten thousand clusters), passed through the secret guard a piece at a time. */
function guardedSummary(entries: readonly FleetEntry[]): StreamedFile[] {
  const summary = fleetSummaryStreams(entries);
  refuseSecretsInPieces(summary);
  return summary;
}

/** Puts the fleet summary into `sink`: compared and written a piece at a time where the sink can. */
function putSummary(sink: TreeSink, summary: readonly StreamedFile[]): void {
  for (const f of summary) {
    if (sink.putRootFilePieces) {
      sink.putRootFilePieces(f.path, f.pieces);
    } else {
      sink.putRootFile({ path: f.path, content: [...f.pieces()].join('') });
    }
  }
}

/** Index of a task that checks a folder against its cache record (outcomes are matched by folder name). */
const CHECK_TASK = -1;
/** Index of the tasks that render the Argo CD roots. */
const ARGOCD_TASK = -2;
/** Clusters per task rendering Argo CD roots: small shares keep a task's garbage within a worker's capped heap. */
const ARGOCD_SHARE = 32;

/**
 * The Argo CD roots rendered on this thread (`assemble`, and synth without
 * workers) as the workers render them: a share of {@link ARGOCD_SHARE}
 * clusters at a time, each given to the sink and dropped.
 */
function argoCdRootsHere(sink: TreeSink, members: readonly ArgoCdMember[], outputPath: string): FleetFolderParts {
  const shares = argoCdShares(members, ARGOCD_SHARE);
  const parts = new FleetFolderParts(sink, shares.length);
  shares.forEach((share, k) => parts.put(k, rendering().argoCdRootFiles(share, outputPath)));
  return parts;
}

/** What the workers found of the fleet folder against its cache record. */
interface FleetFolderCheck {
  readonly same: boolean;
  /** A refreshed fingerprint, when it changed. */
  readonly check?: UnitCheck;
}

/** The clusters' folders of each shard output (a cluster in two is refused) and the record of the specs each was rendered from. */
function shardOutputs(from: readonly string[]): {
  found: Map<string, { dir: string; entry: FleetEntry }>;
  records: Map<string, ShardRecord>;
} {
  const found = new Map<string, { dir: string; entry: FleetEntry }>();
  const records = new Map<string, ShardRecord>();
  for (const dir of from) {
    if (!fs.existsSync(path.join(dir, OUTPUT_MARKER))) {
      throw new UserError('input', `${dir} is not a ccm-gitops output (no ${OUTPUT_MARKER}); pass the --out folders of the synth --shard runs`);
    }
    const record = loadShardRecord(dir);
    if (!record || !('shard' in record)) {
      throw new UserError(
        'input',
        `${dir} has no readable record of the specs it was rendered from (${path.join(dir, SHARD_RECORD)}${record ? ` ${record.refused}` : ''}); ` +
          'render that shard again with synth --shard I/N, then assemble',
      );
    }
    records.set(dir, record);
    for (const entry of existingFleetEntries(dir).values()) {
      const other = found.get(entry.name);
      if (other) {
        throw new UserError(
          'input',
          `cluster ${entry.name} is in two shard outputs, ${other.dir} and ${dir}; pass each shard's output once, all from one --shard I/N split`,
        );
      }
      found.set(entry.name, { dir, entry });
    }
  }
  return { found, records };
}

/** Puts the clusters' folders from shard outputs into `sink`, and the fleet files for the whole fleet. */
function assembleInto(
  members: readonly FleetMember[],
  inputs: ReadonlyMap<string, string>,
  warnings: readonly InputWarning[],
  from: readonly string[],
  sink: TreeSink,
  outputPath: string,
  clusters: string,
): SynthSummary {
  const { found, records } = shardOutputs(from);
  const missing = members.map((m) => m.name).filter((n) => !found.has(n));
  if (missing.length > 0) {
    throw new UserError(
      'input',
      `${missing.length} cluster${missing.length === 1 ? ' is' : 's are'} in no shard output (${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}); ` +
        'run every shard of the split and pass all their outputs',
    );
  }
  const names = new Set(members.map((m) => m.name));
  const stray = [...found.keys()].filter((n) => !names.has(n)).sort();
  if (stray.length > 0) {
    throw new UserError(
      'input',
      `the shard outputs hold clusters the fleet does not have (${stray.slice(0, 10).join(', ')}); render the shards from the same specs`,
    );
  }
  // a shard rendered before a spec, defaults or cloud config changed would be assembled stale: refused, naming it
  const stale = members
    .filter((m) => records.get(found.get(m.name)!.dir)!.clusters.get(m.name) !== inputs.get(m.name))
    .map((m) => `${m.name} (in ${found.get(m.name)!.dir}, shard ${records.get(found.get(m.name)!.dir)!.shard})`);
  if (stale.length > 0) {
    throw new UserError(
      'input',
      `${stale.length} cluster${stale.length === 1 ? ' was' : 's were'} rendered from other specs than ${clusters} holds now: ` +
        `${stale.slice(0, 10).join(', ')}${stale.length > 10 ? ', …' : ''}; render those shards again from these specs, then assemble`,
    );
  }
  const entries: FleetEntry[] = [];
  for (const member of members) {
    const name = member.name;
    const { dir, entry } = found.get(name)!;
    if (isLink(path.join(dir, name))) {
      // a link would copy whatever it points at (a folder outside the shard) into the output
      throw new UserError(
        'input',
        `${path.join(dir, name)} is a symlink, not a folder synth wrote; assemble follows no link: render that shard again with synth --shard I/N, then assemble`,
      );
    }
    const files = readUnitFiles(dir, name);
    // the shard's files are copied as they are: the last guard reads them, named where they are
    refuseSecretsInOutput(files.map((f) => ({ path: path.join(dir, f.path), content: f.content })));
    sink.putUnit(name, files);
    entries.push(entry);
  }
  const summary = guardedSummary(entries);
  argoCdRootsHere(sink, argoCdMembers(members.map(argoCdMemberOf)), outputPath).close();
  putSummary(sink, summary);
  return { rendered: [], clusters: members.length, kept: 0, unchanged: 0, warnings };
}

/**
 * Validates the whole fleet and computes the complete output tree in memory
 * (for tools and tests; the CLI streams with {@link synthesizeInto}).
 */
export function synthesize(options: SynthOptions): SynthResult {
  const files: RenderedFile[] = [];
  const collect: TreeSink = {
    hasUnit: (unit) => fs.existsSync(path.join(options.out, unit)),
    putUnit: (_unit, unitFiles) => files.push(...unitFiles),
    keepUnit: (unit) => files.push(...readUnitFiles(options.out, unit)),
    putRootFile: (file) => files.push(file),
  };
  const summary = synthesizeInto(options, collect);
  return { files: [markerFile(), ...files], rendered: summary.rendered, clusters: summary.clusters, warnings: summary.warnings };
}
