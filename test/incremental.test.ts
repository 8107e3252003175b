import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { awsSpec, captureIo, readTree, useTempDir, writeFile } from './helpers';

// An unchanged fleet writes nothing; a change to one cluster writes that cluster;
// a synth killed while it writes or commits leaves the previous output whole, or a journal the
// next run completes.

const BIN = path.resolve(__dirname, '..', 'bin', 'ccm-gitops');
const dir = useTempDir();

function fleet(clusters: string, n: number, spec: Record<string, unknown> = {}): void {
  for (let i = 0; i < n; i++) {
    const name = `c${String(i).padStart(4, '0')}`;
    writeFile(clusters, `${name}.yaml`, awsSpec(name, spec));
  }
}

function synth(clusters: string, out: string, ...args: string[]): { code: number; stdout: string; stderr: string } {
  const c = captureIo();
  const code = runCli(['synth', '--clusters', clusters, '--out', out, ...args], c.io, {});
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

/** Inode and modification time of every file and folder below dir: changes when a file is rewritten or replaced. */
function identities(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      const st = fs.statSync(full);
      out[`${rel}${e.name}`] = `${st.ino}:${st.mtimeMs}`;
      if (e.isDirectory()) {
        walk(full, `${rel}${e.name}/`);
      }
    }
  };
  walk(root, '');
  return out;
}

describe('incremental synth', () => {
  test('an unchanged fleet is compared, not written: no file or folder is replaced', () => {
    // GIVEN a rendered fleet of three clusters
    const clusters = path.join(dir(), 'clusters');
    const out = path.join(dir(), 'dist');
    fleet(clusters, 3);
    expect(synth(clusters, out, '-q').code).toBe(0);
    const before = identities(out);
    // WHEN synth runs again on the same specs
    const r = synth(clusters, out);
    // THEN it says so, and every file and folder is the same inode with the same modification time
    expect(r).toEqual({ code: 0, stdout: `rendered 3 clusters into ${out} (up to date, no file written)\n`, stderr: '' });
    expect(identities(out)).toEqual(before);
    expect(fs.readdirSync(dir()).sort()).toEqual(['clusters', 'dist']);
  });

  test("a spec change in one cluster replaces that cluster's folder and the fleet summary only", () => {
    // GIVEN a rendered fleet of three clusters
    const clusters = path.join(dir(), 'clusters');
    const out = path.join(dir(), 'dist');
    fleet(clusters, 3);
    expect(synth(clusters, out, '-q').code).toBe(0);
    const before = identities(out);
    const fresh = path.join(dir(), 'fresh');
    // WHEN one spec changes and synth runs without --only
    writeFile(clusters, 'c0001.yaml', awsSpec('c0001', { controlPlaneTopology: 'SingleReplica' }));
    expect(synth(clusters, out, '-q').code).toBe(0);
    // THEN only c0001/, FLEET.md and .fleet.json were written, and the tree is what a fresh synth renders
    const after = identities(out);
    const changed = Object.keys({ ...before, ...after })
      .filter((k) => before[k] !== after[k])
      .map((k) => k.split('/')[0]);
    expect([...new Set(changed)].sort()).toEqual(['.fleet.json', 'FLEET.md', 'c0001']);
    expect(synth(clusters, fresh, '-q').code).toBe(0);
    expect(readTree(out)).toEqual(readTree(fresh));
  });

  test("--only leaves the other clusters' folders untouched", () => {
    const clusters = path.join(dir(), 'clusters');
    const out = path.join(dir(), 'dist');
    fleet(clusters, 3);
    expect(synth(clusters, out, '-q').code).toBe(0);
    const before = identities(out);
    writeFile(clusters, 'c0000.yaml', awsSpec('c0000', { controlPlaneTopology: 'SingleReplica' }));
    writeFile(clusters, 'c0002.yaml', awsSpec('c0002', { controlPlaneTopology: 'SingleReplica' }));
    expect(synth(clusters, out, '-q', '--only', 'c0000').code).toBe(0);
    const after = identities(out);
    const changed = new Set(
      Object.keys({ ...before, ...after })
        .filter((k) => before[k] !== after[k])
        .map((k) => k.split('/')[0]),
    );
    expect([...changed].sort()).toEqual(['.fleet.json', 'FLEET.md', 'c0000']);
  });
});

describe('a synth killed on the incremental path', () => {
  test('killed while staging a change: the previous output is whole, the next run renders', async () => {
    // GIVEN a rendered fleet of 60 clusters
    const clusters = path.join(dir(), 'clusters');
    const out = path.join(dir(), 'dist');
    fleet(clusters, 60);
    expect(synth(clusters, out, '-q').code).toBe(0);
    const before = readTree(out);
    // WHEN every spec changes and a synth is killed (SIGKILL) once it has staged a changed cluster
    fleet(clusters, 60, { controlPlaneTopology: 'SingleReplica' });
    const child = spawn(process.execPath, [BIN, 'synth', '--clusters', clusters, '--out', out, '-q'], { stdio: 'ignore' });
    const staged = path.join(dir(), `.dist.new-${child.pid}`, 'c0001');
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    let killed = false;
    for (let i = 0; i < 6000 && child.exitCode === null; i++) {
      if (fs.existsSync(staged)) {
        child.kill('SIGKILL');
        killed = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await exited;
    // THEN it was killed before its commit: the output is the previous tree, byte for byte
    expect(killed).toBe(true);
    expect(fs.existsSync(path.join(dir(), '.dist.journal'))).toBe(false);
    expect(readTree(out)).toEqual(before);
    // AND the next run takes over the dead run's lock, removes its staging folder and renders
    expect(synth(clusters, out, '-q').code).toBe(0);
    expect(fs.readdirSync(dir()).sort()).toEqual(['clusters', 'dist']);
    expect(readTree(out)['c0059/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml']).toContain(
      'replicas: 1',
    );
  }, 60000);

  test('killed during its commit: the journal is completed by the next run, which then renders on top', () => {
    // GIVEN a rendered fleet of three clusters, and a newer render of it staged by a process that no longer runs
    const clusters = path.join(dir(), 'clusters');
    const out = path.join(dir(), 'dist');
    fleet(clusters, 3);
    expect(synth(clusters, out, '-q').code).toBe(0);
    fleet(clusters, 3, { controlPlaneTopology: 'SingleReplica' });
    const fresh = path.join(dir(), 'fresh');
    expect(synth(clusters, fresh, '-q').code).toBe(0);
    const expected = readTree(fresh);
    const dead = 999999999;
    const staging = path.join(dir(), `.dist.new-${dead}`);
    const backup = path.join(dir(), `.dist.old-${dead}`);
    fs.mkdirSync(backup);
    for (const unit of ['c0000', 'c0001', 'c0002']) {
      fs.cpSync(path.join(fresh, unit), path.join(staging, unit), { recursive: true });
    }
    fs.copyFileSync(path.join(fresh, 'FLEET.md'), path.join(staging, 'FLEET.md'));
    fs.copyFileSync(path.join(fresh, '.fleet.json'), path.join(staging, '.fleet.json'));
    fs.writeFileSync(
      path.join(dir(), '.dist.journal'),
      JSON.stringify({
        staging: path.basename(staging),
        backup: path.basename(backup),
        units: ['c0000', 'c0001', 'c0002'],
        removed: [],
        rootFiles: ['.fleet.json', 'FLEET.md'],
      }),
    );
    fs.writeFileSync(path.join(dir(), '.dist.lock'), `${dead}\n`);
    // AND the kill came after c0000 was swapped in and c0001 moved to the backup, before its replacement was moved in
    fs.rmSync(path.join(out, 'c0000'), { recursive: true });
    fs.renameSync(path.join(staging, 'c0000'), path.join(out, 'c0000'));
    fs.renameSync(path.join(out, 'c0001'), path.join(backup, 'c0001'));
    // WHEN synth --check runs, THEN it refuses to compare a half-written tree
    const check = synth(clusters, out, '--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(
      `error: ${out} is half-written by an interrupted synth (${path.join(dir(), '.dist.journal')}); run ccm-gitops synth to complete it\n`,
    );
    // WHEN the next synth runs
    const r = synth(clusters, out);
    // THEN it completed the journal (so it had nothing left to write) and cleaned up
    expect(r).toEqual({ code: 0, stdout: `rendered 3 clusters into ${out} (up to date, no file written)\n`, stderr: '' });
    expect(readTree(out)).toEqual(expected);
    expect(fs.readdirSync(dir()).sort()).toEqual(['clusters', 'dist', 'fresh']);
  });

  test('a second synth while one is writing is refused, naming the first', () => {
    const clusters = path.join(dir(), 'clusters');
    const out = path.join(dir(), 'dist');
    fleet(clusters, 1);
    fs.writeFileSync(path.join(dir(), '.dist.lock'), `${process.ppid}\n`);
    const r = synth(clusters, out, '-q');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: another ccm-gitops synth (pid ${process.ppid}) is writing ${out}; wait for it to finish (or remove ${path.join(dir(), '.dist.lock')} if it is not running)\n`,
    );
    expect(fs.existsSync(out)).toBe(false);
  });
});
