import { spawnSync } from 'child_process';
import * as path from 'path';
import { HEAP_GROWING_PERCENT, setsHeapGrowth, TUNED_COMMANDS } from '../src/util/heap-tuning';

// V8 traces the factor of each limit it computes (`--trace-gc-verbose`: "[HeapController] Limit: old size: …
// KB, new limit: … KB (factor)", deps/v8/src/heap/heap-controller.cc): the oracle that the setting takes effect.
describe('the CLI process\'s heap growing factor (issue 18)', () => {
  // Run in a child process on the compiled module (`lib/`, built by `npm ci`): V8's flags are the process's.
  const tuning = path.join(__dirname, '..', 'lib', 'src', 'util', 'heap-tuning.js');
  // the factor as V8 prints it (one decimal): how far it is from the tuned one
  const offTuned = (factor: string | undefined) => Math.abs(Number(factor) - (1 + HEAP_GROWING_PERCENT / 100));
  // `tune`: the call the child makes before a full collection (none when undefined)
  const factors = (nodeArgs: string[], tune: string | undefined) => {
    const script = `
      const tuning = require(${JSON.stringify(tuning)});
      const tuned = ${tune ?? "'not called'"};
      const keep = [];
      for (let i = 0; i < 200000; i++) keep.push({ i });
      global.gc();
      process.stdout.write('tuned=' + tuned + '\\n');`;
    const run = spawnSync(process.execPath, [...nodeArgs, '--expose-gc', '--trace-gc-verbose', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    const limits = [...run.stdout.matchAll(/\[HeapController\] Limit: .*\((\d+\.\d)\)/g)].map((m) => m[1]);
    return { tuned: /tuned=(\S+)/.exec(run.stdout)?.[1], limits, stderr: run.stderr };
  };

  test('once tuned, the next limit grows the old generation by the set percentage, not by V8\'s factor', () => {
    // GIVEN a node process as bin/ccm-gitops starts it (no heap flag of the user's)
    // WHEN the heap is tuned, then a full collection computes the next limit
    const run = factors([], 'tuning.tuneHeapGrowth()');
    // THEN the limit's factor is 1 + HEAP_GROWING_PERCENT / 100
    expect(run.stderr).toBe('');
    expect(run.tuned).toBe('true');
    expect(run.limits.length).toBeGreaterThan(0);
    expect(offTuned(run.limits[run.limits.length - 1])).toBeLessThanOrEqual(0.05 + 1e-9);
  });

  test('untuned, the same process grows by another factor (the check above can tell the setting from V8\'s own)', () => {
    // GIVEN the same process without the tuning
    const run = factors([], undefined);
    // THEN the factor is V8's, not the tuned one
    expect(run.limits.length).toBeGreaterThan(0);
    expect(offTuned(run.limits[run.limits.length - 1])).toBeGreaterThan(0.05 + 1e-9);
  });

  test('a factor the user set on node\'s command line stays', () => {
    // GIVEN node started with the user's own percentage (node refuses it in NODE_OPTIONS)
    // WHEN the heap is tuned
    const run = factors(['--heap-growing-percent=90'], 'tuning.tuneHeapGrowth()');
    // THEN nothing is set, and V8 grows by the user's factor
    expect(run.stderr).toBe('');
    expect(run.tuned).toBe('false');
    expect(run.limits[run.limits.length - 1]).toBe('1.9');
  });

  test('bin/ccm-gitops tunes assemble\'s process and not synth\'s (where it was measured to help)', () => {
    // GIVEN the commands as the CLI's arguments
    // WHEN the entry point tunes the heap for each
    const assemble = factors([], "tuning.tuneHeapForCommand(['assemble', '-c', 'clusters', 'shard-1', 'shard-2'])");
    const synth = factors([], "tuning.tuneHeapForCommand(['synth', '-c', 'clusters'])");
    const none = factors([], 'tuning.tuneHeapForCommand([])');
    // THEN assemble grows by the tuned factor; synth and no command by V8's own
    expect([...TUNED_COMMANDS]).toEqual(['assemble']);
    expect(assemble.tuned).toBe('true');
    expect(offTuned(assemble.limits[assemble.limits.length - 1])).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(synth.tuned).toBe('false');
    expect(offTuned(synth.limits[synth.limits.length - 1])).toBeGreaterThan(0.05 + 1e-9);
    expect(none.tuned).toBe('false');
  });

  test('node\'s own arguments are read for the flag, with - or _ in its name', () => {
    // GIVEN node's arguments WHEN they are read for the flag THEN either spelling counts, and only that flag
    expect(setsHeapGrowth(['--heap-growing-percent=40'])).toBe(true);
    expect(setsHeapGrowth(['--heap_growing_percent', '40'])).toBe(true);
    expect(setsHeapGrowth(['--max-old-space-size=512', ''])).toBe(false);
    expect(setsHeapGrowth(['--heap-growing-percentage=40'])).toBe(false);
  });
});
