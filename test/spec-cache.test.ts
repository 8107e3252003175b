import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { buildId } from '../src/render-cache';
import { SpecCache } from '../src/spec-cache';
import { CachedLoad, LoadCache, loadFleet } from '../src/fleet/load';
import { awsSpec, captureIo, platformSpec, readTree, useTempDir, writeFile } from './helpers';

// The spec cache (issue 18): a spec whose files are unchanged is not parsed, validated and
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
      store: (f, chain, reads, loaded: CachedLoad) => {
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
  writeFile(clusters, 'defaults.yaml', { apiVersion: 'ccm-gitops.io/v1alpha1', kind: 'CloudControllerManagerDefaults', spec: { controlPlaneTopology: 'HighlyAvailable' } });
  writeFile(clusters, 'a/a.yaml', platformSpec('OpenStack', 'a', { cloudConfig: { file: 'a.conf' } }));
  writeFile(clusters, 'a/a.conf', '[Global]\nsecret-name = openstack-credentials\n');
  writeFile(clusters, 'b.yaml', awsSpec('b'));
  return { clusters, out: path.join(dir(), 'dist') };
}

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
    expect(again.warnings.map((w) => w.message)).toEqual(["cluster a: '[Global] secret-name' (line 2) is dropped: the external CCM reads credentials from the cluster's clouds.yaml"]);
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
    writeFile(clusters, 'defaults.yaml', { apiVersion: 'ccm-gitops.io/v1alpha1', kind: 'CloudControllerManagerDefaults', spec: { controlPlaneTopology: 'SingleReplica' } });
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    // THEN b follows them
    expect(readTree(out)[DEPLOYMENT_B]).toContain('replicas: 1');
    expect(readTree(out)).toEqual(fresh(clusters).tree);
    // WHEN a defaults.yaml appears in a's folder
    writeFile(clusters, 'a/defaults.yaml', { apiVersion: 'ccm-gitops.io/v1alpha1', kind: 'CloudControllerManagerDefaults', spec: { controlPlaneTopology: 'HighlyAvailable' } });
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
    expect(second.stderr).toContain("warning: ");
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
