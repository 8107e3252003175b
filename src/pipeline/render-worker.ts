// A worker thread of the parallel synth (see render-pool.ts): renders the
// clusters it is sent and compares (and stages) each one's folder itself, so
// that only a small result travels back; the main thread writes nothing but
// the fleet files and the commit. It also checks folders against the render
// cache, which needs none of the rendering code: that is loaded on the first
// render only.
import { MessagePort, workerData } from 'worker_threads';
import { compareAndStageUnit, compareUnitFiles, RemoteSink, UnitResult } from './output';
import { PreparedCluster } from '../cluster/prepared-cluster';
import { FleetEntry } from './fleet-summary';
import { CachedCluster, clusterKey, UnitCheck, unitDigest, verifyUnit } from './render-cache';
import { refuseSecretsInOutput } from './output-secret-guard';
import { ArgoCdMember, FLEET_DIRECTORY } from '../gitops/repo-path';
import { RenderedFile } from '../gitops/layout';
import { isUserError, UserErrorKind } from '../util/user-error';

/** Render a cluster (unless its cache record and folder say it is up to date). */
export interface RenderTask {
  readonly kind: 'render';
  /** Index of the cluster in the fleet. */
  readonly index: number;
  readonly cluster: PreparedCluster;
  /** The cluster's cache record; null when the cache is on but has none; undefined when the cache is off. */
  readonly cached?: CachedCluster | null;
  /**
   * The cluster's {@link clusterKey}, when the caller has it.
   *
   * @default - computed here when the cache is on
   */
  readonly key?: string;
}

/**
 * Check a folder on disk against its cache record: the outcome says whether
 * it holds (`fromCache`) or not (`needsRender`). The main thread decides
 * what follows: nothing, a render, or (for a folder `synth --only` keeps)
 * the secret guard over the folder as it is.
 */
export interface VerifyTask {
  readonly kind: 'verify';
  readonly index: number;
  readonly unit: string;
  /** What the cache recorded of the folder (not its summary line: the main thread has it). */
  readonly check: UnitCheck;
}

/**
 * Render the fleet's Argo CD roots (`_fleet/argocd/`): sent with the Argo CD
 * clusters' names and `spec.gitops` only. The files come back (the main
 * thread puts the fleet files); the garbage of rendering them stays in the
 * worker's capped heap instead of growing the main thread's.
 */
export interface ArgoCdRootsTask {
  readonly kind: 'argocd';
  readonly index: number;
  /** Which share of the roots (`argoCdShares`): its files come back under this number. */
  readonly share: number;
  readonly members: readonly ArgoCdMember[];
}

/** Work for a render worker. */
export type PoolTask = RenderTask | VerifyTask | ArgoCdRootsTask;

/** A batch of tasks. */
export interface RenderJob {
  readonly tasks: readonly PoolTask[];
}

/** One task's outcome. */
export interface RenderOutcome {
  readonly index: number;
  readonly unit: string;
  /** The cluster's summary line (absent for a kept folder and when a render is needed). */
  readonly entry?: FleetEntry;
  /** The comparison (absent for a kept folder and when a render is needed). */
  readonly result?: UnitResult;
  /** The rendered files of an {@link ArgoCdRootsTask}, and its share. */
  readonly files?: readonly RenderedFile[];
  readonly share?: number;
  /** Digest of the inputs and of the rendered folder, for the render cache (when it is on). */
  readonly cache?: CachedCluster;
  /** Whether the folder on disk matched the cache, so nothing was rendered. */
  readonly fromCache?: boolean;
  /** A verify task found the folder changed: the cluster must be rendered. */
  readonly needsRender?: boolean;
  /**
   * A verify task that found the folder as recorded, with a fresh fingerprint
   * (or none any more): what the cache record's check becomes.
   *
   * @default - the record stays as it is
   */
  readonly check?: UnitCheck;
}

/** What a worker sends back for a job: outcomes, or the first error. */
export interface RenderReply {
  readonly outcomes: RenderOutcome[];
  readonly error?: {
    readonly name?: string;
    /** The kind of a user error: the main thread throws it again as one. */
    readonly kind?: UserErrorKind;
    readonly message: string;
    readonly stack?: string;
    readonly code?: string;
    readonly syscall?: string;
    readonly path?: string;
  };
}

/** The comparison of a folder found as it should be. */
export const upToDate = (sink: Pick<RemoteSink, 'mode'>): UnitResult =>
  sink.mode === 'write' ? { same: true, extra: [], written: 0 } : { stale: [] };

/** Runs one task. */
export function runTask(task: PoolTask, sink: RemoteSink): RenderOutcome {
  if (task.kind === 'render') {
    return renderAndCompare(task.cluster, task.index, sink, task.cached, task.key);
  }
  if (task.kind === 'argocd') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start-up
    const { argoCdRootFiles } = require('./render') as typeof import('./render');
    return { index: task.index, unit: FLEET_DIRECTORY, share: task.share, files: argoCdRootFiles(task.members, sink.outputPath ?? 'dist') };
  }
  const { index, unit, check } = task;
  const verified = verifyUnit(sink.target, unit, check);
  const refreshed = verified.record === check ? undefined : verified.record;
  return verified.same ? { index, unit, fromCache: true, check: refreshed } : { index, unit, needsRender: true };
}

/**
 * Renders one cluster and compares (and, to write, stages) its folder. With
 * the cache on (`cached` not undefined), the outcome carries the record to
 * keep. A cluster whose inputs the cache already knows is not sent here but
 * checked by a {@link VerifyTask}.
 */
export function renderAndCompare(
  cluster: PreparedCluster,
  index: number,
  sink: RemoteSink,
  cached?: CachedCluster | null,
  knownKey?: string,
): RenderOutcome {
  const outputPath = sink.outputPath ?? 'dist';
  const key = cached !== undefined ? (knownKey ?? clusterKey(cluster, outputPath)) : undefined;
  // the rendering code (cdk8s, the charts) is loaded when a cluster is first rendered, not for cache checks
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start-up
  const { renderCluster } = require('./render') as typeof import('./render');
  const r = renderCluster(cluster, outputPath);
  // the last guard before anything is staged: no secret reaches git, whatever path it took
  refuseSecretsInOutput(r.files);
  const result =
    sink.mode === 'write'
      ? compareAndStageUnit(sink.target, sink.staging, r.name, r.files)
      : { stale: compareUnitFiles(sink.target, r.name, r.files) };
  return { index, unit: r.name, entry: r.entry, result, cache: key ? { key, digest: unitDigest(r.files), entry: r.entry } : undefined };
}

if (workerData && (workerData as { ccmGitopsRenderWorker?: boolean }).ccmGitopsRenderWorker) {
  const { port, sink } = workerData as { port: MessagePort; sink: RemoteSink };
  port.on('message', (job: RenderJob) => {
    const outcomes: RenderOutcome[] = [];
    let reply: RenderReply;
    try {
      for (const task of job.tasks) {
        outcomes.push(runTask(task, sink));
      }
      reply = { outcomes };
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      reply = {
        outcomes,
        error: {
          name: err?.name,
          kind: isUserError(e) ? e.kind : undefined,
          message: err?.message ?? String(e),
          stack: err?.stack,
          code: err?.code,
          syscall: err?.syscall,
          path: err?.path,
        },
      };
    }
    port.postMessage(reply);
  });
}
