import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { OutputTree } from '../src/pipeline/output';
import { buildId, RenderCache } from '../src/pipeline/render-cache';
import { synthesizeInto } from '../src/pipeline/synth';
import { SpecCache } from '../src/pipeline/spec-cache';
import { RawRecord, readRecords } from '../src/util/record-file';
import { LoadCache, loadFleet, StoredLoad } from '../src/fleet/load';
import { awsSpec, captureIo, platformSpec, readTree, useTempDir, writeFile } from './helpers';

// The spec cache: a spec whose files are unchanged is not parsed, validated and
// transformed again. It must never make synth accept or render anything a fresh load would not.

const dir = useTempDir();
const cacheDir = () => path.join(dir(), 'cache');

function synth(...args: string[]): { code: number; stdout: string; stderr: string } {
  const c = captureIo();
  const code = runCli(['synth', ...args], c.io, { CCM_GITOPS_CACHE_DIR: cacheDir() });
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

/** The same synth without any cache, into a fresh folder of the same name. */
function fresh(clusters: string): { code: number; stderr: string; tree: Record<string, string> } {
  const out = path.join(dir(), `fresh-${Math.random().toString(36).slice(2)}`, 'dist');
  const c = captureIo();
  const code = runCli(['synth', '-c', clusters, '-o', out], c.io, {});
  return { code, stderr: c.stderr(), tree: code === 0 ? readTree(out) : {} };
}

/** A spec cache that counts what it serves. */
function counting(inner: SpecCache): { cache: LoadCache; hits: () => number; stores: () => number } {
  let hits = 0;
  let stores = 0;
  return {
    cache: {
      lookup: (f, chain) => {
        const hit = inner.lookup(f, chain);
        hits += hit ? 1 : 0;
        return hit;
      },
      store: (f, chain, reads, loaded: StoredLoad) => {
        stores++;
        inner.store(f, chain, reads, loaded);
      },
    },
    hits: () => hits,
    stores: () => stores,
  };
}

function fleetDir(): { clusters: string; out: string } {
  const clusters = path.join(dir(), 'clusters');
  writeFile(clusters, 'defaults.yaml', {
    apiVersion: 'ccm-gitops.io/v1alpha1',
    kind: 'CloudControllerManagerDefaults',
    spec: { controlPlaneTopology: 'HighlyAvailable' },
  });
  writeFile(clusters, 'a/a.yaml', platformSpec('OpenStack', 'a', { cloudConfig: { file: 'a.conf' } }));
  writeFile(clusters, 'a/a.conf', '[Global]\nsecret-name = openstack-credentials\n');
  writeFile(clusters, 'b.yaml', awsSpec('b'));
  return { clusters, out: path.join(dir(), 'dist') };
}

/** What `readRecords` is told of a spec cache file: the record after a spec's is its prepared cluster, left undecoded. */
const specPairs = (v: unknown) => Array.isArray(v) && v[0] === 'spec';

const DEPLOYMENT_B = 'b/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml';

describe('the spec cache', () => {
  test('an unchanged spec is served from the cache, as a fresh load gives it', () => {
    // GIVEN a fleet loaded once through the cache, saved
    const { clusters } = fleetDir();
    const root = fs.realpathSync(clusters);
    const cold = SpecCache.forClusters(cacheDir(), root);
    const first = counting(cold);
    const loaded = loadFleet(clusters, first.cache);
    cold.save();
    expect([first.hits(), first.stores()]).toEqual([0, 2]);
    // WHEN it is loaded again through the cache read back from disk
    const second = counting(SpecCache.forClusters(cacheDir(), root));
    const again = loadFleet(clusters, second.cache);
    // THEN both specs come from the cache, and the fleet and its warnings are those of a load without cache
    expect([second.hits(), second.stores()]).toEqual([2, 0]);
    expect(again).toEqual(loadFleet(clusters));
    expect(again).toEqual(loaded);
    expect(again.warnings.map((w) => w.message)).toEqual([
      "cluster a: '[Global] secret-name' (line 2) is dropped: the external CCM reads credentials from the cluster's clouds.yaml",
    ]);
  });

  test('a fleet named by a relative path (synth -c clusters) is served from the cache, a spec with a cloud config too', () => {
    // GIVEN a fleet synthesized once from its parent folder, the clusters folder named as a user names it
    const { out } = fleetDir();
    const lookups = jest.spyOn(SpecCache.prototype, 'lookup');
    const before = process.cwd();
    process.chdir(dir());
    try {
      expect(synth('-c', 'clusters', '-o', out, '-q').code).toBe(0);
      lookups.mockClear();
      // WHEN the unchanged fleet is synthesized again the same way
      expect(synth('-c', 'clusters', '-o', out, '-q').code).toBe(0);
    } finally {
      process.chdir(before);
    }
    // THEN both specs come from the cache: the read of a.conf is known to be inside the clusters folder
    const served = lookups.mock.calls.map((call, i) => [call[0], lookups.mock.results[i].value !== undefined]);
    lookups.mockRestore();
    expect(served).toEqual([
      [path.join('clusters', 'a', 'a.yaml'), true],
      [path.join('clusters', 'b.yaml'), true],
    ]);
  });

  test('a changed cloud config is read again', () => {
    // GIVEN a cached synth
    const { clusters, out } = fleetDir();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    // WHEN only the cloud config file changes
    writeFile(clusters, 'a/a.conf', '[Global]\nsecret-name = openstack-credentials\n[LoadBalancer]\nlb-method = LEAST_CONNECTIONS\n');
    const run = synth('-c', clusters, '-o', out, '-q');
    // THEN the output is what a fresh load renders, with the new key
    expect(run.code).toBe(0);
    expect(readTree(out)).toEqual(fresh(clusters).tree);
    expect(Object.values(readTree(out)).some((c) => /lb-method +=\s+LEAST_CONNECTIONS/.test(c))).toBe(true);
  });

  test('a changed or added defaults.yaml is read again', () => {
    // GIVEN a cached synth of highly available clusters
    const { clusters, out } = fleetDir();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    expect(readTree(out)[DEPLOYMENT_B]).toContain('replicas: 2');
    // WHEN the top defaults change
    writeFile(clusters, 'defaults.yaml', {
      apiVersion: 'ccm-gitops.io/v1alpha1',
      kind: 'CloudControllerManagerDefaults',
      spec: { controlPlaneTopology: 'SingleReplica' },
    });
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    // THEN b follows them
    expect(readTree(out)[DEPLOYMENT_B]).toContain('replicas: 1');
    expect(readTree(out)).toEqual(fresh(clusters).tree);
    // WHEN a defaults.yaml appears in a's folder
    writeFile(clusters, 'a/defaults.yaml', {
      apiVersion: 'ccm-gitops.io/v1alpha1',
      kind: 'CloudControllerManagerDefaults',
      spec: { controlPlaneTopology: 'HighlyAvailable' },
    });
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    // THEN a follows it and b does not
    expect(readTree(out)).toEqual(fresh(clusters).tree);
    expect(readTree(out)[DEPLOYMENT_B]).toContain('replicas: 1');
  });

  test('warnings of cached specs are printed as on a fresh load', () => {
    const { clusters, out } = fleetDir();
    const first = synth('-c', clusters, '-o', out);
    const second = synth('-c', clusters, '-o', out);
    expect(second.stderr).toBe(first.stderr);
    expect(second.stderr).toBe(fresh(clusters).stderr);
    expect(second.stderr).toContain('warning: ');
  });

  test('a spec with a problem is never cached: the next run reports it again', () => {
    // GIVEN a fleet where b has an unknown topology
    const { clusters, out } = fleetDir();
    writeFile(clusters, 'b.yaml', awsSpec('b', { controlPlaneTopology: 'Twice' }));
    const first = synth('-c', clusters, '-o', out);
    expect(first.code).toBe(1);
    // WHEN synth runs again on the same files
    const second = synth('-c', clusters, '-o', out);
    // THEN it fails the same way, as a load without cache does
    expect(second).toEqual(first);
    expect(second.stderr).toBe(fresh(clusters).stderr);
    expect(fs.existsSync(out)).toBe(false);
  });

  test('a name taken by a new spec is reported against the cached one, line included', () => {
    // GIVEN a cached fleet
    const { clusters, out } = fleetDir();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    // WHEN a new spec takes b's name
    writeFile(clusters, 'c.yaml', awsSpec('b'));
    const run = synth('-c', clusters, '-o', out);
    // THEN both files are named, with their lines, as on a fresh load
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(fresh(clusters).stderr);
    expect(run.stderr).toContain(`${path.join(clusters, 'b.yaml')}:4: metadata.name: "b" is also used by ${path.join(clusters, 'c.yaml')}`);
  });

  test('a cache of another build, or a corrupt one, is not used', () => {
    // GIVEN a saved cache whose build differs
    const { clusters } = fleetDir();
    const root = fs.realpathSync(clusters);
    const cache = SpecCache.forClusters(cacheDir(), root);
    loadFleet(clusters, cache);
    cache.save();
    // the header record names the build (a digest of the code): written by another build, it names another
    const saved = fs.readFileSync(cache.file).toString('latin1');
    expect(saved).toContain(buildId());
    fs.writeFileSync(cache.file, Buffer.from(saved.replace(buildId(), 'f'.repeat(buildId().length)), 'latin1'));
    // THEN nothing is served from it
    const other = counting(SpecCache.forClusters(cacheDir(), root));
    loadFleet(clusters, other.cache);
    expect(other.hits()).toBe(0);
    // AND a corrupt file is ignored
    fs.writeFileSync(cache.file, 'not v8');
    const corrupt = counting(SpecCache.forClusters(cacheDir(), root));
    expect(loadFleet(clusters, corrupt.cache)).toEqual(loadFleet(clusters));
    expect(corrupt.hits()).toBe(0);
  });
});

describe('the spec cache file (appended to, files trusted by their metadata)', () => {
  /** A time far enough ahead that every file written by the test counts as settled (SETTLE_MS before it). */
  const later = () => Date.now() + 60_000;
  /** The example fleet loaded once through a cold cache, saved (every file settled). */
  const savedCache = () => {
    const { clusters } = fleetDir();
    const root = fs.realpathSync(clusters);
    const first = SpecCache.forClusters(cacheDir(), root, later());
    loadFleet(clusters, first);
    first.save();
    return { clusters, root, first };
  };

  test('a run that changes one spec appends its record: the file before it is kept byte for byte', () => {
    // GIVEN a saved cache of two specs
    const { clusters, root, first } = savedCache();
    const before = fs.readFileSync(first.file);
    // WHEN one spec changes and a second run saves
    writeFile(clusters, 'b.yaml', awsSpec('b', { controlPlaneTopology: 'SingleReplica' }));
    const inner = SpecCache.forClusters(cacheDir(), root, later());
    const second = counting(inner);
    loadFleet(clusters, second.cache);
    inner.save();
    // THEN the file grew by that record only, and the next run serves both specs as a fresh load gives them
    const after = fs.readFileSync(first.file);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect([second.hits(), second.stores()]).toEqual([1, 1]);
    const third = counting(SpecCache.forClusters(cacheDir(), root, later()));
    expect(loadFleet(clusters, third.cache)).toEqual(loadFleet(clusters));
    expect(third.hits()).toBe(2);
  });

  test('a torn last record (a run killed while appending) loses that record only, and the next save writes the file whole', () => {
    // GIVEN a saved cache whose last record was cut short
    const { clusters, root, first } = savedCache();
    const whole = fs.readFileSync(first.file);
    fs.writeFileSync(first.file, whole.subarray(0, whole.length - 3));
    // WHEN the next run loads through it and saves
    const inner = SpecCache.forClusters(cacheDir(), root, later());
    const torn = counting(inner);
    // THEN the fleet is what a fresh load gives, and the file is whole again
    expect(loadFleet(clusters, torn.cache)).toEqual(loadFleet(clusters));
    expect(torn.hits()).toBeGreaterThanOrEqual(1);
    inner.save();
    const again = counting(SpecCache.forClusters(cacheDir(), root, later()));
    loadFleet(clusters, again.cache);
    expect(again.hits()).toBe(2);
  });

  test('a settled file is not read again while its metadata holds; a rewrite of the same size is read', () => {
    // GIVEN a cache that learnt the digests of the specs and the cloud config (all settled)
    const { clusters, root } = savedCache();
    const conf = path.join(clusters, 'a', 'a.conf');
    // WHEN the next run looks the specs up
    const reads: string[] = [];
    const spy = jest.spyOn(fs, 'readFileSync').mockImplementation(
      (
        (real) =>
        (file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
          reads.push(String(file));
          return (real as (...a: unknown[]) => unknown)(file, ...rest);
        }
      )(fs.readFileSync) as typeof fs.readFileSync,
    );
    let second: ReturnType<typeof counting>;
    try {
      second = counting(SpecCache.forClusters(cacheDir(), root, later()));
      for (const f of [path.join(clusters, 'a', 'a.yaml'), path.join(clusters, 'b.yaml')]) {
        expect(second.cache.lookup(f, [path.join(clusters, 'defaults.yaml')])).toBeDefined();
      }
    } finally {
      spy.mockRestore();
    }
    // THEN no input file was read (the cache file was)
    expect(reads.filter((f) => f.startsWith(clusters))).toEqual([]);
    // AND WHEN the cloud config is rewritten with other bytes of the same length
    const text = fs.readFileSync(conf, 'utf8');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    fs.writeFileSync(conf, text.replace('openstack-credentials', 'openstack-credentialz'));
    // THEN the spec that reads it is loaded again: the new value's problem is reported, as a fresh load reports it
    const third = counting(SpecCache.forClusters(cacheDir(), root, later()));
    expect(() => loadFleet(clusters)).toThrow('is set to a non-default value "openstack-credentialz"');
    expect(() => loadFleet(clusters, third.cache)).toThrow('is set to a non-default value "openstack-credentialz"');
    expect(third.hits()).toBe(1);
  });

  test('a prepared cluster stays on disk until asked for; a damaged one is loaded again from its spec, never served', () => {
    // GIVEN a saved cache of two specs
    const { clusters, root, first } = savedCache();
    // WHEN the bytes of a's prepared cluster are overwritten on disk (same length)
    const raw = [...readRecords(first.file, { torn: false }, specPairs)].filter((r): r is RawRecord => r instanceof RawRecord);
    expect(raw).toHaveLength(2);
    const fd = fs.openSync(first.file, 'r+');
    fs.writeSync(fd, Buffer.alloc(raw[0].length), 0, raw[0].length, raw[0].offset);
    fs.closeSync(fd);
    // THEN its lookup still answers from the records in memory, but reading its cluster is refused with the file to delete
    const cache = SpecCache.forClusters(cacheDir(), root, later());
    const aFile = path.join(clusters, 'a', 'a.yaml');
    const hit = cache.lookup(aFile, [path.join(clusters, 'defaults.yaml')])!;
    expect(hit.member.name).toBe('a');
    expect(() => hit.prepared()).toThrow(
      `the spec cache ${first.file} does not hold the cluster a it listed; delete the file (or run with --no-cache)`,
    );
    // AND a load through it serves both specs from the cache, and gives the fleet a load without cache gives
    const counted = counting(SpecCache.forClusters(cacheDir(), root, later()));
    expect(loadFleet(clusters, counted.cache)).toEqual(loadFleet(clusters));
    expect(counted.hits()).toBe(2);
  });

  test("a spec's record is held until its lookup only; the save copies its pair all the same", () => {
    // GIVEN a saved cache of two specs
    const { clusters, root } = savedCache();
    const cache = SpecCache.forClusters(cacheDir(), root, later());
    const aFile = path.join(clusters, 'a', 'a.yaml');
    const chain = [path.join(clusters, 'defaults.yaml')];
    // WHEN a is looked up twice in one run
    const hit = cache.lookup(aFile, chain);
    const again = cache.lookup(aFile, chain);
    // THEN the first lookup is served and the second is not: the record was let go (a spec is looked up once per run)
    expect(hit?.member.name).toBe('a');
    expect(again).toBeUndefined();
    // AND the hit's cluster is still read from the file
    expect(hit!.prepared().spec.metadata.name).toBe('a');
    // AND when b is gone, the save rewrites the file with a's pair copied from it: the next run serves a from it
    fs.rmSync(path.join(clusters, 'b.yaml'));
    cache.save();
    const next = counting(SpecCache.forClusters(cacheDir(), root, later()));
    expect(loadFleet(clusters, next.cache)).toEqual(loadFleet(clusters));
    expect([next.hits(), next.stores()]).toEqual([1, 0]);
  });

  test('a run reads from the cache file the prepared clusters it renders, and no other', () => {
    // GIVEN a fleet synthesized twice with both caches (the second run takes the folders' fingerprints)
    const { clusters, out } = fleetDir();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    // WHEN it is synthesized again through a spec cache that counts the prepared clusters read
    const run = () => {
      const inner = SpecCache.forClusters(cacheDir(), fs.realpathSync(clusters));
      const read: string[] = [];
      const specCache: LoadCache = {
        lookup: (f, chain) => {
          const hit = inner.lookup(f, chain);
          return hit && { ...hit, prepared: () => (read.push(hit.member.name), hit.prepared()) };
        },
        store: (f, chain, reads, loaded) => inner.store(f, chain, reads, loaded),
      };
      const tree = OutputTree.open(out);
      const cache = RenderCache.forOutput(cacheDir(), tree.remote.target);
      synthesizeInto({ clusters, out, cache, specCache }, tree);
      inner.save();
      const written = tree.commit().written;
      cache.save();
      return { read, written };
    };
    // THEN nothing changed, nothing is read
    expect(run()).toEqual({ read: [], written: 0 });
    // AND after a rendered file of b is edited by hand, b alone is read, to render its folder again (a folder is staged whole)
    const folderFiles = Object.keys(readTree(path.join(out, 'b'))).length;
    fs.appendFileSync(path.join(out, 'b', 'kustomization.yaml'), '# edited\n');
    expect(run()).toEqual({ read: ['b'], written: folderFiles });
  });

  test('what a run loads goes to a spool file that no run leaves behind, and is saved as pairs of records', () => {
    // GIVEN a cold cache
    const { clusters } = fleetDir();
    const root = fs.realpathSync(clusters);
    const cache = SpecCache.forClusters(cacheDir(), root, later());
    // WHEN a fleet is loaded through it
    loadFleet(clusters, cache);
    // THEN nothing but the cache file is ever in the cache folder (the spool is unlinked once open)
    expect(fs.existsSync(cacheDir()) ? fs.readdirSync(cacheDir()) : []).toEqual([]);
    cache.save();
    expect(fs.readdirSync(cacheDir())).toEqual([path.basename(cache.file)]);
    // AND the file holds each spec's record followed by its prepared cluster, then the files the specs share
    const records = [...readRecords(cache.file, { torn: false }, specPairs)].slice(1);
    const kinds = records.map((r) => (r instanceof RawRecord ? 'prepared' : (r as [string, string])[0]));
    expect(kinds).toEqual(['spec', 'prepared', 'spec', 'prepared', 'file', 'file']);
    expect(
      records.filter((r) => !(r instanceof RawRecord) && (r as string[])[0] === 'file').map((r) => path.relative(clusters, (r as string[])[1])),
    ).toEqual(['a/a.conf', 'defaults.yaml']);
  });

  test("a spec file's metadata and digest are in the spec's record, which a run lets go at the lookup, not in the table of files it holds", () => {
    // GIVEN a cold cache that loads the fleet (every file settled)
    const { clusters, root, first } = savedCache();
    // WHEN the saved file is read
    const specs = [...readRecords(first.file, { torn: false }, specPairs)]
      .slice(1)
      .filter((r) => !(r instanceof RawRecord) && (r as string[])[0] === 'spec') as [string, string, { own?: { stat: string; digest: string } }][];
    // THEN each spec's record carries its file's metadata and the SHA-256 of its bytes
    expect(specs.map(([, file]) => path.relative(clusters, file))).toEqual(['a/a.yaml', 'b.yaml']);
    for (const [, file, spec] of specs) {
      const st = fs.statSync(file);
      expect(spec.own).toEqual({
        stat: `${st.dev}:${st.ino}:${st.size}:${st.mode}:${st.mtimeMs}:${st.ctimeMs}`,
        digest: createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
      });
    }
    // AND the next run serves both without reading either spec file (the settled-file test above counts the reads)
    const again = counting(SpecCache.forClusters(cacheDir(), root, later()));
    expect(loadFleet(clusters, again.cache)).toEqual(loadFleet(clusters));
    expect(again.hits()).toBe(2);
  });

  test('a file changed within SETTLE_MS of its reading is not trusted by its metadata', () => {
    // GIVEN a cache saved right after the files were written (now: nothing settled)
    const { clusters } = fleetDir();
    const root = fs.realpathSync(clusters);
    const first = SpecCache.forClusters(cacheDir(), root);
    loadFleet(clusters, first);
    first.save();
    // THEN it holds the specs but no file record: every file is read and digested next time
    const kinds = [...readRecords(first.file, { torn: false }, specPairs)]
      .slice(1)
      .map((r) => (r instanceof RawRecord ? 'prepared' : (r as [string, string])[0]));
    expect(kinds).toEqual(['spec', 'prepared', 'spec', 'prepared']);
  });
});
