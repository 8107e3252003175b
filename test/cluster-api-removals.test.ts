/**
 * Cluster API v1beta1 KubeadmControlPlane patches drop what earlier phases
 * added (leader-migration args, extraVolume and file) behind `test`
 * operations, so a KCM that goes external stops taking the migration lease.
 */
import { parse } from 'yaml';
import { kubeadmControlPlanePatch } from '../src/kubernetes/migration/control-plane';
import { MigrationPhase } from '../src/migration';
import { applyPatch } from './json-patch';
import { migrationInput } from './helpers';

const BASE = '/spec/kubeadmConfigSpec';
const CM = `${BASE}/clusterConfiguration/controllerManager`;
const LM_VOLUME = {
  name: 'leader-migration',
  hostPath: '/etc/kubernetes/leader-migration.yaml',
  mountPath: '/etc/kubernetes/leader-migration.yaml',
  readOnly: true,
  pathType: 'File',
};
const CLOUD_VOLUME = { name: 'cloud-config', hostPath: '/etc/kubernetes/cloud.conf', mountPath: '/etc/kubernetes/cloud.conf', readOnly: true };
const CLOUD_FILE = { path: '/etc/kubernetes/cloud.conf', owner: 'root:root', permissions: '0600', content: '[Global]\n' };

/** An in-tree GCP KubeadmControlPlane (v1beta1: extra args as maps) with a cloud.conf file and mount. */
function inTreeKcp(): unknown {
  const kubelet = { 'cloud-provider': 'gce', 'cloud-config': '/etc/kubernetes/cloud.conf' };
  return {
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'c-control-plane' },
    spec: {
      kubeadmConfigSpec: {
        files: [CLOUD_FILE],
        clusterConfiguration: {
          controllerManager: { extraArgs: { 'cluster-name': 'c', ...kubelet }, extraVolumes: [CLOUD_VOLUME] },
          apiServer: { extraArgs: { ...kubelet } },
        },
        initConfiguration: { nodeRegistration: { kubeletExtraArgs: { ...kubelet } } },
        joinConfiguration: { nodeRegistration: { kubeletExtraArgs: { ...kubelet } } },
      },
    },
  };
}

function patchOps(phase: MigrationPhase, current?: unknown): { op: string; path: string; value?: unknown }[] {
  return parse(kubeadmControlPlanePatch(migrationInput('GCP', { phase, kubernetesMinor: 28, ccmMinor: 28 }), 'c-control-plane', 'v1beta1', current));
}

/** Applies each phase's v1beta1 patch in turn, each built from the KubeadmControlPlane as the previous one left it. */
function walk(phases: readonly MigrationPhase[]): any {
  return phases.reduce((kcp, phase) => applyPatch(kcp, patchOps(phase, kcp)), inTreeKcp());
}

describe('Cluster API v1beta1 patches remove what earlier phases added', () => {
  test('GIVEN the walk to external-leader-migration WHEN each printed patch is applied THEN the KCM has no leader-migration args, extraVolume or file', () => {
    // GIVEN/WHEN the v1beta1 patches of in-tree → leader-migration-kcm → leader-migration-ccm → external-leader-migration applied in order
    const kcp = walk(['leader-migration-kcm', 'leader-migration-ccm', 'external-leader-migration']).spec.kubeadmConfigSpec;
    // THEN the external KCM does not take the migration lease, and the leader-migration mount and file are gone; the cloud ones stay
    expect(kcp.clusterConfiguration.controllerManager.extraArgs).toEqual({
      'cluster-name': 'c',
      'leader-elect': 'true',
      'cloud-provider': 'external',
      'external-cloud-volume-plugin': 'gce',
      'cloud-config': '/etc/kubernetes/cloud.conf',
    });
    expect(kcp.clusterConfiguration.controllerManager.extraVolumes).toEqual([CLOUD_VOLUME]);
    expect(kcp.files).toEqual([CLOUD_FILE]);
  });

  test('GIVEN leader-migration-ccm after leader-migration-kcm WHEN its patch is built THEN the file and extraVolume are not appended a second time', () => {
    const kcp = walk(['leader-migration-kcm', 'leader-migration-ccm']).spec.kubeadmConfigSpec;
    expect(kcp.clusterConfiguration.controllerManager.extraVolumes).toEqual([CLOUD_VOLUME, LM_VOLUME]);
    expect(kcp.files.map((f: { path: string }) => f.path)).toEqual(['/etc/kubernetes/cloud.conf', '/etc/kubernetes/leader-migration.yaml']);
  });

  test('GIVEN the rollback to in-tree from leader-migration-kcm WHEN its patch is applied THEN the leader-migration args, extraVolume and file go', () => {
    const kcp = walk(['leader-migration-kcm', 'in-tree']).spec.kubeadmConfigSpec;
    expect(kcp.clusterConfiguration.controllerManager.extraArgs).toEqual({
      'cluster-name': 'c',
      'cloud-provider': 'gce',
      'cloud-config': '/etc/kubernetes/cloud.conf',
      'leader-elect': 'true',
    });
    expect(kcp.clusterConfiguration.controllerManager.extraVolumes).toEqual([CLOUD_VOLUME]);
    expect(kcp.files).toEqual([CLOUD_FILE]);
  });

  test('GIVEN external-leader-migration without the current object WHEN its patch is printed THEN each removal is a test of the value leader-migration-ccm set, then a remove', () => {
    const ops = patchOps('external-leader-migration');
    // a KubeadmControlPlane whose files and mounts are only the product's takes the patch whole
    const lmCcm = walk(['leader-migration-kcm', 'leader-migration-ccm']);
    lmCcm.spec.kubeadmConfigSpec.files = lmCcm.spec.kubeadmConfigSpec.files.filter((f: { path: string }) => f.path !== CLOUD_FILE.path);
    lmCcm.spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraVolumes = [LM_VOLUME];
    expect(applyPatch(lmCcm, ops).spec.kubeadmConfigSpec.files).toEqual([]);

    expect(ops).toEqual(
      expect.arrayContaining([
        { op: 'test', path: `${CM}/extraArgs/enable-leader-migration`, value: 'true' },
        { op: 'remove', path: `${CM}/extraArgs/enable-leader-migration` },
        { op: 'test', path: `${CM}/extraArgs/leader-migration-config`, value: '/etc/kubernetes/leader-migration.yaml' },
        { op: 'remove', path: `${CM}/extraArgs/leader-migration-config` },
      ]),
    );
    const i = ops.findIndex((o) => o.op === 'remove' && o.path.startsWith(`${CM}/extraVolumes/`));
    expect(ops[i - 1]).toEqual({ op: 'test', path: ops[i].path, value: LM_VOLUME });
  });

  test('GIVEN the current KubeadmControlPlane WHEN the patch is built from it THEN removals use its indices and its values', () => {
    // GIVEN a KubeadmControlPlane in leader-migration-ccm whose leader-migration mount is second
    const current = walk(['leader-migration-kcm', 'leader-migration-ccm']);
    // WHEN external-leader-migration is built from it
    const ops = patchOps('external-leader-migration', current);
    // THEN the mount is removed at index 1 and the file at index 1, each behind a test
    expect(ops).toEqual(
      expect.arrayContaining([
        { op: 'test', path: `${CM}/extraVolumes/1`, value: LM_VOLUME },
        { op: 'remove', path: `${CM}/extraVolumes/1` },
        { op: 'remove', path: `${BASE}/files/1` },
      ]),
    );
    expect(applyPatch(current, ops).spec.kubeadmConfigSpec.files).toEqual([CLOUD_FILE]);
  });
});
