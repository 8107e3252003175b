import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { awsSpec, readTree, useTempDir, writeFile } from './helpers';

// A render worker that ends without answering (out of memory under its heap
// cap, or killed) fails synth as soon as its exit event arrives, with one
// line, on any OS. The CLI runs in a process of its own (bin/ccm-gitops, lib/
// compiled from the current source by the tests' global setup); a preload
// lowers the workers' heap cap so that the first render runs out of memory.

const dir = useTempDir();
const bin = path.join(__dirname, '..', 'bin', 'ccm-gitops');

function run(root: string, clusters: string, out: string, capMb?: number): { status: number | null; signal: NodeJS.Signals | null; stderr: string } {
  const args = ['synth', '--clusters', clusters, '--out', out, '--jobs', '2', '--quiet'];
  const preload = writeFile(
    root,
    'preload.js',
    [
      "const wt = require('worker_threads');",
      'const Base = wt.Worker;',
      `wt.Worker = class extends Base { constructor(s, o) { super(s, { ...o, resourceLimits: { ...o.resourceLimits, maxOldGenerationSizeMb: ${capMb ?? 0} } }); } };`,
    ].join('\n'),
  );
  const env = { PATH: process.env.PATH, CCM_GITOPS_CACHE_DIR: path.join(root, 'cache') };
  const r = spawnSync(process.execPath, [...(capMb ? ['-r', preload] : []), bin, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, signal: r.signal, stderr: r.stderr };
}

describe('a render worker that runs out of memory (bin/ccm-gitops)', () => {
  test('fails synth at once with one line naming the worker and the fix, exit 1, the output left as it was', () => {
    // GIVEN a fleet rendered once (four clusters: one worker)
    const root = dir();
    const clusters = path.join(root, 'clusters');
    for (const name of ['a', 'b', 'c', 'd']) {
      writeFile(clusters, `${name}.yaml`, awsSpec(name));
    }
    const out = path.join(root, 'dist');
    expect(run(root, clusters, out).status).toBe(0);
    const before = readTree(out);
    expect(run(root, clusters, out).status).toBe(0);
    // WHEN a spec changes and the workers' heap is too small to render it
    writeFile(clusters, 'b.yaml', awsSpec('b', { aws: { region: 'eu-west-1' } }));
    const failed = run(root, clusters, out, 12);
    // THEN one error naming the worker and what to do, exit 1, no stack trace
    expect(failed.stderr).toBe(
      'error: render worker 1 of 1 ran out of memory under its heap cap (96 MiB); ' +
        'nothing was written; run again with --jobs 1 to render on the main thread\n',
    );
    expect(failed.status).toBe(1);
    // AND it ends by itself (no watchdog to wait for): not killed at the spawn's timeout
    expect(failed.signal).toBeNull();
    // AND the output is as it was, with nothing staged left beside it
    expect(readTree(out)).toEqual(before);
    expect(fs.readdirSync(root).sort()).toEqual(['cache', 'clusters', 'dist', 'preload.js']);
  }, 120_000);
});
