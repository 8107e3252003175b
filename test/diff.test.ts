import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { stringify } from 'yaml';
import { EXIT_INVALID_INPUT, EXIT_OK, EXIT_USAGE, runCli } from '../src/cli';
import { diffTrees, fieldChanges, grants, Tree } from '../src/diff/diff-trees';
import { flatten } from '../src/diff/flatten';
import { diffMarkdown } from '../src/diff/markdown';
import { captureIo, useTempDir, writeFile } from './helpers';

type Obj = Record<string, any>;

const deployment = (over: Obj = {}): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'aws-cloud-controller-manager', namespace: 'openshift-cloud-controller-manager' },
  spec: {
    selector: { matchLabels: { 'k8s-app': 'aws-cloud-controller-manager' } },
    template: {
      spec: {
        containers: [
          { name: 'cloud-controller-manager', image: 'img:1' },
          { name: 'sidecar', image: 'side:1' },
        ],
      },
    },
    ...over,
  },
});
const role = (rules: Obj[]): Obj => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'cloud-controller-manager' },
  rules,
});
const cr = (permissions: string[]): Obj => ({
  apiVersion: 'cloudcredential.openshift.io/v1',
  kind: 'CredentialsRequest',
  metadata: { name: 'openshift-gcp-ccm', namespace: 'openshift-cloud-credential-operator' },
  spec: { providerSpec: { kind: 'GCPProviderSpec', permissions } },
});
const fleetJson = (phase: string) => `${JSON.stringify({ clusters: [{ name: 'prod-1', platform: 'AWS', phase }] })}\n`;

function tree(objects: Record<string, Obj>, extra: Record<string, string> = {}): Tree {
  return new Map([...Object.entries(objects).map(([p, o]) => [p, stringify(o)] as [string, string]), ...Object.entries(extra)]);
}

describe('field-level comparison', () => {
  test('list items with names are addressed by name', () => {
    expect([...flatten(deployment()).keys()]).toContain('spec.template.spec.containers[cloud-controller-manager].image');
    expect([...flatten({ args: ['a', 'b'] }).keys()]).toEqual(['args[0]', 'args[1]']);
    expect([...flatten({ metadata: { annotations: { 'a/b': 'x' } } }).keys()]).toEqual(['metadata.annotations["a/b"]']);
  });

  test('reordering named list items is no change; changing one item names it', () => {
    const reordered = deployment({
      template: {
        spec: {
          containers: [
            { name: 'sidecar', image: 'side:1' },
            { name: 'cloud-controller-manager', image: 'img:1' },
          ],
        },
      },
    });
    expect(fieldChanges(deployment(), reordered)).toEqual([]);
    const bumped = deployment({
      template: {
        spec: {
          containers: [
            { name: 'cloud-controller-manager', image: 'img:2' },
            { name: 'sidecar', image: 'side:1' },
          ],
        },
      },
    });
    expect(fieldChanges(deployment(), bumped)).toEqual([
      { path: 'spec.template.spec.containers[cloud-controller-manager].image', before: 'img:1', after: 'img:2' },
    ]);
  });

  test('grants expand rules into verb, resource and name', () => {
    expect([
      ...grants([
        { apiGroups: ['', 'apps'], resources: ['nodes'], verbs: ['get'], resourceNames: ['n1'] },
        { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      ]),
    ]).toEqual(['get nodes/n1', 'get apps/nodes/n1', 'get /healthz']);
  });
});

describe('tree comparison', () => {
  test('added, removed and changed objects, grouped by platform/cluster', () => {
    const base = tree(
      {
        'prod-1/04-workloads/d.yaml': deployment(),
        'prod-1/03-config/old.yaml': { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'old', namespace: 'ns' } },
      },
      { '.fleet.json': fleetJson('external') },
    );
    const head = tree(
      {
        'prod-1/04-workloads/d.yaml': deployment({
          template: {
            spec: {
              containers: [
                { name: 'cloud-controller-manager', image: 'img:2' },
                { name: 'sidecar', image: 'side:1' },
              ],
            },
          },
        }),
        'prod-1/03-config/new.yaml': { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'new', namespace: 'ns' } },
      },
      { '.fleet.json': fleetJson('external') },
    );
    const diff = diffTrees(base, head);
    expect([...diff.clusters.keys()]).toEqual(['aws/prod-1']);
    expect(diff.clusters.get('aws/prod-1')).toEqual([
      { state: 'added', object: 'ConfigMap ns/new', cluster: 'aws/prod-1', fields: [] },
      { state: 'removed', object: 'ConfigMap ns/old', cluster: 'aws/prod-1', fields: [] },
      {
        state: 'changed',
        object: 'Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager',
        cluster: 'aws/prod-1',
        fields: [{ path: 'spec.template.spec.containers[cloud-controller-manager].image', before: 'img:1', after: 'img:2' }],
      },
    ]);
    expect(diff.risks).toEqual([
      {
        cluster: 'aws/prod-1',
        object: 'ConfigMap ns/old',
        message: 'removed: the GitOps engine prunes (deletes) it from the cluster on the next sync',
      },
    ]);
  });

  test('risky changes: selector, RBAC widened, credentials, phase, removed cluster', () => {
    const base = tree(
      {
        'prod-1/04-workloads/d.yaml': deployment(),
        'prod-1/01-rbac/r.yaml': role([{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }]),
        'prod-1/02-credentials/cr.yaml': cr(['compute.zones.list']),
        'old-1/04-workloads/d.yaml': deployment(),
      },
      { '.fleet.json': fleetJson('in-tree') },
    );
    const head = tree(
      {
        'prod-1/04-workloads/d.yaml': deployment({ selector: { matchLabels: { app: 'x' } } }),
        'prod-1/01-rbac/r.yaml': role([{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'update'] }]),
        'prod-1/02-credentials/cr.yaml': cr(['compute.zones.list', 'compute.instances.get']),
        'prod-1/01-rbac/b.yaml': {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'extra' },
          roleRef: { kind: 'ClusterRole', name: 'admin' },
        },
      },
      { '.fleet.json': fleetJson('leader-migration-kcm') },
    );
    expect(diffTrees(base, head).risks).toEqual([
      { cluster: 'aws/prod-1', object: '', message: 'migration phase changes from in-tree to leader-migration-kcm' },
      { cluster: 'aws/prod-1', object: 'ClusterRole cloud-controller-manager', message: 'RBAC widened: grants update nodes' },
      { cluster: 'aws/prod-1', object: 'ClusterRoleBinding extra', message: 'RBAC widened: new binding to ClusterRole admin' },
      {
        cluster: 'aws/prod-1',
        object: 'CredentialsRequest openshift-cloud-credential-operator/openshift-gcp-ccm',
        message: 'CredentialsRequest changed: the cloud permissions or the credentials Secret of the CCM change',
      },
      {
        cluster: 'aws/prod-1',
        object: 'Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager',
        message: 'selector changed: selectors are immutable, so the Deployment must be deleted and recreated (its pods go away meanwhile)',
      },
      {
        cluster: 'old-1',
        object: '',
        message:
          'cluster removed from the fleet: its Application (no resources finalizer) or Flux chain (deletionPolicy Orphan) goes, its CCM keeps running unmanaged; remove it from the cluster by hand if that is the intent',
      },
      {
        cluster: 'old-1',
        object: 'Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager',
        message: 'removed: the GitOps engine prunes (deletes) it from the cluster on the next sync',
      },
    ]);
  });

  test('narrowing RBAC is not flagged', () => {
    const base = tree({ 'c/r.yaml': role([{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] }]) });
    const head = tree({ 'c/r.yaml': role([{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }]) });
    expect(diffTrees(base, head).risks).toEqual([]);
  });
});

describe('Markdown for a pull-request comment', () => {
  test('risky changes come first, then each cluster with field changes', () => {
    const base = tree({ 'prod-1/d.yaml': deployment() }, { '.fleet.json': fleetJson('external') });
    const head = tree({ 'prod-1/d.yaml': deployment({ selector: { matchLabels: { app: 'x' } } }) }, { '.fleet.json': fleetJson('external') });
    expect(diffMarkdown(diffTrees(base, head))).toBe(
      [
        '## ccm-gitops diff',
        '',
        '1 cluster changed: 0 objects added, 0 removed, 1 changed.',
        '',
        '### ⚠️ Risky changes',
        '',
        '- `aws/prod-1` Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager: selector changed: selectors are immutable, ' +
          'so the Deployment must be deleted and recreated (its pods go away meanwhile)',
        '',
        '### aws/prod-1',
        '',
        '- Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager: changed',
        '  - `spec.selector.matchLabels.app` added: `x`',
        '  - `spec.selector.matchLabels.k8s-app` removed (was `aws-cloud-controller-manager`)',
        '',
      ].join('\n'),
    );
  });

  test('multi-line values show the lines that changed', () => {
    const cm = (conf: string): Obj => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cloud-conf', namespace: 'n' },
      data: { 'cloud.conf': conf },
    });
    const md = diffMarkdown(diffTrees(tree({ 'c/cm.yaml': cm('[Global]\nZone = a\n') }), tree({ 'c/cm.yaml': cm('[Global]\nZone = b\n') })));
    expect(md).toContain('  - `data["cloud.conf"]` changed:\n    ```diff\n    - Zone = a\n    + Zone = b\n    ```');
  });

  test('equal trees say so', () => {
    expect(diffMarkdown(diffTrees(tree({ 'c/d.yaml': deployment() }), tree({ 'c/d.yaml': deployment() })))).toBe(
      '## ccm-gitops diff\n\nNo changes to the rendered manifests.\n',
    );
  });
});

describe('ccm-gitops diff', () => {
  const dir = useTempDir();

  test('two folders: Markdown on stdout, exit 1 when they differ and 0 when equal', () => {
    writeFile(dir(), 'a/c/d.yaml', deployment());
    writeFile(dir(), 'b/c/d.yaml', deployment({ replicas: 3 }));
    const changed = captureIo();
    expect(runCli(['diff', path.join(dir(), 'a'), path.join(dir(), 'b')], changed.io, {})).toBe(EXIT_INVALID_INPUT);
    expect(changed.stdout()).toContain('  - `spec.replicas` added: `3`');
    const same = captureIo();
    expect(runCli(['diff', path.join(dir(), 'a'), path.join(dir(), 'a')], same.io, {})).toBe(EXIT_OK);
  });

  test('a git range compares the committed output folder', () => {
    const repo = dir();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo, stdio: 'pipe' });
    git('init', '-q');
    writeFile(repo, 'out/c/d.yaml', deployment());
    git('add', '.');
    git('commit', '-qm', 'one');
    writeFile(repo, 'out/c/d.yaml', deployment({ replicas: 5 }));
    git('commit', '-qam', 'two');
    const cwd = process.cwd();
    try {
      process.chdir(repo);
      const r = captureIo();
      expect(runCli(['diff', '--git', 'HEAD~1..HEAD', '--path', 'out'], r.io, {})).toBe(EXIT_INVALID_INPUT);
      expect(r.stdout()).toContain('  - `spec.replicas` added: `5`');
      const working = captureIo();
      expect(runCli(['diff', '--git', 'HEAD', '--path', 'out'], working.io, {})).toBe(EXIT_OK);
    } finally {
      process.chdir(cwd);
    }
  });

  test('usage errors exit 2', () => {
    const r = captureIo();
    expect(runCli(['diff', path.join(dir(), 'missing'), path.join(dir(), 'missing')], r.io, {})).toBe(EXIT_USAGE);
    expect(r.stderr()).toBe(`error: ${path.join(dir(), 'missing')} is not a directory\n`);
    const r2 = captureIo();
    expect(runCli(['diff', 'only-one'], r2.io, {})).toBe(EXIT_USAGE);
    expect(r2.stderr()).toBe('error: give the two folders to compare, or --git BASE[..HEAD]\n');
    expect(fs.existsSync(path.join(dir(), 'missing'))).toBe(false);
  });
});

describe('ccm-gitops diff --git: a missing tree is an error, refs are never options', () => {
  const dir = useTempDir();
  let repo: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo, stdio: 'pipe' }).toString();
  const inRepo = <T>(cwd: string, fn: () => T): T => {
    const before = process.cwd();
    try {
      process.chdir(cwd);
      return fn();
    } finally {
      process.chdir(before);
    }
  };
  beforeEach(() => {
    // GIVEN a repository whose output folder changes between two commits (a risky change)
    repo = dir();
    git('init', '-q', '-b', 'main');
    writeFile(repo, 'dist/c/d.yaml', deployment());
    writeFile(repo, 'clusters/defaults.yaml', 'keep: me\n');
    git('add', '.');
    git('commit', '-qm', 'one');
    git('checkout', '-qb', 'risky');
    writeFile(repo, 'dist/c/d.yaml', deployment({ selector: { matchLabels: { x: 'y' } } }));
    git('commit', '-qam', 'two');
  });

  test('run from a subfolder: the output folder is not there, so exit 2, never "No changes"', () => {
    const r = captureIo();
    const code = inRepo(path.join(repo, 'clusters'), () => runCli(['diff', '--git', 'main..risky'], r.io, {}));
    expect({ code, stdout: r.stdout() }).toEqual({ code: EXIT_USAGE, stdout: '' });
    expect(r.stderr()).toBe(
      'error: dist is not in main nor in risky (paths are relative to the current folder, clusters/ of the repository); run from the repository root or pass --path\n',
    );
  });

  test('a --path that does not exist: exit 2', () => {
    const r = captureIo();
    const code = inRepo(repo, () => runCli(['diff', '--git', 'main..risky', '--path', 'nope'], r.io, {}));
    expect(code).toBe(EXIT_USAGE);
    expect(r.stderr()).toBe(
      'error: nope is not in main nor in risky (paths are relative to the current folder, the repository root); run from the repository root or pass --path\n',
    );
  });

  test('a tree missing only at the base (the first render) is all added, not equal', () => {
    const r = captureIo();
    const first = git('rev-list', '--max-parents=0', 'HEAD').trim();
    git('rm', '-rq', 'dist');
    git('commit', '-qm', 'no dist');
    const code = inRepo(repo, () => runCli(['diff', '--git', `HEAD..${first}`], r.io, {}));
    expect(code).toBe(EXIT_INVALID_INPUT);
    expect(r.stdout()).toContain('- Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager: added');
  });

  test.each([
    ['--output=clusters/defaults.yaml..HEAD'],
    ['HEAD..--output=clusters/defaults.yaml'],
    ['--output=clusters/defaults.yaml'],
    ['-o clusters/defaults.yaml'],
  ])('a ref that looks like an option (%s) is refused and truncates nothing', (range) => {
    const r = captureIo();
    const code = inRepo(repo, () => runCli(['diff', `--git=${range}`], r.io, {}));
    expect(code).toBe(EXIT_USAGE);
    expect(r.stderr()).toMatch(/^error: "-[^"]*" is not a git revision \(it starts with "-"\); give a branch, tag or commit\n$/);
    expect(fs.readFileSync(path.join(repo, 'clusters', 'defaults.yaml'), 'utf8')).toBe('keep: me\n');
  });

  test("an unknown revision is exit 2 with git's reason", () => {
    const r = captureIo();
    const code = inRepo(repo, () => runCli(['diff', '--git', 'main..nosuch'], r.io, {}));
    expect(code).toBe(EXIT_USAGE);
    expect(r.stderr()).toBe('error: "nosuch" is not a commit in this repository\n');
  });
});

describe('ccm-gitops diff refuses a tree a killed synth left half-written', () => {
  const dir = useTempDir();

  test.each([
    ['head', '.dist.journal'],
    ['head', '.dist.lock'],
    ['base', '.dist.journal'],
  ])('two folders, the %s with %s beside it: exit 2, one line, no diff', (side, sidecar) => {
    // GIVEN two rendered trees, one of them with the journal or lock a synth killed in its commit left beside it
    const base = path.join(dir(), 'base', 'dist');
    const head = path.join(dir(), 'head', 'dist');
    writeFile(base, 'c/d.yaml', deployment());
    writeFile(head, 'c/d.yaml', deployment({ replicas: 3 }));
    const broken = side === 'head' ? head : base;
    fs.writeFileSync(path.join(path.dirname(broken), sidecar), '{}\n');
    // WHEN they are compared
    const r = captureIo();
    const code = runCli(['diff', base, head], r.io, {});
    // THEN diff refuses with one clear line and prints no summary
    expect({ code, stdout: r.stdout(), stderr: r.stderr() }).toEqual({
      code: EXIT_USAGE,
      stdout: '',
      stderr: `error: ${broken}/ was left half-written by an interrupted synth; run synth to complete it\n`,
    });
  });

  test('diff --git against a working tree with a lock, and a revision that committed a journal: exit 2', () => {
    // GIVEN a repository with dist/ committed
    const repo = dir();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo, stdio: 'pipe' });
    git('init', '-q');
    writeFile(repo, 'dist/c/d.yaml', deployment());
    git('add', '.');
    git('commit', '-qm', 'one');
    const run = (...args: string[]) => {
      const cwd = process.cwd();
      try {
        process.chdir(repo);
        const r = captureIo();
        return { code: runCli(['diff', '--git', ...args], r.io, {}), stdout: r.stdout(), stderr: r.stderr() };
      } finally {
        process.chdir(cwd);
      }
    };
    // WHEN a synth's lock is beside the working tree's dist/
    fs.writeFileSync(path.join(repo, '.dist.lock'), '4242\n');
    // THEN the working tree is refused
    expect(run('HEAD')).toEqual({
      code: EXIT_USAGE,
      stdout: '',
      stderr: 'error: dist/ was left half-written by an interrupted synth; run synth to complete it\n',
    });
    // AND WHEN a commit holds a half-written dist/ with its journal
    fs.rmSync(path.join(repo, '.dist.lock'));
    writeFile(repo, 'dist/c/d.yaml', deployment({ replicas: 2 }));
    fs.writeFileSync(path.join(repo, '.dist.journal'), '{}\n');
    git('add', '-A');
    git('commit', '-qm', 'two');
    fs.rmSync(path.join(repo, '.dist.journal'));
    // THEN that revision is refused, named
    expect(run('HEAD~1..HEAD')).toEqual({
      code: EXIT_USAGE,
      stdout: '',
      stderr: 'error: dist/ at HEAD was left half-written by an interrupted synth; run synth to complete it\n',
    });
  });
});

describe('risky changes a reviewer must see', () => {
  const withContainer = (image: string, args: string[] = []): Obj =>
    deployment({ template: { spec: { containers: [{ name: 'cloud-controller-manager', image, args }] } } });
  const app = (spec: Obj): Obj => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'ccm-prod-1', namespace: 'argocd' },
    spec,
  });
  const fleet = (platform: string) => `${JSON.stringify({ clusters: [{ name: 'prod-1', platform, phase: 'external' }] })}\n`;
  const risksOf = (b: Record<string, Obj>, a: Record<string, Obj>, extraB: Record<string, string> = {}, extraA: Record<string, string> = {}) =>
    diffTrees(tree(b, extraB), tree(a, extraA)).risks.map((r) => `${r.object}: ${r.message}`);
  const D = 'Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager';

  test('an image from another registry or repository (a tag bump is not flagged)', () => {
    expect(
      risksOf({ 'prod-1/d.yaml': withContainer('quay.io/openshift/ccm:1') }, { 'prod-1/d.yaml': withContainer('quay.io/openshift/ccm:2') }),
    ).toEqual([]);
    expect(
      risksOf(
        { 'prod-1/d.yaml': withContainer('quay.io/openshift/ccm:1') },
        { 'prod-1/d.yaml': withContainer('evil.example.com:5000/openshift/ccm:1') },
      ),
    ).toEqual([
      `${D}: image source changes for container cloud-controller-manager: quay.io/openshift/ccm → evil.example.com:5000/openshift/ccm (supply chain: new code runs with the cloud credentials; check the registry and repository)`,
    ]);
  });

  test('a TLS downgrade (profile Old adds TLS 1.0)', () => {
    expect(
      risksOf(
        { 'prod-1/d.yaml': withContainer('i:1', ['--tls-min-version=VersionTLS12']) },
        { 'prod-1/d.yaml': withContainer('i:1', ['--tls-min-version=VersionTLS10']) },
      ),
    ).toEqual([`${D}: TLS downgrade: --tls-min-version goes from VersionTLS12 to VersionTLS10`]);
  });

  test('AllAlpha feature gates and feature sets', () => {
    expect(
      risksOf({ 'prod-1/d.yaml': withContainer('i:1') }, { 'prod-1/d.yaml': withContainer('i:1', ['--feature-gates=AllAlpha=true,Foo=false']) }),
    ).toEqual([`${D}: feature gate AllAlpha=true: turns on every alpha feature of the controller manager`]);
    const gate = (featureSet: string): Obj => ({
      apiVersion: 'config.openshift.io/v1',
      kind: 'FeatureGate',
      metadata: { name: 'cluster' },
      spec: { featureSet },
    });
    expect(risksOf({}, { 'prod-1/f.yaml': gate('TechPreviewNoUpgrade') })).toEqual([
      'FeatureGate cluster: FeatureGate featureSet TechPreviewNoUpgrade: the cluster can never be upgraded again and the feature set cannot be turned off',
    ]);
  });

  test('a MachineConfig change reboots the pool', () => {
    const mc = (source: string): Obj => ({
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfig',
      metadata: { name: '99-master-x' },
      spec: { config: { storage: { files: [{ path: '/etc/x', contents: { source } }] } } },
    });
    expect(risksOf({ 'prod-1/m.yaml': mc('data:,a') }, { 'prod-1/m.yaml': mc('data:,b') })).toEqual([
      'MachineConfig 99-master-x: MachineConfig change: the machine-config-operator rolls it out by draining and rebooting every node of the pool, one by one',
    ]);
  });

  test('a platform change of an existing cluster', () => {
    expect(
      risksOf(
        { 'prod-1/d.yaml': withContainer('i:1') },
        { 'prod-1/d.yaml': withContainer('i:1') },
        { '.fleet.json': fleet('AWS') },
        { '.fleet.json': fleet('GCP') },
      ),
    ).toEqual([
      ': platform changes from AWS to GCP: an existing cluster does not change cloud; this replaces one CCM with another (wrong spec or wrong name?)',
    ]);
  });

  test('an Argo CD project or destination change', () => {
    expect(
      risksOf(
        { 'prod-1/gitops/a.yaml': app({ project: 'ccm', destination: { server: 'https://a:6443' } }) },
        { 'prod-1/gitops/a.yaml': app({ project: 'default', destination: { server: 'https://b:6443' } }) },
      ),
    ).toEqual([
      'Application argocd/ccm-prod-1: Argo CD destination changes (spec.destination.server: "https://a:6443" → "https://b:6443"): the Application applies under other permissions or to another cluster',
      'Application argocd/ccm-prod-1: Argo CD project changes (spec.project: "ccm" → "default"): the Application applies under other permissions or to another cluster',
    ]);
  });

  test('removed objects say what the engine really does', () => {
    const ns: Obj = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'x', annotations: { 'argocd.argoproj.io/sync-options': 'Prune=false' } },
    };
    expect(
      risksOf(
        { 'prod-1/n.yaml': ns, 'prod-1/gitops/a.yaml': app({ project: 'p' }) },
        { 'prod-1/other.yaml': { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o', namespace: 'x' } } },
      ),
    ).toEqual([
      'Application argocd/ccm-prod-1: Application removed: Argo CD deletes the Application only; without the resources finalizer its objects stay, orphaned and unmanaged',
      'Namespace x: removed from git but prune-protected: Argo CD and Flux leave it in the cluster; delete it by hand if that is the intent',
    ]);
  });
});

describe('readable field changes', () => {
  test('RBAC rule changes are summarized as grants, not rules[3].verbs[0]', () => {
    const base = tree({
      'c/r.yaml': role([
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create'] },
      ]),
    });
    const head = tree({
      'c/r.yaml': role([
        { apiGroups: [''], resources: ['events'], verbs: ['create'] },
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'patch'] },
      ]),
    });
    const md = diffMarkdown(diffTrees(base, head));
    expect(md).toContain('- ClusterRole cloud-controller-manager: changed\n  - now grants: patch nodes\n  - no longer grants: list nodes\n');
    expect(md).not.toContain('rules[');
  });

  test('data: URLs are decoded (MachineConfig contents)', () => {
    const mc = (text: string): Obj => ({
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfig',
      metadata: { name: '99-x' },
      spec: {
        config: {
          storage: {
            files: [{ path: '/etc/x', contents: { source: `data:text/plain;charset=utf-8;base64,${Buffer.from(text).toString('base64')}` } }],
          },
        },
      },
    });
    const md = diffMarkdown(diffTrees(tree({ 'c/m.yaml': mc('a: 1\nb: 2\n') }), tree({ 'c/m.yaml': mc('a: 1\nb: 3\n') })));
    expect(md).toContain('changed (data: URL, decoded):\n    ```diff\n    - b: 2\n    + b: 3\n    ```');
  });

  test('LeaderMigrationConfiguration component changes name their controller', () => {
    const lmc = (owner: string): Obj => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'lm', namespace: 'kube-system' },
      data: {
        'config.yaml': `kind: LeaderMigrationConfiguration\ncontrollerLeaders:\n  - name: route\n    component: ${owner}\n  - name: service\n    component: kube-controller-manager\n`,
      },
    });
    const md = diffMarkdown(diffTrees(tree({ 'c/l.yaml': lmc('kube-controller-manager') }), tree({ 'c/l.yaml': lmc('cloud-controller-manager') })));
    expect(md).toContain('    +     component: cloud-controller-manager   # controller route');
  });
});

describe('the diff never prints a secret a tree holds', () => {
  test('URL credentials and tokens in changed fields are redacted', () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
    const cm = (url: string): Obj => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', namespace: 'n' },
      data: { url, text: `a\n${url}\n` },
    });
    const md = diffMarkdown(
      diffTrees(tree({ 'c/x.yaml': cm('https://example.com/') }), tree({ 'c/x.yaml': cm(`https://bot:${token}@example.com/`) })),
    );
    expect(md).toContain('https://<redacted>@example.com/');
    expect(md).not.toContain(token);
  });
});
