import { FleetEntry, FleetEntryPool, FLEET_JSON, fleetSummaryStreams, parseFleetJson } from './fleet-summary';
import { RenderedFile } from './gitops/layout';
import { markerFile, OutputCheck, putFiles, RemoteSink, StaleFile, TreeSink } from './output';
import { readUnitFiles } from './util/read-tree';
import { argoCdFleetFiles, fleetFiles, renderCluster } from './render';
import { canRenderInParallel, defaultJobs, runInParallel } from './render-pool';
import { clusterKey, fleetFolderKey, RenderCache, UnitCheck, unitCheckOf, unitDigest, verifyUnit } from './render-cache';
import { PoolTask, RenderOutcome, runTask, upToDate } from './render-worker';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { MIGRATION_JSON } from './migration/plan-files';
import { externalIn, MigrationPhase, MIGRATION_PHASES, phaseSequence, transitionProblem } from './migration/phases';
import { platformFor } from './openshift/platforms';
import { OUTPUT_MARKER } from './output';
import { SpecIssue, SpecValidationError } from './cluster-spec/errors';
import { Fleet, InputWarning, LoadCache, loadFleet } from './fleet/load';
import { FLEET_DIRECTORY, gitopsPathProblem, repositoryPathOf } from './gitops/repo-path';
import { refuseSecretsInKeptUnit, refuseSecretsInOutput, refuseSecretsInPieces } from './output-secret-guard';

/** Refuses a `spec.gitops.path` that is not where synth writes the cluster (relative to the repository root). */
export function checkGitopsPaths(fleet: Fleet, outputPath: string): void {
  const issues: SpecIssue[] = fleet.clusters.flatMap((c) => {
    const problem = gitopsPathProblem(c.spec, outputPath);
    return problem ? [{ file: c.specFile, path: 'spec.gitops.path', message: problem }] : [];
  });
  if (issues.length > 0) {
    throw new SpecValidationError(issues);
  }
}

/** Thrown for a synth request that cannot be served (e.g. `--only` matching nothing). */
export { SynthError } from './synth-error';
export { refuseSecretsInOutput } from './output-secret-guard';
import { SynthError } from './synth-error';

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
   * Worker threads that render (and compare and stage) clusters in parallel;
   * 1 renders on the main thread. Small fleets always render on the main thread.
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
}

/** One share of a fleet: shard `index` (1-based) of `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Parses `I/N` (1 <= I <= N <= 1000); undefined when malformed. */
export function parseShard(text: string): Shard | undefined {
  const m = /^(\d{1,4})\/(\d{1,4})$/.exec(text);
  const index = m ? Number(m[1]) : 0;
  const count = m ? Number(m[2]) : 0;
  return m && index >= 1 && count >= 1 && index <= count && count <= 1000 ? { index, count } : undefined;
}

/**
 * The shard (1-based) a cluster belongs to among `count`: from a SHA-256 of
 * its name, so the split depends neither on the input order nor on the other
 * clusters, and a cluster stays in its shard while the fleet grows.
 */
export function shardOf(name: string, count: number): number {
  return (createHash('sha256').update(name).digest().readUInt32BE(0) % count) + 1;
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
  /** Transform warnings. */
  readonly warnings: readonly InputWarning[];
}

/** Turns a name or glob into a matcher over cluster names. */
export function nameMatcher(pattern: string): (name: string) => boolean {
  const re = new RegExp(`^${pattern.split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
  return (name) => re.test(name);
}

/**
 * Validates the whole fleet, then renders it into `sink` one cluster at a
 * time (the tree is never held whole): each cluster's folder, then the fleet
 * files. With `only`, clusters outside the selection that have output in
 * `out` are kept as they are (their fleet summary line is read back from
 * `.fleet.json`, once), the others are rendered.
 */
export function synthesizeInto(options: SynthOptions, sink: TreeSink): SynthSummary {
  const loaded = loadFleet(options.clusters, options.specCache);
  checkPhaseTransitions(loaded, options.out);
  const outputPath = repositoryPathOf(options.out);
  checkGitopsPaths(loaded, outputPath);
  const shard = options.shard;
  const fleet: Fleet = shard ? { ...loaded, clusters: loaded.clusters.filter((c) => shardOf(c.spec.metadata.name, shard.count) === shard.index) } : loaded;
  if (options.assembleFrom) {
    return assembleInto(fleet, options.assembleFrom, sink, outputPath);
  }
  const matchers = (options.only ?? []).map(nameMatcher);
  const selected = (name: string) => matchers.length === 0 || matchers.some((m) => m(name));
  if (matchers.length > 0 && !fleet.clusters.some((c) => selected(c.spec.metadata.name))) {
    throw new SynthError(`no cluster matches --only ${options.only!.join(' ')}; clusters: ${fleet.clusters.map((c) => c.spec.metadata.name).join(', ')}`);
  }
  const jobs = options.jobs ?? defaultJobs();
  const cache = options.cache;
  const remote = sink.remote && sink.acceptUnit ? { ...sink.remote, outputPath } : undefined;
  // a kept cluster's summary line: the render cache's (its folder is checked against that record below),
  // else the output's `.fleet.json`, read only when some line is not in the cache
  let existingEntries: Map<string, FleetEntry> | undefined;
  const existingEntry = (name: string) => (existingEntries ??= existingFleetEntries(options.out)).get(name);
  const cachedLines = matchers.length > 0 && remote && cache && fs.existsSync(path.join(options.out, OUTPUT_MARKER));

  const entries: FleetEntry[] = new Array<FleetEntry>(fleet.clusters.length);
  const toRender: number[] = [];
  const keptUnits: number[] = [];
  fleet.clusters.forEach((cluster, i) => {
    const name = cluster.spec.metadata.name;
    const kept = selected(name) ? undefined : (cachedLines ? cache.get(name)?.entry : undefined) ?? existingEntry(name);
    if (kept && sink.hasUnit(name)) {
      sink.keepUnit(name);
      entries[i] = kept;
      keptUnits.push(i);
    } else {
      toRender.push(i);
    }
  });
  const nameOf = (i: number) => fleet.clusters[i].spec.metadata.name;
  /** Kept output is committed again as it is: the last guard reads it too (only --only keeps clusters). */
  const guardKept = (i: number) => refuseSecretsInKeptUnit(options.out, nameOf(i));
  // the Argo CD roots depend on the specs only: not rendered while their inputs and folder are as the cache recorded,
  // else rendered while the workers render the clusters
  let argoCd: RenderedFile[] | undefined;
  let fleetFolder: FleetFolderCheck | undefined;
  const fleetKey = cache && remote ? fleetFolderKey(fleet.clusters.map((c) => c.spec), outputPath) : undefined;
  const fleetRecord = cache?.get(FLEET_DIRECTORY);
  const argoCdUnchanged = fleetKey !== undefined && fleetRecord?.key === fleetKey;
  if (remote) {
    // a cluster whose inputs digest as the cache recorded only needs its folder checked;
    // a kept folder the cache knows is checked the same way, and read only when it changed
    const renders: PoolTask[] = [];
    const keys = new Map<number, string>();
    /** The folders whose cache check decides what happens to them, by name: the cluster's index. */
    const checked = new Map<string, number>();
    for (const i of keptUnits) {
      if (cache?.get(nameOf(i))) {
        checked.set(nameOf(i), i);
      } else {
        guardKept(i);
      }
    }
    for (const i of toRender) {
      const record = cache ? cache.get(nameOf(i)) ?? null : undefined;
      const key = cache ? clusterKey(fleet.clusters[i], outputPath) : undefined;
      if (record && key === record.key) {
        keys.set(i, key);
        checked.set(nameOf(i), i);
      } else {
        renders.push({ kind: 'render', index: i, cluster: fleet.clusters[i], cached: record, key });
      }
    }
    // the fleet folder's metadata is checked by the workers too; whether its content is still what renders is decided at the end
    const checks = [...checked.keys(), ...(fleetRecord ? [FLEET_DIRECTORY] : [])]
      .map((unit): PoolTask => ({ kind: 'verify', index: CHECK_TASK, unit, check: unitCheckOf(cache!.get(unit)!) }));
    const kept = new Set(keptUnits);
    // a line from a worker is a copy: its images and stages are shared with the lines already held
    const lines = cache?.lines ?? new FleetEntryPool();
    const take = (i: number, o: RenderOutcome) => {
      const entry = o.entry && lines.share(o.entry);
      if (o.cache) {
        cache?.record(o.unit, { ...o.cache, entry });
      }
      if (entry && o.result) {
        entries[i] = entry;
        sink.acceptUnit!(o.unit, o.result);
      }
    };
    const onOutcome = (o: RenderOutcome): PoolTask | undefined => {
      if (o.index !== CHECK_TASK) {
        take(o.index, o);
        return undefined;
      }
      const same = o.fromCache === true;
      if (o.unit === FLEET_DIRECTORY) {
        fleetFolder = { same, check: o.check };
        return undefined;
      }
      const i = checked.get(o.unit);
      if (i === undefined) {
        // checked early, but not decided by its check: not in this fleet, or its inputs changed (rendered)
        return undefined;
      }
      if (!same) {
        if (kept.has(i)) {
          // changed since the cache recorded it (by hand?): kept output passes the last guard too,
          // and its summary line is the output's (as without the cache)
          guardKept(i);
          entries[i] = existingEntry(o.unit) ?? entries[i];
          return undefined;
        }
        return { kind: 'render', index: i, cluster: fleet.clusters[i], cached: null, key: keys.get(i) };
      }
      // a folder found as the cache recorded it: its summary line is the record's
      const record = cache!.get(o.unit)!;
      if (o.check) {
        const { stat: _s, files: _f, ...plain } = record;
        cache!.record(o.unit, { ...plain, ...o.check });
      }
      if (!kept.has(i)) {
        entries[i] = record.entry!;
        sink.acceptUnit!(o.unit, upToDate(remote));
      }
      return undefined;
    };
    const renderArgoCd = () => {
      argoCd = argoCdUnchanged ? undefined : argoCdFleetFiles(fleet, outputPath);
    };
    try {
      const tasks = [...checks, ...renders];
      if (canRenderInParallel(jobs, tasks.length, options.jobs !== undefined)) {
        runInParallel(tasks, jobs, remote, onOutcome, renderArgoCd);
      } else {
        // one cluster at a time: its files are compared or staged, then dropped
        for (let t = 0; t < tasks.length; t++) {
          const followUp = onOutcome(runTask(tasks[t], remote));
          if (followUp) {
            tasks.push(followUp);
          }
        }
      }
    } catch (e) {
      sink.rethrow?.(e);
      throw e;
    }
  } else {
    keptUnits.forEach(guardKept);
    for (const i of toRender) {
      const r = renderCluster(fleet.clusters[i], outputPath);
      refuseSecretsInOutput(r.files);
      sink.putUnit(r.name, r.files);
      entries[i] = r.entry;
    }
  }
  cache?.retain(new Set(fleet.clusters.map((c) => c.spec.metadata.name)));
  const rendered = toRender.map((i) => fleet.clusters[i].spec.metadata.name);
  // the summary (tens of megabytes at ten thousand clusters) is scanned, compared and written a piece at a time
  const summary = fleetSummaryStreams(entries);
  refuseSecretsInPieces(summary);
  if (argoCdUnchanged && fleetFolder?.same && remote) {
    // the Argo CD roots' inputs digest as recorded and the workers found their folder as recorded: nothing to render
    cache!.record(FLEET_DIRECTORY, fleetFolder.check ? { key: fleetRecord!.key, ...fleetFolder.check } : fleetRecord!);
    sink.acceptUnit!(FLEET_DIRECTORY, upToDate(remote));
  } else {
    const roots = argoCd ?? argoCdFleetFiles(fleet, outputPath);
    refuseSecretsInOutput(roots);
    putFleetFiles(sink, roots, remote, cache, fleetKey, fleetFolder);
  }
  for (const f of summary) {
    if (sink.putRootFilePieces) {
      sink.putRootFilePieces(f.path, f.pieces);
    } else {
      sink.putRootFile({ path: f.path, content: [...f.pieces()].join('') });
    }
  }
  return { rendered, clusters: fleet.clusters.length, kept: fleet.clusters.length - rendered.length, warnings: fleet.warnings };
}

/** Index of a task that checks a folder against its cache record (outcomes are matched by folder name). */
const CHECK_TASK = -1;

/** What the workers found of the fleet folder against its cache record. */
interface FleetFolderCheck {
  readonly same: boolean;
  /** A refreshed fingerprint, when it changed. */
  readonly check?: UnitCheck;
}

/**
 * Puts the fleet files into `sink`. With the render cache, the fleet folder
 * (`_fleet/`, a file or two per cluster) is not compared file by file when
 * its rendered files digest as the cache recorded and the folder on disk is
 * as recorded: only the root files (FLEET.md, .fleet.json) are.
 */
function putFleetFiles(sink: TreeSink, files: readonly RenderedFile[], remote: RemoteSink | undefined, cache: RenderCache | undefined, key: string | undefined, checked?: FleetFolderCheck): void {
  const inFolder = files.filter((f) => f.path.startsWith(`${FLEET_DIRECTORY}/`));
  if (!remote || !cache || !sink.acceptUnit || inFolder.length === 0) {
    putFiles(sink, files);
    return;
  }
  const digest = unitDigest(inFolder);
  const record = cache.get(FLEET_DIRECTORY);
  const verified = record?.digest !== digest ? undefined
    : checked ? { same: checked.same, record: checked.check ? { key: record.key, ...checked.check } : record }
      : verifyUnit(remote.target, FLEET_DIRECTORY, record);
  if (verified?.same) {
    cache.record(FLEET_DIRECTORY, key === undefined || verified.record.key === key ? verified.record : { ...verified.record, key });
    sink.acceptUnit(FLEET_DIRECTORY, upToDate(remote));
    putFiles(sink, files.filter((f) => !f.path.startsWith(`${FLEET_DIRECTORY}/`)));
    return;
  }
  putFiles(sink, files);
  cache.record(FLEET_DIRECTORY, { key: key ?? digest, digest });
}

/** Puts the clusters' folders from shard outputs into `sink`, and the fleet files for the whole fleet. */
function assembleInto(fleet: Fleet, from: readonly string[], sink: TreeSink, outputPath: string): SynthSummary {
  const found = new Map<string, { dir: string; entry: FleetEntry }>();
  for (const dir of from) {
    if (!fs.existsSync(path.join(dir, OUTPUT_MARKER))) {
      throw new SynthError(`${dir} is not a ccm-gitops output (no ${OUTPUT_MARKER}); pass the --out folders of the synth --shard runs`);
    }
    for (const entry of existingFleetEntries(dir).values()) {
      const other = found.get(entry.name);
      if (other) {
        throw new SynthError(`cluster ${entry.name} is in two shard outputs, ${other.dir} and ${dir}; pass each shard's output once, all from one --shard I/N split`);
      }
      found.set(entry.name, { dir, entry });
    }
  }
  const missing = fleet.clusters.map((c) => c.spec.metadata.name).filter((n) => !found.has(n));
  if (missing.length > 0) {
    throw new SynthError(`${missing.length} cluster${missing.length === 1 ? ' is' : 's are'} in no shard output (${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}); `
      + 'run every shard of the split and pass all their outputs');
  }
  const names = new Set(fleet.clusters.map((c) => c.spec.metadata.name));
  const stray = [...found.keys()].filter((n) => !names.has(n)).sort();
  if (stray.length > 0) {
    throw new SynthError(`the shard outputs hold clusters the fleet does not have (${stray.slice(0, 10).join(', ')}); render the shards from the same specs`);
  }
  const entries: FleetEntry[] = [];
  for (const cluster of fleet.clusters) {
    const name = cluster.spec.metadata.name;
    const { dir, entry } = found.get(name)!;
    sink.putUnit(name, readUnitFiles(dir, name));
    entries.push(entry);
  }
  putFiles(sink, fleetFiles(fleet, entries, outputPath));
  return { rendered: [], clusters: fleet.clusters.length, kept: 0, warnings: fleet.warnings };
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

/** The fleet summary lines of the output's `.fleet.json`, by name (empty when there is none). */
function existingFleetEntries(out: string): Map<string, FleetEntry> {
  if (!fs.existsSync(path.join(out, OUTPUT_MARKER))) {
    return new Map();
  }
  try {
    return new Map(parseFleetJson(fs.readFileSync(path.join(out, FLEET_JSON), 'utf8')).map((e) => [e.name, e]));
  } catch {
    return new Map();
  }
}


/** Compares a computed tree with the output folder; empty when up to date. */
export function staleFiles(files: readonly RenderedFile[], out: string): StaleFile[] {
  const check = new OutputCheck(out);
  putFiles(check, files.filter((f) => f.path !== OUTPUT_MARKER));
  return check.finish();
}

/** The phase a cluster's last render in `out` recorded, if any. */
export function renderedPhase(out: string, name: string, isOutput = fs.existsSync(path.join(out, OUTPUT_MARKER))): string | undefined {
  if (!isOutput) {
    return undefined;
  }
  const file = path.join(out, name, MIGRATION_JSON);
  if (!fs.statSync(file, { throwIfNoEntry: false })) {
    // most clusters migrate nothing: no file, and no exception to build for it
    return undefined;
  }
  try {
    const plan = JSON.parse(fs.readFileSync(file, 'utf8')) as { phase?: unknown };
    return typeof plan.phase === 'string' ? plan.phase : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a phase change that skips a phase (forward or back) against the
 * phase the output folder recorded at the last render: each phase is its own
 * reviewed change.
 */
export function checkPhaseTransitions(fleet: Fleet, out: string): void {
  const issues: SpecIssue[] = [];
  // once, not once per cluster
  const isOutput = fs.existsSync(path.join(out, OUTPUT_MARKER));
  for (const cluster of fleet.clusters) {
    const m = cluster.migration;
    const previous = renderedPhase(out, cluster.spec.metadata.name, isOutput);
    let problem = m && previous !== undefined ? transitionProblem(phaseSequence(m.support), previous, m.phase) : undefined;
    if (!m && previous !== undefined && previous !== 'external') {
      // no spec.migration means "already external": deleting it is the move to external, checked like any other
      const support = platformFor(cluster.spec.spec.platform)?.migrationSupport?.(cluster.spec);
      const step = transitionProblem(support ? phaseSequence(support) : MIGRATION_PHASES, previous, 'external');
      problem = step ? `spec.migration was removed, which means phase "external": ${step}` : undefined;
    }
    const gated = m?.support !== undefined && cluster.spec.spec.distribution === 'openshift' && m.kubernetesMinor < m.support.openshiftExternalSinceMinor;
    if (!problem && m && previous !== undefined && externalIn(previous as MigrationPhase) && !externalIn(m.phase) && gated) {
      problem = `moves from "${previous}" back to "${m.phase}", but phase "${previous}" set the FeatureGate to ${cluster.spec.spec.migration!.featureSet}, which OpenShift cannot turn off: `
        + `the operators keep kube-controller-manager and the kubelets external, so this cluster stays "${previous}" or moves on`;
    }
    if (problem) {
      issues.push({ file: cluster.specFile, path: 'spec.migration.phase', message: `${problem} (last render: ${path.join(out, cluster.spec.metadata.name, MIGRATION_JSON)})` });
    }
  }
  if (issues.length > 0) {
    throw new SpecValidationError(issues);
  }
}

