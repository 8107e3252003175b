import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { awsSpec, captureIo, useTempDir, writeFile } from './helpers';

// rmSync made refusable, as immutable files (chattr +i) refuse it, whatever the user running the test
jest.mock('fs', () => {
  const real = jest.requireActual<typeof import('fs')>('fs');
  return { ...real, rmSync: jest.fn(real.rmSync) };
});

const realRmSync = jest.requireActual<typeof import('fs')>('fs').rmSync;

/** Makes removing `folder` fail as an immutable file in it would. */
function refuseRemoving(folder: string): void {
  (fs.rmSync as jest.Mock).mockImplementation((p: fs.PathLike, options?: fs.RmOptions) => {
    if (String(p) === folder) {
      throw Object.assign(new Error(`EPERM: operation not permitted, unlink '${folder}/c0000/x.yaml'`), {
        code: 'EPERM',
        syscall: 'unlink',
        path: `${folder}/c0000/x.yaml`,
      });
    }
    return realRmSync(p, options);
  });
}

function synth(clusters: string, out: string): { code: number; stderr: string } {
  const cap = captureIo();
  const code = runCli(['synth', '--clusters', clusters, '--out', out, '-q'], cap.io, {});
  return { code, stderr: cap.stderr() };
}

describe('the old tree cannot be removed after the swap (immutable files)', () => {
  const dir = useTempDir();
  afterEach(() => (fs.rmSync as jest.Mock).mockImplementation(realRmSync));

  test('synth says the new tree is in place and where the old one is left; the next run names it again, and renders once it is gone', () => {
    // GIVEN a rendered fleet
    const out = path.join(dir(), 'dist');
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'c0000.yaml', awsSpec('c0000'));
    expect(synth(clusters, out).code).toBe(0);
    // WHEN the next synth replaces the cluster but removing the old tree fails
    writeFile(clusters, 'c0000.yaml', awsSpec('c0000', { controlPlaneTopology: 'SingleReplica' }));
    const backup = path.join(dir(), `.dist.old-${process.pid}`);
    refuseRemoving(backup);
    const failed = synth(clusters, out);
    // THEN it says what is true: the new tree is in place, the old one is left at its path, remove it by hand
    const expected =
      `error: ${out} holds the new tree, but the old one could not be removed (operation not permitted (EPERM) at ${backup}/c0000/x.yaml): it is left at ${backup}; ` +
      `remove it by hand (rm -rf ${backup}; when that is refused, its files may be immutable: lsattr -R ${backup}, then chattr -R -i ${backup})\n`;
    expect(failed).toEqual({ code: 1, stderr: expected });
    expect(
      fs.readFileSync(
        path.join(out, 'c0000', '04-workloads', 'deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml'),
        'utf8',
      ),
    ).toContain('replicas: 1');
    expect(fs.existsSync(backup)).toBe(true);
    expect(fs.existsSync(path.join(dir(), '.dist.journal'))).toBe(false);
    // AND WHEN the next synth (another process: the folder's process id is not running) finds the old tree still there, it names it again
    const earlier = path.join(dir(), '.dist.old-999999999');
    fs.renameSync(backup, earlier);
    refuseRemoving(earlier);
    expect(synth(clusters, out)).toEqual({ code: 1, stderr: expected.split(backup).join(earlier) });
    // AND WHEN it is removed by hand, synth runs
    (fs.rmSync as jest.Mock).mockImplementation(realRmSync);
    fs.rmSync(earlier, { recursive: true, force: true });
    expect(synth(clusters, out)).toEqual({ code: 0, stderr: '' });
  });
});
