import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { RenderedFile } from '../src/gitops/layout';
import { FleetFolderParts } from '../src/pipeline/fleet-folder-parts';
import { loadFleet } from '../src/fleet/load';
import { renderFleet } from '../src/pipeline/render';
import { OutputCheck, OutputTree, TreeSink, UnitParts, writeTreeAtomically } from '../src/pipeline/output';
import { diskDigest, unitDigest, UnitDigest } from '../src/pipeline/render-cache';
import { synthesizeInto } from '../src/pipeline/synth';
import { byTreeOrder, treeFiles } from '../src/util/tree-order';
import { awsSpec, readTree, useTempDir, writeFile } from './helpers';

// The fleet folder (`_fleet/`, the Argo CD roots: a file or two per cluster) was held whole
// on the main thread until the last render came back, where the peak is. It now goes to the output a
// share at a time, compared with the disk in one pass in tree order, and digested as it goes.

const dir = useTempDir();
const file = (p: string, content = `${p}\n`): RenderedFile => ({ path: p, content });

describe('tree order', () => {
  test('puts a folder\'s files together, where plain string order splits them around a name that continues with a character below "/"', () => {
    // GIVEN paths where "a" is a prefix of sibling names "a-b" and "a.c"
    const paths = ['b', 'a.c', 'a-b/x', 'a/y', 'a/b/z'];
    // WHEN sorted in tree order, and in plain string order
    // THEN tree order keeps a/ whole, before a-b/ and a.c; string order puts a-b/x and a.c before a/
    expect([...paths].sort(byTreeOrder)).toEqual(['a/b/z', 'a/y', 'a-b/x', 'a.c', 'b']);
    expect([...paths].sort()).toEqual(['a-b/x', 'a.c', 'a/b/z', 'a/y', 'b']);
  });

  test('is the order of a sorted walk of the folder; a missing folder has no file', () => {
    // GIVEN those files on disk, written in another order
    const root = path.join(dir(), 'u');
    for (const p of ['b', 'a.c', 'a-b/x', 'a/y', 'a/b/z']) {
      writeFile(root, p, p);
    }
    // WHEN the folder is walked
    // THEN its files come in tree order, prefixed
    expect([...treeFiles(root, 'u')]).toEqual(['u/a/b/z', 'u/a/y', 'u/a-b/x', 'u/a.c', 'u/b']);
    expect([...treeFiles(path.join(dir(), 'none'), 'none')]).toEqual([]);
  });
});

describe("a unit's digest", () => {
  test('given in parts in tree order is the digest of the whole, and of the same files on disk', () => {
    // GIVEN a unit whose tree order differs from string order
    const files = [file('u/a/x'), file('u/a/y'), file('u/a-b/z')];
    const out = path.join(dir(), 'out');
    writeTreeAtomically(out, files);
    // WHEN it is digested in two parts, whole, and from disk
    const parts = new UnitDigest();
    parts.add([files[1], files[0]]);
    parts.add([files[2]]);
    // THEN the three agree
    const whole = unitDigest(files);
    expect(parts.digest()).toBe(whole);
    expect(diskDigest(out, 'u')).toBe(whole);
  });
});

/** An output holding `_fleet/` with three groups, committed. */
function fleetOutput(): { out: string; files: RenderedFile[] } {
  const out = path.join(dir(), 'dist');
  const files = [file('_fleet/g/a/k.yaml'), file('_fleet/g/a-b/k.yaml'), file('_fleet/g/c/k.yaml')];
  writeTreeAtomically(out, files);
  return { out, files };
}

describe('a unit given in parts to the output', () => {
  test('as it is on disk: nothing is staged or written', () => {
    // GIVEN the output
    const { out, files } = fleetOutput();
    const before = readTree(out);
    // WHEN the same files are given in two parts
    const tree = OutputTree.open(out);
    const unit = tree.openUnit('_fleet');
    unit.put([files[1], files[0]]);
    unit.put([files[2]]);
    // THEN the unit is the same, and the commit writes nothing
    expect(unit.close()).toBe(true);
    expect(tree.commit()).toEqual({ replaced: [], removed: [], written: 0 });
    expect(readTree(out)).toEqual(before);
  });

  test('with a file changed in a later part: the files before it are copied from the output, and the unit is replaced whole', () => {
    // GIVEN the output
    const { out, files } = fleetOutput();
    // WHEN the second part changes a file
    const tree = OutputTree.open(out);
    const unit = tree.openUnit('_fleet');
    unit.put([files[0], files[1]]);
    unit.put([file('_fleet/g/c/k.yaml', 'new\n')]);
    // THEN the unit differs, and after the commit holds exactly the given files
    expect(unit.close()).toBe(false);
    expect(tree.commit()).toEqual({ replaced: ['_fleet'], removed: [], written: 3 });
    expect(readTree(out)).toEqual({
      '.ccm-gitops': expect.any(String),
      '_fleet/g/a/k.yaml': '_fleet/g/a/k.yaml\n',
      '_fleet/g/a-b/k.yaml': '_fleet/g/a-b/k.yaml\n',
      '_fleet/g/c/k.yaml': 'new\n',
    });
  });

  test('with a file on disk it does not have, between two parts: the file goes at the commit', () => {
    // GIVEN the output and a file in a folder that sorts between the parts
    const { out, files } = fleetOutput();
    writeFile(out, '_fleet/g/a-b/stray.yaml', 'stray');
    // WHEN the files are given
    const tree = OutputTree.open(out);
    const unit = tree.openUnit('_fleet');
    unit.put([files[0], files[1]]);
    unit.put([files[2]]);
    // THEN the unit differs, and the stray file is gone after the commit
    expect(unit.close()).toBe(false);
    tree.commit();
    expect(Object.keys(readTree(out)).sort()).toEqual(['.ccm-gitops', '_fleet/g/a-b/k.yaml', '_fleet/g/a/k.yaml', '_fleet/g/c/k.yaml']);
  });

  test('with no file: the unit is not put, and the commit removes its folder', () => {
    // GIVEN the output
    const { out } = fleetOutput();
    // WHEN the unit is opened and closed with no part
    const tree = OutputTree.open(out);
    const unit = tree.openUnit('_fleet');
    // THEN it is not the same, and the folder is removed
    expect(unit.close()).toBe(false);
    expect(tree.commit().removed).toEqual(['_fleet']);
    expect(fs.existsSync(path.join(out, '_fleet'))).toBe(false);
  });

  test('out of tree order: refused as an internal error, the output unchanged', () => {
    // GIVEN the output
    const { out, files } = fleetOutput();
    const before = readTree(out);
    // WHEN a part comes before one already given
    const tree = OutputTree.open(out);
    const unit = tree.openUnit('_fleet');
    unit.put([files[2]]);
    // THEN it is refused, and nothing changes
    expect(() => unit.put([files[0]])).toThrow('internal error: "_fleet/g/a/k.yaml" is given after "_fleet/g/c/k.yaml" in _fleet/');
    tree.close();
    expect(readTree(out)).toEqual(before);
  });

  test("whose folder cannot be read: the environment's error, naming the path, the output unchanged", () => {
    // GIVEN an output where the unit's name is a file
    const out = path.join(dir(), 'dist');
    writeTreeAtomically(out, [file('_fleet')]);
    const before = readTree(out);
    // WHEN the unit is opened (compiled code in a process of its own: file-system errors made in jest's sandbox are not Node's Error)
    const output = path.join(__dirname, '..', 'lib', 'src', 'pipeline', 'output.js');
    const script = `const { OutputTree } = require(${JSON.stringify(output)}); const t = OutputTree.open(process.argv[1]);
      try { t.openUnit('_fleet'); } catch (e) { process.stdout.write(e.kind + ': ' + e.message); } finally { t.close(); }`;
    const said = execFileSync(process.execPath, ['-e', script, out], { encoding: 'utf8' });
    // THEN the walk's error is reported as the environment's
    expect(said).toBe(
      `environment: cannot write ${out}: not a directory (ENOTDIR) at ${path.join(fs.realpathSync(out), '_fleet')}; ${out} is unchanged`,
    );
    expect(readTree(out)).toEqual(before);
  });

  test('checked (--check): each difference, as the whole unit reports them', () => {
    // GIVEN the output, with a stray file
    const { out, files } = fleetOutput();
    writeFile(out, '_fleet/g/a-b/stray.yaml', 'stray');
    // WHEN a changed file, a missing one and the others are given in parts
    const check = new OutputCheck(out);
    const unit = check.openUnit('_fleet');
    unit.put([files[0]]);
    unit.put([files[1], file('_fleet/g/b/k.yaml')]);
    unit.put([file('_fleet/g/c/k.yaml', 'new\n')]);
    // THEN every difference is reported, and the unit is not the same
    expect(unit.close()).toBe(false);
    expect(check.finish()).toEqual([
      { path: '_fleet/g/a-b/stray.yaml', state: 'extra' },
      { path: '_fleet/g/b/k.yaml', state: 'missing' },
      { path: '_fleet/g/c/k.yaml', state: 'changed' },
    ]);
  });
});

/** A sink that records what it is given; `_fleet` in parts. */
function recordingSink(events: string[]): TreeSink {
  return {
    hasUnit: () => false,
    putUnit: (unit, files) => events.push(`unit ${unit} ${files.length}`),
    keepUnit: () => undefined,
    putRootFile: () => undefined,
    openUnit: (unit): UnitParts => ({
      put: (files) => events.push(`part ${unit} ${files.length}`),
      close: () => events.push(`close ${unit}`) < 0,
    }),
  };
}

describe('the fleet folder', () => {
  test('of a synth goes to the output a share of 32 clusters at a time, never whole', () => {
    // GIVEN 70 clusters with an Argo CD root each (three files: kustomization, root kustomization, root Application)
    const clusters = path.join(dir(), 'clusters');
    for (let i = 0; i < 70; i++) {
      writeFile(
        clusters,
        `c${i}.yaml`,
        awsSpec(`c${String(i).padStart(2, '0')}`, { gitops: { engine: 'argocd', repoURL: 'https://git.example.com/fleet.git' } }),
      );
    }
    // WHEN the fleet is synthesized on this thread into a sink that takes units in parts
    const events: string[] = [];
    synthesizeInto({ clusters, out: path.join(dir(), 'dist'), jobs: 1 }, recordingSink(events));
    // THEN the fleet folder came in three parts of 32, 32 and 6 clusters' files, then was closed
    expect(events.filter((e) => e.includes('_fleet'))).toEqual(['part _fleet 96', 'part _fleet 96', 'part _fleet 18', 'close _fleet']);
  });

  test('takes the shares in their order, whatever order they come back in', () => {
    // GIVEN the parts of three shares
    const events: string[] = [];
    const parts = new FleetFolderParts(recordingSink(events), 3);
    // WHEN they come back as 2, 0, 1
    parts.put(2, [file('_fleet/c/k.yaml')]);
    parts.put(0, [file('_fleet/a/k.yaml'), file('_fleet/a/r.yaml')]);
    expect(events).toEqual(['part _fleet 2']);
    parts.put(1, [file('_fleet/b/k.yaml')]);
    // THEN the sink got them as 0, 1, 2, and the digest is the whole folder's
    expect(events).toEqual(['part _fleet 2', 'part _fleet 1', 'part _fleet 1']);
    expect(parts.close().digest).toBe(unitDigest(['a/k', 'a/r', 'b/k', 'c/k'].map((p) => file(`_fleet/${p}.yaml`))));
    expect(parts.files).toBe(4);
  });

  test('passes each share through the last secret guard before the sink sees it', () => {
    // GIVEN a second share whose file holds a private key
    const events: string[] = [];
    const parts = new FleetFolderParts(recordingSink(events), 2);
    parts.put(0, [file('_fleet/a/k.yaml')]);
    const pem = 'key: |\n  -----BEGIN RSA PRIVATE KEY-----\n  MIIEowIBAAKCAQEA\n  -----END RSA PRIVATE KEY-----\n';
    // WHEN it comes back
    // THEN it is refused, naming the file and not the value, and the sink never got it
    expect(() => parts.put(1, [file('_fleet/b/k.yaml', pem)])).toThrow(
      '_fleet/b/k.yaml would hold a private key (PEM block); nothing was written. Find the input that carries it (spec, cloud config, kept output) and remove it',
    );
    expect(events).toEqual(['part _fleet 1']);
  });

  test('refuses to close while a share has not come back', () => {
    // GIVEN three shares of which one came back
    const parts = new FleetFolderParts(recordingSink([]), 3);
    parts.put(1, [file('_fleet/b/k.yaml')]);
    // WHEN closed
    // THEN an internal error names what is missing
    expect(() => parts.close()).toThrow('internal error: share 1 of 3 of the Argo CD roots did not come back');
  });
});

describe('the fleet folder rendered by the workers (compiled code)', () => {
  const main = path.join(__dirname, '..', 'lib', 'src', 'main.js');
  const argo = (name: string, revision = 'main') =>
    awsSpec(name, { gitops: { engine: 'argocd', repoURL: 'https://git.example.com/fleet.git', revision } });

  test('a changed root, a cluster gone and a stray file: the output is what a whole render writes', () => {
    // GIVEN 80 clusters with Argo CD roots (three shares) rendered by two workers with the caches on
    const root = dir();
    const clusters = path.join(root, 'clusters');
    const names = Array.from({ length: 80 }, (_v, i) => `c${String(i).padStart(3, '0')}`);
    names.forEach((n) => writeFile(clusters, `${n}.yaml`, argo(n)));
    const out = path.join(root, 'out', 'dist');
    const env = { PATH: process.env.PATH, CCM_GITOPS_CACHE_DIR: path.join(root, 'cache') };
    const run = () => execFileSync(process.execPath, [main, '--clusters', clusters, '--out', out, '--quiet', '--jobs', '2'], { env });
    run();
    // WHEN one root changes, one cluster goes, a file is added to the fleet folder by hand, and synth runs again
    writeFile(clusters, 'c040.yaml', argo('c040', 'release-2'));
    fs.rmSync(path.join(clusters, 'c070.yaml'));
    writeFile(out, '_fleet/argocd/cluster/c001/stray.yaml', 'stray');
    run();
    // THEN the output is the whole render's of the new fleet
    const whole = path.join(root, 'whole', 'dist');
    writeTreeAtomically(whole, renderFleet(loadFleet(clusters)));
    expect(readTree(out)).toEqual(readTree(whole));
    expect(readTree(out)['_fleet/argocd/cluster/c040/root/application.openshift-gitops.ccm-root.c040.yaml']).toContain('targetRevision: release-2');
  });
});
