import { spawnSync } from 'child_process';
import * as path from 'path';
import * as fs from 'fs';
import { RenderedFile } from '../src/gitops/layout';
import { synthesizeInto } from '../src/synth';
import { BOUNDED_COMMANDS, capYoungGeneration, HEAP_GROWING_PERCENT, HeapBound, OLD_GENERATION_STEP, OldGenerationBound, setsHeapGrowth, setsYoungGeneration, TUNED_COMMANDS } from '../src/util/heap-tuning';
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

  test('synth\'s process: the collection before the last phase sets V8\'s growing factor; the bound\'s own collections do not; the user\'s stays', () => {
    // GIVEN synth's process (SynthProcessHeap) whose bound collected as the old generation grew, then the
    // collection before the last phase, then more work and a full collection that computes the next limit
    const run = (nodeArgs: string[]) => {
      const script = `
        const tuning = require(${JSON.stringify(tuning)});
        const heap = new tuning.SynthProcessHeap(() => global.gc(), false);
        const keep = [];
        for (let i = 0; i < 400000; i++) { keep.push({ i }); heap.check(); }
        const byBound = { collections: heap.collections, tuned: heap.heapGrowthTuned };
        process.stdout.write('last phase\\n');
        heap.collect();
        for (let i = 0; i < 200000; i++) keep.push({ i });
        global.gc();
        process.stdout.write(JSON.stringify({ byBound, collections: heap.collections, tuned: heap.heapGrowthTuned }) + '\\n');`;
      const out = spawnSync(process.execPath, [...nodeArgs, '--expose-gc', '--trace-gc-verbose', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } });
      const [before, after] = out.stdout.split('last phase\n');
      const limits = (text: string) => [...text.matchAll(/\[HeapController\] Limit: .*\((\d+\.\d)\)/g)].map((m) => m[1]);
      return { stderr: out.stderr, result: JSON.parse(after.split('\n').find((l) => l.startsWith('{'))!), before: limits(before), after: limits(after) };
    };
    const tunedFactor = (factor: string | undefined) => Math.abs(Number(factor) - (1 + HEAP_GROWING_PERCENT / 100)) <= 0.05 + 1e-9;
    // WHEN it runs THEN the bound collected without setting the factor, and V8 grew by its own
    const ours = run([]);
    expect(ours.stderr).toBe('');
    expect(ours.result.byBound.collections).toBeGreaterThan(0);
    expect(ours.result.byBound.tuned).toBe(false);
    expect(ours.before.length).toBeGreaterThan(0);
    expect(tunedFactor(ours.before[ours.before.length - 1])).toBe(false);
    // AND the collection before the last phase set it: the next limits grow by the tuned factor
    expect(ours.result.tuned).toBe(true);
    expect(ours.result.collections).toBe(ours.result.byBound.collections + 1);
    expect(ours.after.length).toBeGreaterThan(0);
    expect(tunedFactor(ours.after[ours.after.length - 1])).toBe(true);
    // AND WHEN the user set the factor on node's command line THEN theirs stays
    const theirs = run(['--heap-growing-percent=90']);
    expect(theirs.result.tuned).toBe(false);
    expect(theirs.after[theirs.after.length - 1]).toBe('1.9');
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
    const heap: HeapBound = { check: () => events.push('check'), collect: () => events.push('collect'), renderingOn: (threads) => events.push(`rendering on ${threads}`) };
    const sink = {
      hasUnit: () => false,
      putUnit: (unit: string, _files: readonly RenderedFile[]) => events.push(`unit ${unit}`),
      keepUnit: () => undefined,
      putRootFile: (f: RenderedFile) => events.push(`root ${f.path}`),
    };
    // WHEN it synthesizes
    synthesizeInto({ clusters, out: path.join(dir(), 'dist'), jobs: 1, heap }, sink);
    // THEN it is told first where the clusters render, then a check per cluster loaded, then one per cluster
    // rendered, then one collection, then the fleet files
    const collect = events.indexOf('collect');
    expect(events.slice(0, collect + 1)).toEqual(['rendering on main thread', 'check', 'check', 'check', 'check', 'unit a', 'check', 'unit b', 'check', 'unit c', 'collect']);
    expect(events.slice(collect + 1).every((e) => e.startsWith('root ') || e === `unit _fleet`)).toBe(true);
    expect(events.slice(collect + 1)).toContain('root FLEET.md');
    expect(fs.existsSync(path.join(dir(), 'dist'))).toBe(false);
  });
});

// V8 doubles a heap's young generation each time more survived its young collections than it holds, by
// `--semi-space-growth-factor`, read at each growth (deps/v8/src/heap/new-spaces.cc, `SemiSpaceNewSpace::Grow`);
// up to V8 12 each heap V8 makes sets a factor below 2 back to 2 (deps/v8/src/heap/heap.cc, `Heap::ConfigureHeap`).
// The oracle: the new space's size (`v8.getHeapSpaceStatistics()`) before and after work whose survivors make it grow.
describe('synth\'s cap on the main thread\'s young generation (issue 18)', () => {
  const tuning = path.join(__dirname, '..', 'lib', 'src', 'util', 'heap-tuning.js');
  const dir = useTempDir();
  // young-generation work that makes V8 grow the new space (a tenth of the objects survive); its size in MiB, taken
  // after young collections that keep too little to grow it (the first commits the second semi-space, which V8 leaves
  // uncommitted until then: new-spaces.cc)
  const churn = `
    const v8 = require('v8');
    const newSpaceMiB = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576;
    const churn = () => { const keep = []; let a = []; for (let i = 0; i < 3e6; i++) { a.push({ i }); if (a.length > 1e5) a = []; if (i % 10 === 0) keep.push({ i }); } return keep.length; };
    const settled = () => { let a = []; for (let i = 0; i < 1e6; i++) { a.push({ i }); if (a.length > 1e4) a = []; } return newSpaceMiB(); };`;
  // in a child process (V8's flags are the process's): a worker thread with synth's cap on its young generation
  // starts and reports its young generation's size (`worker`); `before` runs before it is made, `after` once it
  // runs; then the main thread's young generation is measured around the work above; `later`: the young generation of
  // a second worker made after that
  const withWorker = (before: string, after: string, nodeArgs: string[] = [], env: Record<string, string> = {}) => {
    const run = spawnSync(process.execPath, [...nodeArgs, '-e', `
      const tuning = require(${JSON.stringify(tuning)});
      const { Worker } = require('worker_threads');
      ${churn}
      const report = 'const v8 = require("v8"); require("worker_threads").parentPort.postMessage(v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size / 1048576)';
      const limits = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 96 };
      const early = ${before};
      const worker = new Worker(report, { eval: true, resourceLimits: limits });
      worker.once('message', (young) => {
        const capped = ${after};
        const start = settled();
        churn(); churn();
        const end = newSpaceMiB();
        void worker.terminate();
        const second = new Worker(report, { eval: true, resourceLimits: limits });
        second.once('message', (later) => {
          process.stdout.write(JSON.stringify({ early, capped, worker: young, start, end, later }) + '\\n');
          void second.terminate();
        });
      });`], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } });
    return { stderr: run.stderr, ...JSON.parse(run.stdout) as { early: unknown; capped: boolean; worker: number; start: number; end: number; later: number } };
  };

  test('capped once the workers have started, the main thread\'s young generation grows no more', () => {
    // GIVEN a process whose worker thread has started
    // WHEN the young generation is capped, then work makes V8 want to grow it
    const run = withWorker('undefined', 'tuning.capYoungGeneration()');
    // THEN it was capped, and it is as large as before the work
    expect(run.stderr).toBe('');
    expect(run.capped).toBe(true);
    expect(run.end).toBe(run.start);
  });

  test('uncapped, the same work grows it (the check above can tell the cap from no growth)', () => {
    // GIVEN the same process WHEN nothing is capped
    const run = withWorker('undefined', 'false');
    // THEN V8 grew the young generation
    expect(run.capped).toBe(false);
    expect(run.end).toBeGreaterThan(run.start);
  });

  const v8Major = Number(process.versions.v8.split('.')[0]);
  (v8Major <= 12 ? test : test.skip)('capped before a worker starts, the worker\'s heap undoes it (V8 up to 12): why synth waits for its workers', () => {
    // GIVEN a cap set before the worker thread starts
    const run = withWorker('tuning.capYoungGeneration()', 'false');
    // THEN the worker's heap set the factor back, and the work grew the young generation again
    expect(run.early).toBe(true);
    expect(run.end).toBeGreaterThan(run.start);
  });

  test('synth\'s process: workers made for the render start with their largest young generation; once they have, the main thread\'s grows no more; on the main thread it grows', () => {
    // GIVEN synth's process with its young generation capped at the start, told the clusters render on workers
    const run = withWorker(
      "(global.heap = new tuning.SynthProcessHeap(() => undefined, tuning.capYoungGeneration()), global.heap.renderingOn('workers'), global.heap.youngGenerationCapped)",
      '(global.heap.workersStarted(), global.heap.youngGenerationCapped)');
    // THEN the worker's heap started with a young generation larger than V8's smallest (1 MiB per semi-space)
    expect(run.stderr).toBe('');
    expect(run.early).toBe(true);
    expect(run.worker).toBeGreaterThan(2);
    // AND once told its workers started, the main thread's young generation does not grow with the work
    expect(run.capped).toBe(true);
    expect(run.end).toBe(run.start);
    // AND a heap made after that starts at V8's smallest again (the setting was for the render workers only)
    expect(run.later).toBeLessThanOrEqual(2);
    // AND WHEN told the clusters render on the main thread instead THEN its young generation grows again
    const main = withWorker(
      "(global.heap = new tuning.SynthProcessHeap(() => undefined, tuning.capYoungGeneration()), global.heap.renderingOn('main thread'), global.heap.youngGenerationCapped)",
      'undefined');
    expect(main.early).toBe(false);
    expect(main.end).toBeGreaterThan(main.start);
  });

  test('without the render\'s setting, a worker with synth\'s cap starts with V8\'s smallest young generation (the check above can tell)', () => {
    // GIVEN no setting WHEN the worker starts THEN its young generation is V8's smallest
    const run = withWorker('undefined', 'undefined');
    expect(run.worker).toBeLessThanOrEqual(2);
  });

  test('V8 prints an error on standard error for a flag it does not know: why a V8 the cap was not measured on is left alone', () => {
    // GIVEN a flag V8 does not have WHEN it is set at run time THEN V8 says so on the process's standard error
    const run = spawnSync(process.execPath, ['-e', "require('v8').setFlagsFromString('--no-such-flag-of-ccm-gitops')"], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('Error: unrecognized flag --no-such-flag-of-ccm-gitops\nTry --help for options\n');
    // AND the flags the cap sets are known to this V8 (nothing printed)
    const known = spawnSync(process.execPath, ['-e', `
      const v8 = require('v8');
      v8.setFlagsFromString('--semi-space-growth-factor=2');
      v8.setFlagsFromString('--min-semi-space-size=0');
      v8.setFlagsFromString('--heap-growing-percent=25');`], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(known.stdout).toBe('');
    expect(known.stderr).toBe('');
  });

  test('a young generation the user sized stays theirs (node\'s arguments or NODE_OPTIONS); a V8 it was not measured on is left alone', () => {
    // GIVEN the user's own young-generation flags, in either place
    expect(setsYoungGeneration(['--max-semi-space-size=2'])).toBe(true);
    expect(setsYoungGeneration([], '--max-old-space-size=512 --max_semi_space_size=4')).toBe(true);
    expect(setsYoungGeneration(['--min-semi-space-size', '2'])).toBe(true);
    expect(setsYoungGeneration([], '--semi-space-growth-factor=3')).toBe(true);
    expect(setsYoungGeneration(['--max-old-space-size=512', '--expose-gc'], '--heap-growing-percent=20')).toBe(false);
    // WHEN the cap is asked for THEN nothing is set
    expect(capYoungGeneration(['--max-semi-space-size=2'], '', '11.3.244.8')).toBe(false);
    expect(capYoungGeneration([], '--max-semi-space-size=2', '12.4.254.21')).toBe(false);
    expect(capYoungGeneration([], '', '14.0.1.0')).toBe(false);
    expect(capYoungGeneration([], '', '10.2.154.26')).toBe(false);
    // AND in a process started with the user's flag, the work grows the young generation as V8 would
    const run = withWorker('undefined', 'tuning.capYoungGeneration()', [], { NODE_OPTIONS: '--max-semi-space-size=8' });
    expect(run.capped).toBe(false);
    expect(run.end).toBeGreaterThan(run.start);
  });

  test('bin/ccm-gitops synth loads with the young generation at its smallest, keeps it so once its workers start, and lets it grow to render on the main thread', () => {
    // GIVEN a fleet, and a preload that reports the main thread's young generation as the first worker is made and
    // as the main thread exits, then does the work above and reports it again
    const root = dir();
    const clusters = path.join(root, 'clusters');
    ['a', 'b', 'c'].forEach((n) => writeFile(clusters, `${n}.yaml`, awsSpec(n)));
    const report = path.join(root, 'young.json');
    const workerReport = path.join(root, 'worker-young.txt');
    const preload = writeFile(root, 'preload.js', `
      const threads = require('worker_threads');
      ${churn}
      if (!threads.isMainThread) {
        require('fs').appendFileSync(${JSON.stringify(workerReport)}, newSpaceMiB() + '\\n');
      } else {
        let firstWorker;
        const Worker = threads.Worker;
        threads.Worker = class extends Worker {
          constructor(...args) { firstWorker = firstWorker ?? newSpaceMiB(); super(...args); }
        };
        process.on('exit', () => {
          const start = settled();
          churn(); churn();
          require('fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ firstWorker, start, end: newSpaceMiB() }));
        });
      }`);
    const bin = path.join(__dirname, '..', 'bin', 'ccm-gitops');
    const young = (jobs: string, nodeOptions?: string) => {
      const run = spawnSync(process.execPath, ['-r', preload, bin, 'synth', '-q', '-c', clusters, '-o', path.join(root, `dist-${jobs}-${nodeOptions ?? ''}`), '--jobs', jobs],
        { encoding: 'utf8', env: { PATH: process.env.PATH, CCM_GITOPS_CACHE_DIR: path.join(root, 'cache'), ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) } });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const workersYoung = fs.existsSync(workerReport) ? fs.readFileSync(workerReport, 'utf8').trim().split('\n').map(Number) : [];
      fs.rmSync(workerReport, { force: true });
      return { ...JSON.parse(fs.readFileSync(report, 'utf8')) as { firstWorker?: number; start: number; end: number }, workersYoung };
    };
    // WHEN it renders with a worker
    const workers = young('2');
    // THEN its modules loaded and the worker was made with V8's smallest young generation (1 MiB per semi-space),
    // and after the run the work above does not grow it
    expect(workers.firstWorker).toBeLessThanOrEqual(2);
    expect(workers.end).toBe(workers.start);
    // AND its worker started with a young generation larger than V8's smallest
    expect(workers.workersYoung).toHaveLength(1);
    expect(workers.workersYoung[0]).toBeGreaterThan(2);
    // AND WHEN it renders on the main thread THEN its young generation grew as V8 would
    const main = young('1');
    expect(main.firstWorker).toBeUndefined();
    expect(main.workersYoung).toEqual([]);
    expect(main.start).toBeGreaterThan(4);
    // AND WHEN the user sized the young generation (here as large as V8's own largest) THEN it grows as V8 would
    const theirs = young('2', '--max-semi-space-size=16');
    expect(theirs.firstWorker).toBeGreaterThan(2);
    expect(theirs.end).toBeGreaterThan(theirs.start);
  });
});
