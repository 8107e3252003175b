import * as v8 from 'v8';

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
 * - Not `synth`: at 10,000 clusters it peaked about 10 MiB lower with the
 *   setting (272–277 against 287 MiB, medians of three in two benches),
 *   but at 20,000 about 20 MiB higher (345–347 against 315–329 MiB, three
 *   runs each), and the warm no-op run was about 0.05 s slower.
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
