import * as fs from 'fs';
import * as path from 'path';
import { stringify } from 'yaml';
import { runCli } from '../src/cli';
import { renderCluster } from '../src/pipeline/render';
import { awsSpec, captureIo, fleetProblems, imageFor, kubernetesSpec, preparedCluster, TEST_RELEASE, useTempDir, writeFile } from './helpers';

/** Small things users expect. */
describe('small things users expect', () => {
  const dir = useTempDir();

  test('--version prints the package.json version', () => {
    const cap = captureIo();
    expect(runCli(['--version'], cap.io, {})).toBe(0);
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
    expect(cap.stdout()).toBe(`${pkg.version}\n`);
  });

  test("a type error does not hide the file's other problems", () => {
    writeFile(dir(), 'c.yaml', awsSpec('c', { controlPlaneTopology: 3, images: { cloudControllerManagerAWS: 'quay.io/x/ccm:latest' } }));
    const problems = fleetProblems(dir());
    expect(problems.some((p) => p.includes('spec.controlPlaneTopology:'))).toBe(true);
    expect(
      problems.some((p) => p.includes('spec.images.cloudControllerManagerAWS: "quay.io/x/ccm:latest" is pinned to the moving tag "latest"')),
    ).toBe(true);
  });

  test('version: 1.30 (a YAML number) gets a "quote it" hint with the source text', () => {
    const spec = kubernetesSpec('AWS', 'k', {}, {}, { cloudControllerManagerAWS: imageFor('cloudControllerManagerAWS') });
    fs.writeFileSync(path.join(dir(), 'k.yaml'), stringify(spec).replace('version: "1.33"', 'version: 1.30'));
    expect(fleetProblems(dir())).toContain(
      'k.yaml:11: spec.kubernetes.version: expected string, got number 1.3; quote it: "1.30" (YAML reads an unquoted 1.30 as a number, 1.3)',
    );
  });

  test('validate-spec run on a file in a subfolder finds the parent defaults', () => {
    // GIVEN a fleet whose infrastructureName and images come from the top-level defaults
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'defaults.yaml', {
      apiVersion: 'ccm-gitops.io/v1alpha1',
      kind: 'CloudControllerManagerDefaults',
      spec: { distribution: 'openshift', platform: 'AWS', openshift: { release: TEST_RELEASE }, images: awsSpec('x').spec.images },
    });
    writeFile(clusters, 'us/c.yaml', {
      apiVersion: 'ccm-gitops.io/v1alpha1',
      kind: 'CloudControllerManagerCluster',
      metadata: { name: 'c' },
      spec: { infrastructureName: 'c-x' },
    });
    // WHEN validate-spec is given only the spec file, from inside its folder
    const cap = captureIo();
    const before = process.cwd();
    let code: number;
    try {
      process.chdir(path.join(clusters, 'us'));
      code = runCli(['validate-spec', 'c.yaml'], cap.io, {});
    } finally {
      process.chdir(before);
    }
    // THEN the defaults above apply
    expect({ code, out: cap.stdout(), err: cap.stderr() }).toEqual({ code: 0, out: '1 spec file valid\n', err: '' });
  });

  test('--only -q does not swallow -q', () => {
    writeFile(dir(), 'c/a.yaml', awsSpec('a'));
    const cap = captureIo();
    expect(runCli(['synth', '--clusters', path.join(dir(), 'c'), '--out', path.join(dir(), 'out'), '--only', '-q'], cap.io, {})).toBe(2);
    expect(cap.stderr()).toBe('error: --only "-q": cluster names never start with "-"; give the names right after --only (--only NAME... -q)\n');
  });
});

describe('CONTROL-PLANE.md names the Secrets the pods mount', () => {
  test('an Azure kubernetes cluster lists its cloud config Secret', () => {
    const files = renderCluster(preparedCluster(kubernetesSpec('Azure', 'k', { cloudConfig: { existingSecret: 'azure-cloud-provider' } }), ''))
      .files as { path: string; content: string }[];
    const md = files.find((f) => f.path === 'k/CONTROL-PLANE.md')!.content;
    expect(md).toContain(
      '## Secrets to create first\n\nccm-gitops renders no Secret (credentials never go into git); the pods do not start until these exist:\n\n- `kube-system/azure-cloud-provider`: volume cloud-config of Deployment azure-cloud-controller-manager',
    );
  });
});

describe('rough edges a newcomer meets', () => {
  const dir = useTempDir();
  const run = (args: string[], env: NodeJS.ProcessEnv = {}): { code: number; out: string; err: string } => {
    const cap = captureIo();
    const code = runCli(args, cap.io, env);
    return { code, out: cap.stdout(), err: cap.stderr() };
  };

  test('GIVEN a spec whose cloud config has a dropped key WHEN synth and assemble run THEN the warning is printed, and with -q nothing is', () => {
    const clusters = path.join(dir(), 'c');
    writeFile(clusters, 'a.conf', '[Global]\nDisableStrictZoneCheck = true\n');
    writeFile(clusters, 'a.yaml', awsSpec('a', { cloudConfig: { file: 'a.conf' } }));
    const cacheFile = writeFile(dir(), 'cache', 'not a folder');
    const env = { CCM_GITOPS_CACHE_DIR: cacheFile };
    const dropped = `warning: ${path.join(clusters, 'a.conf')}: cluster a: '[Global] DisableStrictZoneCheck' (line 2) is not an AWS cloud provider option; dropped\n`;
    const cacheOff = `warning: render cache off: ${cacheFile} is not a folder (a file is in its place); remove it, set CCM_GITOPS_CACHE_DIR to a folder, or pass --no-cache\n`;
    // WHEN synth runs without -q THEN both warnings are printed
    expect(run(['synth', '--clusters', clusters, '--out', path.join(dir(), 'loud')], env)).toEqual({
      code: 0,
      out: expect.stringMatching(/^rendered 1 cluster into /),
      err: cacheOff + dropped,
    });
    // WHEN synth, synth --check and assemble run with -q THEN they print nothing and exit as without it
    expect(run(['synth', '-q', '--clusters', clusters, '--out', path.join(dir(), 'quiet')], env)).toEqual({ code: 0, out: '', err: '' });
    expect(run(['synth', '-q', '--check', '--clusters', clusters, '--out', path.join(dir(), 'quiet')], env)).toEqual({ code: 0, out: '', err: '' });
    expect(run(['synth', '-q', '--shard', '1/1', '--clusters', clusters, '--out', path.join(dir(), 'shard')], env)).toEqual({
      code: 0,
      out: '',
      err: '',
    });
    expect(run(['assemble', '-q', '--clusters', clusters, '--out', path.join(dir(), 'assembled'), path.join(dir(), 'shard')], env)).toEqual({
      code: 0,
      out: '',
      err: '',
    });
    expect(run(['assemble', '--clusters', clusters, '--out', path.join(dir(), 'assembled'), path.join(dir(), 'shard')], env)).toEqual({
      code: 0,
      out: expect.stringMatching(/^assembled 1 cluster /),
      err: dropped,
    });
  });

  test('GIVEN a file where the render cache folder goes WHEN synth runs THEN it warns that the cache is off and renders', () => {
    writeFile(dir(), 'c/a.yaml', awsSpec('a'));
    const cacheFile = writeFile(dir(), 'cache', 'not a folder');
    const r = run(['synth', '--clusters', path.join(dir(), 'c'), '--out', path.join(dir(), 'out')], { CCM_GITOPS_CACHE_DIR: cacheFile });
    expect(r).toEqual({
      code: 0,
      out: expect.stringMatching(/^rendered 1 cluster into /),
      err: `warning: render cache off: ${cacheFile} is not a folder (a file is in its place); remove it, set CCM_GITOPS_CACHE_DIR to a folder, or pass --no-cache\n`,
    });
    expect(fs.existsSync(path.join(dir(), 'out/a/kustomization.yaml'))).toBe(true);
  });

  test('GIVEN CDK8S_OUTDIR exported empty WHEN synth runs THEN it writes into dist; an empty --out is a usage error', () => {
    writeFile(dir(), 'c/a.yaml', awsSpec('a'));
    const before = process.cwd();
    let r: { code: number; out: string; err: string };
    try {
      process.chdir(dir());
      r = run(['synth', '-q', '--clusters', 'c'], { CDK8S_OUTDIR: '' });
    } finally {
      process.chdir(before);
    }
    expect(r).toEqual({ code: 0, out: '', err: '' });
    expect(fs.existsSync(path.join(dir(), 'dist/a/kustomization.yaml'))).toBe(true);
    expect(run(['synth', '--clusters', path.join(dir(), 'c'), '--out', ''])).toEqual({
      code: 2,
      out: '',
      err: 'error: --out is empty; give the output folder (default: $CDK8S_OUTDIR or "dist")\n',
    });
  });

  test('GIVEN an invalid spec WHEN validate-spec runs THEN its error does not say "nothing was written" (it never writes)', () => {
    writeFile(dir(), 'c/a.yaml', awsSpec('a', { controlPlaneTopology: 'Three' }));
    const r = run(['validate-spec', path.join(dir(), 'c')]);
    expect(r.code).toBe(1);
    expect(r.err.split('\n')[0]).toBe('error: 1 problem found');
  });

  test('GIVEN a collection used as a key WHEN the spec is validated THEN it is a field problem and no Node warning reaches the user', () => {
    const file = writeFile(dir(), 'c/a.yaml', awsSpec('a'));
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^spec:\n/m, 'spec:\n  ? [a, b]\n  : c\n'));
    const emitted = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const r = run(['validate-spec', path.join(dir(), 'c')]);
      expect(r.code).toBe(1);
      expect(r.err).toContain('spec.[ a, b ]: unknown field; remove it');
      expect(emitted).not.toHaveBeenCalled();
    } finally {
      emitted.mockRestore();
    }
  });

  test('GIVEN a vSphere cloud config of two YAML documents WHEN validated THEN the error says so (not an INI error)', () => {
    writeFile(dir(), 'c/v.yaml', {
      ...awsSpec('v'),
      spec: {
        ...awsSpec('v').spec,
        platform: 'VSphere',
        images: { cloudControllerManagerVSphere: 'quay.io/x/v@sha256:' + 'e'.repeat(64) },
        cloudConfig: { file: 'v.conf' },
      },
    });
    writeFile(
      dir(),
      'c/v.conf',
      'global:\n  insecureFlag: true\nvcenter:\n  vc:\n    server: vc.example.com\n    datacenters: [dc1]\n---\nfoo: bar\n',
    );
    const r = run(['validate-spec', path.join(dir(), 'c')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `${path.join(dir(), 'c/v.conf')}:7: cluster v: failed to read the cloud.conf: it holds 2 YAML documents (the next one starts at line 7); ` +
        'the vSphere cloud config is one YAML document: merge them or remove the extra ones',
    );
  });

  test('GIVEN .github is a symbolic link out of the repository WHEN init runs THEN it refuses and writes nothing', () => {
    const repo = path.join(dir(), 'repo');
    const elsewhere = path.join(dir(), 'elsewhere');
    fs.mkdirSync(repo);
    fs.mkdirSync(elsewhere);
    fs.symlinkSync(elsewhere, path.join(repo, '.github'));
    const r = run(['init', repo]);
    expect(r).toEqual({
      code: 2,
      out: '',
      err: `error: .github is a symbolic link to a folder outside ${repo}; init writes only inside the repository: make .github a folder, or pass --no-ci; nothing was written\n`,
    });
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    expect(fs.readdirSync(repo)).toEqual(['.github']);
  });
});

describe("an output outside the specs' repository", () => {
  const dir = useTempDir();

  test('GIVEN specs in a git repository WHEN synth writes to a folder in no repository THEN it warns that the engine paths are guessed; inside the repository it does not', () => {
    const repo = path.join(dir(), 'repo');
    writeFile(repo, 'clusters/a.yaml', awsSpec('a', { gitops: { engine: 'argocd', repoURL: 'https://git.example.com/fleet.git' } }));
    fs.mkdirSync(path.join(repo, '.git'));
    const elsewhere = path.join(dir(), 'elsewhere', 'dist');
    const outside = captureIo();
    expect(runCli(['synth', '--clusters', path.join(repo, 'clusters'), '--out', elsewhere], outside.io, {})).toBe(0);
    expect(outside.stderr()).toBe(
      `warning: ${elsewhere} is in no git repository, while the specs are in ${repo}: Argo CD and Flux objects name the output "dist" ` +
        'from the root of the repository they clone, which may not exist there; render into that repository (--out inside it)\n',
    );
    const inside = captureIo();
    expect(runCli(['synth', '--clusters', path.join(repo, 'clusters'), '--out', path.join(repo, 'dist')], inside.io, {})).toBe(0);
    expect(inside.stderr()).toBe('');
  });
});
