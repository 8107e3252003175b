import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { awsSpec, captureIo, readTree, useTempDir, writeFile } from './helpers';

const BIN = path.resolve(__dirname, '..', 'bin', 'ccm-gitops');

function fleet(dir: string, n: number, last?: Record<string, unknown>): void {
  for (let i = 0; i < n; i++) {
    writeFile(dir, `c${String(i).padStart(4, '0')}.yaml`, awsSpec(`c${String(i).padStart(4, '0')}`));
  }
  if (last) {
    writeFile(dir, 'zzzz.yaml', last);
  }
}

function synth(clusters: string, out: string): number {
  return runCli(['synth', '--clusters', clusters, '--out', out, '-q'], captureIo().io, {});
}

describe('a failed or interrupted synth leaves the previous dist/ exactly as it was', () => {
  const dir = useTempDir();

  test('an error in the last cluster of a fleet writes nothing', () => {
    // GIVEN a rendered fleet
    const out = path.join(dir(), 'dist');
    fleet(path.join(dir(), 'v1'), 3);
    expect(synth(path.join(dir(), 'v1'), out)).toBe(0);
    const before = readTree(out);
    // WHEN the next fleet has 50 good clusters and a broken last one
    fleet(path.join(dir(), 'v2'), 50, awsSpec('zzzz', { platform: 'Moon' }));
    // THEN synth fails and dist/ is byte for byte the previous tree, with no staging folder left
    expect(synth(path.join(dir(), 'v2'), out)).toBe(1);
    expect(readTree(out)).toEqual(before);
    expect(fs.readdirSync(dir()).filter((n) => n.startsWith('.dist'))).toEqual([]);
  });

  test('a process killed while writing leaves the previous tree, and the next run cleans up and renders', async () => {
    // GIVEN a rendered fleet
    const out = path.join(dir(), 'dist');
    fleet(path.join(dir(), 'v1'), 3);
    expect(synth(path.join(dir(), 'v1'), out)).toBe(0);
    const before = readTree(out);
    // WHEN a synth of a bigger fleet is killed (SIGKILL) once its staging folder holds files
    const big = path.join(dir(), 'v2');
    fleet(big, 300);
    const child = spawn(process.execPath, [BIN, 'synth', '--clusters', big, '--out', out, '-q'], { stdio: 'ignore' });
    const staging = path.join(dir(), `.dist.new-${child.pid}`);
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    let killedMidWrite = false;
    for (let i = 0; i < 6000 && child.exitCode === null; i++) {
      // c0000-c0002 are unchanged, so not staged (the writer compares before it writes): wait for a new cluster
      if (fs.existsSync(path.join(staging, 'c0010'))) {
        child.kill('SIGKILL');
        killedMidWrite = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await exited;
    // THEN it was killed mid-write, and dist/ is the previous tree
    expect(killedMidWrite).toBe(true);
    expect(readTree(out)).toEqual(before);
    expect(fs.existsSync(staging)).toBe(true);
    // AND the next run removes the dead run's staging folder and renders the new fleet
    expect(synth(big, out)).toBe(0);
    expect(fs.readdirSync(dir()).filter((n) => n.startsWith('.dist'))).toEqual([]);
    expect(fs.readdirSync(out).filter((n) => /^c\d{4}$/.test(n))).toHaveLength(300);
  }, 60000);
});
