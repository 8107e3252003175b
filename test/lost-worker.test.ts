import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { awsSpec, readTree, useTempDir, writeFile } from './helpers';

// A render worker that dies (out of memory under its heap cap, or killed)
// never answers, and the main thread, blocked waiting for answers, cannot see
// its exit event: synth used to notice only after 120 s without progress, as
// an internal error, and then ended with the worker's stack trace. It now
// finds the worker's thread gone (Linux: /proc/self/task) within a second.
// Compiled code in a process of its own; the preload lowers the workers' heap
// cap so that the first render runs out of memory.

const dir = useTempDir();
const bin = path.join(__dirname, '..', 'bin', 'ccm-gitops');
const onLinux = fs.existsSync('/proc/thread-self');

// A worker that dies as its thread's id goes to the main thread (the kernel
// reuses ids once they wrap around): the worker reports the main thread's id
// with its own start time, as a reused id would be found (the link
// /proc/thread-self too, which the pool's worker read before the start time
// was kept: that code waited for the 120 s stall here).
const REUSED_ID = [
  '} else {',
  "  const fs = require('fs');",
  '  const readFile = fs.readFileSync, readLink = fs.readlinkSync;',
  "  fs.readFileSync = (f, ...r) => f === '/proc/thread-self/stat' ? String(readFile(f, 'latin1')).replace(/^\\d+/, String(process.pid)) : readFile(f, ...r);",
  "  fs.readlinkSync = (f, ...r) => f === '/proc/thread-self' ? `${process.pid}/task/${process.pid}` : readLink(f, ...r);",
];

function run(root: string, clusters: string, out: string, capMb?: number, reusedId = false): { status: number | null; stderr: string } {
  const args = ['synth', '--clusters', clusters, '--out', out, '--jobs', '2', '--quiet'];
  const preload = writeFile(root, 'preload.js', [
    "const wt = require('worker_threads');",
    'if (wt.isMainThread) {',
    '  const Base = wt.Worker;',
    `  wt.Worker = class extends Base { constructor(s, o) { super(s, { ...o, resourceLimits: { ...o.resourceLimits, maxOldGenerationSizeMb: ${capMb ?? 0} } }); } };`,
    ...(reusedId ? REUSED_ID : []),
    '}',
  ].join('\n'));
  const env = { PATH: process.env.PATH, CCM_GITOPS_CACHE_DIR: path.join(root, 'cache') };
  // the limit ends a run that waits for the 120 s stall instead
  const r = spawnSync(process.execPath, [...(capMb ? ['-r', preload] : []), bin, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stderr: r.stderr };
}

(onLinux ? describe : describe.skip)('a render worker that runs out of memory (compiled code, Linux)', () => {
  test.each([
    { thread: 'its thread gone', reusedId: false },
    // found by its thread's start time: not a wait for the 120 s stall
    { thread: 'its thread id given to a running thread', reusedId: true },
  ])('with $thread, synth says which worker ended and why, leaves the output as it was, and prints nothing else', ({ reusedId }) => {
    // GIVEN a fleet rendered once (four clusters: one worker)
    const root = dir();
    const clusters = path.join(root, 'clusters');
    for (const name of ['a', 'b', 'c', 'd']) {
      writeFile(clusters, `${name}.yaml`, awsSpec(name));
    }
    const out = path.join(root, 'dist');
    expect(run(root, clusters, out).status).toBe(0);
    const before = readTree(out);
    // WHEN a spec changes and the workers' heap is too small to render it
    writeFile(clusters, 'b.yaml', awsSpec('b', { aws: { region: 'eu-west-1' } }));
    const failed = run(root, clusters, out, 12, reusedId);
    // THEN one error naming the worker and what to do, exit 1, no stack trace
    expect(failed.stderr).toBe('error: render worker 1 of 1 ended without answering: it ran out of memory under its heap cap (96 MiB) or was killed; '
      + 'nothing was written; run again with --jobs 1 to render on the main thread\n');
    expect(failed.status).toBe(1);
    // AND the output is as it was, with nothing staged left beside it
    expect(readTree(out)).toEqual(before);
    expect(fs.readdirSync(root).sort()).toEqual(['cache', 'clusters', 'dist', 'preload.js']);
  }, 70_000);
});
