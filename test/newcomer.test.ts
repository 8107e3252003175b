// A newcomer's first hour, end to end: pack the package, install
// it into an empty git repository with the README's own lines, init each
// engine with both distributions, copy the example under a new name as the
// README says, check every YAML against the schema its modeline names (as an
// editor does), validate-spec, synth, build every entry point with kustomize,
// bootstrap Flux into a cluster's folder, and compile the README's library
// example under the compiler options of `cdk8s init typescript-app`.
// Skipped only when npm itself cannot run here. Most of its time is that
// compile (about 18 s): it runs beside the engines' steps; the kustomize
// builds run a few at a time. test/package.test.ts checks the tarball and the
// cdk8s example app, not this compile again.
import Ajv2020 from 'ajv/dist/2020';
import { spawn, spawnSync, SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse, parseAllDocuments } from 'yaml';
import { tempDir } from './helpers';

jest.setTimeout(240_000);

const REPO = path.resolve(__dirname, '..');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string> };
const README = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
const npmRuns = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;
const KUBECTL = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_package_|npm_lifecycle_|INIT_CWD$|CDK8S_OUTDIR$)/.test(k)));
}

function sh(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env: userEnv(), encoding: 'utf8', timeout: 180_000 });
}

/** A command run in the background: its exit status and output, once it ends. */
function background(cmd: string, args: string[], cwd: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** Runs every command, `width` at a time; the failures, each with its output. */
async function allOk(commands: readonly { args: string[]; cwd: string }[], cmd: string, width: number): Promise<string[]> {
  const failures: string[] = [];
  const queue = [...commands];
  const lane = async (): Promise<void> => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const r = await background(cmd, c.args, c.cwd);
      if (r.status !== 0) {
        failures.push(`${cmd} ${c.args.join(' ')} exited ${r.status}:\n${r.output}`);
      }
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return failures;
}

function ok(cmd: string, args: string[], cwd: string): string {
  const r = sh(cmd, args, cwd);
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout;
}

/** Every file under a folder, relative, `/`-separated, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git' || e.name === 'node_modules') {
        continue;
      }
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        walk(path.join(d, e.name), r);
      } else {
        out.push(r);
      }
    }
  };
  walk(dir, '');
  return out.sort();
}

/** What an editor with yaml-language-server shows for a file: each document against the schema its modeline names. */
function editorProblems(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const m = /^# yaml-language-server: \$schema=(\S+)$/m.exec(text);
  if (!m) {
    return [`${file}: no schema modeline`];
  }
  const schemaFile = path.resolve(path.dirname(file), m[1]);
  if (!fs.existsSync(schemaFile)) {
    return [`${file}: the modeline's schema ${m[1]} does not exist`];
  }
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));
  return parseAllDocuments(text).flatMap((d) =>
    validate(d.toJS()) ? [] : (validate.errors ?? []).map((e) => `${file}: ${e.instancePath || '/'} ${e.message}`),
  );
}

(npmRuns ? describe : describe.skip)('a newcomer, from an empty git repository to a rendered fleet', () => {
  let work: string;
  let project: string;
  let bin: string;
  let libraryExample: Promise<{ status: number | null; output: string }>;
  const started = Date.now();

  beforeAll(() => {
    work = tempDir('ccm-gitops-newcomer-');
    // GIVEN the tarball of this version (the README's tarball line: npm pack in a clone)
    const packed = JSON.parse(ok('npm', ['pack', '--json', '--pack-destination', work], REPO))[0] as { filename: string };
    expect(packed.filename).toBe(`ccm-gitops-${PACKAGE.version}.tgz`);
    // AND an empty git repository where the README's lines run, the tarball beside them
    project = path.join(work, 'fleet');
    fs.mkdirSync(project);
    fs.renameSync(path.join(work, packed.filename), path.join(project, packed.filename));
    ok('git', ['init', '-q'], project);
    const walkthrough = README.slice(README.indexOf('## Five minutes'));
    const block = /```sh\n([\s\S]*?)```/.exec(walkthrough)![1];
    expect(block).toMatch(/^npm init -y$/m);
    // the README's install line, as written (its trailing comment aside): the tarball npm pack wrote
    const installLines = block.split('\n').filter((l) => /^npm install\b/.test(l));
    expect(installLines).toHaveLength(1);
    const install = installLines[0].replace(/\s+#.*$/, '').split(/\s+/);
    expect(install).toEqual(['npm', 'install', '--save-exact', `./${packed.filename}`]);
    ok('npm', ['init', '-y'], project);
    // as a user installs: the registry when npm's cache lacks a package (CI starts from an empty cache); @types/node for the library example
    ok(
      install[0],
      [...install.slice(1), '--prefer-offline', '--no-audit', '--no-fund', `@types/node@${PACKAGE.devDependencies['@types/node']}`],
      project,
    );
    bin = path.join(project, 'node_modules', '.bin', 'ccm-gitops');
    // AND the README's library example in a project with the compiler options cdk8s init typescript-app writes
    // (cdk8s-cli's node_modules/cdk8s-cli/templates/typescript-app/tsconfig.json: no esModuleInterop, no skipLibCheck),
    // compiled against the installed package in the background while the engines' steps run
    const template = JSON.parse(fs.readFileSync(path.join(REPO, 'node_modules/cdk8s-cli/templates/typescript-app/tsconfig.json'), 'utf8'));
    expect([template.compilerOptions.esModuleInterop, template.compilerOptions.skipLibCheck]).toEqual([undefined, undefined]);
    const example = /```ts\n([\s\S]*?)```/.exec(README.slice(README.indexOf('## From your own cdk8s app')))![1];
    expect(example).toContain("from 'ccm-gitops'");
    const app = path.join(project, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(template, null, 2));
    fs.writeFileSync(path.join(app, 'main.ts'), example);
    libraryExample = background(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', '.', '--noEmit'], app);
  }, 180_000);

  afterAll(async () => {
    // the compile ends before its folder is removed, whatever failed before
    await libraryExample?.catch(() => undefined);
    if (work) {
      fs.rmSync(work, { recursive: true, force: true });
    }
    // the whole journey, for the record of how long a newcomer's CI check takes
    process.stdout.write(`newcomer end to end: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  });

  test('WHEN the README and the install pages name a git tag or ref THEN this repository has it (a clone of main installs as written)', () => {
    // every `git checkout REF` and every `…ccm-gitops.git#REF` of the pages a newcomer installs from
    const pages = ['README.md', 'docs/installing.md', 'docs/api.md', 'examples/cdk8s-app/README.md'];
    const refs = pages.flatMap((page) =>
      [...fs.readFileSync(path.join(REPO, page), 'utf8').matchAll(/(?:\.git#|git checkout )([^\s`'")]+)/g)]
        .map((m) => m[1])
        .filter((ref) => ref !== '--')
        .map((ref) => ({ page, ref })),
    );
    const missing = refs.filter(({ ref }) => sh('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], REPO).status !== 0);
    expect(missing).toEqual([]);
  });

  test.each(['argocd', 'flux', 'plain'])('WHEN %s is chosen THEN every step of the README works as written', async (engine) => {
    const fleet = path.join(project, engine);
    fs.mkdirSync(fleet);
    ok('git', ['init', '-q'], fleet);
    const run = (args: string[]): string => ok(process.execPath, [bin, ...args], fleet);
    // init for both distributions
    run(['init', '-d', 'openshift', 'kubernetes', '-p', 'AWS', '-e', engine, '--repo-url', 'https://git.example.com/platform/fleet.git']);
    // README step 1: copy the example once per cluster, set metadata.name and infrastructureName
    const example = path.join(fleet, 'clusters/openshift/aws-example-1.yaml');
    fs.writeFileSync(
      path.join(fleet, 'clusters/openshift/aws-prod-1.yaml'),
      fs
        .readFileSync(example, 'utf8')
        .replace(/^( {2}name: )aws-example-1\b/m, '$1aws-prod-1')
        .replace(/aws-example-1-abcde/, 'aws-prod-1-x7k2p'),
    );
    if (engine === 'flux') {
      // Flux bootstrapped from this repository into the cluster's own folder (docs/gitops.md)
      fs.mkdirSync(path.join(fleet, 'clusters/aws-prod-1/flux-system'), { recursive: true });
      fs.writeFileSync(
        path.join(fleet, 'clusters/aws-prod-1/flux-system/gotk-sync.yaml'),
        'apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\n' +
          'metadata:\n  name: flux-system\n  namespace: flux-system\nspec:\n  interval: 1m0s\n  ref:\n    branch: main\n  url: https://git.example.com/platform/fleet.git\n',
      );
      fs.writeFileSync(
        path.join(fleet, 'clusters/aws-prod-1/flux-system/kustomization.yaml'),
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - gotk-sync.yaml\n',
      );
      fs.writeFileSync(
        path.join(fleet, 'clusters/aws-prod-1/kustomization.yaml'),
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - flux-system\n  - ../../dist/aws-prod-1/flux-entry\n',
      );
    }
    // THEN every spec and defaults file is clean in the editor
    const yamls = filesUnder(path.join(fleet, 'clusters')).filter(
      (f) => f.endsWith('.yaml') && !/(^|\/)(flux-system\/|kustomization\.yaml$)/.test(f),
    );
    expect(yamls).toEqual([
      'defaults.yaml',
      'kubernetes/defaults.yaml',
      'kubernetes/k8s-aws-example-1.yaml',
      'openshift/aws-example-1.yaml',
      'openshift/aws-prod-1.yaml',
      'openshift/defaults.yaml',
    ]);
    expect(yamls.flatMap((f) => editorProblems(path.join(fleet, 'clusters', f)))).toEqual([]);
    // AND the specs validate and render
    expect(run(['validate-spec', 'clusters'])).toBe('3 spec files valid\n');
    expect(run(['synth', '-q'])).toBe('');
    // AND every entry point exists and, with every stage, builds as the CI workflow builds it
    const entries =
      engine === 'argocd'
        ? ['dist/_fleet/argocd/cluster/aws-prod-1/root', 'dist/_fleet/argocd/cluster/k8s-aws-example-1/root']
        : engine === 'flux'
          ? ['dist/aws-prod-1/flux-entry', 'dist/k8s-aws-example-1/flux-entry', 'clusters/aws-prod-1']
          : ['dist/aws-prod-1', 'dist/k8s-aws-example-1'];
    for (const e of entries) {
      expect([e, fs.existsSync(path.join(fleet, e, 'kustomization.yaml'))]).toEqual([e, true]);
    }
    if (KUBECTL) {
      const kustomizations = filesUnder(fleet).filter((f) => f.endsWith('kustomization.yaml'));
      expect(
        await allOk(
          kustomizations.map((k) => ({ args: ['kustomize', path.dirname(k)], cwd: fleet })),
          'kubectl',
          4,
        ),
      ).toEqual([]);
    }
    if (engine === 'argocd') {
      // the Kubernetes cluster's Argo CD is upstream's
      expect(
        parse(
          fs.readFileSync(
            path.join(fleet, 'dist/_fleet/argocd/cluster/k8s-aws-example-1/root/application.argocd.ccm-root.k8s-aws-example-1.yaml'),
            'utf8',
          ),
        ).metadata.namespace,
      ).toBe('argocd');
    }
  });

  test("WHEN the README's library example compiles under the compiler options of cdk8s init typescript-app THEN tsc reports nothing", async () => {
    expect(await libraryExample).toEqual({ status: 0, output: '' });
  });
});
