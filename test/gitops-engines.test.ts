/**
 * The GitOps engines at the edges of a migration: what the rendered tree gives
 * Argo CD and Flux when a cluster has nothing to apply, and what the roots and
 * stage chains do while an operator holds the operands.
 */
import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { HANDOVER_FILE } from '../src/openshift/handover';
import { renderCluster } from '../src/pipeline/render';
import { loadFleet } from '../src/fleet/load';
import { applicationSyncOptions, argoSync } from './oracle/argocd/sync';
import { fluxReplay, orphans } from './oracle/flux/kustomize-controller';
import { captureIo, kubernetesSpec, platformSpec, preparedCluster, readTree, useTempDir, writeFile } from './helpers';

const dir = useTempDir();

/** Synth one spec into a fresh tree; the exit code, stderr and the files written. */
function synthOne(spec: Record<string, unknown>): { code: number; stderr: string; files: Record<string, string> } {
  const clusters = path.join(dir(), 'clusters');
  const out = path.join(dir(), 'out');
  fs.mkdirSync(clusters, { recursive: true });
  writeFile(clusters, 'c.yaml', spec);
  const cap = captureIo();
  const code = runCli(['synth', '--clusters', clusters, '--out', out, '-q'], cap.io, {});
  return { code, stderr: cap.stderr(), files: fs.existsSync(out) ? readTree(out) : {} };
}

const IN_TREE = { migration: { phase: 'in-tree', kubernetesVersion: '1.26' } };
const GITOPS = { repoURL: 'https://git.example.com/fleet.git', revision: 'main' };

// Each (engine, phase) tree of the kubernetes OpenStack 1.25 cluster is rendered once for the whole file.
const openStackTrees = new Map<string, Record<string, string>>();
function openStackTree(engine: 'argocd' | 'flux', phase: string): Record<string, string> {
  const id = `${engine}-${phase}`;
  if (!openStackTrees.has(id)) {
    const spec = kubernetesSpec(
      'OpenStack',
      'k',
      { version: '1.25', clusterName: 'kubernetes' },
      { migration: { phase, kubernetesVersion: '1.25' }, gitops: { engine, ...GITOPS } },
      { cloudControllerManagerOpenStack: 'registry.k8s.io/provider-os/openstack-cloud-controller-manager:v1.25.6' },
    );
    const root = path.join(dir(), id);
    fs.mkdirSync(root, { recursive: true });
    writeFile(root, 'k.yaml', spec);
    const [cluster] = loadFleet(root).clusters;
    openStackTrees.set(id, Object.fromEntries(renderCluster(cluster).files.map((f) => [f.path, f.content])));
  }
  return openStackTrees.get(id)!;
}

describe('a cluster still in-tree has nothing to apply, and renders as nothing for the engine', () => {
  test('flux: synth succeeds and writes no Kustomization or GitRepository', () => {
    // GIVEN a kubernetes AWS spec in phase in-tree applied by Flux
    const spec = kubernetesSpec('AWS', 'k', { version: '1.26' }, { ...IN_TREE, gitops: { engine: 'flux', ...GITOPS } });
    // WHEN it is synthesised
    const { code, stderr, files } = synthOne(spec);
    // THEN it exits 0, no Flux object is written, and the registered entry folder lists nothing
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(files['k/flux-entry/kustomization.yaml']).toBe('apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n');
    expect(Object.values(files).filter((t) => /kind: (Kustomization|GitRepository)\b/.test(t) && t.includes('toolkit.fluxcd.io'))).toEqual([]);
  });

  test('cluster-resource-set: synth succeeds and writes no ClusterResourceSet nor stage ConfigMap', () => {
    // GIVEN a kubernetes AWS spec in phase in-tree with output mode cluster-resource-set
    const spec = kubernetesSpec('AWS', 'k', { version: '1.26', output: { mode: 'cluster-resource-set' } }, IN_TREE);
    // WHEN it is synthesised
    const { code, stderr, files } = synthOne(spec);
    // THEN it exits 0 and nothing for Cluster API is written
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(Object.values(files).filter((t) => /^kind: ClusterResourceSet$/m.test(t) || t.includes('name: ccm-k-0'))).toEqual([]);
  });
});

describe('Argo CD: a stop that stops, under a self-healing root', () => {
  // A root with automated self-heal re-applies its child Applications as git has them, sync policy included, so
  // turning off only the child's automated sync is undone at the root's next reconcile.
  const handoverOf = (argocd: Record<string, unknown>, mode = 'gitops'): string =>
    renderCluster(
      preparedCluster(
        platformSpec('AWS', 'g', {
          managementMode: mode,
          gitops: { engine: 'argocd', ...GITOPS, argocd: { ...argocd } },
        }),
      ),
    ).files.find((f) => f.path === `g/${HANDOVER_FILE}`)!.content;
  const wayBackStop = (text: string): string =>
    text
      .slice(text.indexOf('## Way back'))
      .split('\n')
      .find((l) => l.startsWith('1. '))!;

  test('per-cluster: the way back stops the root ccm-root.<cluster> before the child, and the hand over resumes the root', () => {
    // GIVEN an OpenShift cluster in gitops mode, its Argo CD inside it
    const text = handoverOf({});
    // WHEN HANDOVER.md tells how to stop and resume GitOps
    // THEN the root's automated sync is turned off first, then the child's
    expect(wayBackStop(text)).toBe(
      "1. Stop GitOps writing: turn off automated sync of the root Application first, then of the cluster's (a root with self-heal re-applies its child's sync policy from git): `argocd app set ccm-root.g --sync-policy none` then `argocd app set ccm-g --sync-policy none`.",
    );
    // AND resuming turns the root's automated sync back on, which re-applies the child's from git
    expect(text).toContain(
      'Let the GitOps engine sync: `argocd app set ccm-root.g --sync-policy automated --auto-prune --self-heal` (the root re-applies the Application `ccm-g` from git, automated sync included).',
    );
  });

  test('hub: the root to stop is the hub root ccm-fleet', () => {
    // GIVEN a cluster applied by a hub Argo CD
    const text = handoverOf({ topology: 'hub', project: 'ccm', destinationServer: 'https://api.g.example.com:6443' });
    // THEN the stop names the hub's root
    expect(wayBackStop(text)).toContain('`argocd app set ccm-fleet --sync-policy none` then `argocd app set ccm-g --sync-policy none`');
  });
});

describe('Flux replays the leader-migration phases of a kubernetes OpenStack cluster', () => {
  const treeOf = (phase: string): Record<string, string> => openStackTree('flux', phase);

  test('external-leader-migration -> external: the ccm-leader-migration ConfigMap is pruned, not orphaned', () => {
    // GIVEN the trees before and after the last phase change
    // WHEN Flux replays the change
    const events = fluxReplay(treeOf('external-leader-migration'), treeOf('external'), 'k');
    // THEN nothing is left behind without an owner, and the ConfigMap is deleted by its stage
    expect(orphans(events)).toEqual([]);
    expect(events.filter((e) => e.action === 'prune').flatMap((e) => e.objects)).toContain('ConfigMap kube-system/ccm-leader-migration');
  });

  test('external-leader-migration -> external: the lease RBAC outlives the CCM rolling off leader migration', () => {
    // GIVEN the trees before and after the last phase change
    const events = fluxReplay(treeOf('external-leader-migration'), treeOf('external'), 'k');
    // WHEN Flux prunes the migration lease Role
    const pruned = events.findIndex((e) => e.action === 'prune' && e.objects.includes('Role kube-system/cloud-provider-leader-migration'));
    const rolled = events.findIndex((e) => e.action === 'apply' && e.kustomization === 'ccm-k-04-workloads');
    // THEN that happens only after the workloads stage rolled the CCM
    expect(rolled).toBeGreaterThanOrEqual(0);
    expect(pruned).toBeGreaterThan(rolled);
  });
});

describe('Flux: the prune-disabled mark set on the way back is removed on the return to gitops mode', () => {
  test('gitops mode: the hand over removes kustomize.toolkit.fluxcd.io/prune from the operands before Flux syncs', () => {
    // GIVEN an OpenShift AWS cluster in gitops mode applied by Flux
    const text = renderCluster(preparedCluster(platformSpec('AWS', 'g', { gitops: { engine: 'flux', ...GITOPS } }))).files.find(
      (f) => f.path === `g/${HANDOVER_FILE}`,
    )!.content;
    const handOver = text.slice(text.indexOf('## Hand over'), text.indexOf('## Way back'));
    // WHEN HANDOVER.md's hand over is read
    // THEN a step removes the annotation the way back set by hand (server-side apply never removes a field it did not set)
    expect(handOver).toContain(
      'oc annotate -n openshift-cloud-controller-manager configmap/ccm-trusted-ca configmap/cloud-conf deployment.apps/aws-cloud-controller-manager',
    );
    expect(handOver).toMatch(/oc annotate -n openshift-cloud-controller-manager [^\n]* kustomize\.toolkit\.fluxcd\.io\/prune-\n/);
    expect(handOver.indexOf('kustomize.toolkit.fluxcd.io/prune-')).toBeLessThan(handOver.indexOf('Let the GitOps engine sync'));
  });
});

describe('the way back hands the cloud config to the operator', () => {
  test('gitops mode: before the operator comes back, the spec cloud config goes to the ConfigMap the Infrastructure names', () => {
    // GIVEN an OpenShift AWS cluster in gitops mode (cloud-conf rendered from spec.cloudConfig)
    const text = renderCluster(preparedCluster(platformSpec('AWS', 'g', { gitops: { engine: 'argocd', ...GITOPS } }))).files.find(
      (f) => f.path === `g/${HANDOVER_FILE}`,
    )!.content;
    const wayBack = text.slice(text.indexOf('## Way back'));
    // WHEN the way back is read
    // THEN a step, before the mode change, writes the spec's cloud config where the operator reads it
    const step = wayBack.indexOf(
      "oc -n openshift-config set data configmap/$(oc get infrastructure cluster -o jsonpath='{.spec.cloudConfig.name}') " +
        "--from-file=$(oc get infrastructure cluster -o jsonpath='{.spec.cloudConfig.key}')=<spec.cloudConfig.file>",
    );
    expect(step).toBeGreaterThan(0);
    expect(step).toBeLessThan(wayBack.indexOf('Set `spec.managementMode: operator`'));
    expect(wayBack).toContain('the operator renders `cloud-conf` from that ConfigMap, not from git');
  });
});

describe('Argo CD replays the leader-migration phases of a kubernetes OpenStack cluster', () => {
  const treeOf = (phase: string): Record<string, string> => openStackTree('argocd', phase);
  const leaseRbacOutlivesRollout = (syncOptions: readonly string[]): boolean => {
    const events = argoSync(treeOf('external-leader-migration'), treeOf('external'), 'k', syncOptions);
    const pruned = events.find((e) => e.action === 'prune' && e.object === 'Role kube-system/cloud-provider-leader-migration');
    const rolled = events.find((e) => e.action === 'apply' && e.object === 'DaemonSet kube-system/openstack-cloud-controller-manager');
    return pruned !== undefined && rolled !== undefined && pruned.wave > rolled.wave;
  };

  test('external-leader-migration -> external: the rendered PruneLast keeps the lease RBAC until the CCM rolled', () => {
    // GIVEN the Application as rendered
    const options = applicationSyncOptions(treeOf('external'), 'k');
    expect(options).toContain('PruneLast=true');
    // WHEN Argo CD syncs the phase change; THEN the lease Role goes only after the CCM's wave
    expect(leaseRbacOutlivesRollout(options)).toBe(true);
  });

  test('mutation: without PruneLast Argo CD swaps the prune waves, and the lease Role goes before the CCM rolls', () => {
    // GIVEN the rendered sync options without PruneLast
    const options = applicationSyncOptions(treeOf('external'), 'k').filter((o) => o !== 'PruneLast=true');
    // WHEN the same change is replayed (the ConfigMap's wave 3 and the lease RBAC's wave 5 swap); THEN the replay fails
    expect(leaseRbacOutlivesRollout(options)).toBe(false);
  });
});
