import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from 'worker_threads';
import { PreparedCluster } from './openshift/platform';
import { RemoteSink } from './output';
import { CachedCluster } from './render-cache';
import { RenderOutcome, RenderReply } from './render-worker';
import { SynthError } from './synth-error';

/** Clusters per message to a worker (fewer, larger messages; small enough to keep both busy). */
const BATCH = 16;
/** No result from any worker for this long means they are gone. */
const STALL_MS = 120_000;
/** Below this many clusters to render, starting workers costs more than it saves. */
export const PARALLEL_THRESHOLD = 64;

/** The compiled worker script, when running from compiled JavaScript (not under ts-jest/swc). */
function workerScript(): string | undefined {
  const script = path.join(__dirname, 'render-worker.js');
  return __filename.endsWith('.js') && fs.existsSync(script) ? script : undefined;
}

/** Worker threads to use by default: one per core (the main thread mostly waits). */
export function defaultJobs(): number {
  return Math.max(1, typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
}

/** Whether `jobs` workers can render `count` clusters here. */
export function canRenderInParallel(jobs: number, count: number, force = false): boolean {
  return jobs > 1 && (force || count >= PARALLEL_THRESHOLD) && workerScript() !== undefined;
}

/**
 * Renders clusters in `jobs` worker threads, each comparing and staging its
 * clusters' folders for `sink`, and calls `onOutcome` on the main thread as
 * results arrive (in any order: callers index them). Synchronous: the main
 * thread blocks on a shared counter between results. Throws the first
 * error a worker met, after stopping the workers.
 */
export function renderInParallel(clusters: readonly PreparedCluster[], jobs: number, sink: RemoteSink, onOutcome: (o: RenderOutcome) => void,
  cached?: (index: number) => CachedCluster | null | undefined): void {
  const script = workerScript()!;
  const signal = new SharedArrayBuffer(4);
  const counter = new Int32Array(signal);
  const workers: { worker: Worker; port: MessagePort; inflight: number }[] = [];
  for (let i = 0; i < Math.min(jobs, Math.ceil(clusters.length / BATCH)); i++) {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(script, { workerData: { ccmGitopsRenderWorker: true, port: port2, signal, sink }, transferList: [port2] });
    worker.unref();
    workers.push({ worker, port: port1, inflight: 0 });
  }
  let next = 0;
  let done = 0;
  let idleSince = Date.now();
  const send = (w: (typeof workers)[number]) => {
    if (next < clusters.length) {
      const batch = [];
      for (let i = next; i < Math.min(next + BATCH, clusters.length); i++) {
        batch.push({ index: i, cluster: clusters[i], cached: cached?.(i) });
      }
      next += batch.length;
      w.port.postMessage({ clusters: batch });
      w.inflight++;
    }
  };
  try {
    for (const w of workers) {
      send(w);
      send(w);
    }
    while (done < clusters.length) {
      const seen = Atomics.load(counter, 0);
      let progressed = false;
      for (const w of workers) {
        for (let m = receiveMessageOnPort(w.port); m; m = receiveMessageOnPort(w.port)) {
          const reply = m.message as RenderReply;
          w.inflight--;
          progressed = true;
          for (const o of reply.outcomes) {
            onOutcome(o);
            done++;
          }
          if (reply.error) {
            // a refusal stays a refusal (exit 1); anything else keeps its errno fields for the environment messages
            throw reply.error.name === 'SynthError' ? new SynthError(reply.error.message) : Object.assign(new Error(reply.error.message), reply.error);
          }
          send(w);
        }
      }
      if (progressed) {
        idleSince = Date.now();
      } else {
        Atomics.wait(counter, 0, seen, 1000);
        // a batch takes well under a second; a worker that died (it cannot be told while this thread blocks) never answers
        if (Date.now() - idleSince > STALL_MS) {
          throw new Error(`the render worker threads made no progress for ${STALL_MS / 1000} s (${done} of ${clusters.length} clusters done); run again with --jobs 1`);
        }
      }
    }
  } finally {
    for (const w of workers) {
      w.port.close();
      void w.worker.terminate();
    }
  }
}
