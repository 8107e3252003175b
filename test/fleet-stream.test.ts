import * as fs from 'fs';
import * as path from 'path';
import { fleetMemberOf, fleetSpecFiles, LoadedCluster, loadFleet, streamSpecFiles } from '../src/fleet/load';
import { SpecCache } from '../src/pipeline/spec-cache';
import { awsSpec, useTempDir, writeFile } from './helpers';

// The loader hands each cluster over as it is loaded (synth never holds the fleet whole);
// what it keeps of each is a FleetMember.

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
    const stream = () =>
      streamSpecFiles(
        fleetSpecFiles(clusters),
        clusters,
        undefined,
        (c) => events.push(c.member.name),
        () => events.push('failing'),
      );
    // THEN the error is the whole load's, thrown after the last file
    expect(stream).toThrow(
      expect.objectContaining({
        message: (() => {
          try {
            loadFleet(clusters);
            return '';
          } catch (e) {
            return (e as Error).message;
          }
        })(),
      }),
    );
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
    expect(handed).toEqual([
      ['alpha', false],
      ['alpha', true],
      ['bravo', false],
    ]);
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
    expect(() => streamSpecFiles(fleetSpecFiles(clusters), clusters, first, () => undefined)).toThrow(
      'cluster names must be unique across the fleet',
    );
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
    expect(() => streamSpecFiles(fleetSpecFiles(clusters), clusters, cache, (c) => handed.push([c.member.name, c.nameTaken === true]))).toThrow(
      'cluster names must be unique across the fleet',
    );
    // THEN the three came from the cache, and only the second alpha was marked
    expect(hits).toBe(3);
    expect(handed).toEqual([
      ['alpha', false],
      ['alpha', true],
      ['bravo', false],
    ]);
  });

  test('a member holds no more than the checks across the fleet read', () => {
    // GIVEN two clusters of one GitOps setup
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'a.yaml', awsSpec('a'));
    writeFile(clusters, 'b.yaml', awsSpec('b'));
    // WHEN they are streamed
    const { members } = streamSpecFiles(fleetSpecFiles(clusters), clusters, undefined, () => undefined);
    // THEN a member is one flat object: the name, the spec file and the fields the checks read
    const held = JSON.parse(JSON.stringify(members[0]));
    // identity: what the phase guard finds a renamed cluster by (a platform with migration phases)
    expect(Object.keys(held).sort()).toEqual(['distribution', 'gitops', 'identity', 'name', 'platform', 'specFile', 'supportWithoutMigration']);
    expect([held.name, held.platform, held.distribution]).toEqual(['a', 'AWS', 'openshift']);
    expect(members[0].supportWithoutMigration).toEqual(expect.objectContaining({ inTreeProvider: 'aws' }));
  });
});
