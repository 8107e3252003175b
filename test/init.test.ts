import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { EXIT_OK, EXIT_USAGE, runCli } from '../src/cli';
import { schemaPathFor } from '../src/init/init';
import { entryPointOf, exampleClusterName, InitEngine, platformsOf, scaffold } from '../src/init/scaffold';
import { KUBERNETES_EXAMPLE_IMAGES } from '../src/kubernetes/distribution-facts';
import { Distribution } from '../src/cluster-spec/schema';
import { captureIo, readTree, useTempDir, writeFile } from './helpers';

const dir = useTempDir();
const REPO = path.resolve(__dirname, '..');
const KUBECTL = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

function run(args: string[]): { code: number; stdout: string; stderr: string } {
  const { io, stdout, stderr } = captureIo();
  const code = runCli(args, io, {});
  return { code, stdout: stdout(), stderr: stderr() };
}

describe('ccm-gitops init', () => {
  test('GIVEN an empty folder WHEN init runs with the defaults THEN it writes the fleet skeleton, and the skeleton validates and renders', () => {
    const root = dir();
    const init = run(['init', root]);
    expect(init.code).toBe(EXIT_OK);
    expect(init.stderr).toBe('');
    expect(Object.keys(readTree(root)).sort()).toEqual([
      '.github/workflows/ccm-gitops.yml',
      '.gitignore',
      'clusters/defaults.yaml',
      'clusters/openshift/aws-example-1.yaml',
      'clusters/openshift/defaults.yaml',
    ]);
    expect(init.stdout).toContain(`wrote ${path.join(root, 'clusters/openshift/aws-example-1.yaml')}\n`);
    expect(init.stdout).toContain('next: replace the values marked REPLACE in clusters/');
    expect(init.stdout).toContain(
      '  kubectl apply -k dist/_fleet/argocd/cluster/<cluster>/root   (on that cluster, into its Argo CD)\n' +
        '(synth renders one for every cluster: dist/_fleet/argocd/cluster/aws-example-1/root)\n',
    );
    // the CI workflow is the one the package ships
    expect(fs.readFileSync(path.join(root, '.github/workflows/ccm-gitops.yml'), 'utf8')).toBe(
      fs.readFileSync(path.join(REPO, 'examples/ci/ccm-gitops.yml'), 'utf8'),
    );

    expect(run(['validate-spec', path.join(root, 'clusters')])).toEqual({ code: EXIT_OK, stdout: '1 spec file valid\n', stderr: '' });
    const synth = run(['synth', '--clusters', path.join(root, 'clusters'), '--out', path.join(root, 'dist')]);
    expect(synth.code).toBe(EXIT_OK);
    expect(synth.stderr).toBe('');
    const rendered = readTree(path.join(root, 'dist'));
    expect(rendered['aws-example-1/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml']).toBeDefined();
    // the Argo CD entry point (one Argo CD per cluster, the default fleet model) is the cluster's root the synth wrote
    expect(fs.existsSync(path.join(root, 'dist/_fleet/argocd/cluster/aws-example-1/root/kustomization.yaml'))).toBe(true);
    // and builds, as `kubectl apply -k dist/_fleet/argocd/cluster/aws-example-1/root` will (when kubectl is installed)
    if (KUBECTL) {
      const built = parse(
        execFileSync('kubectl', ['kustomize', path.join(root, 'dist/_fleet/argocd/cluster/aws-example-1/root')], { encoding: 'utf8' }),
      );
      expect([built.kind, built.metadata.name, built.spec.source.path]).toEqual([
        'Application',
        'ccm-root.aws-example-1',
        'dist/_fleet/argocd/cluster/aws-example-1',
      ]);
    }
  });

  test('GIVEN defaults.yaml and .gitignore exist WHEN init runs THEN both are kept byte for byte, and the missing ignore lines are named', () => {
    const root = dir();
    writeFile(root, 'clusters/defaults.yaml', '# mine\n');
    writeFile(root, '.gitignore', 'node_modules/\n');
    const init = run(['init', root, '--no-ci']);
    expect(init.code).toBe(EXIT_OK);
    expect(fs.readFileSync(path.join(root, 'clusters/defaults.yaml'), 'utf8')).toBe('# mine\n');
    expect(fs.readFileSync(path.join(root, '.gitignore'), 'utf8')).toBe('node_modules/\n');
    expect(init.stdout).toContain(`kept  ${path.join(root, 'clusters/defaults.yaml')} (exists; not changed)\n`);
    expect(init.stdout).toContain(
      `add to ${path.join(root, '.gitignore')}: .dist.lock .dist.journal .dist.journal.tmp .dist.new-*/ .dist.old-*/ .*.ccm-gitops-import\n`,
    );
    expect(fs.existsSync(path.join(root, '.github'))).toBe(false);

    // a second init over a complete skeleton writes nothing
    const before = readTree(root);
    const again = run(['init', root, '--no-ci']);
    expect(again.code).toBe(EXIT_OK);
    expect(again.stdout).not.toContain('wrote ');
    expect(readTree(root)).toEqual(before);
  });

  test('GIVEN every platform of both distributions WHEN init runs THEN each rendered combination has its example, and the fleet validates and renders', () => {
    const root = dir();
    const all = [...new Set([...platformsOf('openshift'), ...platformsOf('kubernetes')])];
    const init = run([
      'init',
      root,
      '-d',
      'openshift',
      'kubernetes',
      '-p',
      all.join(','),
      '--engine',
      'flux',
      '--repo-url',
      'https://git.example.com/x/fleet.git',
    ]);
    expect(init.code).toBe(EXIT_OK);
    // combinations a distribution does not render are named, not written
    expect(init.stderr).toContain('note: no openshift example on DigitalOcean: distribution openshift does not render DigitalOcean\n');
    expect(init.stderr).toContain('note: no kubernetes example on IBMCloud: distribution kubernetes does not render IBMCloud\n');
    const names: string[] = [];
    for (const d of ['openshift', 'kubernetes'] as Distribution[]) {
      for (const p of platformsOf(d)) {
        names.push(exampleClusterName(d, p));
        expect(fs.existsSync(path.join(root, 'clusters', d, `${exampleClusterName(d, p)}.yaml`))).toBe(true);
      }
    }
    expect(run(['validate-spec', path.join(root, 'clusters')]).code).toBe(EXIT_OK);
    const synth = run(['synth', '-c', path.join(root, 'clusters'), '-o', path.join(root, 'dist')]);
    // the only warning: Equinix Metal's CCM is deprecated upstream
    expect(synth.stderr.split('\n').filter((l) => l)).toEqual([
      expect.stringMatching(/k8s-equinixmetal-example-1: platform EquinixMetal: the Equinix Metal CCM is deprecated upstream/),
    ]);
    expect(synth.code).toBe(EXIT_OK);
    // one Flux entry per cluster: the entry Kustomization the synth wrote
    for (const name of names) {
      expect(fs.existsSync(path.join(root, 'dist', name, 'flux-entry/kustomization.yaml'))).toBe(true);
    }
    expect(fs.existsSync(path.join(root, 'bootstrap'))).toBe(false);
    if (KUBECTL) {
      const built = parse(execFileSync('kubectl', ['kustomize', path.join(root, 'dist', names[0], 'flux-entry')], { encoding: 'utf8' }));
      expect([built.kind, built.metadata.name, built.spec.path]).toEqual(['Kustomization', `ccm-${names[0]}`, `./dist/${names[0]}/gitops`]);
    }
  });

  test.each(['argocd', 'flux'])(
    'GIVEN a %s fleet from init WHEN the example is copied under a new name and the original removed THEN synth renders the new entry point and drops the old one, and CI builds it',
    (engine) => {
      const root = dir();
      expect(run(['init', root, '-e', engine]).code).toBe(EXIT_OK);
      const spec = path.join(root, 'clusters/openshift/aws-example-1.yaml');
      // as README step 1 says: copy the example, set metadata.name
      fs.writeFileSync(
        path.join(root, 'clusters/openshift/aws-prod-7.yaml'),
        fs
          .readFileSync(spec, 'utf8')
          .replace(/name: aws-example-1 /, 'name: aws-prod-7 ')
          .replace(/aws-example-1-abcde/, 'aws-prod-7-abcde'),
      );
      fs.rmSync(spec);
      expect(run(['synth', '-q', '--clusters', path.join(root, 'clusters'), '--out', path.join(root, 'dist')])).toEqual({
        code: EXIT_OK,
        stdout: '',
        stderr: '',
      });
      const entry = entryPointOf(engine as InitEngine, 'aws-prod-7');
      expect(fs.existsSync(path.join(root, entry, 'kustomization.yaml'))).toBe(true);
      expect(fs.existsSync(path.join(root, entryPointOf(engine as InitEngine, 'aws-example-1')))).toBe(false);
      // the workflow init wrote builds every kustomization under dist/, the entry points with the stages
      const workflow = fs.readFileSync(path.join(root, '.github/workflows/ccm-gitops.yml'), 'utf8');
      expect(workflow).toContain('- name: Build every stage and entry point with kustomize\n');
      expect(workflow).toContain('for k in $(find dist -name kustomization.yaml); do');
      // AND no kustomization in the repository names a folder that is gone (a hand-written entry point of the removed cluster would)
      const kustomizations = Object.keys(readTree(root)).filter((f) => f.endsWith('kustomization.yaml') && !f.startsWith('.git/'));
      const dangling = kustomizations.flatMap((k) =>
        (parse(fs.readFileSync(path.join(root, k), 'utf8')).resources as string[])
          .filter((r) => !fs.existsSync(path.join(root, path.dirname(k), r)))
          .map((r) => `${k}: ${r}`),
      );
      expect(dangling).toEqual([]);
      if (KUBECTL) {
        for (const k of kustomizations) {
          execFileSync('kubectl', ['kustomize', path.dirname(path.join(root, k))], { encoding: 'utf8' });
        }
      }
    },
  );

  test('GIVEN a fleet from init -p AWS WHEN init runs again with -p GCP VSphere THEN the new examples pin the images the kept defaults lack, say so, and the fleet validates', () => {
    const root = dir();
    expect(run(['init', root, '--no-ci']).code).toBe(EXIT_OK);
    const again = run(['init', root, '-p', 'GCP', 'VSphere', '--no-ci']);
    expect(again.code).toBe(EXIT_OK);
    expect(again.stderr).toBe(
      'note: clusters/openshift/defaults.yaml (kept) has no cloudControllerManagerGCP: clusters/openshift/gcp-example-1.yaml pins it itself; ' +
        'move it to clusters/openshift/defaults.yaml to share it with the other GCP clusters\n' +
        'note: clusters/openshift/defaults.yaml (kept) has no cloudControllerManagerVSphere: clusters/openshift/vsphere-example-1.yaml pins it itself; ' +
        'move it to clusters/openshift/defaults.yaml to share it with the other VSphere clusters\n',
    );
    expect(run(['validate-spec', path.join(root, 'clusters')])).toEqual({ code: EXIT_OK, stdout: '3 spec files valid\n', stderr: '' });
  });

  test("GIVEN an Argo CD fleet from init WHEN init runs again with -e flux THEN it refuses (exit 2, nothing written); without -e it keeps the fleet's engine", () => {
    const root = path.join(dir(), 'argocd-fleet');
    expect(run(['init', root, '--no-ci']).code).toBe(EXIT_OK);
    const before = readTree(root);
    expect(run(['init', root, '-e', 'flux', '-p', 'GCP', '--no-ci'])).toEqual({
      code: EXIT_USAGE,
      stdout: '',
      stderr:
        'error: --engine flux: clusters/defaults.yaml (kept as it is) sets spec.gitops.engine: argocd; change it there first, or run init without --engine; nothing was written\n',
    });
    expect(readTree(root)).toEqual(before);
    // a Flux fleet given more platforms without -e stays Flux
    const flux = path.join(dir(), 'flux-fleet');
    expect(run(['init', flux, '-e', 'flux', '--no-ci']).code).toBe(EXIT_OK);
    const more = run(['init', flux, '-p', 'GCP', '--no-ci']);
    expect(more.code).toBe(EXIT_OK);
    expect(more.stdout).toContain("add dist/<cluster>/flux-entry to that cluster's flux-system kustomization");
  });

  test("GIVEN a Flux fleet WHEN flux bootstrap --path=clusters/<name> adds its flux-system folder and the cluster's kustomization lists the entry THEN validate-spec and synth read only the specs, and the folder builds", () => {
    const root = dir();
    expect(run(['init', root, '-e', 'flux', '--no-ci']).code).toBe(EXIT_OK);
    // what flux bootstrap writes (file names of fluxcd/flux2 pkg/manifestgen), abridged
    writeFile(
      root,
      'clusters/aws-example-1/flux-system/gotk-components.yaml',
      '---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: flux-system\n' +
        '---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: kustomize-controller\n  namespace: flux-system\n',
    );
    writeFile(
      root,
      'clusters/aws-example-1/flux-system/gotk-sync.yaml',
      '---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: flux-system\n  namespace: flux-system\n' +
        'spec:\n  interval: 1m0s\n  ref:\n    branch: main\n  url: https://git.example.com/platform/fleet.git\n' +
        '---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: flux-system\n  namespace: flux-system\n' +
        'spec:\n  interval: 10m0s\n  path: ./clusters/aws-example-1\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n',
    );
    writeFile(
      root,
      'clusters/aws-example-1/flux-system/kustomization.yaml',
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - gotk-components.yaml\n  - gotk-sync.yaml\n',
    );
    // as docs/gitops.md says: the cluster's folder lists Flux's own objects and the cluster's entry point
    writeFile(
      root,
      'clusters/aws-example-1/kustomization.yaml',
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - flux-system\n  - ../../dist/aws-example-1/flux-entry\n',
    );
    expect(run(['validate-spec', path.join(root, 'clusters')])).toEqual({ code: EXIT_OK, stdout: '1 spec file valid\n', stderr: '' });
    expect(run(['synth', '-q', '--clusters', path.join(root, 'clusters'), '--out', path.join(root, 'dist')])).toEqual({
      code: EXIT_OK,
      stdout: '',
      stderr: '',
    });
    if (KUBECTL) {
      const built = execFileSync('kubectl', ['kustomize', path.join(root, 'clusters/aws-example-1')], { encoding: 'utf8' })
        .split(/^---$/m)
        .map((d) => parse(d));
      expect(built.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
        'GitRepository/flux-system',
        'Kustomization/ccm-aws-example-1',
        'Kustomization/flux-system',
        'Namespace/flux-system',
        'ServiceAccount/kustomize-controller',
      ]);
    }
  });

  test('GIVEN --topology hub WHEN init runs for both distributions THEN one hub entry point renders with a project of its own, and every cluster is registered by name', () => {
    const root = dir();
    const init = run(['init', root, '-d', 'openshift,kubernetes', '-p', 'AWS', '--topology', 'hub', '--no-ci']);
    expect(init.code).toBe(EXIT_OK);
    expect(init.stdout).toContain(
      '  kubectl apply -k dist/_fleet/argocd/hub/argocd/root   (once, on the hub, into its Argo CD; register each cluster in it first)\n',
    );
    expect(run(['validate-spec', path.join(root, 'clusters')])).toEqual({ code: EXIT_OK, stdout: '2 spec files valid\n', stderr: '' });
    expect(run(['synth', '-q', '--clusters', path.join(root, 'clusters'), '--out', path.join(root, 'dist')])).toEqual({
      code: EXIT_OK,
      stdout: '',
      stderr: '',
    });
    const fleet = Object.keys(readTree(path.join(root, 'dist/_fleet'))).sort();
    expect(fleet).toEqual(
      expect.arrayContaining(['argocd/hub/argocd/root/application.argocd.ccm-fleet.yaml', 'argocd/hub/argocd/root/kustomization.yaml']),
    );
    expect(fleet.some((f) => f.includes('appproject.argocd.cloud-controllers'))).toBe(true);
    const apps = ['aws-example-1', 'k8s-aws-example-1'].map((c) =>
      parse(fs.readFileSync(path.join(root, 'dist', c, `gitops/application.argocd.ccm-${c}.yaml`), 'utf8')),
    );
    expect(apps.map((a) => [a.metadata.name, a.spec.project, a.spec.destination.name]).sort()).toEqual([
      ['ccm-aws-example-1', 'cloud-controllers', 'aws-example-1'],
      ['ccm-k8s-aws-example-1', 'cloud-controllers', 'k8s-aws-example-1'],
    ]);
    expect(run(['init', path.join(dir(), 'flux-hub'), '-e', 'flux', '--topology', 'hub']).stderr).toBe(
      "error: --topology hub is an Argo CD fleet model; use it with --engine argocd (the fleet's engine is flux); nothing was written\n",
    );
    if (KUBECTL) {
      execFileSync('kubectl', ['kustomize', path.join(root, 'dist/_fleet/argocd/hub/argocd/root')], { encoding: 'utf8' });
    }
  });

  test('GIVEN a per-cluster fleet (no topology in its defaults) WHEN init adds a distribution with --topology hub THEN it refuses, naming the kept file and the fix, and writes nothing', () => {
    const root = dir();
    expect(run(['init', root, '-p', 'AWS', '--no-ci']).code).toBe(EXIT_OK);
    const before = readTree(root);
    expect(run(['init', root, '-d', 'kubernetes', '-p', 'AWS', '--topology', 'hub', '--no-ci'])).toEqual({
      code: EXIT_USAGE,
      stdout: '',
      stderr:
        'error: --topology hub: clusters/defaults.yaml (kept as it is) sets no spec.gitops.argocd.topology, so per-cluster; ' +
        'set topology: hub there first, or run init without --topology; nothing was written\n',
    });
    expect(readTree(root)).toEqual(before);
    // without --topology the new example fits the kept fleet, and the next synth accepts it
    expect(run(['init', root, '-d', 'kubernetes', '-p', 'AWS', '--no-ci']).code).toBe(EXIT_OK);
    expect(run(['synth', '-q', '--clusters', path.join(root, 'clusters'), '--out', path.join(root, 'dist')])).toEqual({
      code: EXIT_OK,
      stdout: '',
      stderr: '',
    });
  });

  test('GIVEN both distributions on Argo CD WHEN init runs and the fleet renders THEN OpenShift clusters use openshift-gitops and Kubernetes clusters upstream argocd', () => {
    const root = dir();
    expect(run(['init', root, '-d', 'openshift,kubernetes', '-p', 'AWS', '--no-ci']).code).toBe(EXIT_OK);
    expect(run(['synth', '-q', '--clusters', path.join(root, 'clusters'), '--out', path.join(root, 'dist')]).code).toBe(EXIT_OK);
    const roots = Object.keys(readTree(path.join(root, 'dist/_fleet/argocd')))
      .filter((f) => f.includes('/root/application.'))
      .sort();
    expect(roots).toEqual([
      'cluster/aws-example-1/root/application.openshift-gitops.ccm-root.aws-example-1.yaml',
      'cluster/k8s-aws-example-1/root/application.argocd.ccm-root.k8s-aws-example-1.yaml',
    ]);
  });

  test('GIVEN Flux and an ssh:// repository WHEN init runs THEN the spec names a key Secret; WHEN the secretRef is removed THEN validate-spec warns, naming the field and not the URL', () => {
    const root = dir();
    const url = 'ssh://git@git.example.com/platform/fleet.git';
    expect(run(['init', root, '-e', 'flux', '--repo-url', url, '--no-ci']).code).toBe(EXIT_OK);
    const defaults = path.join(root, 'clusters/defaults.yaml');
    expect(fs.readFileSync(defaults, 'utf8')).toMatch(/^ {6}secretRef: fleet-git-credentials /m);
    expect(run(['validate-spec', path.join(root, 'clusters')])).toEqual({ code: EXIT_OK, stdout: '1 spec file valid\n', stderr: '' });

    fs.writeFileSync(defaults, fs.readFileSync(defaults, 'utf8').replace(/^ {6}secretRef: .*\n/m, ''));
    const validated = run(['validate-spec', path.join(root, 'clusters')]);
    expect(validated.code).toBe(EXIT_OK);
    expect(validated.stderr).toContain(
      'cluster aws-example-1: spec.gitops.repoURL is an SSH URL and spec.gitops.flux.secretRef names no Secret: Flux cannot clone the repository without a key.',
    );
    expect(validated.stderr).not.toContain(url);
  });

  test("every spec starts with a schema modeline that resolves, from its own folder, to the installed package's schema", () => {
    const root = dir();
    expect(run(['init', root, '-d', 'openshift,kubernetes', '-p', 'AWS']).code).toBe(EXIT_OK);
    // as npm install puts the package into the fleet repository
    const installed = (name: string): string => path.join(root, 'node_modules', 'ccm-gitops', 'schema', name);
    for (const file of ['clusters/defaults.yaml', 'clusters/openshift/defaults.yaml', 'clusters/kubernetes/k8s-aws-example-1.yaml']) {
      const first = fs.readFileSync(path.join(root, file), 'utf8').split('\n')[0];
      const m = /^# yaml-language-server: \$schema=(\S+)$/.exec(first);
      expect(m).not.toBeNull();
      // defaults files have their own schema beside the cluster spec's
      expect(path.resolve(path.dirname(path.join(root, file)), m![1])).toBe(
        installed(file.endsWith('/defaults.yaml') ? 'cluster-defaults.schema.json' : 'cluster-spec.schema.json'),
      );
    }
  });

  test('the modeline follows the installed package when it sits in a node_modules above the folder, and never is an absolute path', () => {
    const project = dir();
    const pkg = path.join(project, 'node_modules', 'ccm-gitops');
    expect(schemaPathFor(path.join(project, 'fleet'), pkg)).toBe('../node_modules/ccm-gitops/schema/cluster-spec.schema.json');
    expect(schemaPathFor(project, pkg)).toBe('node_modules/ccm-gitops/schema/cluster-spec.schema.json');
    // pnpm: the store path changes with every version; the node_modules/ccm-gitops link does not
    expect(schemaPathFor(path.join(project, 'fleet'), path.join(project, 'node_modules/.pnpm/ccm-gitops@0.1.0/node_modules/ccm-gitops'))).toBe(
      '../node_modules/ccm-gitops/schema/cluster-spec.schema.json',
    );
    // run from a clone or a global install: where npm install will put it
    expect(schemaPathFor(project, REPO)).toBe('node_modules/ccm-gitops/schema/cluster-spec.schema.json');
    expect(schemaPathFor(project, '/usr/lib/node_modules/ccm-gitops')).toBe('node_modules/ccm-gitops/schema/cluster-spec.schema.json');
  });

  test('GIVEN a git repository WHEN a killed synth or import left its lock, journal and staging folders THEN the scaffolded .gitignore ignores them', () => {
    const root = dir();
    expect(run(['init', root, '--no-ci']).code).toBe(EXIT_OK);
    execFileSync('git', ['init', '-q'], { cwd: root });
    // the names writeTreeAtomically (src/pipeline/output.ts) and import (src/cli.ts) stage into
    for (const f of [
      '.dist.new-4242/a/kustomization.yaml',
      '.dist.old-4242/a/kustomization.yaml',
      '.dist.lock',
      '.dist.journal',
      '.dist.journal.tmp',
      'clusters/.c.yaml.ccm-gitops-import',
      'node_modules/x/index.js',
    ]) {
      writeFile(root, f, 'x');
    }
    writeFile(root, 'dist/a/kustomization.yaml', 'x');
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });
    expect(status).not.toMatch(/\.dist\.(new|old)-|\.dist\.(lock|journal)|ccm-gitops-import|node_modules/);
    expect(status).toContain('dist/a/kustomization.yaml');
  });

  test('unknown platform, distribution or engine, and a URL with credentials: exit 2, nothing written', () => {
    const root = dir();
    expect(run(['init', root, '-p', 'AWZ'])).toEqual({
      code: EXIT_USAGE,
      stdout: '',
      stderr: `error: --platform "AWZ" is not known; use one of AWS, Azure, GCP, IBMCloud, PowerVS, OpenStack, VSphere, Nutanix, AlibabaCloud, DigitalOcean, EquinixMetal; nothing was written\n`,
    });
    expect(run(['init', root, '-d', 'k3s']).stderr).toBe(
      'error: --distribution "k3s" is not known; use one of openshift, kubernetes; nothing was written\n',
    );
    expect(run(['init', root, '-e', 'fleet']).stderr).toBe(
      'error: --engine "fleet" is not known; use one of argocd, flux, plain; nothing was written\n',
    );
    expect(run(['init', root, '-p', 'PowerVS', '-d', 'kubernetes']).stderr).toBe(
      'error: platform PowerVS is not rendered by distribution kubernetes; choose from AWS, AlibabaCloud, Azure, DigitalOcean, EquinixMetal, GCP, Nutanix, OpenStack, VSphere; nothing was written\n',
    );
    expect(run(['init', root, '--repo-url', 'https://user:pw@git.example.com/f.git']).code).toBe(EXIT_USAGE);
    expect(fs.readdirSync(root)).toEqual([]);
  });

  test('the kubernetes image pins are those of the example fleet (clusters/kubernetes/defaults.yaml)', () => {
    const defaults = parse(fs.readFileSync(path.join(REPO, 'clusters/kubernetes/defaults.yaml'), 'utf8'));
    expect(KUBERNETES_EXAMPLE_IMAGES).toEqual(defaults.spec.images);
  });

  test('the scaffold is the same whatever the order of the options', () => {
    const a = scaffold({ distributions: ['kubernetes', 'openshift'], platforms: ['GCP', 'AWS'], engine: 'flux' });
    const b = scaffold({ distributions: ['openshift', 'kubernetes'], platforms: ['AWS', 'GCP'], engine: 'flux' });
    expect(a.files).toEqual(b.files);
  });
});

describe('ccm-gitops --version', () => {
  test('prints the version of package.json', () => {
    const version = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version;
    expect(run(['--version'])).toEqual({ code: EXIT_OK, stdout: `${version}\n`, stderr: '' });
  });
});
