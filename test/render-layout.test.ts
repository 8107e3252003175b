import { App, Chart } from 'cdk8s';
import { parse } from 'yaml';
import { FluxStageChain } from '../src/gitops/flux-stage-chain';
import { fileNameOf } from '../src/gitops/layout';
import { STAGE_CREDENTIALS, stageOf } from '../src/gitops/stages';
import { renderCluster } from '../src/pipeline/render';
import { awsSpec, preparedCluster } from './helpers';

type Obj = Record<string, any>;

function files(spec: Record<string, unknown> = {}, name = 'prod-1', outputPath = 'dist'): Record<string, string> {
  return Object.fromEntries(renderCluster(preparedCluster(awsSpec(name, spec)), outputPath).files.map((f) => [f.path, f.content]));
}

describe('output layout', () => {
  const out = files();

  test('one directory per non-empty stage, in apply order, with one object per file', () => {
    expect(
      Object.keys(out)
        .filter((p) => p.endsWith('kustomization.yaml'))
        .sort(),
    ).toEqual([
      'prod-1/01-namespaces-rbac/kustomization.yaml',
      'prod-1/03-config/kustomization.yaml',
      'prod-1/04-workloads/kustomization.yaml',
      'prod-1/05-policies/kustomization.yaml',
      'prod-1/kustomization.yaml',
    ]);
    for (const [p, content] of Object.entries(out).filter(([f]) => !f.endsWith('/HANDOVER.md'))) {
      expect(content.split(/^---$/m)).toHaveLength(1);
      expect(p).not.toMatch(/[A-Z:]|-[0-9a-f]{8}\.yaml$/);
    }
  });

  test('files are named <kind>.<namespace>.<name>.yaml, colons written as underscores', () => {
    expect(Object.keys(out)).toEqual(
      expect.arrayContaining([
        'prod-1/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml',
        'prod-1/01-namespaces-rbac/clusterrole.cloud-controller-manager.yaml',
        'prod-1/01-namespaces-rbac/rolebinding.kube-system.cloud-controller-manager_apiserver-authentication-reader.yaml',
        'prod-1/05-policies/validatingadmissionpolicy.openshift-cloud-controller-manager-cloud-provider-aws.yaml',
      ]),
    );
    expect(fileNameOf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'b' } })).toBe('configmap.b.a.yaml');
  });

  test('each stage kustomization lists exactly its files, sorted; the cluster kustomization lists the stages in order', () => {
    const stage = parse(out['prod-1/03-config/kustomization.yaml']);
    expect(stage).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: ['configmap.openshift-cloud-controller-manager.ccm-trusted-ca.yaml', 'configmap.openshift-cloud-controller-manager.cloud-conf.yaml'],
    });
    expect(parse(out['prod-1/kustomization.yaml']).resources).toEqual(['01-namespaces-rbac', '03-config', '04-workloads', '05-policies']);
  });

  test('every object carries the sync wave of its stage directory', () => {
    for (const [p, content] of Object.entries(out)) {
      if (p.endsWith('kustomization.yaml') || p.endsWith('/HANDOVER.md')) {
        continue;
      }
      const obj = parse(content);
      const dir = p.split('/')[1];
      expect(obj.metadata.annotations['argocd.argoproj.io/sync-wave']).toBe(String(Number(dir.slice(0, 2))));
      expect(stageOf(obj.apiVersion, obj.kind).directory).toBe(dir);
    }
  });

  test('Namespaces are protected from pruning by Argo CD and Flux', () => {
    const ns = parse(out['prod-1/01-namespaces-rbac/namespace.openshift-cloud-controller-manager.yaml']);
    expect(ns.metadata.annotations['argocd.argoproj.io/sync-options']).toBe('Prune=false');
    expect(ns.metadata.annotations['kustomize.toolkit.fluxcd.io/prune']).toBe('disabled');
  });

  test('multi-line values are written as YAML block scalars and YAML 1.1 booleans are quoted', () => {
    const cm = out['prod-1/03-config/configmap.openshift-cloud-controller-manager.cloud-conf.yaml'];
    expect(cm).toContain('  cloud.conf: |\n    [Global]\n');
    const ns = out['prod-1/01-namespaces-rbac/namespace.openshift-cloud-controller-manager.yaml'];
    expect(ns).toContain('openshift.io/cluster-monitoring: "true"');
  });

  test('a kind without a declared stage is an error that says where to declare it', () => {
    expect(() => stageOf('batch/v1', 'Job')).toThrow('no stage is declared for batch/v1 Job; add it to STAGE_BY_KIND in src/gitops/stages.ts');
  });

  test('plain engine renders no GitOps objects', () => {
    expect(Object.keys(out).filter((p) => p.includes('/gitops/'))).toEqual([]);
  });
});

describe('Argo CD', () => {
  const out = files({ gitops: { engine: 'argocd', repoURL: 'https://git.example.com/fleet.git', revision: 'v1', argocd: { project: 'ccm' } } });

  test('one Application per cluster pointing at the cluster kustomization', () => {
    expect(parse(out['prod-1/gitops/kustomization.yaml']).resources).toEqual(['application.openshift-gitops.ccm-prod-1.yaml']);
    expect(parse(out['prod-1/gitops/application.openshift-gitops.ccm-prod-1.yaml'])).toEqual({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'ccm-prod-1', namespace: 'openshift-gitops' },
      spec: {
        project: 'ccm',
        source: { repoURL: 'https://git.example.com/fleet.git', targetRevision: 'v1', path: 'dist/prod-1' },
        destination: { server: 'https://kubernetes.default.svc' },
        syncPolicy: {
          automated: { prune: true, selfHeal: true },
          syncOptions: ['ServerSideApply=true', 'PruneLast=true'],
          retry: { limit: 5, backoff: { duration: '10s', factor: 2, maxDuration: '5m' } },
        },
      },
    });
  });
});

describe('Flux', () => {
  // rendered with --out clusters-rendered (its path relative to the repository root)
  const out = files(
    { gitops: { engine: 'flux', repoURL: 'ssh://git@git.example.com/fleet.git', flux: { secretRef: 'git-creds', interval: '5m' } } },
    'prod-1',
    'clusters-rendered',
  );
  const kustomization = (stage: string): Obj => parse(out[`prod-1/gitops/kustomization.flux-system.ccm-prod-1-${stage}.yaml`]);

  test('a GitRepository and one Kustomization per stage, the empty credentials stage included (it lists nothing)', () => {
    expect(parse(out['prod-1/gitops/kustomization.yaml']).resources).toEqual([
      'gitrepository.flux-system.ccm-prod-1.yaml',
      'kustomization.flux-system.ccm-prod-1-01-namespaces-rbac.yaml',
      'kustomization.flux-system.ccm-prod-1-02-credentials.yaml',
      'kustomization.flux-system.ccm-prod-1-03-config.yaml',
      'kustomization.flux-system.ccm-prod-1-04-workloads.yaml',
      'kustomization.flux-system.ccm-prod-1-05-policies.yaml',
    ]);
    expect(parse(out['prod-1/gitops/gitrepository.flux-system.ccm-prod-1.yaml']).spec).toEqual({
      url: 'ssh://git@git.example.com/fleet.git',
      interval: '5m',
      ref: { branch: 'main' },
      secretRef: { name: 'git-creds' },
    });
  });

  test('stages are chained with dependsOn and wait for their objects; unregistering a cluster orphans its objects', () => {
    expect(kustomization('01-namespaces-rbac').spec).toEqual({
      interval: '5m',
      path: './clusters-rendered/prod-1/01-namespaces-rbac',
      prune: true,
      deletionPolicy: 'Orphan',
      wait: true,
      timeout: '10m',
      sourceRef: { kind: 'GitRepository', name: 'ccm-prod-1' },
    });
    expect(kustomization('02-credentials').spec.dependsOn).toEqual([{ name: 'ccm-prod-1-01-namespaces-rbac' }]);
    expect(parse(out['prod-1/02-credentials/kustomization.yaml']).resources).toEqual([]);
    expect(kustomization('03-config').spec.dependsOn).toEqual([{ name: 'ccm-prod-1-02-credentials' }]);
    expect(kustomization('04-workloads').spec.dependsOn).toEqual([{ name: 'ccm-prod-1-03-config' }]);
    expect(kustomization('05-policies').spec.wait).toBe(true);
    expect(kustomization('05-policies').spec.dependsOn).toEqual([{ name: 'ccm-prod-1-04-workloads' }]);
  });

  test('the workloads stage health-checks each CCM Deployment by name', () => {
    const spec = kustomization('04-workloads').spec;
    expect(spec.wait).toBe(false);
    expect(spec.healthChecks).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'aws-cloud-controller-manager', namespace: 'openshift-cloud-controller-manager' },
    ]);
  });

  test('a credentials stage waits for the Secrets the cloud-credential-operator creates', () => {
    const chart = new Chart(new App(), 't');
    new FluxStageChain(chart, 'F', {
      name: 'ccm-x',
      namespace: 'flux-system',
      repoURL: 'https://g/r.git',
      revision: 'main',
      path: 'dist/x',
      interval: '1m',
      stages: [
        {
          stage: STAGE_CREDENTIALS,
          healthChecks: [{ apiVersion: 'v1', kind: 'Secret', name: 'gcp-ccm-cloud-credentials', namespace: 'openshift-cloud-controller-manager' }],
        },
      ],
    });
    const k = chart.toJson().find((o: Obj) => o.kind === 'Kustomization');
    expect(k.spec.wait).toBe(false);
    expect(k.spec.healthChecks).toEqual([
      { apiVersion: 'v1', kind: 'Secret', name: 'gcp-ccm-cloud-credentials', namespace: 'openshift-cloud-controller-manager' },
    ]);
  });

  test.each([
    ['0123456789abcdef0123456789abcdef01234567', { commit: '0123456789abcdef0123456789abcdef01234567' }],
    ['refs/tags/v1', { name: 'refs/tags/v1' }],
    ['release-1', { branch: 'release-1' }],
  ])('revision %s becomes the git ref %o', (revision, ref) => {
    const o = files({ gitops: { engine: 'flux', repoURL: 'https://git.example.com/f.git', revision } });
    expect(parse(o['prod-1/gitops/gitrepository.flux-system.ccm-prod-1.yaml']).spec.ref).toEqual(ref);
  });
});
