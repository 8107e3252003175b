/**
 * Cluster API v1beta1 KubeadmControlPlane patches drop what earlier phases
 * added (leader-migration args, extraVolume and file) behind `test`
 * operations, so a KCM that goes external stops taking the migration lease.
 */
import { parse } from 'yaml';
import { kubeadmControlPlanePatch } from '../src/kubernetes/migration/control-plane';
import { MigrationPhase } from '../src/migration';
import { applyPatch } from './json-patch';
import { applyJsonPatch } from './oracle/leader-migration/cluster-api';
import { controlPlaneMarkdown } from '../src/kubernetes/control-plane-plan';
import { kubernetesSpec, migrationInput, parsedSpec } from './helpers';

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

describe.each([
  { minor: 28, nodeIpam: false },
  // 1.30: the in-tree phases set DisableCloudProviders=false and the external ones drop it; node IPAM moves (--controllers)
  { minor: 30, nodeIpam: true },
])(
  'Cluster API v1beta1 rollbacks (GCP 1.$minor, nodeIpam $nodeIpam): CONTROL-PLANE.md prints the patch that applies to the later phase',
  ({ minor, nodeIpam }) => {
    const GCP = { version: `1.${minor}`, clusterName: 'kubernetes' };
    const ORDER: MigrationPhase[] = ['in-tree', 'leader-migration-kcm', 'leader-migration-ccm', 'external-leader-migration', 'external'];

    function controlPlane(phase: MigrationPhase): string {
      const section = parsedSpec(kubernetesSpec('GCP', 'c', GCP, { migration: { phase, kubernetesVersion: `1.${minor}` } })).spec.kubernetes!;
      const migration = migrationInput('GCP', { phase, kubernetesMinor: minor, ccmMinor: minor, nodeIpam });
      return controlPlaneMarkdown({ clusterName: 'c', platform: 'GCP', section, migration, outputPath: 'dist/c' });
    }

    /** The Cluster API section's patches: the first yaml block, and the one printed for coming back from `from`. */
    function printed(phase: MigrationPhase, from?: MigrationPhase): { op: string; path: string; value?: unknown }[] {
      const section = controlPlane(phase).split('\n## Cluster API\n')[1].split('\n## ')[0];
      const after = from ? section.split(`Coming back into \`${phase}\` from \`${from}\``)[1] : section;
      if (after === undefined) {
        throw new Error(`CONTROL-PLANE.md of ${phase} prints no patch for coming back from ${from}`);
      }
      return parse(/```yaml\n([\s\S]*?)```/.exec(after)![1]);
    }

    /** The KubeadmControlPlane of each phase walked forward, its lists holding only the product's entries (the printed patches index them so). */
    function forward(): Map<MigrationPhase, unknown> {
      const bare: any = inTreeKcp();
      bare.spec.kubeadmConfigSpec.files = [];
      bare.spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraVolumes = [];
      // leader-elect as the leader-migration phases set it: the way back to in-tree keeps it (the binary's default)
      bare.spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraArgs['leader-elect'] = 'true';
      const patch = (phase: MigrationPhase, kcp: unknown) =>
        applyPatch(
          kcp,
          parse(
            kubeadmControlPlanePatch(
              migrationInput('GCP', { phase, kubernetesMinor: minor, ccmMinor: minor, nodeIpam }),
              'c-control-plane',
              'v1beta1',
              kcp,
            ),
          ),
        );
      // the in-tree state as its patch sets it (1.29 and 1.30 add the DisableCloudProviders=false gates)
      const start = patch('in-tree', bare);
      const states = new Map<MigrationPhase, unknown>([['in-tree', start]]);
      ORDER.slice(1).reduce((kcp, phase) => {
        const next = patch(phase, kcp);
        states.set(phase, next);
        return next;
      }, start);
      return states;
    }

    test('GIVEN a KubeadmControlPlane in external WHEN the forward patch printed for external-leader-migration is applied THEN it fails as a whole on its test operations', () => {
      const r = applyJsonPatch(forward().get('external'), printed('external-leader-migration'));
      // the first test: the KCM's provider, gce where external-leader-migration's patch comes from, external here
      expect(r).toEqual({ ok: false, error: `test ${CM}/extraArgs/cloud-provider failed` });
    });

    test('GIVEN a KubeadmControlPlane walked forward to external WHEN each rollback patch CONTROL-PLANE.md prints is applied in turn THEN each applies and leaves the state the forward walk had in that phase', () => {
      const states = forward();
      let kcp = states.get('external');
      for (let i = ORDER.length - 2; i >= 0; i--) {
        const [phase, from] = [ORDER[i], ORDER[i + 1]];
        // in-tree has no forward patch: its only patch is the way back from leader-migration-kcm
        const r = applyJsonPatch(kcp, phase === 'in-tree' ? printed(phase) : printed(phase, from));
        expect([phase, r.ok]).toEqual([phase, true]);
        kcp = (r as { value: unknown }).value;
        expect([phase, kcp]).toEqual([phase, states.get(phase)]);
      }
    });
  },
);
