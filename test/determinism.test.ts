import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { renderFleet } from '../src/pipeline/render';
import { loadFleet } from '../src/fleet/load';
import { writeTreeAtomically } from '../src/pipeline/output';
import { awsSpec, readTree, useTempDir, writeFile } from './helpers';

const REPO = path.resolve(__dirname, '..');

const dir = useTempDir();
let root: string;
beforeEach(() => {
  root = dir();
});

function synthTo(clusters: string, out: string): Record<string, string> {
  writeTreeAtomically(out, renderFleet(loadFleet(clusters)));
  return readTree(out);
}

describe('deterministic output', () => {
  test('the same inputs give byte-identical trees, run after run', () => {
    const clusters = path.join(REPO, 'examples', 'clusters');
    const a = synthTo(clusters, path.join(root, 'a'));
    const b = synthTo(clusters, path.join(root, 'b'));
    expect(Object.keys(a).length).toBeGreaterThan(40);
    expect(b).toEqual(a);
  });

  test('file names, their order on disk and their location do not change the output', () => {
    // GIVEN the same three clusters written in two different orders, names and folders
    const specs = [
      awsSpec('one', { controlPlaneTopology: 'SingleReplica' }),
      awsSpec('two', { proxy: { httpProxy: 'http://p:1' } }),
      awsSpec('three'),
    ];
    specs.forEach((s, i) => writeFile(root, `first/${i}.yaml`, s));
    [...specs].reverse().forEach((s, i) => writeFile(root, `second/nested/${String.fromCharCode(122 - i)}-${i}.yaml`, s));
    // WHEN both are rendered
    const first = synthTo(path.join(root, 'first'), path.join(root, 'out1'));
    const second = synthTo(path.join(root, 'second'), path.join(root, 'out2'));
    // THEN the trees are identical but for the spec paths the fleet summary records
    const withoutSpecPaths = (tree: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(tree)
          .map(([p, c]) => [p, p === '.fleet.json' ? c.replace(/"spec": "[^"]*"/g, '"spec": ""') : c])
          .filter(([p]) => p !== 'FLEET.md'),
      );
    expect(withoutSpecPaths(second)).toEqual(withoutSpecPaths(first));
    expect(second['FLEET.md'].replace(/\(.*?\)/g, '')).toBe(first['FLEET.md'].replace(/\(.*?\)/g, ''));
  });

  test('the rendered tree does not depend on TZ, locale or working directory (separate processes)', () => {
    const main = path.join(REPO, 'lib', 'src', 'main.js');
    const clusters = path.join(REPO, 'examples', 'clusters');
    const run = (out: string, env: NodeJS.ProcessEnv, cwd: string) =>
      execFileSync(process.execPath, [main, '--clusters', clusters, '--out', out, '--quiet'], { cwd, env: { PATH: process.env.PATH, ...env } });
    // (same output folder name: the engines' paths name it)
    run(path.join(root, 'x', 'out'), { TZ: 'UTC', LANG: 'C', LC_ALL: 'C' }, REPO);
    run(path.join(root, 'y', 'out'), { TZ: 'Pacific/Kiritimati', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8' }, root);
    expect(readTree(path.join(root, 'y', 'out'))).toEqual(readTree(path.join(root, 'x', 'out')));
  });
});

describe('parallel rendering', () => {
  test('worker threads render the same bytes as the main thread, and --check in workers agrees', () => {
    const main = path.join(REPO, 'lib', 'src', 'main.js');
    const clusters = path.join(REPO, 'clusters');
    // GIVEN the example fleet rendered on the main thread (-j 1) and by two worker threads (-j 2)
    execFileSync(process.execPath, [main, '--clusters', clusters, '--out', path.join(root, 'serial', 'dist'), '--quiet', '--jobs', '1']);
    execFileSync(process.execPath, [main, '--clusters', clusters, '--out', path.join(root, 'parallel', 'dist'), '--quiet', '--jobs', '2']);
    // THEN the trees are byte-identical
    expect(readTree(path.join(root, 'parallel', 'dist'))).toEqual(readTree(path.join(root, 'serial', 'dist')));
    // AND a check by worker threads finds the serial tree up to date
    expect(
      execFileSync(process.execPath, [main, '--clusters', clusters, '--out', path.join(root, 'serial', 'dist'), '--check', '--jobs', '2'], {
        encoding: 'utf8',
      }),
    ).toBe(
      `${path.join(root, 'serial', 'dist')} is up to date (${fs.readdirSync(path.join(REPO, 'dist')).filter((d) => !d.startsWith('.') && !d.startsWith('_') && !d.endsWith('.md')).length} clusters)\n`,
    );
  });

  test('with warm caches, the workers render nothing, and a file edited by hand is found and rendered again', () => {
    const main = path.join(REPO, 'lib', 'src', 'main.js');
    const clusters = path.join(REPO, 'clusters');
    const out = path.join(root, 'cached', 'dist');
    const env = { ...process.env, CCM_GITOPS_CACHE_DIR: path.join(root, 'cached-cache') };
    const run = (...args: string[]) =>
      execFileSync(process.execPath, [main, '--clusters', clusters, '--out', out, '--jobs', '2', ...args], {
        encoding: 'utf8',
        env,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    // GIVEN the example fleet rendered by two workers with the caches on, then rendered again (every check passes)
    run('--quiet');
    const clusterCount = fs.readdirSync(out).filter((d) => !d.startsWith('.') && !d.startsWith('_') && !d.endsWith('.md')).length;
    expect(run()).toBe(
      `rendered 0 clusters (${clusterCount} unchanged, checked against the render cache) into ${out} (up to date, no file written)\n`,
    );
    // WHEN a rendered file is edited by hand
    fs.appendFileSync(path.join(out, 'aws-prod-1', 'kustomization.yaml'), '# edited\n');
    // THEN the workers find it and write that cluster's folder again (a folder is staged whole)
    const folderFiles = Object.keys(readTree(path.join(out, 'aws-prod-1'))).length;
    expect(run()).toBe(
      `rendered 1 cluster (${clusterCount - 1} unchanged, checked against the render cache) into ${out} (${folderFiles} files written)\n`,
    );
    expect(readTree(out)).toEqual(readTree(path.join(REPO, 'dist')));
  });
});

describe('rendering while the specs load (the fleet is never held whole)', () => {
  const main = path.join(REPO, 'lib', 'src', 'main.js');
  const specs = (dir: string, names: readonly string[]) => names.forEach((n) => writeFile(dir, `${n}.yaml`, awsSpec(n)));

  test('a broken last spec, after the workers were sent the others, writes nothing: one error, the previous output whole', () => {
    // GIVEN an output rendered by two workers with the caches on
    const out = path.join(root, 'dist');
    const env = { PATH: process.env.PATH, CCM_GITOPS_CACHE_DIR: path.join(root, 'cache') };
    const names = Array.from({ length: 80 }, (_v, i) => `c${String(i).padStart(3, '0')}`);
    specs(path.join(root, 'v1'), names);
    execFileSync(process.execPath, [main, '--clusters', path.join(root, 'v1'), '--out', out, '--quiet', '--jobs', '2'], { env });
    const before = readTree(out);
    // WHEN the next fleet changes every cluster, and its last file (loaded last) is broken and takes a name already used
    specs(
      path.join(root, 'v2'),
      names.map((n) => `${n}x`),
    );
    writeFile(path.join(root, 'v2'), 'zzz-broken.yaml', awsSpec('zzz', { platform: 'Moon' }));
    writeFile(path.join(root, 'v2'), 'zzz-twin.yaml', awsSpec('c000x'));
    const run = spawnSync(process.execPath, [main, '--clusters', path.join(root, 'v2'), '--out', out, '--jobs', '2'], { env, encoding: 'utf8' });
    // THEN synth reports the problems of the specs (as when nothing was rendered yet), and the output is as it was
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    const v2 = (f: string) => path.join(root, 'v2', f);
    expect(run.stderr).toBe(
      [
        'error: 3 problems found; nothing was written',
        `  ${v2('c000x.yaml')}:4: metadata.name: "c000x" is also used by ${v2('zzz-twin.yaml')}; cluster names must be unique across the fleet`,
        `  ${v2('zzz-broken.yaml')}:7: spec.platform: "Moon" is not allowed; expected one of: AWS, Azure, GCP, IBMCloud, PowerVS, OpenStack, VSphere, Nutanix, AlibabaCloud, DigitalOcean, EquinixMetal; ` +
          'set the Infrastructure status.platformStatus.type of the cluster',
        `  ${v2('zzz-twin.yaml')}:4: metadata.name: "c000x" is also used by ${v2('c000x.yaml')}; cluster names must be unique across the fleet`,
        '',
      ].join('\n'),
    );
    expect(readTree(out)).toEqual(before);
    expect(fs.readdirSync(root).filter((n) => n.startsWith('.dist'))).toEqual([]);
    // AND once fixed, the fleet renders as without workers or caches
    fs.rmSync(path.join(root, 'v2', 'zzz-broken.yaml'));
    fs.rmSync(path.join(root, 'v2', 'zzz-twin.yaml'));
    execFileSync(process.execPath, [main, '--clusters', path.join(root, 'v2'), '--out', out, '--quiet', '--jobs', '2'], { env });
    execFileSync(
      process.execPath,
      [main, '--clusters', path.join(root, 'v2'), '--out', path.join(root, 'fresh', 'dist'), '--quiet', '--jobs', '1', '--no-cache'],
      { env },
    );
    expect(readTree(out)).toEqual(readTree(path.join(root, 'fresh', 'dist')));
  });
});

describe('the committed example output', () => {
  test('dist/ is what the example fleet renders to (regenerate with npm run synth)', () => {
    const fresh = synthTo(path.join(REPO, 'clusters'), path.join(root, 'dist'));
    expect(readTree(path.join(REPO, 'dist'))).toEqual(fresh);
  });
});
