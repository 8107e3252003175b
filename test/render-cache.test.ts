import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import {
  buildId,
  CachedCluster,
  diskDigest,
  fileListOf,
  fileListTemplate,
  fleetFolderKey,
  RenderCache,
  SETTLE_MS,
  verifyUnit,
} from '../src/pipeline/render-cache';
import { ClusterSpec } from '../src/cluster-spec/schema';
import { loadFleet } from '../src/fleet/load';
import { argoCdFleetFiles } from '../src/pipeline/render';
import { encodeRecord, readRecords } from '../src/util/record-file';
import { writeInChunks } from '../src/util/write-in-chunks';
import { awsSpec, captureIo, readTree, useTempDir, writeFile } from './helpers';

// The render cache (an unchanged fleet re-synthesized without rendering) must never
// make synth write or accept a tree other than what the specs render.

const dir = useTempDir();
const DEPLOYMENT = 'c0001/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml';

function synth(...args: string[]): { code: number; stdout: string; stderr: string } {
  const c = captureIo();
  const code = runCli(['synth', ...args], c.io, { CCM_GITOPS_CACHE_DIR: path.join(dir(), 'cache') });
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

function setup(): { clusters: string; out: string; fresh: () => Record<string, string> } {
  const clusters = path.join(dir(), 'clusters');
  for (let i = 0; i < 3; i++) {
    writeFile(clusters, `c${i}.yaml`, awsSpec(`c000${i}`));
  }
  const out = path.join(dir(), 'dist');
  const fresh = () => {
    const f = path.join(dir(), `fresh-${Math.random().toString(36).slice(2)}`);
    expect(runCli(['synth', '-c', clusters, '-o', f, '-q'], captureIo().io, {})).toBe(0);
    return readTree(f);
  };
  return { clusters, out, fresh };
}

describe('the render cache', () => {
  test('is written outside the output, and a cached run renders the same tree', () => {
    const { clusters, out, fresh } = setup();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    // one render cache for the output, one spec cache for the clusters folder
    expect(
      fs
        .readdirSync(path.join(dir(), 'cache'))
        .map((f) => f.replace(/[0-9a-f]{16}/, 'H'))
        .sort(),
    ).toEqual(['H.v8', 'specs-H.v8']);
    expect(synth('-c', clusters, '-o', out)).toEqual({
      code: 0,
      stdout: `rendered 0 clusters (3 unchanged, checked against the render cache) into ${out} (up to date, no file written)\n`,
      stderr: '',
    });
    expect(readTree(out)).toEqual(fresh());
  });

  test('a run says how many clusters it rendered and how many it only checked against the cache', () => {
    // GIVEN a cached output of three clusters
    const { clusters, out, fresh } = setup();
    expect(synth('-c', clusters, '-o', out)).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^rendered 3 clusters into \S+ \(\d+ files written\)\n$/),
      stderr: '',
    });
    // WHEN one spec changes (another infrastructure name: the cluster is rendered again) and the fleet is synthesized again
    writeFile(clusters, 'c1.yaml', awsSpec('c0001', { infrastructureName: 'c0001-fghij' }));
    const run = synth('-c', clusters, '-o', out);
    // THEN one cluster is rendered and the two others are counted as checked, not as rendered (before: "rendered 3 clusters")
    expect(run.stdout).toMatch(
      new RegExp(
        `^rendered 1 cluster \\(2 unchanged, checked against the render cache\\) into ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\((\\d+ files? written|up to date, no file written)\\)\\n$`,
      ),
    );
    expect(readTree(out)).toEqual(fresh());
  });

  test('a hand-edited output file is found and rendered again, although the spec did not change', () => {
    // GIVEN a cached render, and a file of it edited by hand
    const { clusters, out, fresh } = setup();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    fs.writeFileSync(path.join(out, DEPLOYMENT), 'edited');
    // WHEN --check runs, THEN it reports the file; WHEN synth runs, THEN it restores it
    const check = synth('-c', clusters, '-o', out, '--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  changed: ${out}/${DEPLOYMENT}\n`);
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    expect(readTree(out)).toEqual(fresh());
  });

  test('a spec change renders that cluster again', () => {
    const { clusters, out, fresh } = setup();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    writeFile(clusters, 'c1.yaml', awsSpec('c0001', { controlPlaneTopology: 'SingleReplica' }));
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    expect(readTree(out)[DEPLOYMENT]).toContain('replicas: 1');
    expect(readTree(out)).toEqual(fresh());
  });

  test('a corrupt cache file is ignored', () => {
    const { clusters, out, fresh } = setup();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    const [file] = fs.readdirSync(path.join(dir(), 'cache'));
    fs.writeFileSync(path.join(dir(), 'cache', file), '{"version":1,"clusters":');
    writeFile(clusters, 'c1.yaml', awsSpec('c0001', { controlPlaneTopology: 'SingleReplica' }));
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    expect(readTree(out)).toEqual(fresh());
  });
});

describe('checking a folder against its cache record', () => {
  /** Lets the file system's clock tick (its timestamps are coarse), so that a change gets new times. */
  const tick = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30);
  const entry = { name: 'u' } as unknown as CachedCluster['entry'];

  function unitOnDisk(): { target: string; record: CachedCluster } {
    const target = path.join(dir(), 'out');
    writeFile(target, 'u/kustomization.yaml', 'resources: [a]\n');
    writeFile(target, 'u/a/kustomization.yaml', 'resources: [x.yaml]\n');
    writeFile(target, 'u/a/x.yaml', 'kind: X\n');
    return { target, record: { key: 'k', digest: diskDigest(target, 'u')!, entry } };
  }

  test('the content is read while a file changed within the settle time; a fingerprint is kept only after it', () => {
    // GIVEN a folder just written, as its record says
    const { target, record } = unitOnDisk();
    // WHEN it is checked now, THEN it is the same, but no fingerprint is kept (a change could hide in the same tick)
    const now = verifyUnit(target, 'u', record);
    expect(now).toEqual({ same: true, record });
    // WHEN it is checked after the settle time, THEN a fingerprint and the file list are kept
    const later = verifyUnit(target, 'u', record, Date.now() + SETTLE_MS + 1000);
    expect(later.same).toBe(true);
    expect(fileListOf('u', later.record.files!)).toEqual(['u/a/kustomization.yaml', 'u/a/x.yaml', 'u/kustomization.yaml']);
    expect(later.record.stat).toMatch(/^[0-9a-f]{64}$/);
  });

  test('clusters of one shape share one file list in the cache, which gives each its own paths back', () => {
    const c1 = fileListTemplate('prod-1', ['prod-1/flux-entry/kustomization.flux-system.ccm-prod-1.yaml', 'prod-1/kustomization.yaml']);
    const c2 = fileListTemplate('prod-22', ['prod-22/flux-entry/kustomization.flux-system.ccm-prod-22.yaml', 'prod-22/kustomization.yaml']);
    expect(c2).toBe(c1);
    expect(fileListOf('prod-22', c1)).toEqual(['prod-22/flux-entry/kustomization.flux-system.ccm-prod-22.yaml', 'prod-22/kustomization.yaml']);
  });

  test.each([
    ['a file rewritten with content of the same size', (t: string) => fs.writeFileSync(path.join(t, 'u/a/x.yaml'), 'kind: Y\n')],
    ['a file added in a sub-folder', (t: string) => fs.writeFileSync(path.join(t, 'u/a/extra.yaml'), 'kind: X\n')],
    ['a file removed', (t: string) => fs.rmSync(path.join(t, 'u/a/x.yaml'))],
    ['a sub-folder with a file added', (t: string) => writeFile(t, 'u/b/y.yaml', 'kind: X\n')],
  ])('%s is found although a fingerprint was kept', (_name, change) => {
    // GIVEN a folder whose record holds a fingerprint
    const { target, record } = unitOnDisk();
    const fingerprinted = verifyUnit(target, 'u', record, Date.now() + SETTLE_MS + 1000).record;
    expect(fingerprinted.stat).toBeDefined();
    // WHEN the folder changes
    tick();
    change(target);
    // THEN the check fails, and the record it returns drops the fingerprint
    const checked = verifyUnit(target, 'u', fingerprinted, Date.now() + SETTLE_MS + 1000);
    expect(checked.same).toBe(false);
    expect(checked.record).toEqual(record);
  });

  test('an unchanged folder with a fingerprint is not read', () => {
    // GIVEN a fingerprinted record whose content digest is then made wrong
    const { target, record } = unitOnDisk();
    const fingerprinted = { ...verifyUnit(target, 'u', record, Date.now() + SETTLE_MS + 1000).record, digest: 'not the content' };
    // WHEN it is checked, THEN the fingerprint alone decides: the content was not read
    expect(verifyUnit(target, 'u', fingerprinted)).toEqual({ same: true, record: fingerprinted });
    // AND without the fingerprint the content is read, and differs from the digest
    const { stat: _s, files: _f, ...plain } = fingerprinted;
    expect(verifyUnit(target, 'u', plain).same).toBe(false);
  });
});

describe('the fleet folder and the render cache', () => {
  test('a hand edit in _fleet/ is found by --check and undone by synth, with the cache on', () => {
    // GIVEN a cached Argo CD fleet (its roots are in _fleet/), synthesized twice (the second run records the folder)
    const { clusters, out } = setup();
    for (let i = 0; i < 3; i++) {
      writeFile(clusters, `c${i}.yaml`, awsSpec(`c000${i}`, { gitops: { engine: 'argocd', repoURL: 'https://git.example.com/fleet.git' } }));
    }
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    const fleetFile = Object.keys(readTree(out)).find((f) => f.startsWith('_fleet/'));
    expect(fleetFile).toBeDefined();
    const before = readTree(out);
    // WHEN one of its files is edited by hand
    fs.appendFileSync(path.join(out, fleetFile!), '# edited\n');
    // THEN --check reports it, and synth writes the folder back (a folder is staged whole)
    const inFolder = Object.keys(readTree(out)).filter((f) => f.startsWith('_fleet/')).length;
    const check = synth('-c', clusters, '-o', out, '--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  changed: ${out}/${fleetFile}\n`);
    expect(synth('-c', clusters, '-o', out)).toEqual({
      code: 0,
      stdout: `rendered 0 clusters (3 unchanged, checked against the render cache) into ${out} (${inFolder} files written)\n`,
      stderr: '',
    });
    expect(readTree(out)).toEqual(before);
  });
});

describe('the Argo CD roots and the render cache', () => {
  const argo = (name: string, gitops: Record<string, unknown> = {}) =>
    awsSpec(name, { gitops: { engine: 'argocd', repoURL: 'https://git.example.com/fleet.git', ...gitops } });

  test('the roots read nothing of a spec but its name and spec.gitops (what fleetFolderKey digests)', () => {
    // GIVEN loaded specs of both Argo CD topologies, wrapped so that reading any other field throws
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'a.yaml', argo('a'));
    writeFile(
      clusters,
      'b.yaml',
      argo('b', { argocd: { topology: 'hub', namespace: 'argocd', project: 'ccm', destinationServer: 'https://b.example.com:6443' } }),
    );
    writeFile(clusters, 'c.yaml', argo('c', { argocd: { topology: 'hub', namespace: 'argocd', project: 'ccm', destinationName: 'c' } }));
    const fleet = loadFleet(clusters);
    const guarded = (spec: ClusterSpec): ClusterSpec =>
      new Proxy(spec, {
        get: (t, k) =>
          k === 'metadata'
            ? { name: t.metadata.name }
            : k === 'spec'
              ? new Proxy(t.spec, {
                  get: (s, f) => {
                    if (f !== 'gitops') {
                      throw new Error(`the Argo CD roots read spec.${String(f)}`);
                    }
                    return s.gitops;
                  },
                })
              : Reflect.get(t, k),
      });
    // WHEN the roots are rendered from the guarded specs
    const files = argoCdFleetFiles({ ...fleet, clusters: fleet.clusters.map((c) => ({ ...c, spec: guarded(c.spec) })) }, 'dist');
    // THEN nothing else was read, and the roots are those of the plain specs
    expect(files).toEqual(argoCdFleetFiles(fleet, 'dist'));
    expect(files.map((f) => f.path)).toContain('_fleet/argocd/hub/argocd/kustomization.yaml');
    // AND the key moves with spec.gitops, not with anything else
    const key = fleetFolderKey(fleet.clusters.map((c) => c.spec));
    const withSpec = (i: number, change: (s: ClusterSpec) => ClusterSpec) =>
      fleetFolderKey(fleet.clusters.map((c, j) => (j === i ? change(c.spec) : c.spec)));
    expect(withSpec(0, (s) => ({ ...s, spec: { ...s.spec, controlPlaneTopology: 'SingleReplica' } }))).toBe(key);
    expect(withSpec(0, (s) => ({ ...s, spec: { ...s.spec, gitops: { ...s.spec.gitops, revision: 'release' } } }))).not.toBe(key);
    expect(
      fleetFolderKey(
        fleet.clusters.map((c) => c.spec),
        'gitops/dist',
      ),
    ).not.toBe(key);
  });

  test('a cached fleet whose gitops settings change renders its roots again, as a run without cache does', () => {
    // GIVEN an Argo CD fleet synthesized twice with the cache (the second run records the roots' folder)
    const clusters = path.join(dir(), 'clusters');
    for (let i = 0; i < 3; i++) {
      writeFile(clusters, `c${i}.yaml`, argo(`c000${i}`));
    }
    const out = path.join(dir(), 'dist');
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    // WHEN one cluster's followed revision changes
    writeFile(clusters, 'c1.yaml', argo('c0001', { revision: 'release-1' }));
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    // THEN its root follows the new revision, and the tree is what a run without cache renders
    const tree = readTree(out);
    const root = Object.keys(tree).find((f) => f.startsWith('_fleet/argocd/cluster/c0001/root/'))!;
    expect(tree[root]).toContain('targetRevision: release-1');
    const fresh = path.join(dir(), 'fresh', 'dist');
    expect(runCli(['synth', '-c', clusters, '-o', fresh, '-q'], captureIo().io, {})).toBe(0);
    expect(tree).toEqual(readTree(fresh));
  });
});

describe('the render cache file', () => {
  const open = () => RenderCache.forOutput(path.join(dir(), 'cache'), path.join(dir(), 'dist'));
  const record = (key: string): CachedCluster => ({ key, digest: `d-${key}` });

  test('a run appends what changed; a removed cluster is appended as gone', () => {
    // GIVEN a saved cache of three clusters
    const first = open();
    ['a', 'b', 'c'].forEach((n) => first.record(n, record(n)));
    first.save();
    const before = fs.readFileSync(first.file);
    // WHEN a run changes one record and the fleet loses another
    const second = open();
    second.record('b', record('b2'));
    second.retain(new Set(['a', 'b']));
    second.save();
    // THEN the file grew, its old bytes untouched, and reads back as the second run left it
    const after = fs.readFileSync(first.file);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(after.length).toBeGreaterThan(before.length);
    const third = open();
    expect(third.units()).toEqual(['a', 'b']);
    expect(third.get('b')).toEqual(record('b2'));
  });

  test('clusters of one shape share one file list and one set of images in the file, and read back whole', () => {
    // GIVEN two clusters whose folders hold the same files (by template), with fingerprints
    const first = open();
    const paths = (u: string) => [`${u}/kustomization.yaml`, `${u}/01-rbac/${u}.yaml`];
    const files = fileListTemplate('c0001', paths('c0001'));
    const images = { cloudControllerManagerAWS: 'quay.io/x@sha256:1', cloudControllerManagerOperator: 'quay.io/y@sha256:2' };
    const entry = (name: string) => ({ name, stages: ['01-rbac'], images }) as unknown as CachedCluster['entry'];
    first.record('c0001', { ...record('c0001'), entry: entry('c0001'), stat: 's1', files });
    first.record('c0002', { ...record('c0002'), entry: entry('c0002'), stat: 's2', files: fileListTemplate('c0002', paths('c0002')) });
    first.save();
    // THEN the file holds the list and the images once
    const stored = [...readRecords(first.file, { torn: false })].slice(1);
    expect(stored.filter((r) => !Array.isArray(r))).toEqual([
      { list: expect.stringMatching(/^[0-9a-f]{16}$/), images },
      { list: expect.stringMatching(/^[0-9a-f]{16}$/), files },
    ]);
    // AND both records read back whole, each with its own paths
    const again = open();
    expect(again.get('c0001')).toEqual({ ...record('c0001'), entry: entry('c0001'), stat: 's1', files });
    expect(again.get('c0002')!.entry).toEqual(entry('c0002'));
    expect(fileListOf('c0002', again.get('c0002')!.files!)).toEqual(paths('c0002'));
  });

  test('a cache of another build is not read; a torn last record loses that record only (a batch of records is one record)', () => {
    // GIVEN a saved cache (its two clusters in one batch), and a cluster appended by a later run
    const first = open();
    ['a', 'b'].forEach((n) => first.record(n, record(n)));
    first.save();
    const saved = fs.readFileSync(first.file);
    const second = open();
    second.record('c', record('c'));
    second.save();
    const whole = fs.readFileSync(first.file);
    expect(whole.subarray(0, saved.length)).toEqual(saved);
    expect(open().units()).toEqual(['a', 'b', 'c']);
    // WHEN its last record is cut short THEN the others are still served
    fs.writeFileSync(first.file, whole.subarray(0, whole.length - 2));
    expect(open().units()).toEqual(['a', 'b']);
    // AND a cut in the batch loses the batch's records
    fs.writeFileSync(first.file, saved.subarray(0, saved.length - 2));
    expect(open().units()).toEqual([]);
    // WHEN its header names another build THEN nothing is served
    fs.writeFileSync(
      first.file,
      Buffer.concat([encodeRecord({ version: 4, build: 'f'.repeat(64) }), whole.subarray(encodeRecord({ version: 4, build: buildId() }).length)]),
    );
    expect(open().units()).toEqual([]);
  });
});

describe('synth --only with the render cache', () => {
  test("the kept clusters' summary lines come from the cache: a hand-broken .fleet.json is written back, the others still kept", () => {
    // GIVEN a cached output of three clusters, synthesized twice (the second run fingerprints the folders)
    const { clusters, out, fresh } = setup();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    // WHEN .fleet.json is broken by hand and one cluster is synthesized with --only
    fs.writeFileSync(path.join(out, '.fleet.json'), '{"broken": true}\n');
    const run = synth('-c', clusters, '-o', out, '--only', 'c0001');
    // THEN the two others are kept (their lines are the cache's), and the summary is what a full render writes
    expect(run).toEqual({
      code: 0,
      stdout: `rendered 0 clusters (2 kept from ${out}; 1 unchanged, checked against the render cache) into ${out} (1 file written)\n`,
      stderr: '',
    });
    expect(readTree(out)).toEqual(fresh());
  });
});

describe('reading a record file', () => {
  test('records larger than the read buffer, and a torn tail, read as written', () => {
    // GIVEN records around and beyond the megabyte a read takes, then a torn one
    const file = path.join(dir(), 'records.v8');
    const values = [{ a: 1 }, 'x'.repeat(1_500_000), { b: 'y'.repeat(1 << 20) }, [1, 2, 3]];
    fs.writeFileSync(file, Buffer.concat([...values.map(encodeRecord), encodeRecord('cut').subarray(0, 6)]));
    // WHEN it is read
    const end = { torn: false };
    // THEN every whole record comes back, in order, and the torn one is reported
    expect([...readRecords(file, end)]).toEqual(values);
    expect(end.torn).toBe(true);
    const whole = { torn: false };
    fs.writeFileSync(file, Buffer.concat(values.map(encodeRecord)));
    expect([...readRecords(file, whole)]).toEqual(values);
    expect(whole.torn).toBe(false);
  });
});

describe('writing a file in chunks', () => {
  test('strings and byte pieces, many and large, are written in order, byte for byte', () => {
    // GIVEN thousands of small byte pieces between strings (multi-byte too), and pieces over a megabyte
    const pieces: (string | Uint8Array)[] = [];
    for (let i = 0; i < 3000; i++) {
      pieces.push(`line ${i} é😀\n`, Buffer.from([i % 256, 10]));
    }
    pieces.push('x'.repeat(1_200_000), Buffer.alloc(1_100_000, 7), 'end\n');
    const file = path.join(dir(), 'chunks.bin');
    // WHEN they are written THEN the file is their concatenation
    writeInChunks(file, pieces);
    expect(fs.readFileSync(file).equals(Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))))).toBe(true);
  });
});
