import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { parseShard, shardOf } from '../src/synth';
import { awsSpec, captureIo, readTree, useTempDir, writeFile } from './helpers';

// Issue 18: --shard I/N renders a deterministic share of the fleet; assemble puts the shards together.
const dir = useTempDir();

function cli(...args: string[]): { code: number; stdout: string; stderr: string } {
  const c = captureIo();
  const code = runCli(args, c.io, {});
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

function fleet(clusters: string, names: readonly string[]): void {
  names.forEach((n, i) => writeFile(clusters, `${String(names.length - i).padStart(3, '0')}.yaml`, awsSpec(n)));
}

const NAMES = Array.from({ length: 12 }, (_v, i) => `cluster-${i}`);

describe('--shard I/N and assemble', () => {
  test('the shards split the fleet by name, disjoint and complete, and their assembly is the full synth byte for byte', () => {
    // GIVEN a fleet of twelve clusters, rendered whole
    const clusters = path.join(dir(), 'clusters');
    fleet(clusters, NAMES);
    expect(cli('synth', '-c', clusters, '-o', path.join(dir(), 'full'), '-q').code).toBe(0);
    // WHEN it is rendered as three shards and assembled
    const shards = [1, 2, 3].map((i) => {
      const out = path.join(dir(), `shard-${i}`);
      expect(cli('synth', '-c', clusters, '-o', out, '-q', '--shard', `${i}/3`).code).toBe(0);
      return out;
    });
    const r = cli('assemble', '-c', clusters, '-o', path.join(dir(), 'dist'), ...shards);
    // THEN every cluster is in exactly the shard its name hashes to
    const inShard = shards.map((s) => fs.readdirSync(s).filter((n) => n.startsWith('cluster-')).sort());
    expect(inShard.flat().sort()).toEqual([...NAMES].sort());
    shards.forEach((_s, i) => expect(inShard[i]).toEqual(NAMES.filter((n) => shardOf(n, 3) === i + 1).sort()));
    // AND the assembled tree is the full synth's
    expect(r).toEqual({ code: 0, stdout: `assembled 12 clusters from 3 shard outputs into ${path.join(dir(), 'dist')} (${Object.keys(readTree(path.join(dir(), 'full'))).length} files written)\n`, stderr: '' });
    expect(readTree(path.join(dir(), 'dist'))).toEqual(readTree(path.join(dir(), 'full')));
  });

  test('the split does not depend on file names or input order', () => {
    const a = path.join(dir(), 'a');
    const b = path.join(dir(), 'b');
    fleet(a, NAMES);
    fleet(b, [...NAMES].reverse());
    expect(cli('synth', '-c', a, '-o', path.join(dir(), 'oa'), '-q', '--shard', '2/3').code).toBe(0);
    expect(cli('synth', '-c', b, '-o', path.join(dir(), 'ob'), '-q', '--shard', '2/3').code).toBe(0);
    const clustersOf = (o: string) => fs.readdirSync(o).filter((n) => n.startsWith('cluster-')).sort();
    expect(clustersOf(path.join(dir(), 'ob'))).toEqual(clustersOf(path.join(dir(), 'oa')));
  });

  test('assemble refuses a missing shard, naming the clusters', () => {
    const clusters = path.join(dir(), 'clusters');
    fleet(clusters, NAMES);
    expect(cli('synth', '-c', clusters, '-o', path.join(dir(), 's1'), '-q', '--shard', '1/2').code).toBe(0);
    const r = cli('assemble', '-c', clusters, '-o', path.join(dir(), 'dist'), path.join(dir(), 's1'));
    const missing = NAMES.filter((n) => shardOf(n, 2) === 2).sort();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: ${missing.length} clusters are in no shard output (${missing.join(', ')}); run every shard of the split and pass all their outputs\n`);
    expect(fs.existsSync(path.join(dir(), 'dist'))).toBe(false);
  });

  test.each(['0/2', '3/2', '1/0', 'a/b', '1', '1/2/3'])('--shard %s is a usage error', (text) => {
    expect(parseShard(text)).toBeUndefined();
    const r = cli('synth', '--shard', text);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: --shard ${JSON.stringify(text)} is not I/N with 1 <= I <= N <= 1000, e.g. 2/4\n`);
  });
});
