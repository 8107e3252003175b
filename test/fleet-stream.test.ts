import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { stringify } from 'yaml';
import { FleetEntryPool } from '../src/pipeline/fleet-summary';
import { fleetMemberOf, fleetSpecFiles, LoadedCluster, loadFleet, streamSpecFiles } from '../src/fleet/load';
import { SpecCache } from '../src/pipeline/spec-cache';
import { awsSpec, useTempDir, writeFile } from './helpers';

// The loader hands each cluster over as it is loaded (synth never holds the fleet whole);
// what it keeps of each is a FleetMember, whose repeated parts are shared.

const dir = useTempDir();

describe('loading a fleet a cluster at a time', () => {
  test('each cluster is handed over in file order, and the members are those of the whole load, sorted by name', () => {
    // GIVEN three specs whose files sort otherwise than their names
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'a.yaml', awsSpec('zulu'));
    writeFile(clusters, 'b.yaml', awsSpec('alpha'));
    writeFile(clusters, 'c/c.yaml', awsSpec('mike'));
    // WHEN it is streamed
    const handed: LoadedCluster[] = [];
    const { members, warnings } = streamSpecFiles(fleetSpecFiles(clusters), clusters, undefined, (c) => handed.push(c));
    // THEN the clusters came in file order, each whole, and the members are sorted by name
    expect(handed.map((c) => c.member.name)).toEqual(['zulu', 'alpha', 'mike']);
    const fleet = loadFleet(clusters);
    expect(handed.map((c) => c.prepared()).sort((a, b) => (a.spec.metadata.name < b.spec.metadata.name ? -1 : 1))).toEqual(fleet.clusters);
    expect(members).toEqual(fleet.clusters.map((c) => fleetMemberOf(c)));
    expect(warnings).toEqual(fleet.warnings);
  });

  test('a broken spec is reported once every file is read, with what a whole load reports; the caller hears of it at once', () => {
    // GIVEN a good spec, a broken one, and another good one after it
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'a.yaml', awsSpec('a'));
    writeFile(clusters, 'b.yaml', awsSpec('b', { platform: 'Moon' }));
    writeFile(clusters, 'c.yaml', awsSpec('c'));
    // WHEN it is streamed
    const events: string[] = [];
    const stream = () => streamSpecFiles(fleetSpecFiles(clusters), clusters, undefined, (c) => events.push(c.member.name), () => events.push('failing'));
    // THEN the error is the whole load's, thrown after the last file
    expect(stream).toThrow(expect.objectContaining({ message: (() => { try { loadFleet(clusters); return ''; } catch (e) { return (e as Error).message; } })() }));
    // AND the caller was told the load is failing before the next cluster was handed over (synth renders no more)
    expect(events).toEqual(['a', 'failing', 'c']);
  });

  test('a spec whose name a spec before it has is handed over marked as such (synth renders the first only, and keeps no set of names)', () => {
    // GIVEN two specs of one name, then another
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'a.yaml', awsSpec('alpha'));
    writeFile(clusters, 'b.yaml', awsSpec('alpha'));
    writeFile(clusters, 'c.yaml', awsSpec('bravo'));
    // WHEN it is streamed
    const handed: [string, boolean][] = [];
    const stream = () => streamSpecFiles(fleetSpecFiles(clusters), clusters, undefined, (c) => handed.push([c.member.name, c.nameTaken === true]));
    // THEN the load fails on the name, and only the second alpha was marked
    expect(stream).toThrow('cluster names must be unique across the fleet');
    expect(handed).toEqual([['alpha', false], ['alpha', true], ['bravo', false]]);
  });

  test('a spec served by the spec cache is marked the same way', () => {
    // GIVEN two specs of one name, then another, each stored in the spec cache by a first load
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'a.yaml', awsSpec('alpha'));
    writeFile(clusters, 'b.yaml', awsSpec('alpha'));
    writeFile(clusters, 'c.yaml', awsSpec('bravo'));
    const root = fs.realpathSync(clusters);
    const cacheDir = path.join(dir(), 'cache');
    const first = SpecCache.forClusters(cacheDir, root);
    expect(() => streamSpecFiles(fleetSpecFiles(clusters), clusters, first, () => undefined)).toThrow('cluster names must be unique across the fleet');
    first.save();
    // WHEN it is streamed again, every spec from the cache
    const cache = SpecCache.forClusters(cacheDir, root);
    let hits = 0;
    const lookup = cache.lookup.bind(cache);
    cache.lookup = (...args: Parameters<SpecCache['lookup']>) => {
      const hit = lookup(...args);
      hits += hit ? 1 : 0;
      return hit;
    };
    const handed: [string, boolean][] = [];
    expect(() => streamSpecFiles(fleetSpecFiles(clusters), clusters, cache, (c) => handed.push([c.member.name, c.nameTaken === true]))).toThrow('cluster names must be unique across the fleet');
    // THEN the three came from the cache, and only the second alpha was marked
    expect(hits).toBe(3);
    expect(handed).toEqual([['alpha', false], ['alpha', true], ['bravo', false]]);
  });

  test('members hold one copy of each repeated part, and no more than the checks across the fleet read', () => {
    // GIVEN two clusters of one GitOps setup
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'a.yaml', awsSpec('a'));
    writeFile(clusters, 'b.yaml', awsSpec('b'));
    // WHEN they are streamed
    const { members } = streamSpecFiles(fleetSpecFiles(clusters), clusters, undefined, () => undefined);
    // THEN their spec.gitops is one object, and a member is one flat object: the name, the spec file and the fields the checks read
    expect(members[0].gitops).toBe(members[1].gitops);
    expect(members[0].supportWithoutMigration).toBe(members[1].supportWithoutMigration);
    const held = JSON.parse(JSON.stringify(members[0]));
    // identity: what the phase guard finds a renamed cluster by (a platform with migration phases)
    expect(Object.keys(held).sort()).toEqual(['distribution', 'gitops', 'identity', 'name', 'platform', 'specFile', 'supportWithoutMigration']);
    expect([held.name, held.platform, held.distribution]).toEqual(['a', 'AWS', 'openshift']);
    expect(members[0].supportWithoutMigration).toEqual(expect.objectContaining({ inTreeProvider: 'aws' }));
  });
});

describe('summary lines from the workers', () => {
  test('share their words, images and stages with the lines before them, and read as they came', () => {
    // GIVEN two lines as two workers sent them (copies)
    const line = (name: string) => ({
      name, spec: `${name}.yaml`, distribution: 'openshift', platform: 'AWS', topology: 'HighlyAvailable', managementMode: 'gitops', engine: 'plain', phase: 'external',
      objects: 20, stages: ['01-namespaces-rbac', '04-workloads'], images: { cloudControllerManagerAWS: 'quay.io/x@sha256:1' },
    });
    const pool = new FleetEntryPool();
    // WHEN the pool takes them
    const [a, b] = [pool.share(line('a')), pool.share(line('b'))];
    // THEN they hold one copy of each part, and serialize as they came (same keys, same order)
    expect(b.images).toBe(a.images);
    expect(b.stages).toBe(a.stages);
    expect(JSON.stringify(b)).toBe(JSON.stringify(line('b')));
  });
});

describe('what the loader holds while the specs load', () => {
  // Run in a child process on the compiled loader (`lib/`, compiled by the tests' global setup): a heap snapshot of
  // a small process is quick, and the test process's own heap is not in it.
  const loader = path.join(__dirname, '..', 'lib', 'src', 'fleet', 'load.js');

  test('no spec\'s text is kept once the spec is loaded (a name cut from it would keep all of it)', () => {
    // GIVEN forty specs, each text carrying a comment found nowhere else, and names long enough to be cut from the text
    const clusters = path.join(dir(), 'clusters');
    fs.mkdirSync(clusters, { recursive: true });
    for (let i = 0; i < 40; i++) {
      const name = `retained-text-cluster-${String(i).padStart(3, '0')}`;
      fs.writeFileSync(path.join(clusters, `${name}.yaml`), `# spec-text-marker ${i}\n${stringify(awsSpec(name))}`);
    }
    // WHEN the last spec is handed over, the heap is collected and its strings listed
    const script = `
      const v8 = require('v8');
      const fs = require('fs');
      const { streamSpecFiles, fleetSpecFiles } = require(${JSON.stringify(loader)});
      const files = fleetSpecFiles(process.argv[1]);
      let seen = 0;
      let held = -1;
      streamSpecFiles(files, process.argv[1], undefined, () => {
        if (++seen === files.length) {
          global.gc();
          const file = v8.writeHeapSnapshot(process.argv[2]);
          held = JSON.parse(fs.readFileSync(file, 'utf8')).strings.filter((s) => /^# spec-text-marker \\d+\\n/.test(s)).length;
        }
      });
      process.stdout.write(String(held));`;
    const run = spawnSync(process.execPath, ['--expose-gc', '-e', script, clusters, path.join(dir(), 'load.heapsnapshot')], { encoding: 'utf8' });
    // THEN the text of the spec at hand is in the heap, and none of the thirty-nine before it
    expect(run.stderr).toBe('');
    expect(Number(run.stdout)).toBe(1);
  });
});
