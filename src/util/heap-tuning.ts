import * as v8 from 'v8';

/**
 * How much V8 lets the main thread's old generation grow past what was live
 * at its last full collection, in percent, for a CLI process (issue 18).
 *
 * V8 sets the next full collection at the live size times a factor it
 * derives from the collector's and the program's speeds, up to 4 when the
 * heap's maximum is V8's default for the machine (the case of a CLI), and
 * no less than the live size plus 8 pages, plus the young generation's
 * capacity; `--heap-growing-percent`, when set, replaces the factor
 * (nodejs/node deps/v8/src/heap/heap-controller.cc: `GrowingFactor`,
 * `MaxGrowingFactor`, `BoundAllocationLimit`). Garbage the main thread moves
 * to the old generation then piles up to about four times what is live
 * before it is collected. Measured on `assemble` of 10,000 clusters:
 * 271–281 MiB peak without this setting, 203–208 MiB with 25, 30 or 50 (26 MiB
 * live after a full collection); `synth` of 1,000 and 10,000 clusters:
 * unchanged or a few MiB less, no slower. The flag is read each time a
 * limit is computed, so setting it once the process runs takes effect from
 * the next collection; V8's flags are the process's, so the render workers'
 * heaps grow by the same factor (within their own caps).
 */
export const HEAP_GROWING_PERCENT = 25;

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
