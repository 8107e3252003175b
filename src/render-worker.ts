// A worker thread of the parallel synth (see render-pool.ts): renders the
// clusters it is sent and compares (and stages) each one's folder itself, so
// that only a small result travels back; the main thread writes nothing but
// the fleet files and the commit.
import { MessagePort, workerData } from 'worker_threads';
import { compareAndStageUnit, compareUnitFiles, RemoteSink, UnitResult } from './output';
import { PreparedCluster } from './openshift/platform';
import { renderCluster } from './render';
import { FleetEntry } from './fleet-summary';
import { CachedCluster, clusterKey, diskDigest, unitDigest } from './render-cache';
import { refuseSecretsInOutput } from './output-secret-guard';

/** A batch of clusters to render, by their index in the fleet. */
export interface RenderJob {
  readonly clusters: readonly { readonly index: number; readonly cluster: PreparedCluster; readonly cached?: CachedCluster | null }[];
}

/** One cluster's outcome. */
export interface RenderOutcome {
  readonly index: number;
  readonly unit: string;
  readonly entry: FleetEntry;
  readonly result: UnitResult;
  /** Digest of the inputs and of the rendered folder, for the render cache (when it is on). */
  readonly cache?: CachedCluster;
  /** Whether the folder on disk matched the cache, so nothing was rendered. */
  readonly fromCache?: boolean;
}

/** What a worker sends back for a job: outcomes, or the first error. */
export interface RenderReply {
  readonly outcomes: RenderOutcome[];
  readonly error?: { readonly name?: string; readonly message: string; readonly stack?: string; readonly code?: string; readonly syscall?: string; readonly path?: string };
}

/**
 * Renders one cluster and compares (and, to write, stages) its folder. With
 * the cluster's cache record: when its inputs digest the same and its folder
 * on disk digests as recorded, nothing is rendered.
 */
export function renderAndCompare(cluster: PreparedCluster, index: number, sink: RemoteSink, cached?: CachedCluster | null): RenderOutcome {
  const unit = cluster.spec.metadata.name;
  const outputPath = sink.outputPath ?? 'dist';
  const key = cached !== undefined ? clusterKey(cluster, outputPath) : undefined;
  if (cached && key === cached.key && diskDigest(sink.target, unit) === cached.digest) {
    return { index, unit, entry: cached.entry, result: sink.mode === 'write' ? { same: true, extra: [], written: 0 } : { stale: [] }, cache: cached, fromCache: true };
  }
  const r = renderCluster(cluster, outputPath);
  // the last guard before anything is staged: no secret reaches git, whatever path it took
  refuseSecretsInOutput(r.files);
  const result = sink.mode === 'write'
    ? compareAndStageUnit(sink.target, sink.staging, r.name, r.files)
    : { stale: compareUnitFiles(sink.target, r.name, r.files) };
  return { index, unit: r.name, entry: r.entry, result, cache: key ? { key, digest: unitDigest(r.files), entry: r.entry } : undefined };
}

if (workerData && (workerData as { ccmGitopsRenderWorker?: boolean }).ccmGitopsRenderWorker) {
  const { port, signal, sink } = workerData as { port: MessagePort; signal: SharedArrayBuffer; sink: RemoteSink };
  const counter = new Int32Array(signal);
  port.on('message', (job: RenderJob) => {
    const outcomes: RenderOutcome[] = [];
    let reply: RenderReply;
    try {
      for (const { index, cluster, cached } of job.clusters) {
        outcomes.push(renderAndCompare(cluster, index, sink, cached));
      }
      reply = { outcomes };
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      reply = { outcomes, error: { name: err?.name, message: err?.message ?? String(e), stack: err?.stack, code: err?.code, syscall: err?.syscall, path: err?.path } };
    }
    port.postMessage(reply);
    Atomics.add(counter, 0, 1);
    Atomics.notify(counter, 0);
  });
}
