import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from 'worker_threads';
import { RemoteSink } from './output';
import { PoolTask, RenderJob, RenderOutcome, RenderReply } from './render-worker';
import { SynthError } from './synth-error';

/** Clusters to render per message to a worker (fewer, larger messages; small enough to keep both busy). */
const BATCH = 16;
/** Cache checks per message: each is a few dozen stat calls and its message is small. */
const VERIFY_BATCH = 256;
/** Batches of cache checks in flight per worker (about 0.1 s of work each at 2 cores). */
const VERIFY_INFLIGHT = 6;
/** No result from any worker for this long means they are gone. */
const STALL_MS = 120_000;
/**
 * A worker's heap is capped: V8 otherwise lets it grow with the garbage of
 * thousands of renders, and the peak memory of a synth follows the fleet.
 * Measured on 10,000 clusters (2 cores, quiet): uncapped 457 MiB, these
 * limits 352 MiB, at the same time (18.3 s and 18.4 s). A worker's live data
 * is the libraries and one batch of clusters, tens of megabytes.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 96 };

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

/**
 * The error a worker met, rebuilt on the main thread: a refusal stays a
 * refusal (exit 1); anything else keeps its errno fields (code, syscall,
 * path), so that the output writer reports a full disk or a read-only file
 * system as it does for the main thread.
 */
export function errorFromWorker(error: NonNullable<RenderReply['error']>): Error {
  return error.name === 'SynthError' ? new SynthError(error.message) : Object.assign(new Error(error.message), error);
}

/** Whether `jobs` workers can render `count` clusters here. */
export function canRenderInParallel(jobs: number, count: number, force = false): boolean {
  return jobs > 1 && (force || count >= PARALLEL_THRESHOLD) && workerScript() !== undefined;
}

/**
 * Runs tasks (renders, cache checks) in `jobs` worker threads, each
 * comparing and staging its clusters' folders for `sink`, and calls
 * `onOutcome` on the main thread as results arrive (in any order: callers
 * index them). `onOutcome` may return a follow-up task (a render for a
 * folder its cache check found changed), which joins the queue.
 * `whileWaiting` runs on the main thread once the first batches are sent.
 * Synchronous: the main thread blocks on a shared counter between results.
 * Throws the first error a worker met, after stopping the workers.
 */
export function runInParallel(tasks: readonly PoolTask[], jobs: number, sink: RemoteSink, onOutcome: (o: RenderOutcome) => PoolTask | undefined, whileWaiting?: () => void): void {
  const pool = new RenderPool(jobs, sink, tasks.length);
  try {
    pool.submit(tasks);
    whileWaiting?.();
    pool.drain(onOutcome);
  } finally {
    pool.close();
  }
}

/**
 * Worker threads that take tasks as they are submitted
 * ({@link RenderPool.submit}); {@link RenderPool.drain} takes the outcomes on
 * the main thread, which may do its own work in between. Each worker has two
 * batches of renders, or a few batches of cache checks, in flight; the rest
 * waits in the queue for whichever worker is free. (Starting the cache
 * checks before the specs are loaded was measured: 0.1 s faster, 60 MiB
 * more; not kept.)
 */
export class RenderPool {
  private readonly counter: Int32Array;
  private readonly workers: { worker: Worker; port: MessagePort; inflight: number }[] = [];
  private readonly queue: PoolTask[] = [];
  private next = 0;
  private done = 0;

  /** Starts `min(jobs, tasks / BATCH)` workers (at least one) for about `expected` tasks. */
  constructor(jobs: number, sink: RemoteSink, expected: number) {
    const script = workerScript()!;
    const signal = new SharedArrayBuffer(4);
    this.counter = new Int32Array(signal);
    for (let i = 0; i < Math.max(1, Math.min(jobs, Math.ceil(expected / BATCH))); i++) {
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(script, { workerData: { ccmGitopsRenderWorker: true, port: port2, signal, sink }, transferList: [port2], resourceLimits: WORKER_LIMITS });
      worker.unref();
      this.workers.push({ worker, port: port1, inflight: 0 });
    }
  }

  /**
   * Queues tasks and sends what the workers can take. Renders go first: a
   * worker's first render loads the rendering code (about 0.4 s), which then
   * overlaps the other workers' cache checks instead of ending the run.
   */
  submit(tasks: readonly PoolTask[]): void {
    const pending = this.queue.splice(this.next);
    this.queue.push(...pending.filter((t) => t.kind !== 'verify'), ...tasks.filter((t) => t.kind !== 'verify'),
      ...pending.filter((t) => t.kind === 'verify'), ...tasks.filter((t) => t.kind === 'verify'));
    this.fill();
  }

  /** Takes outcomes until every submitted task (and follow-up) is done; throws the first error a worker met. */
  drain(onOutcome: (o: RenderOutcome) => PoolTask | undefined): void {
    let idleSince = Date.now();
    while (this.done < this.queue.length) {
      const seen = Atomics.load(this.counter, 0);
      let progressed = false;
      for (const w of this.workers) {
        for (let m = receiveMessageOnPort(w.port); m; m = receiveMessageOnPort(w.port)) {
          const reply = m.message as RenderReply;
          w.inflight--;
          progressed = true;
          for (const o of reply.outcomes) {
            const followUp = onOutcome(o);
            if (followUp) {
              this.queue.push(followUp);
            }
            this.done++;
          }
          if (reply.error) {
            // a refusal stays a refusal (exit 1); anything else keeps its errno fields for the environment messages
            throw errorFromWorker(reply.error);
          }
          // follow-ups may have refilled the queue: keep every worker busy
          this.fill();
        }
      }
      if (progressed) {
        idleSince = Date.now();
      } else {
        Atomics.wait(this.counter, 0, seen, 1000);
        // a batch takes well under a second; a worker that died (it cannot be told while this thread blocks) never answers
        if (Date.now() - idleSince > STALL_MS) {
          throw new Error(`the render worker threads made no progress for ${STALL_MS / 1000} s (${this.done} of ${this.queue.length} tasks done); run again with --jobs 1`);
        }
      }
    }
  }

  /** Stops the workers (whatever they are doing). */
  close(): void {
    for (const w of this.workers) {
      w.port.close();
      void w.worker.terminate();
    }
  }

  /**
   * Keeps batches in flight on every worker: two renders, or up to
   * {@link VERIFY_INFLIGHT} cache checks (each batch a few tens of
   * milliseconds), so that a worker never waits for the main thread and the
   * work still goes to whichever worker is free.
   */
  private fill(): void {
    for (const w of this.workers) {
      while (this.next < this.queue.length && w.inflight < (this.queue[this.next].kind === 'verify' ? VERIFY_INFLIGHT : 2)) {
        this.send(w);
      }
    }
  }

  private send(w: (typeof this.workers)[number]): void {
    if (this.next < this.queue.length) {
      const kind = this.queue[this.next].kind;
      let end = this.next + 1;
      while (end < this.queue.length && end - this.next < (kind === 'verify' ? VERIFY_BATCH : BATCH) && this.queue[end].kind === kind) {
        end++;
      }
      const batch = this.queue.slice(this.next, end);
      this.next = end;
      w.port.postMessage({ tasks: batch } satisfies RenderJob);
      w.inflight++;
    }
  }
}
