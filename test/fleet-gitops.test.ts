import * as fs from 'fs';
import * as path from 'path';
import { Document, parse, parseAllDocuments } from 'yaml';
import { runCli } from '../src/cli';
import { argoCdRootFiles, renderFleet } from '../src/pipeline/render';
import { argoCdShares } from '../src/gitops/fleet-gitops-chart';
import { argoCdMembers } from '../src/gitops/repo-path';
import { loadFleet } from '../src/fleet/load';
import { awsSpec, captureIo, fleetProblems, readTree, useTempDir, writeFile } from './helpers';

/** The two Argo CD fleet models, paths derived from --out, reserved names, safe deletion on Flux. */

const REPO = path.resolve(__dirname, '..');
const REPO_URL = 'https://git.example.com/fleet.git';
const hub = (name: string, argocd: Record<string, unknown> = {}) =>
  awsSpec(name, { gitops: { engine: 'argocd', repoURL: REPO_URL, argocd: { namespace: 'argocd', project: 'ccm', topology: 'hub', ...argocd } } });

describe('hub Argo CD: each Application targets its own registered cluster', () => {
  const dir = useTempDir();

  test('two hub clusters: Applications on their own destinations, one root, an AppProject scoping repository, destinations and kinds', () => {
    // GIVEN two clusters registered in one hub Argo CD
    writeFile(dir(), 'a.yaml', hub('a', { destinationServer: 'https://api.a.example.com:6443' }));
    writeFile(dir(), 'b.yaml', hub('b', { destinationName: 'b-cluster' }));
    // WHEN the fleet is rendered
    const out = Object.fromEntries(renderFleet(loadFleet(dir())).map((f) => [f.path, f.content]));
    // THEN each Application targets its cluster
    expect(parse(out['a/gitops/application.argocd.ccm-a.yaml']).spec.destination).toEqual({ server: 'https://api.a.example.com:6443' });
    expect(parse(out['b/gitops/application.argocd.ccm-b.yaml']).spec.destination).toEqual({ name: 'b-cluster' });
    expect(parse(out['a/gitops/application.argocd.ccm-a.yaml']).spec.project).toBe('ccm');
    // AND one root lists the AppProject and both Applications
    expect(parse(out['_fleet/argocd/hub/argocd/kustomization.yaml']).resources).toEqual(['projects', '../../../../a/gitops', '../../../../b/gitops']);
    const root = parse(out['_fleet/argocd/hub/argocd/root/application.argocd.ccm-fleet.yaml']);
    expect(root.spec).toEqual({
      project: 'default',
      source: { repoURL: REPO_URL, targetRevision: 'main', path: 'dist/_fleet/argocd/hub/argocd' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'argocd' },
      syncPolicy: { automated: { prune: true, selfHeal: true } },
    });
    // AND the AppProject allows only the repository, the two clusters and the rendered kinds
    const project = parse(out['_fleet/argocd/hub/argocd/projects/appproject.argocd.ccm.yaml']);
    expect(project.metadata).toEqual({ name: 'ccm', namespace: 'argocd', annotations: { 'argocd.argoproj.io/sync-wave': '-1' } });
    expect(project.spec.sourceRepos).toEqual([REPO_URL]);
    expect(project.spec.destinations).toEqual([
      { server: 'https://api.a.example.com:6443', namespace: '*' },
      { name: 'b-cluster', namespace: '*' },
    ]);
    expect(project.spec.clusterResourceWhitelist).toContainEqual({ group: 'rbac.authorization.k8s.io', kind: 'ClusterRole' });
    expect(project.spec.clusterResourceWhitelist).not.toContainEqual({ group: '*', kind: '*' });
    expect(project.spec.namespaceResourceWhitelist).toContainEqual({ group: 'apps', kind: 'Deployment' });
    expect(project.spec.namespaceResourceWhitelist).not.toContainEqual({ group: '', kind: 'Secret' });
  });

  test.each([
    ['no destination', hub('a'), 'spec.gitops.argocd.destinationServer: is required with topology hub'],
    [
      'both destinations',
      hub('a', { destinationServer: 'https://api.a:6443', destinationName: 'a' }),
      'spec.gitops.argocd.destinationName: is set together with destinationServer; give one of them',
    ],
    [
      'the default project',
      hub('a', { destinationServer: 'https://api.a:6443', project: 'default' }),
      'spec.gitops.argocd.project: is "default" with topology hub; name a dedicated project',
    ],
    [
      'per-cluster pointing elsewhere',
      awsSpec('a', { gitops: { engine: 'argocd', repoURL: REPO_URL, argocd: { destinationServer: 'https://api.other:6443' } } }),
      'spec.gitops.argocd.destinationServer: "https://api.other:6443" is another cluster, but topology per-cluster means an Argo CD inside this cluster; set topology: hub',
    ],
    [
      'the reserved name fleet',
      awsSpec('fleet'),
      'metadata.name: "fleet" is reserved: Application ccm-fleet would be the name of the Argo CD root Application',
    ],
  ])('refused: %s', (_name, spec, expected) => {
    writeFile(dir(), 'c.yaml', spec);
    expect(fleetProblems(dir()).join('\n')).toContain(expected);
  });

  test('two clusters of one hub on the same destination are refused (their objects would overlap)', () => {
    writeFile(dir(), 'a.yaml', hub('a', { destinationServer: 'https://api.x.example.com:6443' }));
    writeFile(dir(), 'b.yaml', hub('b', { destinationServer: 'https://api.x.example.com:6443/' }));
    writeFile(dir(), 'c.yaml', hub('c', { destinationName: 'in-cluster' }));
    writeFile(dir(), 'd.yaml', hub('d', { destinationServer: 'https://kubernetes.default.svc' }));
    expect(fleetProblems(dir())).toEqual([
      'a.yaml: spec.gitops.argocd.destinationServer: is also the destination of cluster b (b.yaml) in the hub Argo CD of namespace argocd: two Applications would own the same objects in one cluster; give each cluster its own registered destination',
      'b.yaml: spec.gitops.argocd.destinationServer: is also the destination of cluster a (a.yaml) in the hub Argo CD of namespace argocd: two Applications would own the same objects in one cluster; give each cluster its own registered destination',
      'c.yaml: spec.gitops.argocd.destinationName: is also the destination of cluster d (d.yaml) in the hub Argo CD of namespace argocd: two Applications would own the same objects in one cluster; give each cluster its own registered destination',
      'd.yaml: spec.gitops.argocd.destinationServer: is also the destination of cluster c (c.yaml) in the hub Argo CD of namespace argocd: two Applications would own the same objects in one cluster; give each cluster its own registered destination',
    ]);
  });
});

describe('paths: derived from where synth writes, checked', () => {
  const dir = useTempDir();

  test('--out other than dist inside a git repository: Argo and Flux paths name the real folder', () => {
    // GIVEN a repository with the output in deploy/rendered
    const repo = dir();
    fs.mkdirSync(path.join(repo, '.git'));
    writeFile(repo, 'clusters/a.yaml', awsSpec('a', { gitops: { engine: 'argocd', repoURL: REPO_URL } }));
    writeFile(repo, 'clusters/f.yaml', awsSpec('f', { gitops: { engine: 'flux', repoURL: REPO_URL } }));
    // WHEN synth writes there
    const out = path.join(repo, 'deploy', 'rendered');
    expect(runCli(['synth', '--clusters', path.join(repo, 'clusters'), '--out', out, '-q'], captureIo().io, {})).toBe(0);
    const tree = readTree(out);
    // THEN every path an engine reads exists in the repository
    expect(parse(tree['a/gitops/application.openshift-gitops.ccm-a.yaml']).spec.source.path).toBe('deploy/rendered/a');
    expect(parse(tree['f/flux-entry/kustomization.flux-system.ccm-f.yaml']).spec.path).toBe('./deploy/rendered/f/gitops');
    expect(enginePaths(tree).map((p) => [p, fs.existsSync(path.join(repo, p))])).toEqual(enginePaths(tree).map((p) => [p, true]));
  });

  test("spec.gitops.path naming another cluster's folder is refused", () => {
    writeFile(dir(), 'clusters/a.yaml', awsSpec('a', { gitops: { engine: 'argocd', repoURL: REPO_URL, path: 'dist/b' } }));
    writeFile(dir(), 'clusters/b.yaml', awsSpec('b', { gitops: { engine: 'argocd', repoURL: REPO_URL } }));
    const cap = captureIo();
    expect(runCli(['synth', '--clusters', path.join(dir(), 'clusters'), '--out', path.join(dir(), 'dist')], cap.io, {})).toBe(1);
    expect(cap.stderr()).toContain(
      'a.yaml: spec.gitops.path: "dist/b" is not where synth writes this cluster ("dist/a", relative to the repository root); the engine would read another cluster\'s folder or none',
    );
  });

  test('every path an engine reads in the committed dist/ exists in this repository', () => {
    const tree = readTree(path.join(REPO, 'dist'));
    const paths = enginePaths(tree);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((p) => !fs.existsSync(path.join(REPO, p)))).toEqual([]);
  });
});

describe('Flux: unregistering a cluster leaves its CCM running, as on Argo CD', () => {
  test('every stage Kustomization of dist/ orphans its objects when deleted', () => {
    const tree = readTree(path.join(REPO, 'dist'));
    const stages = Object.entries(tree)
      .filter(([p]) => /\/gitops\/kustomization\.[^/]+-[0-9]{2}-[a-z-]+\.yaml$/.test(p))
      .map(([, c]) => parse(c));
    expect(stages.length).toBeGreaterThan(0);
    expect([...new Set(stages.map((k) => k.spec.deletionPolicy))]).toEqual(['Orphan']);
    // and no child Application carries the resources finalizer (deleting it never deletes the CCM)
    const apps = Object.entries(tree)
      .filter(([p]) => /\/gitops\/application\./.test(p))
      .map(([, c]) => parse(c));
    expect(apps.filter((a) => a.metadata.finalizers)).toEqual([]);
  });
});

/** Paths (relative to the repository root) the rendered Applications and Kustomizations read. */
function enginePaths(tree: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [p, content] of Object.entries(tree)) {
    if (!p.endsWith('.yaml') || p.endsWith('kustomization.yaml')) {
      continue;
    }
    for (const doc of parseAllDocuments(content) as Document[]) {
      pathOf(doc.toJS(), out);
    }
  }
  return out.sort();
}

function pathOf(o: any, out: string[]): void {
  {
    if (o?.kind === 'Application') {
      out.push(o.spec.source.path);
    } else if (o?.kind === 'Kustomization' && o.apiVersion.startsWith('kustomize.toolkit.fluxcd.io')) {
      out.push(o.spec.path.replace(/^\.\//, ''));
    }
  }
}

describe('the Argo CD roots in shares (a worker renders each)', () => {
  const dir = useTempDir();

  test('shares hold whole groups, and their roots one after the other are the roots of the whole fleet', () => {
    // GIVEN hub clusters in two Argo CD namespaces and clusters with their own Argo CD
    ['h1', 'h2', 'h3'].forEach((n, i) => writeFile(dir(), `${n}.yaml`, hub(n, { destinationServer: `https://api.${n}.example.com:${6443 + i}` })));
    ['o1', 'o2'].forEach((n) => writeFile(dir(), `${n}.yaml`, hub(n, { namespace: 'other', destinationName: `${n}-cluster` })));
    ['p1', 'p2', 'p3'].forEach((n) => writeFile(dir(), `${n}.yaml`, awsSpec(n, { gitops: { engine: 'argocd', repoURL: REPO_URL } })));
    writeFile(dir(), 'f1.yaml', awsSpec('f1'));
    const specs = loadFleet(dir()).clusters.map((c) => c.spec);
    // WHEN they are cut into shares of two clusters
    const shares = argoCdShares(argoCdMembers(specs), 2);
    // THEN a hub stays whole (three clusters in one share), Flux clusters are in none, and each share holds names and spec.gitops only
    expect(shares.map((s) => s.map((m) => m.metadata.name))).toEqual([['p1', 'p2'], ['p3'], ['h1', 'h2', 'h3'], ['o1', 'o2']]);
    expect(Object.keys(shares[0][0])).toEqual(['metadata', 'spec']);
    expect(Object.keys(shares[0][0].spec)).toEqual(['gitops']);
    // AND the roots of the shares, in order, are the roots of the whole fleet
    expect(shares.flatMap((s) => argoCdRootFiles(s))).toEqual(argoCdRootFiles(specs));
    expect(argoCdRootFiles(specs).length).toBeGreaterThan(10);
  });
});
