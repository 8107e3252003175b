import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { loadFleet } from '../src/fleet/load';
import { readFleetEntries } from '../src/pipeline/fleet-summary';
import { RenderCache } from '../src/pipeline/render-cache';
import { SpecCache } from '../src/pipeline/spec-cache';
import { awsSpec, captureIo, readTree, useTempDir, writeFile } from './helpers';

// Files the product reads back from disk that name a path: a crafted one (committed to a repository
// or a pull request) is refused with one error naming the file and field, exit 1, and nothing is touched.

const dir = useTempDir();

function cli(...args: string[]): { code: number; stdout: string; stderr: string } {
  const c = captureIo();
  const code = runCli(args, c.io, {});
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

/** A rendered repository at <tmp>/site/repo, and victim folders outside it (<tmp>/site/victim1, <tmp>/victim2). */
function renderedRepo(): { repo: string; clusters: string; out: string; victims: string[] } {
  const repo = path.join(dir(), 'site', 'repo');
  const clusters = path.join(repo, 'clusters');
  writeFile(clusters, 'a.yaml', awsSpec('aws-a'));
  const out = path.join(repo, 'dist');
  expect(cli('synth', '--clusters', clusters, '--out', out, '-q').code).toBe(0);
  const victims = [path.join(dir(), 'site', 'victim1'), path.join(dir(), 'victim2')];
  for (const v of victims) {
    writeFile(v, 'keep.txt', 'precious');
  }
  return { repo, clusters, out, victims };
}

const VALID = { staging: '.dist.new-1', backup: '.dist.old-1', units: [], removed: [], rootFiles: [] };

describe('a crafted .dist.journal', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a backup above the repository', { backup: '../victim1' }, 'field "backup" is "../victim1", not .dist.old-<pid>'],
    ['a removed entry two levels up', { removed: ['../../victim2'] }, 'field "removed" holds "../../victim2", not a plain name inside dist'],
    ['a unit with a separator', { units: ['a/../../victim1'] }, 'field "units" holds "a/../../victim1", not a plain name inside dist'],
    ['a root file that is ..', { rootFiles: ['..'] }, 'field "rootFiles" holds "..", not a plain name inside dist'],
    ['a removed entry that is not a string', { removed: [7] }, 'field "removed" holds 7, not a plain name inside dist'],
    ['a field that is not a list', { units: 'aws-a' }, 'field "units" is "aws-a", not a list of names'],
  ];
  test('with an absolute staging folder is refused, and that folder survives', () => {
    // GIVEN a journal whose staging folder is a victim's absolute path (never a real system folder in a test)
    const { repo, clusters, out, victims } = renderedRepo();
    const journal = path.join(repo, '.dist.journal');
    fs.writeFileSync(journal, JSON.stringify({ ...VALID, staging: victims[1] }));
    const before = readTree(dir());
    // WHEN synth runs
    const r = cli('synth', '--clusters', clusters, '--out', out, '-q');
    // THEN it is refused naming the field, and the victim is untouched
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${journal}: field "staging" is ${JSON.stringify(victims[1])}, not .dist.new-<pid>; it was not written by ccm-gitops synth: remove it and run ccm-gitops synth again; nothing was changed\n`,
    );
    expect(readTree(dir())).toEqual(before);
  });

  test.each(cases)('with %s is refused naming the file and field, exit 1, and nothing is touched', (_what, fields, why) => {
    // GIVEN a rendered repository, victims outside it, and a journal beside dist naming a path outside it
    const { repo, clusters, out, victims } = renderedRepo();
    const journal = path.join(repo, '.dist.journal');
    fs.writeFileSync(journal, JSON.stringify({ ...VALID, ...fields }));
    const before = readTree(dir());
    // WHEN synth runs (it completes an interrupted run's journal first)
    const r = cli('synth', '--clusters', clusters, '--out', out, '-q');
    // THEN it exits 1 with one error naming the file and field, and every file (victims, dist, journal) is as it was
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${journal}: ${why}; it was not written by ccm-gitops synth: remove it and run ccm-gitops synth again; nothing was changed\n`,
    );
    expect(readTree(dir())).toEqual(before);
    for (const v of victims) {
      expect(fs.readFileSync(path.join(v, 'keep.txt'), 'utf8')).toBe('precious');
    }
  });

  test('is refused by synth --check with the same error', () => {
    // GIVEN the journal of the issue beside dist
    const { repo, clusters, out } = renderedRepo();
    const journal = path.join(repo, '.dist.journal');
    fs.writeFileSync(journal, JSON.stringify({ ...VALID, backup: '../victim1', removed: ['../../victim2'] }));
    // WHEN synth --check runs
    const r = cli('synth', '--clusters', clusters, '--out', out, '--check');
    // THEN it names the crafted field instead of asking to run synth
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${journal}: field "backup" is "../victim1", not .dist.old-<pid>; it was not written by ccm-gitops synth: remove it and run ccm-gitops synth again; nothing was changed\n`,
    );
  });

  test('larger than any journal synth writes is refused by its size, unread', () => {
    // GIVEN a journal of 16 MiB and one byte (sparse: nothing is written to the disk)
    const { repo, clusters, out } = renderedRepo();
    const journal = path.join(repo, '.dist.journal');
    fs.writeFileSync(journal, '');
    fs.truncateSync(journal, 16 * 1024 * 1024 + 1);
    const r = cli('synth', '--clusters', clusters, '--out', out, '-q');
    expect(r.stderr).toBe(
      `error: ${journal}: is over 16777216 bytes, more than any record synth writes; it was not written by ccm-gitops synth: remove it and run ccm-gitops synth again; nothing was changed\n`,
    );
    expect(r.code).toBe(1);
  });

  test('that is not JSON is refused naming the file', () => {
    const { repo, clusters, out } = renderedRepo();
    const journal = path.join(repo, '.dist.journal');
    fs.writeFileSync(journal, '{"staging":');
    const r = cli('synth', '--clusters', clusters, '--out', out, '-q');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${journal}: is not a JSON object; it was not written by ccm-gitops synth: remove it and run ccm-gitops synth again; nothing was changed\n`,
    );
  });

  test('whose backup folder is a symlink leading outside is refused', () => {
    // GIVEN a journal with well-formed names, but the backup name is a symlink to a victim folder
    const { repo, clusters, out, victims } = renderedRepo();
    fs.symlinkSync(victims[0], path.join(repo, '.dist.old-1'));
    const journal = path.join(repo, '.dist.journal');
    fs.writeFileSync(journal, JSON.stringify({ ...VALID, removed: ['aws-a'] }));
    const before = readTree(victims[0]);
    const dist = readTree(out);
    // WHEN synth runs
    const r = cli('synth', '--clusters', clusters, '--out', out, '-q');
    // THEN it is refused and nothing is moved into the victim folder
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${journal}: field "backup" names ${path.join(repo, '.dist.old-1')}, a symlink; it was not written by ccm-gitops synth: remove it and run ccm-gitops synth again; nothing was changed\n`,
    );
    expect(readTree(victims[0])).toEqual(before);
    expect(readTree(out)).toEqual(dist);
  });

  test('written by an interrupted synth is still completed', () => {
    // GIVEN a well-formed journal whose only step is removing a folder of dist
    const { repo, clusters, out } = renderedRepo();
    fs.mkdirSync(path.join(out, 'stale'));
    fs.writeFileSync(path.join(repo, '.dist.journal'), JSON.stringify({ ...VALID, removed: ['stale'] }));
    // WHEN synth runs
    const r = cli('synth', '--clusters', clusters, '--out', out, '-q');
    // THEN the journal is applied and removed
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(out, 'stale'))).toBe(false);
    expect(fs.existsSync(path.join(repo, '.dist.journal'))).toBe(false);
  });
});

/** A fleet of one cluster rendered as shard 1/1 into <tmp>/shard. */
function oneShard(): { clusters: string; shard: string } {
  const clusters = path.join(dir(), 'repo', 'clusters');
  writeFile(clusters, 'a.yaml', awsSpec('aws-a'));
  const shard = path.join(dir(), 'shard');
  expect(cli('synth', '--clusters', clusters, '--out', shard, '-q', '--shard', '1/1').code).toBe(0);
  return { clusters, shard };
}

describe('assemble', () => {
  test("does not follow a shard's cluster folder that is a symlink: refused, nothing outside copied", () => {
    // GIVEN a shard whose cluster folder was replaced by a symlink to a folder outside it
    const { clusters, shard } = oneShard();
    const outside = path.join(dir(), 'etc');
    writeFile(outside, 'passwd', 'root:x:0:0');
    fs.rmSync(path.join(shard, 'aws-a'), { recursive: true });
    fs.symlinkSync(outside, path.join(shard, 'aws-a'));
    // WHEN it is assembled
    const out = path.join(dir(), 'repo', 'dist');
    const r = cli('assemble', '--clusters', clusters, '--out', out, '-q', shard);
    // THEN it is refused naming the symlink, and nothing is written
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${path.join(shard, 'aws-a')} is a symlink, not a folder synth wrote; assemble follows no link: render that shard again with synth --shard I/N, then assemble\n`,
    );
    expect(fs.existsSync(out)).toBe(false);
  });

  test('refuses an --out that holds a shard, and the shard survives', () => {
    // GIVEN a shard output
    const { clusters, shard } = oneShard();
    const before = readTree(shard);
    // WHEN it is given as the output of assemble
    const r = cli('assemble', '--clusters', clusters, '--out', shard, '-q', shard);
    // THEN it is refused as a usage error, and the shard is as it was
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: --out ${shard} holds the output of synth --shard 1/1 (${path.join(shard, '.shard.json')}); ` +
        'assemble into another folder: the shard outputs are what it reads\n',
    );
    expect(readTree(shard)).toEqual(before);
  });
});

describe('validate-spec', () => {
  test('a file given twice, once through its folder, is one file', () => {
    // GIVEN a clusters folder with one spec
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'x.yaml', awsSpec('aws-x'));
    // WHEN the folder and the file are both given
    const r = cli('validate-spec', clusters, path.join(clusters, 'x.yaml'));
    // THEN the spec is valid, counted once, with no duplicate-name error
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1 spec file valid\n');
  });
});

describe('the other sidecars synth reads back beside dist', () => {
  test('a leftover .dist.old-<pid> that is a symlink is neither followed nor renamed into dist: refused, the victim untouched', () => {
    // GIVEN no dist (as after a kill of an old whole-tree swap) and a backup name that is a symlink to a victim folder
    const { repo, clusters, out, victims } = renderedRepo();
    fs.rmSync(out, { recursive: true });
    const link = path.join(repo, '.dist.old-999999');
    fs.symlinkSync(victims[0], link);
    const before = readTree(victims[0]);
    // WHEN synth runs
    const r = cli('synth', '--clusters', clusters, '--out', out, '-q');
    // THEN it is refused naming the link, the victim keeps its files, the link stays and no dist is written through it
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${link} is a symlink, not a folder synth wrote; synth follows and removes no link beside ${out}: remove it (rm ${link}) and run ccm-gitops synth again; nothing was changed\n`,
    );
    expect(readTree(victims[0])).toEqual(before);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(out)).toBe(false);
  });

  test('a leftover .dist.new-<pid> that is a symlink is refused the same way, and nothing is removed through it', () => {
    // GIVEN a rendered dist and a staging name that is a symlink to a victim folder
    const { repo, clusters, out, victims } = renderedRepo();
    const link = path.join(repo, '.dist.new-999999');
    fs.symlinkSync(victims[0], link);
    const dist = readTree(out);
    // WHEN synth runs
    const r = cli('synth', '--clusters', clusters, '--out', out, '-q');
    // THEN it is refused, and the victim, the link and dist are as they were
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${link} is a symlink, not a folder synth wrote; synth follows and removes no link beside ${out}: remove it (rm ${link}) and run ccm-gitops synth again; nothing was changed\n`,
    );
    expect(readTree(victims[0])).toEqual({ 'keep.txt': 'precious' });
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readTree(out)).toEqual(dist);
  });

  test.each([
    ['a symlink to a file outside', (lock: string, victim: string) => fs.symlinkSync(path.join(victim, 'keep.txt'), lock), 'a symlink'],
    ['a folder', (lock: string) => fs.mkdirSync(lock), 'not a file'],
  ])('a .dist.lock that is %s is refused, not taken over, and nothing is touched', (_what, make, kind) => {
    // GIVEN a rendered dist and a lock beside it that synth never writes
    const { repo, clusters, out, victims } = renderedRepo();
    const lock = path.join(repo, '.dist.lock');
    make(lock, victims[0]);
    const dist = readTree(out);
    // WHEN synth runs
    const r = cli('synth', '--clusters', clusters, '--out', out, '-q');
    // THEN it exits 1 with one error naming the lock, and the lock, the victim and dist are as they were
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${lock} is ${kind}, not a lock synth wrote (a file holding a process id); remove it (rm -r ${lock}) and run ccm-gitops synth again; nothing was written\n`,
    );
    expect(fs.existsSync(lock)).toBe(true);
    expect(readTree(victims[0])).toEqual({ 'keep.txt': 'precious' });
    expect(readTree(out)).toEqual(dist);
  });

  test("a cluster's recorded phase (.migration.json) that is a symlink is not read through: the guard refuses it as unknown", () => {
    // GIVEN a migrating cluster rendered at phase in-tree, whose phase record became a symlink to a file outside dist
    const repo = path.join(dir(), 'site', 'repo');
    const clusters = path.join(repo, 'clusters');
    const out = path.join(repo, 'dist');
    writeFile(clusters, 'c.yaml', awsSpec('c', { migration: { phase: 'in-tree', kubernetesVersion: '1.26' } }));
    expect(cli('synth', '--clusters', clusters, '--out', out, '-q').code).toBe(0);
    const record = path.join(out, 'c', '.migration.json');
    const outside = path.join(dir(), 'site', 'victim1', 'phase.json');
    writeFile(path.dirname(outside), 'phase.json', fs.readFileSync(record, 'utf8'));
    fs.rmSync(record);
    fs.symlinkSync(outside, record);
    // WHEN the spec moves one phase on
    writeFile(clusters, 'c.yaml', awsSpec('c', { migration: { phase: 'leader-migration-kcm', kubernetesVersion: '1.26' } }));
    const r = cli('synth', '--clusters', clusters, '--out', out, '-q');
    // THEN the record is named as a symlink, not read, and nothing is written
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `c.yaml: spec.migration.phase: the record of the last render's phase, ${record}, is a symlink, not a file synth wrote (the rendered tree says `,
    );
    expect(fs.lstatSync(record).isSymbolicLink()).toBe(true);
  });
});

describe('a crafted .shard.json', () => {
  const digest = 'a'.repeat(64);
  test.each([
    ['a symlink to a file outside', 'link', 'is a symlink, not a file synth wrote'],
    [
      'a __proto__ cluster',
      { shard: '1/1', clusters: JSON.parse(`{"__proto__": "${digest}"}`) },
      'names the cluster "__proto__", not a cluster name',
    ],
    ['a cluster name that is a path', { shard: '1/1', clusters: { '../etc': digest } }, 'names the cluster "../etc", not a cluster name'],
    ['a shard that is no I/N', { shard: '1/1\n\u001b[2J', clusters: {} }, 'field "shard" is "1/1\\n\\u001b[2J", not I/N'],
    ['a digest that is no SHA-256', { shard: '1/1', clusters: { 'aws-a': 'x' } }, 'holds "x" for aws-a, not a SHA-256 digest'],
    ['a size no record has (sparse: nothing is written to the disk)', 'huge', 'is over 16777216 bytes, more than any record synth writes'],
  ])('with %s is refused by assemble naming the file and why, and nothing is written', (_what, content, why) => {
    // GIVEN a shard output whose record is crafted
    const { clusters, shard } = oneShard();
    const record = path.join(shard, '.shard.json');
    fs.rmSync(record);
    if (content === 'link') {
      const outside = path.join(dir(), 'outside.json');
      fs.writeFileSync(outside, JSON.stringify({ shard: '1/1', clusters: {} }));
      fs.symlinkSync(outside, record);
    } else if (content === 'huge') {
      fs.writeFileSync(record, '');
      fs.truncateSync(record, 16 * 1024 * 1024 + 1);
    } else {
      fs.writeFileSync(record, JSON.stringify(content));
    }
    // WHEN it is assembled
    const out = path.join(dir(), 'repo', 'dist');
    const r = cli('assemble', '--clusters', clusters, '--out', out, '-q', shard);
    // THEN one error names the record and why, and no output is written
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${shard} has no readable record of the specs it was rendered from (${record} ${why}); ` +
        'render that shard again with synth --shard I/N, then assemble\n',
    );
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe('assemble --out', () => {
  test('holding a .shard.json that is a dangling symlink is refused as a shard output, and the folder is untouched', () => {
    // GIVEN a shard, and an --out folder whose .shard.json is a symlink to nothing
    const clusters = path.join(dir(), 'repo', 'clusters');
    writeFile(clusters, 'a.yaml', awsSpec('aws-a'));
    const shard = path.join(dir(), 'shard');
    expect(cli('synth', '--clusters', clusters, '--out', shard, '-q', '--shard', '1/1').code).toBe(0);
    const out = path.join(dir(), 'out');
    fs.mkdirSync(out);
    fs.symlinkSync(path.join(dir(), 'nowhere.json'), path.join(out, '.shard.json'));
    // WHEN assemble writes into it
    const r = cli('assemble', '--clusters', clusters, '--out', out, '-q', shard);
    // THEN it is refused as a usage error, and the link is all the folder holds
    expect(r.stderr).toBe(
      `error: --out ${out} holds the output of synth --shard (${path.join(out, '.shard.json')}); assemble into another folder: the shard outputs are what it reads\n`,
    );
    expect(r.code).toBe(2);
    expect(fs.readdirSync(out)).toEqual(['.shard.json']);
  });
});

describe('a .fleet.json over 256 MiB', () => {
  test('is not read: the summary counts as absent, as one that is not JSON', () => {
    // GIVEN an output whose summary is 256 MiB and one byte (sparse: nothing is written to the disk)
    const out = dir();
    fs.writeFileSync(path.join(out, '.fleet.json'), '');
    fs.truncateSync(path.join(out, '.fleet.json'), 256 * 1024 * 1024 + 1);
    const read = jest.spyOn(fs, 'readFileSync');
    // WHEN its entries are read back
    const entries = readFleetEntries(out);
    // THEN there are none, and the file was never read
    expect(entries).toEqual([]);
    expect(read).not.toHaveBeenCalled();
    read.mockRestore();
  });
});

describe('a .fleet.json that is a symlink', () => {
  test('is not read through by assemble: its clusters are in no shard output', () => {
    // GIVEN a shard output whose summary became a symlink to a copy outside it
    const clusters = path.join(dir(), 'repo', 'clusters');
    writeFile(clusters, 'a.yaml', awsSpec('aws-a'));
    const shard = path.join(dir(), 'shard');
    expect(cli('synth', '--clusters', clusters, '--out', shard, '-q', '--shard', '1/1').code).toBe(0);
    const summary = path.join(shard, '.fleet.json');
    const outside = path.join(dir(), 'fleet.json');
    fs.renameSync(summary, outside);
    fs.symlinkSync(outside, summary);
    // WHEN it is assembled
    const out = path.join(dir(), 'repo', 'dist');
    const r = cli('assemble', '--clusters', clusters, '--out', out, '-q', shard);
    // THEN the summary is not read through the link, and nothing is written
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: 1 cluster is in no shard output (aws-a); run every shard of the split and pass all their outputs\n');
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe('caches read back (a cache restored in CI may be crafted)', () => {
  test('a spec cache record naming a file outside the clusters folder is a miss: that file is not trusted, the spec is loaded again', () => {
    // GIVEN a spec cache whose record of a spec names a read outside the clusters folder (as a crafted cache would)
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'a.yaml', awsSpec('aws-a'));
    const outside = path.join(dir(), 'outside.txt');
    fs.writeFileSync(outside, 'x');
    const cacheDir = path.join(dir(), 'cache');
    const root = fs.realpathSync(clusters);
    const crafted = SpecCache.forClusters(cacheDir, root);
    loadFleet(clusters, {
      lookup: (f, chain) => crafted.lookup(f, chain),
      store: (f, chain, reads, loaded) => crafted.store(f, chain, [...reads, outside], loaded),
    });
    crafted.save();
    // WHEN the fleet is loaded through that cache
    const cache = SpecCache.forClusters(cacheDir, root);
    let hits = 0;
    loadFleet(clusters, {
      lookup: (f, chain) => {
        const hit = cache.lookup(f, chain);
        hits += hit ? 1 : 0;
        return hit;
      },
      store: (f, chain, reads, loaded) => cache.store(f, chain, reads, loaded),
    });
    // THEN the record is not used
    expect(hits).toBe(0);
  });

  test('a render cache record whose file list leaves the cluster folder keeps no fingerprint: the folder is read instead', () => {
    // GIVEN a render cache whose record of a cluster lists a file above the output folder
    const cacheDir = path.join(dir(), 'cache');
    const out = path.join(dir(), 'dist');
    const written = RenderCache.forOutput(cacheDir, out);
    written.record('aws-a', { key: 'k', digest: 'd', stat: 's', files: 'ok.yaml\n../../../etc/passwd' });
    written.save();
    // WHEN it is read back
    const record = RenderCache.forOutput(cacheDir, out).get('aws-a');
    // THEN the record stays without its fingerprint and file list
    expect(record).toEqual({ key: 'k', digest: 'd' });
  });
});
