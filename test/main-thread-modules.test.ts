import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { awsSpec, useTempDir, writeFile } from './helpers';

// What synth's main thread loads: it loads and checks specs and
// writes what the workers render, so it needs none of the rendering code.
// Loading cdk8s, cdk8s-plus-28, constructs and the generated imports there
// costs memory and start-up time on every run.
// Compiled code in processes of their own: jest's module registry is not
// Node's require cache.

const dir = useTempDir();
const bin = path.join(__dirname, '..', 'bin', 'ccm-gitops');

/** A preload that writes, when the main thread exits, which rendering modules its require cache holds. */
function preload(root: string): { script: string; loaded: () => string[] } {
  const report = path.join(root, 'loaded.json');
  const script = writeFile(
    root,
    'preload.js',
    [
      "const { isMainThread } = require('worker_threads');",
      'if (isMainThread) {',
      "  process.on('exit', () => {",
      String.raw`    const rendering = Object.keys(require.cache).filter((f) => /node_modules[\\/](cdk8s|cdk8s-plus-28|constructs)[\\/]|[\\/]lib[\\/]imports[\\/]/.test(f));`,
      "    const names = [...new Set(rendering.map((f) => (/[\\/]lib[\\/]imports[\\/]/.test(f) ? 'imports' : /node_modules[\\/]([^\\/]+)/.exec(f)[1])))].sort();",
      `    require('fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(names));`,
      '  });',
      '}',
    ].join('\n'),
  );
  return { script, loaded: () => JSON.parse(fs.readFileSync(report, 'utf8')) };
}

/** Runs the CLI with the preload; returns the rendering modules the main thread loaded. */
function mainThreadLoads(args: string[], input = ''): string[] {
  const root = dir();
  const { script, loaded } = preload(root);
  const env = { PATH: process.env.PATH, CCM_GITOPS_CACHE_DIR: path.join(root, 'cache') };
  execFileSync(process.execPath, ['-r', script, bin, ...args], { env, cwd: root, input, stdio: 'pipe' });
  return loaded();
}

/** A fleet of `count` AWS clusters. */
function fleet(count: number): string {
  const clusters = path.join(dir(), 'clusters');
  for (let i = 0; i < count; i++) {
    const name = `c${String(i).padStart(2, '0')}`;
    writeFile(clusters, `${name}.yaml`, awsSpec(name));
  }
  return clusters;
}

describe('the main thread of synth (compiled code)', () => {
  test('loads no rendering code when the workers render', () => {
    // GIVEN a fleet
    const clusters = fleet(6);
    const out = path.join(dir(), 'dist');
    // WHEN it is rendered by two workers, then again with nothing changed
    const first = mainThreadLoads(['synth', '--clusters', clusters, '--out', out, '--jobs', '2', '--quiet']);
    const again = mainThreadLoads(['synth', '--clusters', clusters, '--out', out, '--jobs', '2', '--quiet']);
    // THEN the main thread loaded none of cdk8s, cdk8s-plus-28, constructs or the generated imports
    expect(first).toEqual([]);
    expect(again).toEqual([]);
    expect(fs.readdirSync(out).sort()).toEqual(['.ccm-gitops', '.fleet.json', 'FLEET.md', 'c00', 'c01', 'c02', 'c03', 'c04', 'c05']);
  });

  test('loads it when it renders itself (--jobs 1): the check sees the modules', () => {
    // GIVEN a fleet
    const clusters = fleet(2);
    // WHEN it is rendered on the main thread
    const loaded = mainThreadLoads(['synth', '--clusters', clusters, '--out', path.join(dir(), 'dist'), '--jobs', '1', '--quiet']);
    // THEN the rendering code is loaded there
    expect(loaded).toEqual(['cdk8s', 'cdk8s-plus-28', 'constructs', 'imports']);
  });

  test('validate-spec and cloud-config transform load no rendering code', () => {
    // GIVEN a spec and a cloud config
    const clusters = fleet(1);
    // WHEN they are checked and transformed
    const validated = mainThreadLoads(['validate-spec', path.join(clusters, 'c00.yaml')]);
    const transformed = mainThreadLoads(['cloud-config', 'transform', '--platform', 'AWS'], '[Global]\n');
    // THEN neither loaded cdk8s
    expect(validated).toEqual([]);
    expect(transformed).toEqual([]);
  });
});
