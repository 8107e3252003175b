import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { OutputTree, sameContent } from '../src/pipeline/output';
import { errorFromWorker } from '../src/pipeline/render-pool';
import { isUserError, UserError } from '../src/util/user-error';
import { awsSpec, captureIo, kubernetesSpec, readTree, useTempDir, writeFile } from './helpers';

// (files a user put into the output, symlinked --out, --out inside the
// clusters folder) and item 14, environment part (--out is a file, read-only file system,
// disk full, --clusters /): the real cause, exit 1 or 2, never "internal error" (exit 3).

/** A file-system fault the mocked fs raises: calls of `call` on paths starting with `under` throw errno `code`. */
const mockFault: { call?: string; under?: string; code?: string; text?: string; syscall?: string } = {};
jest.mock('fs', () => {
  const real = jest.requireActual('fs');
  const faulty =
    (call: string) =>
    (...args: unknown[]) => {
      const p = String(args[0]);
      if (mockFault.call === call && mockFault.under !== undefined && p.startsWith(mockFault.under)) {
        throw Object.assign(new Error(`${mockFault.code}: ${mockFault.text}, ${mockFault.syscall} '${p}'`), {
          code: mockFault.code,
          syscall: mockFault.syscall,
          path: p,
          errno: -1,
        });
      }
      return real[call](...args);
    };
  return { ...real, writeFileSync: faulty('writeFileSync'), readdirSync: faulty('readdirSync') };
});

const dir = useTempDir();
afterEach(() => {
  delete mockFault.call;
});

function synth(...args: string[]): { code: number; stdout: string; stderr: string } {
  const c = captureIo();
  const code = runCli(['synth', ...args], c.io, {});
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

function twoClusters(root: string): string {
  const clusters = path.join(root, 'clusters');
  writeFile(clusters, 'a.yaml', awsSpec('aws-a'));
  writeFile(clusters, 'b.yaml', awsSpec('aws-b'));
  return clusters;
}

describe('files a user put into the output folder', () => {
  test('are listed and not deleted: synth refuses without --force and writes nothing', () => {
    // GIVEN a rendered fleet, and two files a user added to the output
    const clusters = twoClusters(dir());
    const out = path.join(dir(), 'dist');
    expect(synth('--clusters', clusters, '--out', out, '-q').code).toBe(0);
    fs.writeFileSync(path.join(out, 'NOTES.md'), 'mine');
    fs.writeFileSync(path.join(out, 'aws-a', 'extra-patch.yaml'), 'mine too');
    const before = readTree(out);
    // AND a spec change, so that synth has something to write
    writeFile(clusters, 'b.yaml', awsSpec('aws-b', { controlPlaneTopology: 'SingleReplica' }));
    // WHEN synth runs without --force
    const r = synth('--clusters', clusters, '--out', out, '-q');
    // THEN it exits 1, names both files, tells how to proceed, and changes nothing
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: refusing to delete 2 files in ${out} that ccm-gitops did not write:\n` +
        `  ${out}/NOTES.md\n  ${out}/aws-a/extra-patch.yaml\n` +
        'move them out of the output folder, or pass --force to delete them; nothing was written\n',
    );
    expect(readTree(out)).toEqual(before);
  });

  test('are deleted with --force', () => {
    const clusters = twoClusters(dir());
    const out = path.join(dir(), 'dist');
    expect(synth('--clusters', clusters, '--out', out, '-q').code).toBe(0);
    const clean = readTree(out);
    fs.writeFileSync(path.join(out, 'NOTES.md'), 'mine');
    expect(synth('--clusters', clusters, '--out', out, '-q', '--force').code).toBe(0);
    expect(readTree(out)).toEqual(clean);
  });

  test('synth --check lists them as extra', () => {
    const clusters = twoClusters(dir());
    const out = path.join(dir(), 'dist');
    expect(synth('--clusters', clusters, '--out', out, '-q').code).toBe(0);
    fs.writeFileSync(path.join(out, 'aws-a', 'extra-patch.yaml'), 'mine');
    const r = synth('--clusters', clusters, '--out', out, '--check');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`  extra: ${out}/aws-a/extra-patch.yaml\n`);
  });

  test('what ccm-gitops wrote is deleted without --force: a cluster removed from the fleet, a stage that became empty', () => {
    // GIVEN a rendered fleet of two clusters, one of them with a credentials stage
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'a.yaml', awsSpec('aws-a'));
    writeFile(clusters, 'g.yaml', {
      ...awsSpec('gcp-g'),
      spec: { ...awsSpec('gcp-g').spec, platform: 'GCP', images: { cloudControllerManagerGCP: 'quay.io/x/gcp@sha256:' + 'c'.repeat(64) } },
    });
    const out = path.join(dir(), 'dist');
    const first = synth('--clusters', clusters, '--out', out, '-q');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(fs.existsSync(path.join(out, 'gcp-g', '02-credentials'))).toBe(true);
    // WHEN the GCP cluster is removed from the fleet
    fs.rmSync(path.join(clusters, 'g.yaml'));
    // THEN synth removes its folder without asking
    expect(synth('--clusters', clusters, '--out', out, '-q')).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(fs.existsSync(path.join(out, 'gcp-g'))).toBe(false);
  });
});

test("a file listed by a kustomization of a folder above it (manifest-dir's single manifest) is ccm-gitops's: deleted without --force", () => {
  // GIVEN a k3s cluster rendered in output mode manifest-dir
  const clusters = path.join(dir(), 'clusters');
  writeFile(
    clusters,
    'k.yaml',
    kubernetesSpec('VSphere', 'k3s-1', { scheduling: { preset: 'rke2' }, output: { mode: 'manifest-dir' } }, { gitops: { engine: 'plain' } }),
  );
  const out = path.join(dir(), 'dist');
  const first = synth('--clusters', clusters, '--out', out, '-q');
  expect(first.stderr).toBe('');
  expect(fs.existsSync(path.join(out, 'k3s-1', 'manifests', 'ccm-gitops-k3s-1.yaml'))).toBe(true);
  // WHEN it moves to output mode plain
  writeFile(clusters, 'k.yaml', kubernetesSpec('VSphere', 'k3s-1', { scheduling: { preset: 'rke2' } }, { gitops: { engine: 'plain' } }));
  // THEN the single manifest goes without --force
  expect(synth('--clusters', clusters, '--out', out, '-q')).toEqual({ code: 0, stdout: '', stderr: '' });
  expect(fs.existsSync(path.join(out, 'k3s-1', 'manifests'))).toBe(false);
});

describe('a symlinked --out', () => {
  test('stays a symlink: synth writes into its target, run after run', () => {
    // GIVEN --out is a symbolic link to a folder
    const clusters = twoClusters(dir());
    const target = path.join(dir(), 'real-output');
    fs.mkdirSync(target);
    const link = path.join(dir(), 'dist');
    fs.symlinkSync(target, link);
    // WHEN synth runs twice, the second time with a changed spec
    expect(synth('--clusters', clusters, '--out', link, '-q').code).toBe(0);
    writeFile(clusters, 'b.yaml', awsSpec('aws-b', { controlPlaneTopology: 'SingleReplica' }));
    expect(synth('--clusters', clusters, '--out', link, '-q').code).toBe(0);
    // THEN the link is still a link, and its target holds the new tree
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readTree(target)['aws-b/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml']).toContain(
      'replicas: 1',
    );
    expect(fs.readdirSync(dir()).sort()).toEqual(['clusters', 'dist', 'real-output']);
  });
});

describe('--out inside the clusters folder', () => {
  test('is refused before anything is read or written', () => {
    const clusters = twoClusters(dir());
    const out = path.join(clusters, 'rendered');
    const r = synth('--clusters', clusters, '--out', out, '-q');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: --out ${out} is inside the clusters folder ${clusters}: synth would read its own output as cluster specs; pass an --out outside it\n`,
    );
    expect(fs.existsSync(out)).toBe(false);
  });

  test('--clusters / (every folder is inside it) says so instead of walking the whole file system', () => {
    const out = path.join(dir(), 'dist');
    const r = synth('--clusters', '/', '--out', out, '-q');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: --out ${out} is inside the clusters folder /: synth would read its own output as cluster specs; pass an --out outside it\n`,
    );
  });
});

describe('environment problems name their cause (exit 1 or 2, never internal error)', () => {
  test('--out is a file', () => {
    const clusters = twoClusters(dir());
    const out = path.join(dir(), 'afile');
    fs.writeFileSync(out, 'x');
    const r = synth('--clusters', clusters, '--out', out, '-q');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: --out ${out} is a file, not a folder; pass a folder\n`);
    expect(fs.readFileSync(out, 'utf8')).toBe('x');
  });

  test('--out below a file', () => {
    const clusters = twoClusters(dir());
    fs.writeFileSync(path.join(dir(), 'afile'), 'x');
    const out = path.join(dir(), 'afile', 'dist');
    const r = synth('--clusters', clusters, '--out', out, '-q');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: --out ${out}: ${path.join(dir(), 'afile')} is a file, not a folder; pass a folder\n`);
  });

  test.each([
    ['ENOSPC', 'no space left on device'],
    ['EROFS', 'read-only file system'],
    ['EACCES', 'permission denied'],
    ['EDQUOT', 'disk quota exceeded'],
  ])('%s while writing: the cause, exit 1, the previous output whole', (code, text) => {
    // GIVEN a rendered fleet and a changed spec
    const clusters = twoClusters(dir());
    const out = path.join(dir(), 'dist');
    expect(synth('--clusters', clusters, '--out', out, '-q').code).toBe(0);
    const before = readTree(out);
    writeFile(clusters, 'b.yaml', awsSpec('aws-b', { controlPlaneTopology: 'SingleReplica' }));
    // WHEN the file system refuses writes
    Object.assign(mockFault, { call: 'writeFileSync', under: dir(), code, text, syscall: 'open' });
    const r = synth('--clusters', clusters, '--out', out, '-q');
    delete mockFault.call;
    // THEN the message names the cause, the exit code is 1, and the previous output is whole
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: cannot write ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${text} \\(${code}\\) at \\S+; ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is unchanged\\n$`,
      ),
    );
    expect(readTree(out)).toEqual(before);
  });

  test('an unreadable folder below --clusters names it (exit 1)', () => {
    const clusters = twoClusters(dir());
    Object.assign(mockFault, { call: 'readdirSync', under: clusters, code: 'EACCES', text: 'permission denied', syscall: 'scandir' });
    const r = synth('--clusters', clusters, '--out', path.join(dir(), 'dist'), '-q');
    delete mockFault.call;
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: cannot read ${clusters}: permission denied (EACCES); nothing was written\n`);
  });
});

describe('errors met in a render worker', () => {
  const dir = useTempDir();

  test('a full disk in a worker is reported as on the main thread: the cause, the path, the output unchanged', () => {
    // GIVEN an output opened for writing, and the error a worker sends back when a write fails (as render-worker.ts builds it)
    const out = path.join(dir(), 'dist');
    const tree = OutputTree.open(out);
    const sent = {
      name: 'Error',
      message: "ENOSPC: no space left on device, open '/stage/a.yaml'",
      code: 'ENOSPC',
      syscall: 'open',
      path: '/stage/a.yaml',
    };
    try {
      // WHEN the main thread rethrows it through the writer
      expect(() => tree.rethrow(errorFromWorker(sent))).toThrow(
        new UserError('environment', `cannot write ${out}: no space left on device (ENOSPC) at /stage/a.yaml; ${out} is unchanged`),
      );
    } finally {
      tree.close();
    }
    // THEN it is the environment error a user can act on (exit 1), not an internal error
    expect(() => tree.rethrow(errorFromWorker(sent))).toThrow(expect.objectContaining({ kind: 'environment' }) as UserError);
  });

  test('a refusal in a worker stays a refusal', () => {
    const e = errorFromWorker({ name: 'UserError', kind: 'input', message: 'b/x.yaml would hold a GitHub token; nothing was written' });
    expect(isUserError(e, 'input')).toBe(true);
    expect(e.message).toBe('b/x.yaml would hold a GitHub token; nothing was written');
  });
});

describe('comparing a root file with its content, a piece at a time', () => {
  const tmp = useTempDir();
  test('equal and unequal contents are told apart, multi-byte characters across pieces included', () => {
    // GIVEN contents larger than a piece, with 2-, 3- and 4-byte characters where pieces end
    const file = path.join(tmp(), 'f.md');
    const piece = 1 << 18;
    const texts = ['a'.repeat(piece - 1) + '😀' + 'é'.repeat(piece) + '€'.repeat(10) + '\n', 'é'.repeat(3 * piece + 7), ''];
    for (const text of texts) {
      fs.writeFileSync(file, text);
      // THEN the same content is the same, and one changed character or a missing last byte is not
      expect(sameContent(file, text)).toBe(true);
      if (text.length > 0) {
        expect(sameContent(file, `${text.slice(0, -1)}x`)).toBe(false);
        fs.writeFileSync(file, Buffer.from(text).subarray(0, -1));
        expect(sameContent(file, text)).toBe(false);
      }
    }
    expect(sameContent(path.join(tmp(), 'missing'), '')).toBe(false);
  });
});

test('a fleet summary over 16 MiB (some 8,000 clusters write one) still tells synth which files are its own: --only deletes a dropped stage file without --force', () => {
  // GIVEN a highly available AWS cluster rendered with its PodDisruptionBudget, and a fleet summary as large as a fleet of some 8,000 clusters writes
  const clusters = path.join(dir(), 'clusters');
  writeFile(clusters, 'a.yaml', awsSpec('aws-a', { controlPlaneTopology: 'HighlyAvailable' }));
  const out = path.join(dir(), 'dist');
  expect(synth('--clusters', clusters, '--out', out, '-q').code).toBe(0);
  const pdb = path.join(out, 'aws-a', '05-policies', 'poddisruptionbudget.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml');
  expect(fs.existsSync(pdb)).toBe(true);
  const summary = path.join(out, '.fleet.json');
  fs.appendFileSync(summary, ' '.repeat(17 * 1024 * 1024));
  // WHEN the cluster becomes a single replica and only it is rendered again
  writeFile(clusters, 'a.yaml', awsSpec('aws-a', { controlPlaneTopology: 'SingleReplica' }));
  const r = synth('--clusters', clusters, '--out', out, '-q', '--only', 'aws-a');
  // THEN its PodDisruptionBudget, which its kustomization listed, is deleted without asking
  expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  expect(fs.existsSync(pdb)).toBe(false);
});
