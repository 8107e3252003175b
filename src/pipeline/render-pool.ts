import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from 'worker_threads';
import { RemoteSink } from './output';
import { PoolTask, RenderJob, RenderOutcome, RenderReply } from './render-worker';
import { UserError } from '../util/user-error';

/** Clusters to render per message to a worker (fewer, larger messages; small enough to keep both busy). */
const BATCH = 16;
/** Cache checks per message: each is a few dozen stat calls and its message is small. */
const VERIFY_BATCH = 256;
/** Batches of cache checks in flight per worker (about 0.1 s of work each at 2 cores). */
const VERIFY_INFLIGHT = 6;
/**
 * Each worker's heap is capped: V8 otherwise lets it grow with the garbage of
 * thousands of renders. Its live data is the libraries and one batch, tens of MiB.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 96 };

/** Below this many clusters to render, starting workers costs more than it saves. */
export const PARALLEL_THRESHOLD = 64;

/** How a worker is started: the compiled script, or (from the TypeScript source, in tests) a loader that compiles it. */
type WorkerStart = { readonly script: string; readonly eval: boolean };

/**
 * The worker's script: compiled JavaScript next to this file; from the
 * TypeScript source, a loader compiling it with `@swc/core` (a development
 * dependency, as the tests run it), else none.
 */
function workerStart(): WorkerStart | undefined {
  if (__filename.endsWith('.js')) {
    const script = path.join(__dirname, 'render-worker.js');
    return fs.existsSync(script) ? { script, eval: false } : undefined;
  }
  let swc: string;
  try {
    swc = require.resolve('@swc/core');
  } catch {
    return undefined;
  }
  const loader = [
    "const fs = require('fs');",
    `const { transformSync } = require(${JSON.stringify(swc)});`,
    "require.extensions['.ts'] = (m, file) => m._compile(transformSync(fs.readFileSync(file, 'utf8'), " +
      "{ filename: file, module: { type: 'commonjs' }, jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }).code, file);",
    `require(${JSON.stringify(path.join(__dirname, 'render-worker.ts'))});`,
  ].join('\n');
  return { script: loader, eval: true };
}

/**
 * Worker threads to use by default: one per core (the main thread loads the
 * specs meanwhile). On an idle 2-core machine they take a third off a full
 * synth's wall time for a sixth more CPU (docs/performance.md).
 */
export function defaultJobs(cores = os.availableParallelism()): number {
  return Math.max(1, cores);
}

/**
 * The error a worker met, rebuilt on the main thread: a refusal stays a
 * refusal (exit 1); anything else keeps its errno fields (code, syscall,
 * path), so that the output writer reports a full disk or a read-only file
 * system as it does for the main thread.
 */
export function errorFromWorker(error: NonNullable<RenderReply['error']>): Error {
  return error.kind === 'input' ? new UserError('input', error.message) : Object.assign(new Error(error.message), error);
}

/** Whether `jobs` workers can render `count` clusters here. */
export function canRenderInParallel(jobs: number, count: number, force = false): boolean {
  return jobs > 1 && (force || count >= PARALLEL_THRESHOLD) && workerStart() !== undefined;
}

/** A queue of tasks, sent from `head` and let go once sent. */
interface TaskQueue {
  tasks: (PoolTask | undefined)[];
  head: number;
}

/** One worker and the batches it has not answered yet. */
interface PoolWorker {
  readonly worker: Worker;
  readonly port: MessagePort;
  inflight: number;
  /** The error the worker's thread ended with, told before its exit. */
  error?: NodeJS.ErrnoException;
}

/**
 * Worker threads that take tasks as they are submitted
 * ({@link RenderPool.submit}) while the main thread goes on loading specs.
 * Each outcome is handed to `onOutcome` on the main thread, in the order its
 * worker sent it, as the worker's message arrives (or as {@link RenderPool.poll}
 * takes it); a follow-up task it returns is queued. Each worker has two
 * batches of renders, or a few batches of cache checks, in flight; the rest
 * waits in two queues (renders and the Argo CD roots first, then cache
 * checks). A task is let go once sent: the pool holds no cluster it has
 * handed over.
 *
 * An error a task met is kept until {@link RenderPool.drain}, so that the
 * problems of the specs, found when the last one is loaded, come first. A worker whose thread ends (out of
 * memory under its heap cap, killed) fails the pool at once.
 */
export class RenderPool {
  private readonly workers: PoolWorker[] = [];
  /** Renders (and the Argo CD roots), then cache checks. */
  private readonly queues: [TaskQueue, TaskQueue] = [
    { tasks: [], head: 0 },
    { tasks: [], head: 0 },
  ];
  private submitted = 0;
  private done = 0;
  /** The first error a task met (reported once everything submitted is settled). */
  private failure?: Error;
  /** A worker that ended: the run cannot finish. */
  private lost?: UserError;
  private closing = false;
  private waiter?: { readonly until: () => boolean; readonly resolve: () => void };

  /** Starts `min(jobs, expected / BATCH)` workers (at least one) for about `expected` tasks. */
  constructor(
    jobs: number,
    sink: RemoteSink,
    expected: number,
    private readonly onOutcome: (o: RenderOutcome) => PoolTask | undefined,
  ) {
    const start = workerStart()!;
    const count = Math.max(1, Math.min(jobs, Math.ceil(expected / BATCH)));
    for (let slot = 0; slot < count; slot++) {
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(start.script, {
        eval: start.eval,
        workerData: { ccmGitopsRenderWorker: true, port: port2, sink },
        transferList: [port2],
        resourceLimits: WORKER_LIMITS,
      });
      const w: PoolWorker = { worker, port: port1, inflight: 0 };
      port1.on('message', (reply: RenderReply) => this.receive(w, reply));
      worker.on('error', (e) => {
        w.error = e;
      });
      worker.on('exit', (code) => this.ended(slot, code));
      this.workers.push(w);
    }
  }

  /** Queues tasks and sends what the workers can take (renders first: a worker's first render loads the rendering code). */
  submit(tasks: readonly PoolTask[]): void {
    for (const task of tasks) {
      this.queue(task);
    }
    this.fill();
  }

  /** Renders submitted and not yet sent to a worker (each holds its cluster). */
  get waitingRenders(): number {
    return this.queues[0].tasks.length - this.queues[0].head;
  }

  /** Takes the outcomes that arrived, without waiting; throws when a worker was lost. */
  poll(): void {
    for (const w of this.workers) {
      for (let m = receiveMessageOnPort(w.port); m; m = receiveMessageOnPort(w.port)) {
        this.receive(w, m.message as RenderReply);
      }
    }
    if (this.lost) {
      throw this.lost;
    }
  }

  /**
   * Resolves, after at least one turn of the event loop, once `until` holds,
   * everything submitted (and followed up) is done, or a task failed; throws
   * when a worker was lost.
   */
  async settled(until: () => boolean = () => false): Promise<void> {
    await new Promise<void>((resolve) => {
      this.waiter = { until, resolve };
      setImmediate(() => this.wake());
    });
    if (this.lost) {
      throw this.lost;
    }
  }

  /** Waits until every submitted task (and follow-up) is done; throws the first error a task met. */
  async drain(): Promise<void> {
    await this.settled();
    if (this.failure) {
      throw this.failure;
    }
  }

  /** Stops the workers; resolves once their threads have ended (nothing is staged after it). */
  async close(): Promise<void> {
    this.closing = true;
    for (const w of this.workers) {
      w.port.close();
    }
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }

  private receive(w: PoolWorker, reply: RenderReply): void {
    w.inflight--;
    for (const o of reply.outcomes) {
      this.done++;
      try {
        const followUp = this.failure ? undefined : this.onOutcome(o);
        if (followUp) {
          this.queue(followUp);
        }
      } catch (e) {
        this.failure ??= e as Error;
      }
    }
    if (reply.error) {
      // a refusal stays a refusal (exit 1); anything else keeps its errno fields for the environment messages
      this.failure ??= errorFromWorker(reply.error);
    }
    // follow-ups may have refilled the queue: keep every worker busy
    this.fill();
    this.wake();
  }

  /** A worker's thread ended: unless the pool is closing, the run fails now with one line saying which and why. */
  private ended(slot: number, code: number): void {
    if (this.closing || this.lost) {
      return;
    }
    const w = this.workers[slot];
    const which = `render worker ${slot + 1} of ${this.workers.length}`;
    const why =
      w.error?.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? `ran out of memory under its heap cap (${WORKER_LIMITS.maxOldGenerationSizeMb} MiB)`
        : `stopped (exit code ${code}${w.error ? `: ${w.error.message.split('\n')[0]}` : ''})`;
    this.lost = new UserError('input', `${which} ${why}; nothing was written; run again with --jobs 1 to render on the main thread`);
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    if (waiter && (this.lost || this.failure || this.done >= this.submitted || waiter.until())) {
      this.waiter = undefined;
      waiter.resolve();
    }
  }

  private queue(task: PoolTask): void {
    this.queues[task.kind === 'verify' ? 1 : 0].tasks.push(task);
    this.submitted++;
  }

  /**
   * Keeps batches in flight on every worker: two renders, or up to
   * {@link VERIFY_INFLIGHT} cache checks, so that a worker never waits for
   * the main thread. Nothing is sent after a task failed.
   */
  private fill(): void {
    for (const w of this.workers) {
      for (
        let q = this.nextQueue();
        q && !this.failure && !this.lost && w.inflight < (q === this.queues[1] ? VERIFY_INFLIGHT : 2);
        q = this.nextQueue()
      ) {
        this.send(w, q);
      }
    }
  }

  /** The queue to send from: renders first. */
  private nextQueue(): TaskQueue | undefined {
    return this.queues.find((q) => q.head < q.tasks.length);
  }

  private send(w: PoolWorker, q: TaskQueue): void {
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
