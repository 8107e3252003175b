import * as v8 from 'v8';
import * as vm from 'vm';

/**
 * How much V8 lets the main thread's old generation grow past what was live
 * at its last full collection, in percent, for the CLI commands of
 * {@link TUNED_COMMANDS} (issue 18).
 *
 * V8 sets the next full collection at the live size times a factor it
 * derives from the collector's and the program's speeds, up to 4 when the
 * heap's maximum is V8's default for the machine (the case of a CLI), and
 * no less than the live size plus 8 MiB (eight times the larger of a page
 * and a MiB) plus the young generation's capacity; `--heap-growing-percent`,
 * when set, replaces the factor
 * (nodejs/node deps/v8/src/heap/heap-controller.cc: `GrowingFactor`,
 * `MaxGrowingFactor`, `BoundAllocationLimit`). The flag is read each time a
 * limit is computed, so setting it once the process runs takes effect from
 * the next collection; V8's flags are the process's, so worker threads'
 * heaps grow by the same factor (within their own caps).
 */
export const HEAP_GROWING_PERCENT = 25;

/**
 * The commands whose process sets {@link HEAP_GROWING_PERCENT}: where it was
 * measured to lower the peak, and only there.
 *
 * - `assemble` (one thread: it loads the specs, copies every cluster's
 *   folder and renders the Argo CD roots): garbage that reaches the old
 *   generation piles up to about four times the live data before a full
 *   collection. Peak RSS of 10,000 clusters 271–281 MiB without the
 *   setting, 193–208 MiB with it (26 MiB live after a full collection);
 *   of 20,000 clusters 441 MiB without, 247 MiB with.
 * - Not `synth` from its start: at 10,000 clusters it peaked about 10 MiB lower with the
 *   setting (272–277 against 287 MiB, medians of three in two benches),
 *   but at 20,000 about 20 MiB higher (345–347 against 315–329 MiB, three
 *   runs each), and the warm no-op run was about 0.05 s slower. synth
 *   bounds its old generation instead ({@link OldGenerationBound}), and
 *   sets the factor for its last phase only ({@link SynthProcessHeap}).
 */
export const TUNED_COMMANDS: ReadonlySet<string> = new Set(['assemble']);

/**
 * Sets V8's heap growing factor ({@link tuneHeapGrowth}) when the CLI's
 * command is one of {@link TUNED_COMMANDS}; as `bin/ccm-gitops` starts.
 *
 * @param args the CLI's arguments (the command first)
 * @returns whether it was set here
 */
export function tuneHeapForCommand(args: readonly string[], execArgv: readonly string[] = process.execArgv): boolean {
  return TUNED_COMMANDS.has(args[0] ?? '') && tuneHeapGrowth(execArgv);
}

/**
 * Sets V8's heap growing factor for this process ({@link HEAP_GROWING_PERCENT}),
 * unless the user set it on node's command line (`node
 * --heap-growing-percent=N …`; node refuses the flag in `NODE_OPTIONS`):
 * theirs stays. For the CLI's process only; a program that uses the library
 * keeps its own settings.
 *
 * @returns whether it was set here
 */
export function tuneHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (setsHeapGrowth(execArgv)) {
    return false;
  }
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}

/** Whether node's arguments set the heap growing factor (V8 reads `-` and `_` alike in flag names). */
export function setsHeapGrowth(args: readonly string[]): boolean {
  return args.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg));
}

/**
 * How far the main thread's old generation may grow past its size after the
 * last collection before synth has it collected ({@link OldGenerationBound}).
 * 8 MiB is V8's own smallest step between two limits (heap-controller.cc,
 * `BoundAllocationLimit`).
 */
export const OLD_GENERATION_STEP = 8 * 1024 * 1024;

/** Calls of {@link HeapBound.check} between two looks at the old generation's size (a look is a few microseconds). */
export const CHECK_INTERVAL = 16;

/** The commands whose process bounds the main thread's old generation ({@link boundHeapForCommand}). */
export const BOUNDED_COMMANDS: ReadonlySet<string> = new Set(['synth']);

/** Where synth renders: on worker threads, or on the thread that loads the specs. */
export type RenderThreads = 'workers' | 'main thread';

/**
 * What synth asks of the process's heap: keep the main thread's old
 * generation near what is live as work goes on, and hear where the clusters
 * render (for the young generation: {@link SynthProcessHeap}).
 */
export interface HeapBound {
  /** Called as the work goes on (for synth: each cluster loaded, each outcome taken); collects once the old generation grew past the bound. */
  check(): void;
  /**
   * Collects now: before a phase that builds much and is not checked (for
   * synth: the fleet files, the commit and the caches, its last).
   */
  collect(): void;
  /**
   * Called once by synth on the main thread, as it knows where the clusters
   * render: before it makes the render workers, or before it renders on the
   * main thread ({@link SynthProcessHeap}).
   */
  renderingOn?(threads: RenderThreads): void;
  /** Called once by synth on the main thread when every render worker has started: no heap of the process is made after it. */
  workersStarted?(): void;
}

/**
 * The bound of issue 18: a full collection whenever the old generation (its
 * old and large-object spaces) grew {@link OLD_GENERATION_STEP} past its size
 * after the last one.
 *
 * Why: synth's main thread keeps little (its index) but turns over a lot
 * (every spec parsed, prepared, sent); what outlives two young collections
 * (while a few dozen clusters are processed) is promoted, and V8 lets that
 * garbage fill the old generation up to about four times the live size
 * before it collects (see {@link HEAP_GROWING_PERCENT}), which at 10,000
 * clusters it never reaches: the peak then follows the fleet's size.
 * Measured at 10,000 clusters, peak RSS 290–293 MiB without the bound,
 * 267–268 MiB with it (two runs each, alternated), at a cost of seven
 * collections, 0.17–0.19 s; at 20,000 clusters 334 against 311 MiB.
 * V8's heap growing factor does not do it for synth (see
 * {@link TUNED_COMMANDS}); a collection on a bound does.
 */
export class OldGenerationBound implements HeapBound {
  /** Full collections this bound asked for. */
  public collections = 0;
  private calls = 0;
  private base: number;

  /**
   * @param gc a full collection ({@link fullCollector})
   * @param used the old generation's size in bytes
   * @param step bytes of growth that make {@link OldGenerationBound.check} collect
   * @param interval calls of `check` between two looks at the size
   */
  constructor(private readonly gc: () => void, private readonly used: () => number = oldGenerationUsed, private readonly step = OLD_GENERATION_STEP, private readonly interval = CHECK_INTERVAL) {
    this.base = used();
  }

  check(): void {
    if (++this.calls % this.interval === 0 && this.used() > this.base + this.step) {
      this.fullCollection();
    }
  }

  collect(): void {
    this.fullCollection();
  }

  private fullCollection(): void {
    this.gc();
    this.collections++;
    this.base = this.used();
  }
}

/** Bytes in use in the old generation of this thread's heap (its old and large-object spaces). */
export function oldGenerationUsed(): number {
  return v8.getHeapSpaceStatistics()
    .filter((s) => s.space_name === 'old_space' || s.space_name === 'large_object_space')
    .reduce((sum, s) => sum + s.space_used_size, 0);
}

/**
 * V8's full collection as a function: `gc`, which V8 installs on the global
 * object of contexts created while `--expose-gc` is set (the flag is read as
 * each context is made: V8 `src/init/bootstrapper.cc`,
 * `Genesis::InstallExtensions` installs the "v8/gc" extension when
 * `v8_flags.expose_gc` holds; its calls are traced with the reason
 * "testing"). Node runs without it, so the flag is set, a context created
 * to fetch `gc`, and the flag cleared again (contexts and worker threads
 * created later do not get it); a process started with `node --expose-gc`
 * has it already and keeps its flags as they are. The same way as Jest's
 * leak detector (jest-leak-detector).
 *
 * @returns the function, or `undefined` where the runtime does not give it
 */
export function fullCollector(): (() => void) | undefined {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') {
    return own as () => void;
  }
  v8.setFlagsFromString('--expose-gc');
  try {
    const gc: unknown = vm.runInNewContext('typeof gc === "function" ? gc : undefined');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

/**
 * V8's `--semi-space-growth-factor` from which a heap keeps its young
 * generation at the size it has ({@link capYoungGeneration}).
 */
export const CAPPED_GROWTH_FACTOR = 1;

/** V8's own `--semi-space-growth-factor` (deps/v8/src/flags/flag-definitions.h): a young generation doubles. */
export const V8_GROWTH_FACTOR = 2;

/**
 * The major versions of V8 where {@link capYoungGeneration} was measured:
 * Node 20 (V8 11.3), 22 (12.4) and 24 (13.6). V8 prints an error on
 * standard error for a flag it does not know (`Error: unrecognized flag`,
 * in every synth's output), so a later V8, which may have dropped or
 * renamed the flag, is left alone.
 */
export const CAPPED_YOUNG_GENERATION_V8: ReadonlySet<number> = new Set([11, 12, 13]);

/** Whether node's arguments or `NODE_OPTIONS` size the young generation (V8 reads `-` and `_` alike in flag names). */
export function setsYoungGeneration(args: readonly string[], nodeOptions = ''): boolean {
  return [...args, ...nodeOptions.split(/\s+/)].some((arg) => /^--(max|min)[-_]semi[-_]space[-_]size(=|$)|^--semi[-_]space[-_]growth[-_]factor(=|$)/.test(arg));
}

/**
 * V8's `--min-semi-space-size` (MiB) while synth makes its render workers:
 * the largest semi-space V8 makes on a 64-bit machine, so that each
 * worker's heap starts with the largest young generation its cap allows
 * (synth's `resourceLimits`; V8 takes the smaller: deps/v8/src/heap/heap.cc,
 * `Heap::ConfigureHeap`) instead of growing to it, which
 * {@link capYoungGeneration} would stop.
 */
export const WORKER_SEMI_SPACE_MB = 16;

/**
 * Stops V8 from growing the young generation of the process's heaps past
 * the size each has: `--semi-space-growth-factor=1`. For synth's process,
 * from its start ({@link boundHeapForCommand}), and again once its render
 * workers have started ({@link SynthProcessHeap}).
 *
 * Why: synth's main thread turns over the CLI's modules as they load, then
 * every spec parsed, prepared and sent. V8 doubles a heap's young generation
 * (from 1 MiB per semi-space) each time more survived its young collections
 * than it holds, up to its largest size (16 MiB per semi-space on a 64-bit
 * machine): synth's main thread reached 32 MiB committed at any fleet size,
 * half of it while the CLI's modules load. `--max-semi-space-size` caps it,
 * but V8 reads it only as it makes a heap, and the CLI's heap is made before
 * its code runs. The growth factor is read at each growth
 * (deps/v8/src/heap/new-spaces.cc, `SemiSpaceNewSpace::Grow`), so 1 stops
 * the growth where it is. Up to V8 12 (Node 22) each heap V8 makes sets a
 * factor below 2 back to 2 (deps/v8/src/heap/heap.cc, `Heap::ConfigureHeap`):
 * the render workers' heaps do so as they start, hence the second call.
 *
 * Measured (full synth of 10,000 clusters, 2 cores, five runs alternated
 * with the code before): the main thread's young generation 32 → 2–4 MiB
 * committed, peak RSS 246–248 → 215–222 MiB; the main thread's young
 * collections 281 → about 2,200, 1.0 → 3.8 s of its CPU time, so the run
 * took 19.1–20.3 s against 18.6–19.5 s (about 2% on average, within the
 * runs' spread). With the workers' heaps made with their largest young
 * generation ({@link WORKER_SEMI_SPACE_MB}): without it, the cap kept them
 * at the 2 MiB they start with, 203–207 MiB but twice their young
 * collections and up to 2 s slower. Rendering on the main thread alone is
 * about 13% slower with so small a young generation (1,000 clusters with
 * `--jobs 1`: 4.0–4.2 s against 3.6–3.7 s), so synth lets it grow again
 * when it renders there. A user who prefers the time sets V8's size
 * (`NODE_OPTIONS=--max-semi-space-size=16`): see below.
 *
 * Not when the user sized the young generation (node's arguments or
 * `NODE_OPTIONS`): theirs stays; nor on a V8 outside
 * {@link CAPPED_YOUNG_GENERATION_V8}.
 *
 * @returns whether it was set here
 */
export function capYoungGeneration(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '', v8Version = process.versions.v8): boolean {
  if (!CAPPED_YOUNG_GENERATION_V8.has(Number(v8Version.split('.')[0])) || setsYoungGeneration(execArgv, nodeOptions)) {
    return false;
  }
  setSemiSpaceGrowthFactor(CAPPED_GROWTH_FACTOR);
  return true;
}

/** Lets V8 grow young generations again, by its own factor (after {@link capYoungGeneration}). */
export function uncapYoungGeneration(): void {
  setSemiSpaceGrowthFactor(V8_GROWTH_FACTOR);
}

/** Sets V8's `--semi-space-growth-factor`, read at each growth; whether to is {@link capYoungGeneration}'s question. */
function setSemiSpaceGrowthFactor(factor: number): void {
  v8.setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

/**
 * synth's process as the CLI runs it: the old generation bounded
 * ({@link OldGenerationBound}); when {@link capYoungGeneration} capped the
 * young generation at the start, the render workers' heaps are made with
 * their largest young generation and the cap is set again once they have
 * started, or the cap is lifted when synth renders on the main thread.
 */
export class SynthProcessHeap extends OldGenerationBound {
  /**
   * @param gc a full collection ({@link fullCollector})
   * @param capped whether {@link capYoungGeneration} capped the young generation
   */
  constructor(gc: () => void, private capped: boolean) {
    super(gc);
  }

  /** Whether the young generation is capped: as {@link capYoungGeneration} left it, until synth renders on the main thread. */
  get youngGenerationCapped(): boolean {
    return this.capped;
  }

  /** Whether {@link SynthProcessHeap.collect} set V8's heap growing factor ({@link tuneHeapGrowth}). */
  public heapGrowthTuned = false;

  /**
   * The full collection before synth's last phase (the fleet files, the
   * commit, the caches), after which V8 grows the old generation by a
   * quarter of what is live before it collects again
   * ({@link tuneHeapGrowth}): that phase is not checked, and V8's own factor
   * (up to 4) let its garbage, promoted through the small young generation,
   * pile up: at 40,000 clusters the main thread's heap reached 207 MiB
   * before its first full collection after the renders, 47 MiB live after
   * it, and the run peaked there (303–310 MiB; 258–265 with the factor set
   * here, runs alternated). The render workers, done by then but for the
   * Argo CD roots, grow by the same factor (V8's flags are the process's).
   */
  collect(): void {
    super.collect();
    if (!this.heapGrowthTuned) {
      this.heapGrowthTuned = tuneHeapGrowth();
    }
  }

  renderingOn(threads: RenderThreads): void {
    if (!this.capped) {
      return;
    }
    if (threads === 'workers') {
      v8.setFlagsFromString(`--min-semi-space-size=${WORKER_SEMI_SPACE_MB}`);
    } else {
      uncapYoungGeneration();
      this.capped = false;
    }
  }

  workersStarted(): void {
    if (this.capped) {
      // the workers' heaps set the factor back to V8's (up to V8 12); the checks were made as the cap was first set
      v8.setFlagsFromString('--min-semi-space-size=0');
      setSemiSpaceGrowthFactor(CAPPED_GROWTH_FACTOR);
    }
  }
}

let processBound: HeapBound | undefined;

/**
 * Installs the process's {@link SynthProcessHeap} when the CLI's command is
 * one of {@link BOUNDED_COMMANDS}, and caps the young generation
 * ({@link capYoungGeneration}); as `bin/ccm-gitops` starts, before the
 * CLI's modules load. For the CLI's
 * process only: a program that uses the library (and the tests, which run
 * synth in Jest's process) gets no collection it did not ask for.
 *
 * @param args the CLI's arguments (the command first)
 * @returns the bound, or `undefined` (another command, or no `gc` to call)
 */
export function boundHeapForCommand(args: readonly string[]): HeapBound | undefined {
  if (!BOUNDED_COMMANDS.has(args[0] ?? '')) {
    return undefined;
  }
  if (processBound === undefined) {
    const gc = fullCollector();
    processBound = gc ? new SynthProcessHeap(gc, capYoungGeneration()) : undefined;
  }
  return processBound;
}

/**
 * Tunes the CLI's process for its command ({@link tuneHeapForCommand},
 * {@link boundHeapForCommand}): what `bin/ccm-gitops` (and the bench's
 * CLI process) does before it loads the CLI's modules, whose loading is the
 * first work V8 sizes the young generation for.
 *
 * @param args the CLI's arguments (the command first)
 */
export function tuneProcessForCommand(args: readonly string[]): void {
  tuneHeapForCommand(args);
  boundHeapForCommand(args);
}

/** The bound {@link boundHeapForCommand} installed, if any: what the CLI hands to synth. */
export function commandHeapBound(): HeapBound | undefined {
  return processBound;
}
