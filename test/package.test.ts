// The package as a user gets it: `npm pack` (what `npm publish` uploads),
// `npm install <tarball>` into an empty project, then the CLI through npx and
// the library from a cdk8s app of the user's own (examples/cdk8s-app).
// The README's library example under cdk8s's default compiler options is
// compiled once, in test/newcomer.test.ts. Skipped only when npm itself cannot run here.
import { execFileSync, spawnSync, SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { tempDir } from './helpers';

jest.setTimeout(120_000);

const REPO = path.resolve(__dirname, '..');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const npmRuns = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;
const describeWithNpm = npmRuns ? describe : describe.skip;

/** The environment of a user's shell: no npm lifecycle variables of the `npm test` running this. */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_package_|npm_lifecycle_|INIT_CWD$|CDK8S_OUTDIR$)/.test(k)));
}

function sh(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env: userEnv(), encoding: 'utf8', timeout: 120_000 });
}

function ok(cmd: string, args: string[], cwd: string): string {
  const r = sh(cmd, args, cwd);
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout;
}

describeWithNpm('the packed package, installed into an empty project', () => {
  let work: string;
  let tarball: string;
  let project: string;

  beforeAll(() => {
    work = tempDir('ccm-gitops-package-');
    // GIVEN the tarball npm publish would upload (prepack compiles lib/ when a source is newer than it)
    const packed = JSON.parse(ok('npm', ['pack', '--json', '--pack-destination', work], REPO))[0] as { filename: string };
    tarball = path.join(work, packed.filename);
    // AND an empty project that installs it, as a user does
    project = path.join(work, 'fleet');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), '{"name": "fleet", "private": true}\n');
    ok('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `@types/node@${PACKAGE.devDependencies['@types/node']}`], project);
  }, 300_000);

  afterAll(() => {
    if (work) {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  test('the tarball holds the compiled code, the schema, the docs and the license, and no sources or tests', () => {
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f)
      .map((f) => f.replace(/^package\//, ''));
    for (const f of [
      'LICENSE',
      'README.md',
      'CHANGELOG.md',
      'package.json',
      'bin/ccm-gitops',
      'lib/src/index.js',
      'lib/src/index.d.ts',
      'lib/src/cli.js',
      'schema/cluster-spec.schema.json',
      'examples/ci/ccm-gitops.yml',
      'docs/spec-reference.md',
    ]) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => /^(src|test|clusters|dist|imports)\/|\.tsbuildinfo|^lib\/test\/|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/ccm-gitops/package.json'), 'utf8'));
    expect(manifest.license).toBe('Apache-2.0');
    expect(manifest.private).toBeUndefined();
    expect(fs.readFileSync(path.join(project, 'node_modules/ccm-gitops/LICENSE'), 'utf8')).toContain(
      'Apache License\n                           Version 2.0',
    );
  });

  test('npx ccm-gitops --version prints the package version', () => {
    expect(ok('npx', ['ccm-gitops', '--version'], project)).toBe(`${PACKAGE.version}\n`);
  });

  test('init, validate-spec, synth and diff work in the fresh project', () => {
    // WHEN the user scaffolds the fleet repository
    expect(ok('npx', ['ccm-gitops', 'init'], project)).toContain('wrote clusters/openshift/aws-example-1.yaml\n');
    // THEN every modeline resolves to the installed package's schema
    const spec = path.join(project, 'clusters/openshift/aws-example-1.yaml');
    const modeline = /^# yaml-language-server: \$schema=(\S+)\n/.exec(fs.readFileSync(spec, 'utf8'))![1];
    expect(path.resolve(path.dirname(spec), modeline)).toBe(path.join(project, 'node_modules/ccm-gitops/schema/cluster-spec.schema.json'));
    expect(fs.existsSync(path.resolve(path.dirname(spec), modeline))).toBe(true);

    // AND the specs validate and render with the defaults (clusters/ into dist/)
    expect(ok('npx', ['ccm-gitops', 'validate-spec', 'clusters'], project)).toBe('1 spec file valid\n');
    expect(ok('npx', ['ccm-gitops', 'synth'], project)).toMatch(/^rendered 1 cluster into dist \(\d+ files written\)\n$/);
    expect(
      fs.existsSync(
        path.join(project, 'dist/aws-example-1/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml'),
      ),
    ).toBe(true);
    expect(ok('npx', ['ccm-gitops', 'synth', '--check'], project)).toBe('dist is up to date (1 cluster)\n');

    // AND a change to a spec shows in the diff a reviewer reads
    fs.cpSync(path.join(project, 'dist'), path.join(project, 'dist-before'), { recursive: true });
    fs.appendFileSync(spec, '  controlPlaneTopology: SingleReplica\n');
    ok('npx', ['ccm-gitops', 'synth', '-q'], project);
    const diff = sh('npx', ['ccm-gitops', 'diff', 'dist-before', 'dist'], project);
    expect(diff.status).toBe(1);
    expect(diff.stdout).toContain('PodDisruptionBudget');
    expect(diff.stdout).toContain('aws-example-1');
  });

  test('examples/cdk8s-app compiles against the installed package and synthesizes with cdk8s synth', () => {
    const app = path.join(project, 'app');
    fs.cpSync(path.join(REPO, 'examples/cdk8s-app'), app, { recursive: true, filter: (src) => !/[/\\](dist|node_modules)$|\.js$/.test(src) });
    // the user's compiler and cdk8s CLI (this repository's pinned ones)
    ok(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', '.'], app);
    ok(process.execPath, [path.join(REPO, 'node_modules/cdk8s-cli/bin/cdk8s'), 'synth', '--check-upgrade=false'], app);
    const out = fs.readdirSync(path.join(app, 'dist')).sort();
    expect(out).toHaveLength(2);
    const objects = out.flatMap((f) =>
      fs
        .readFileSync(path.join(app, 'dist', f), 'utf8')
        .split(/^---$/m)
        .map((d) => parse(d))
        .filter((d) => d),
    );
    // the existing chart's object is still there, and the CCM's objects were added
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(
      expect.arrayContaining(['Namespace/platform-tools', 'Namespace/openshift-cloud-controller-manager', 'Deployment/aws-cloud-controller-manager']),
    );
  });
});
