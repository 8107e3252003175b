import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { parseShard, shardOf } from '../src/pipeline/synth';
import { awsSpec, captureIo, readTree, useTempDir, writeFile } from './helpers';

// --shard I/N renders a deterministic share of the fleet; assemble puts the shards together.
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
    const inShard = shards.map((s) =>
      fs
        .readdirSync(s)
        .filter((n) => n.startsWith('cluster-'))
        .sort(),
    );
    expect(inShard.flat().sort()).toEqual([...NAMES].sort());
    shards.forEach((_s, i) => expect(inShard[i]).toEqual(NAMES.filter((n) => shardOf(n, 3) === i + 1).sort()));
    // AND the assembled tree is the full synth's
    expect(r).toEqual({
      code: 0,
      stdout: `assembled 12 clusters from 3 shard outputs into ${path.join(dir(), 'dist')} (${Object.keys(readTree(path.join(dir(), 'full'))).length} files written)\n`,
      stderr: '',
    });
    expect(readTree(path.join(dir(), 'dist'))).toEqual(readTree(path.join(dir(), 'full')));
  });

  test('the split does not depend on file names or input order', () => {
    const a = path.join(dir(), 'a');
    const b = path.join(dir(), 'b');
    fleet(a, NAMES);
    fleet(b, [...NAMES].reverse());
    expect(cli('synth', '-c', a, '-o', path.join(dir(), 'oa'), '-q', '--shard', '2/3').code).toBe(0);
    expect(cli('synth', '-c', b, '-o', path.join(dir(), 'ob'), '-q', '--shard', '2/3').code).toBe(0);
    const clustersOf = (o: string) =>
      fs
        .readdirSync(o)
        .filter((n) => n.startsWith('cluster-'))
        .sort();
    expect(clustersOf(path.join(dir(), 'ob'))).toEqual(clustersOf(path.join(dir(), 'oa')));
  });

  test('assemble refuses a missing shard, naming the clusters', () => {
    const clusters = path.join(dir(), 'clusters');
    fleet(clusters, NAMES);
    expect(cli('synth', '-c', clusters, '-o', path.join(dir(), 's1'), '-q', '--shard', '1/2').code).toBe(0);
    const r = cli('assemble', '-c', clusters, '-o', path.join(dir(), 'dist'), path.join(dir(), 's1'));
    const missing = NAMES.filter((n) => shardOf(n, 2) === 2).sort();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${missing.length} clusters are in no shard output (${missing.join(', ')}); run every shard of the split and pass all their outputs\n`,
    );
    expect(fs.existsSync(path.join(dir(), 'dist'))).toBe(false);
  });

  test.each(['0/2', '3/2', '1/0', 'a/b', '1', '1/2/3'])('--shard %s is a usage error', (text) => {
    expect(parseShard(text)).toBeUndefined();
    const r = cli('synth', '--shard', text);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: --shard ${JSON.stringify(text)} is not I/N with 1 <= I <= N <= 1000, e.g. 2/4\n`);
  });
});

describe('assemble trusts no shard output: stale shards and edited files are refused', () => {
  const TOKEN = `ghp_${'Z9y8X7w6V5'.repeat(3)}abcdef`;

  function shardsOf(clusters: string): string[] {
    return [1, 2].map((i) => {
      const out = path.join(dir(), `shard-${i}`);
      expect(cli('synth', '-c', clusters, '-o', out, '-q', '--shard', `${i}/2`).code).toBe(0);
      return out;
    });
  }

  test('each shard records the digest of the inputs of each of its clusters', () => {
    const clusters = path.join(dir(), 'clusters');
    fleet(clusters, NAMES);
    const [s1] = shardsOf(clusters);
    const record = JSON.parse(fs.readFileSync(path.join(s1, '.shard.json'), 'utf8'));
    expect(record.shard).toBe('1/2');
    expect(Object.keys(record.clusters)).toEqual(NAMES.filter((n) => shardOf(n, 2) === 1).sort());
    expect(Object.values(record.clusters).every((d) => /^[0-9a-f]{64}$/.test(d as string))).toBe(true);
  });

  test('a shard rendered before a spec changed is refused, naming the cluster and the shard; nothing is written', () => {
    // GIVEN two shard outputs
    const clusters = path.join(dir(), 'clusters');
    fleet(clusters, NAMES);
    const shards = shardsOf(clusters);
    // WHEN a spec of shard 2 changes after the shards were rendered
    const changed = NAMES.filter((n) => shardOf(n, 2) === 2).sort()[0];
    const file = fs.readdirSync(clusters).find((f) => fs.readFileSync(path.join(clusters, f), 'utf8').includes(`name: ${changed}\n`))!;
    writeFile(clusters, file, awsSpec(changed, { controlPlaneTopology: 'SingleReplica' }));
    const out = path.join(dir(), 'dist');
    const r = cli('assemble', '-c', clusters, '-o', out, ...shards);
    // THEN assemble refuses the stale shard
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: 1 cluster was rendered from other specs than ${clusters} holds now: ${changed} (in ${shards[1]}, shard 2/2); render those shards again from these specs, then assemble\n`,
    });
    expect(fs.existsSync(out)).toBe(false);
  });

  test('a token edited into a shard file is refused, naming the file, never printed; nothing is written', () => {
    const clusters = path.join(dir(), 'clusters');
    fleet(clusters, NAMES);
    const shards = shardsOf(clusters);
    const name = NAMES.filter((n) => shardOf(n, 2) === 1).sort()[0];
    const edited = path.join(shards[0], name, 'kustomization.yaml');
    fs.appendFileSync(edited, `# token: ${TOKEN}\n`);
    const out = path.join(dir(), 'dist');
    const r = cli('assemble', '-c', clusters, '-o', out, ...shards);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${edited} would hold a GitHub token; nothing was written. Find the input that carries it (spec, cloud config, kept output) and remove it\n`,
    });
    expect(r.stderr).not.toContain(TOKEN);
    expect(fs.existsSync(out)).toBe(false);
  });

  test('with --only, a kept cluster keeps the digest it was rendered from: changed since, it is still refused', () => {
    // GIVEN two shard outputs, then a spec of shard 1 changed
    const clusters = path.join(dir(), 'clusters');
    fleet(clusters, NAMES);
    const shards = shardsOf(clusters);
    const [kept, other] = NAMES.filter((n) => shardOf(n, 2) === 1).sort();
    const file = fs.readdirSync(clusters).find((f) => fs.readFileSync(path.join(clusters, f), 'utf8').includes(`name: ${kept}\n`))!;
    writeFile(clusters, file, awsSpec(kept, { controlPlaneTopology: 'SingleReplica' }));
    // WHEN shard 1 is rendered again for another cluster only (the changed one is kept as it was)
    expect(cli('synth', '-c', clusters, '-o', shards[0], '-q', '--shard', '1/2', '--only', other).code).toBe(0);
    const r = cli('assemble', '-c', clusters, '-o', path.join(dir(), 'dist'), ...shards);
    // THEN the kept cluster is still stale
    expect(r.stderr).toBe(
      `error: 1 cluster was rendered from other specs than ${clusters} holds now: ${kept} (in ${shards[0]}, shard 1/2); ` +
        'render those shards again from these specs, then assemble\n',
    );
  });

  test('a shard output without its record is refused', () => {
    const clusters = path.join(dir(), 'clusters');
    fleet(clusters, NAMES);
    const shards = shardsOf(clusters);
    fs.rmSync(path.join(shards[1], '.shard.json'));
    const r = cli('assemble', '-c', clusters, '-o', path.join(dir(), 'dist'), ...shards);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `error: ${shards[1]} has no readable record of the specs it was rendered from (${path.join(shards[1], '.shard.json')}); ` +
        'render that shard again with synth --shard I/N, then assemble\n',
    });
  });

  test("a whole-fleet synth into a shard's output removes the record without asking for --force", () => {
    const clusters = path.join(dir(), 'clusters');
    fleet(clusters, NAMES);
    const [s1] = shardsOf(clusters);
    expect(cli('synth', '-c', clusters, '-o', s1, '-q')).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(fs.existsSync(path.join(s1, '.shard.json'))).toBe(false);
  });
});
