import { spawnSync } from 'child_process';
import * as path from 'path';
import * as fs from 'fs';
import { RenderedFile } from '../src/gitops/layout';
import { synthesizeInto } from '../src/synth';
import { BOUNDED_COMMANDS, HEAP_GROWING_PERCENT, HeapBound, OLD_GENERATION_STEP, OldGenerationBound, setsHeapGrowth, TUNED_COMMANDS } from '../src/util/heap-tuning';
import { awsSpec, useTempDir, writeFile } from './helpers';

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

describe('synth\'s bound on the main thread\'s old generation (issue 18)', () => {
  const tuning = path.join(__dirname, '..', 'lib', 'src', 'util', 'heap-tuning.js');
  const dir = useTempDir();
  // runs `script` in a child process (V8's flags are the process's) with the compiled module as `tuning`; V8's GC trace on stdout
  const child = (nodeArgs: string[], script: string) => spawnSync(process.execPath, [...nodeArgs, '--trace-gc', '-e', `
    const tuning = require(${JSON.stringify(tuning)});
    const vm = require('vm');
    ${script}`], { encoding: 'utf8', env: { PATH: process.env.PATH } });

  test('a full collection once the old generation grew past the step, looked at every interval calls; collect() at once', () => {
    // GIVEN a bound over a size the test sets (step 10, a look every 4 calls), starting at 100
    let size = 100;
    let looks = 0;
    const events: string[] = [];
    const bound = new OldGenerationBound(() => {
      events.push(`gc at ${size}`);
      size = 102;
    }, () => {
      looks++;
      return size;
    }, 10, 4);
    // WHEN it grows by 15 and check is called four times
    size = 115;
    for (let i = 0; i < 3; i++) bound.check();
    // THEN the first three calls do not look
    expect(looks).toBe(1);
    expect(events).toEqual([]);
    bound.check();
    // AND the fourth looks and collects; the new base is the size after the collection
    expect(events).toEqual(['gc at 115']);
    expect(bound.collections).toBe(1);
    // WHEN it grows to 112 (the base, 102, plus the step): no collection; past it: one
    size = 112;
    for (let i = 0; i < 4; i++) bound.check();
    expect(events).toEqual(['gc at 115']);
    size = 113;
    for (let i = 0; i < 4; i++) bound.check();
    expect(events).toEqual(['gc at 115', 'gc at 113']);
    // AND collect() collects whatever the size
    bound.collect();
    expect(events).toEqual(['gc at 115', 'gc at 113', 'gc at 102']);
    expect(bound.collections).toBe(3);
    expect(OLD_GENERATION_STEP).toBe(8 * 1024 * 1024);
  });

  test('fullCollector gives V8\'s full collection in a process started without --expose-gc, and leaves no gc behind', () => {
    // GIVEN node started as bin/ccm-gitops is (no --expose-gc)
    // WHEN the collector is fetched and called
    const run = child([], `
      const gc = tuning.fullCollector();
      process.stdout.write('fetched ' + typeof gc + '\\n');
      gc();
      process.stdout.write('after: global ' + typeof globalThis.gc + ', new context ' + vm.runInNewContext('typeof gc') + '\\n');`);
    // THEN V8 ran a full collection for it (its trace names the reason "testing", what gc() asks for)
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n');
    const fetched = lines.indexOf('fetched function');
    expect(fetched).toBeGreaterThanOrEqual(0);
    expect(lines.slice(fetched).some((l) => /Mark-Compact .* testing; GC in old space requested/.test(l))).toBe(true);
    // AND neither this context nor contexts created later (nor worker threads) have gc
    expect(run.stdout).toContain('after: global undefined, new context undefined\n');
  });

  test('a process started with --expose-gc gives its own gc, and its flag stays', () => {
    // GIVEN node started with --expose-gc WHEN the collector is fetched
    const run = child(['--expose-gc'], `
      process.stdout.write('same ' + (tuning.fullCollector() === globalThis.gc) + ', new context ' + vm.runInNewContext('typeof gc') + '\\n');`);
    // THEN it is the global gc, and new contexts still get gc
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('same true, new context function\n');
  });

  test('bin/ccm-gitops bounds synth\'s process, not the others\'', () => {
    // GIVEN the commands as the CLI's arguments WHEN the entry point bounds the heap for each
    const run = child([], `
      const other = [tuning.boundHeapForCommand(['assemble', '-c', 'clusters', 's1']), tuning.boundHeapForCommand([]), tuning.commandHeapBound()];
      const synth = tuning.boundHeapForCommand(['synth', '-c', 'clusters']);
      process.stdout.write(JSON.stringify({
        other: other.map((b) => typeof b),
        synth: synth instanceof tuning.OldGenerationBound,
        once: tuning.boundHeapForCommand(['synth']) === synth && tuning.commandHeapBound() === synth,
      }) + '\\n');`);
    // THEN synth's has an OldGenerationBound (one per process), the others none
    expect(run.stderr).toBe('');
    expect([...BOUNDED_COMMANDS]).toEqual(['synth']);
    expect(JSON.parse(run.stdout.split('\n').find((l) => l.startsWith('{'))!)).toEqual({ other: ['undefined', 'undefined', 'undefined'], synth: true, once: true });
  });

  test('bin/ccm-gitops synth has V8 collect at least once for the bound; validate-spec of the same specs does not', () => {
    // GIVEN three specs, and the CLI as users run it (bin/ccm-gitops), with V8's GC trace
    const clusters = path.join(dir(), 'clusters');
    ['a', 'b', 'c'].forEach((n) => writeFile(clusters, `${n}.yaml`, awsSpec(n)));
    const bin = path.join(__dirname, '..', 'bin', 'ccm-gitops');
    const env = { PATH: process.env.PATH, CCM_GITOPS_CACHE_DIR: path.join(dir(), 'cache') };
    const forced = (args: string[]) => {
      const run = spawnSync(process.execPath, ['--trace-gc', bin, ...args], { encoding: 'utf8', env });
      return { status: run.status, collections: run.stdout.split('\n').filter((l) => /Mark-Compact .* testing; GC in old space requested/.test(l)).length };
    };
    // WHEN it synthesizes THEN the bound's collection before the fleet files ran (no other code asks V8 for one)
    const synth = forced(['synth', '-q', '-c', clusters, '-o', path.join(dir(), 'dist')]);
    expect(synth.status).toBe(0);
    expect(synth.collections).toBeGreaterThanOrEqual(1);
    // AND another command over the same specs asks for none
    expect(forced(['validate-spec', clusters])).toEqual({ status: 0, collections: 0 });
  });

  test('synth checks the bound at each cluster loaded and rendered, and collects once, before the fleet files', () => {
    // GIVEN three clusters rendered on this thread, and a bound that records what synth asks of it
    const clusters = path.join(dir(), 'clusters');
    ['a', 'b', 'c'].forEach((n) => writeFile(clusters, `${n}.yaml`, awsSpec(n)));
    const events: string[] = [];
    const heap: HeapBound = { check: () => events.push('check'), collect: () => events.push('collect') };
    const sink = {
      hasUnit: () => false,
      putUnit: (unit: string, _files: readonly RenderedFile[]) => events.push(`unit ${unit}`),
      keepUnit: () => undefined,
      putRootFile: (f: RenderedFile) => events.push(`root ${f.path}`),
    };
    // WHEN it synthesizes
    synthesizeInto({ clusters, out: path.join(dir(), 'dist'), jobs: 1, heap }, sink);
    // THEN a check per cluster loaded, then one per cluster rendered, then one collection, then the fleet files
    const collect = events.indexOf('collect');
    expect(events.slice(0, collect + 1)).toEqual(['check', 'check', 'check', 'check', 'unit a', 'check', 'unit b', 'check', 'unit c', 'collect']);
    expect(events.slice(collect + 1).every((e) => e.startsWith('root ') || e === `unit _fleet`)).toBe(true);
    expect(events.slice(collect + 1)).toContain('root FLEET.md');
    expect(fs.existsSync(path.join(dir(), 'dist'))).toBe(false);
  });
});
