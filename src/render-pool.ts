import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from 'worker_threads';
import { RemoteSink } from './output';
import { PoolTask, RenderJob, RenderOutcome, RenderReply, REPLIES, sharedSlots, STARTED, STOP, threadSlot } from './render-worker';
import { threadEnded } from './util/kernel-thread';
import { SynthError } from './synth-error';

/** Clusters to render per message to a worker (fewer, larger messages; small enough to keep both busy). */
const BATCH = 16;
/** Cache checks per message: each is a few dozen stat calls and its message is small. */
const VERIFY_BATCH = 256;
/** Batches of cache checks in flight per worker (about 0.1 s of work each at 2 cores). */
const VERIFY_INFLIGHT = 6;
/** Longest a closing pool waits for its busy workers to end their task at hand. */
const CLOSE_WAIT_MS = 10_000;
/**
 * No result from any worker for this long means they are gone: where the
 * kernel cannot tell that a worker's thread ended ({@link RenderPool}'s
 * check of `/proc/self/task`), or it ended before saying which it is.
 */
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
 * Worker threads that take tasks as they are submitted
 * ({@link RenderPool.submit}), while the main thread goes on (loading the
 * next specs); {@link RenderPool.poll} and {@link RenderPool.drain} take the
 * outcomes on the main thread. Each worker has two batches of renders, or a
 * few batches of cache checks, in flight; the rest waits in two queues
 * (renders and the Argo CD roots first, then cache checks) for whichever
 * worker is free. A task is let go once sent: the pool holds no cluster it
 * has handed over. A worker's error is kept until {@link RenderPool.drain},
 * so that the problems of the specs, found when the last one is loaded, come
 * first.
 */
export class RenderPool {
  private readonly counter: Int32Array;
  private readonly workers: { worker: Worker; port: MessagePort; inflight: number }[] = [];
  /** Renders (and the Argo CD roots), then cache checks: sent from `head`, let go once sent. */
  private readonly queues: { tasks: (PoolTask | undefined)[]; head: number }[] = [{ tasks: [], head: 0 }, { tasks: [], head: 0 }];
  private submitted = 0;
  private done = 0;
  private failure?: Error;
  private idleSince = Date.now();
  /** Called once every worker has started; cleared then. */
  private onStarted?: () => void;

  /**
   * Starts `min(jobs, tasks / BATCH)` workers (at least one) for about
   * `expected` tasks; `onStarted` is called on this thread, from a later call
   * of {@link RenderPool.submit} or while outcomes are taken, once every
   * worker's script has begun (its heap made).
   */
  constructor(jobs: number, sink: RemoteSink, expected: number, onStarted?: () => void) {
    this.onStarted = onStarted;
    const script = workerScript()!;
    const count = Math.max(1, Math.min(jobs, Math.ceil(expected / BATCH)));
    const signal = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * sharedSlots(count));
    this.counter = new Int32Array(signal);
    for (let slot = 0; slot < count; slot++) {
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(script, { workerData: { ccmGitopsRenderWorker: true, port: port2, signal, sink, slot }, transferList: [port2], resourceLimits: WORKER_LIMITS });
      // a worker's end is found by its thread (this thread blocks and never sees the event); without a listener,
      // the event of a worker killed by its heap cap would end the process with a stack trace after synth reported it
      worker.on('error', () => undefined);
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
    for (const task of tasks) {
      this.queues[task.kind === 'verify' ? 1 : 0].tasks.push(task);
      this.submitted++;
    }
    this.fill();
    this.checkStarted();
  }

  /** Calls `onStarted` once every worker has started. */
  private checkStarted(): void {
    if (this.onStarted && Atomics.load(this.counter, STARTED) >= this.workers.length) {
      const started = this.onStarted;
      this.onStarted = undefined;
      started();
    }
  }

  /** Renders submitted and not yet sent to a worker (each holds its cluster). */
  get waitingRenders(): number {
    return this.queues[0].tasks.length - this.queues[0].head;
  }

  /**
   * Takes the outcomes that arrived, without waiting; with `until`, waits
   * for more until it holds (or everything submitted is done, or a worker
   * failed).
   */
  poll(onOutcome: (o: RenderOutcome) => PoolTask | undefined, until?: () => boolean): void {
    this.take(onOutcome, () => this.failure !== undefined || this.done >= this.submitted || until === undefined || until());
  }

  /** Takes outcomes until every submitted task (and follow-up) is done; throws the first error a worker met. */
  drain(onOutcome: (o: RenderOutcome) => PoolTask | undefined): void {
    this.take(onOutcome, () => this.failure !== undefined || this.done >= this.submitted);
    if (this.failure) {
      throw this.failure;
    }
  }

  /**
   * Stops the workers. A worker in the middle of a batch ends the task at
   * hand and sends no more (a flag they share); this waits for those (a
   * cluster's render takes milliseconds), so that no worker is still
   * staging files when the caller removes the staging folder after an
   * error.
   */
  close(): void {
    Atomics.store(this.counter, STOP, 1);
    const until = Date.now() + CLOSE_WAIT_MS;
    for (let busy = this.workers.filter((w) => w.inflight > 0); busy.length > 0 && Date.now() < until; busy = busy.filter((w) => w.inflight > 0)) {
      const seen = Atomics.load(this.counter, REPLIES);
      for (const w of busy) {
        while (receiveMessageOnPort(w.port)) {
          w.inflight--;
        }
      }
      if (busy.some((w) => w.inflight > 0)) {
        Atomics.wait(this.counter, REPLIES, seen, 100);
        // a worker whose thread ended will not answer: not waited for
        const gone = new Set(this.goneWorkers().map((slot) => this.workers[slot]));
        busy = busy.filter((w) => !gone.has(w));
      }
    }
    for (const w of this.workers) {
      w.port.close();
      void w.worker.terminate();
    }
  }

  /** Takes outcomes as they arrive, waiting for the next, until `enough` holds after a round. */
  private take(onOutcome: (o: RenderOutcome) => PoolTask | undefined, enough: () => boolean): void {
    let waited = false;
    for (;;) {
      const seen = Atomics.load(this.counter, REPLIES);
      // checked after a second without answers (a stat call per worker), before the ports are read
      const gone = waited ? this.goneWorkers() : [];
      let progressed = false;
      for (const w of this.workers) {
        for (let m = receiveMessageOnPort(w.port); m; m = receiveMessageOnPort(w.port)) {
          const reply = m.message as RenderReply;
          w.inflight--;
          progressed = true;
          for (const o of reply.outcomes) {
            const followUp = onOutcome(o);
            this.done++;
            if (followUp) {
              this.queues[followUp.kind === 'verify' ? 1 : 0].tasks.push(followUp);
              this.submitted++;
            }
          }
          if (reply.error && !this.failure) {
            // a refusal stays a refusal (exit 1); anything else keeps its errno fields for the environment messages
            this.failure = errorFromWorker(reply.error);
          }
          // follow-ups may have refilled the queue: keep every worker busy
          this.fill();
        }
      }
      if (progressed) {
        this.idleSince = Date.now();
      }
      this.checkStarted();
      if (enough()) {
        return;
      }
      // a worker that died (out of memory under its heap cap, killed) never answers, and its exit event cannot come while this thread blocks
      const lost = gone.find((slot) => this.workers[slot].inflight > 0);
      if (lost !== undefined) {
        throw new SynthError(`render worker ${lost + 1} of ${this.workers.length} ended without answering: it ran out of memory under its heap cap `
          + `(${WORKER_LIMITS.maxOldGenerationSizeMb} MiB) or was killed; nothing was written; run again with --jobs 1 to render on the main thread`);
      }
      waited = false;
      if (!progressed) {
        waited = Atomics.wait(this.counter, REPLIES, seen, 1000) === 'timed-out';
        if (Date.now() - this.idleSince > STALL_MS) {
          throw new Error(`the render worker threads made no progress for ${STALL_MS / 1000} s (${this.done} of ${this.submitted} tasks done); run again with --jobs 1`);
        }
      }
    }
  }

  /**
   * The workers whose thread has ended (no longer among the process's in
   * `/proc/self/task`, or its id now another thread's: {@link threadEnded};
   * only where a worker could say which thread it is).
   * A worker's messages are all queued before its thread ends, so a worker
   * found gone before its port is read has no answer left to come.
   */
  private goneWorkers(): number[] {
    return this.workers.flatMap((_w, slot) => {
      const tid = Atomics.load(this.counter, threadSlot(slot));
      return tid > 0 && threadEnded(tid, Atomics.load(this.counter, threadSlot(slot) + 1)) ? [slot] : [];
    });
  }

  /**
   * Keeps batches in flight on every worker: two renders, or up to
   * {@link VERIFY_INFLIGHT} cache checks (each batch a few tens of
   * milliseconds), so that a worker never waits for the main thread and the
   * work still goes to whichever worker is free. Nothing is sent after a
   * worker failed.
   */
  private fill(): void {
    for (const w of this.workers) {
      for (let q = this.nextQueue(); q && !this.failure && w.inflight < (q === this.queues[1] ? VERIFY_INFLIGHT : 2); q = this.nextQueue()) {
        this.send(w, q);
      }
    }
  }

  /** The queue to send from: renders first. */
  private nextQueue(): { tasks: (PoolTask | undefined)[]; head: number } | undefined {
    return this.queues.find((q) => q.head < q.tasks.length);
  }

  private send(w: (typeof this.workers)[number], q: { tasks: (PoolTask | undefined)[]; head: number }): void {
    const kind = q.tasks[q.head]!.kind;
    const batch: PoolTask[] = [];
    while (q.head < q.tasks.length && batch.length < (kind === 'verify' ? VERIFY_BATCH : BATCH) && q.tasks[q.head]!.kind === kind) {
      batch.push(q.tasks[q.head]!);
      // let go: the cluster is the worker's now
      q.tasks[q.head++] = undefined;
    }
    if (q.head === q.tasks.length) {
      q.tasks.length = 0;
      q.head = 0;
    }
    w.port.postMessage({ tasks: batch } satisfies RenderJob);
    w.inflight++;
  }
}
