import { parse } from 'yaml';
import { renderFleet } from '../src/pipeline/render';
import { loadFleet } from '../src/fleet/load';
import { AWS_IMAGE, OPERATOR_IMAGE, TEST_RELEASE, useTempDir, writeFile } from './helpers';

const dir = useTempDir();

/** A fleet of three folders with shared defaults and different engines, topologies and modes. */
function mixedFleet(root: string): Record<string, string> {
  writeFile(root, 'defaults.yaml', {
    apiVersion: 'ccm-gitops.io/v1alpha1',
    kind: 'CloudControllerManagerDefaults',
    spec: {
      distribution: 'openshift',
      platform: 'AWS',
      openshift: { release: TEST_RELEASE },
      images: { cloudControllerManagerAWS: AWS_IMAGE, cloudControllerManagerOperator: OPERATOR_IMAGE },
      gitops: { engine: 'argocd', repoURL: 'https://git.example.com/fleet.git', argocd: { project: 'ccm' } },
    },
  });
  writeFile(root, 'flux/defaults.yaml', {
    apiVersion: 'ccm-gitops.io/v1alpha1',
    kind: 'CloudControllerManagerDefaults',
    spec: { gitops: { engine: 'flux', repoURL: 'ssh://git@git.example.com/fleet.git' } },
  });
  const spec = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'ccm-gitops.io/v1alpha1',
    kind: 'CloudControllerManagerCluster',
    metadata: { name },
    spec: { infrastructureName: `${name}-x`, ...extra },
  });
  writeFile(root, 'argo/a-1.yaml', spec('a-1'));
  writeFile(root, 'argo/a-2.yaml', spec('a-2', { managementMode: 'operator', openshift: { release: '4.23.1' } }));
  writeFile(root, 'flux/f-1.yaml', spec('f-1', { controlPlaneTopology: 'SingleReplica' }));
  writeFile(root, 'plain/p-1.yaml', spec('p-1', { gitops: { engine: 'plain' } }));
  return Object.fromEntries(renderFleet(loadFleet(root)).map((f) => [f.path, f.content]));
}

describe('a mixed fleet with folder defaults', () => {
  test('the fleet summary lists every cluster with platform, distribution, phase, object count and images', () => {
    const out = mixedFleet(dir());
    const summary = JSON.parse(out['.fleet.json']);
    expect(summary.clusters.map((c: any) => [c.name, c.spec, c.engine, c.topology, c.managementMode, c.phase, c.objects])).toEqual([
      ['a-1', 'argo/a-1.yaml', 'argocd', 'HighlyAvailable', 'gitops', 'external', 20],
      ['a-2', 'argo/a-2.yaml', 'argocd', 'HighlyAvailable', 'operator', 'external', 29],
      ['f-1', 'flux/f-1.yaml', 'flux', 'SingleReplica', 'gitops', 'external', 19],
      ['p-1', 'plain/p-1.yaml', 'plain', 'HighlyAvailable', 'gitops', 'external', 20],
    ]);
    expect(summary.clusters[0].images).toEqual({ cloudControllerManagerAWS: AWS_IMAGE, cloudControllerManagerOperator: OPERATOR_IMAGE });
    const md = out['FLEET.md'].split('\n');
    expect(md.slice(0, 7)).toEqual([
      '# Fleet',
      '',
      '4 clusters, 88 objects.',
      'Platforms: AWS 4. Engines: argocd 2, flux 1, plain 1. Modes: gitops 3, operator 1.',
      '',
      '| cluster | platform | distribution | topology | mode | engine | phase | objects | images |',
      '|---|---|---|---|---|---|---|---:|---|',
    ]);
    expect(md[7]).toBe(
      `| [a-1](a-1/) | AWS | openshift | HighlyAvailable | gitops | argocd | external | 20 | cloudControllerManagerAWS: \`${AWS_IMAGE}\`<br>cloudControllerManagerOperator: \`${OPERATOR_IMAGE}\` |`,
    );
  });

  test("per-cluster Argo CD: each cluster's root lists only its own Application, which targets the cluster it runs in", () => {
    const out = mixedFleet(dir());
    expect(parse(out['_fleet/argocd/cluster/a-1/kustomization.yaml']).resources).toEqual(['../../../../a-1/gitops']);
    expect(parse(out['_fleet/argocd/cluster/a-2/kustomization.yaml']).resources).toEqual(['../../../../a-2/gitops']);
    expect(parse(out['_fleet/argocd/cluster/a-1/root/application.openshift-gitops.ccm-root.a-1.yaml'])).toEqual({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'ccm-root.a-1', namespace: 'openshift-gitops' },
      spec: {
        project: 'default',
        source: { repoURL: 'https://git.example.com/fleet.git', targetRevision: 'main', path: 'dist/_fleet/argocd/cluster/a-1' },
        destination: { server: 'https://kubernetes.default.svc', namespace: 'openshift-gitops' },
        syncPolicy: { automated: { prune: true, selfHeal: true } },
      },
    });
    expect(parse(out['a-1/gitops/application.openshift-gitops.ccm-a-1.yaml']).spec.destination).toEqual({ server: 'https://kubernetes.default.svc' });
    expect(
      Object.keys(out)
        .filter((p) => p.startsWith('f-1/') || p.startsWith('p-1/'))
        .some((p) => p.includes('_fleet')),
    ).toBe(false);
  });

  test('Flux clusters get an entry Kustomization reading the bootstrap source', () => {
    const out = mixedFleet(dir());
    expect(parse(out['f-1/flux-entry/kustomization.flux-system.ccm-f-1.yaml'])).toEqual({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'ccm-f-1', namespace: 'flux-system' },
      spec: {
        interval: '10m',
        path: './dist/f-1/gitops',
        prune: true,
        wait: true,
        timeout: '30m',
        sourceRef: { kind: 'GitRepository', name: 'flux-system' },
      },
    });
    expect(
      Object.keys(out)
        .filter((p) => p.includes('flux-entry/'))
        .map((p) => p.split('/')[0]),
    ).toEqual(['f-1', 'f-1']);
  });

  test('plain clusters get only their stages', () => {
    const out = mixedFleet(dir());
    expect(
      [
        ...new Set(
          Object.keys(out)
            .filter((p) => p.startsWith('p-1/'))
            .map((p) => p.split('/')[1]),
        ),
      ].sort(),
    ).toEqual(['01-namespaces-rbac', '03-config', '04-workloads', '05-policies', 'HANDOVER.md', 'kustomization.yaml']);
  });
});
