/**
 * From a cluster spec to the migration inputs: the phase logic's input, the
 * CCM's leader-migration mount.
 * Pure: no cdk8s import.
 */
import { MigrationControlPlane } from './control-plane';
import { CcmLeaderMigrationMount, MigrationInput } from './flags';
import { phasePlan } from './phase-plan';
import { minorOf, MigrationSupport } from './phases';
import { ClusterSpec } from '../cluster-spec/schema';

/** ConfigMap (in the CCM namespace) holding the CCM's LeaderMigrationConfiguration. */
export const CCM_LEADER_MIGRATION_CONFIG_MAP = 'ccm-leader-migration';
/** Where the CCM container sees it. */
export const CCM_LEADER_MIGRATION_MOUNT = '/etc/leader-migration';
/** The file the CCM reads. */
export const CCM_LEADER_MIGRATION_PATH = `${CCM_LEADER_MIGRATION_MOUNT}/config.yaml`;
/** The CCM's own leader-election Lease (the controller-manager default name). */
export const CCM_LEASE_NAME = 'cloud-controller-manager';
/**
 * The migration input of a cluster spec, with the platform's support and the
 * distribution's control plane (where its kube-controller-manager reads the
 * leader-migration file); undefined without spec.migration. The composition
 * root's `migrationInputFor` picks the control plane by `spec.distribution`.
 */
export function migrationInputWith(
  spec: ClusterSpec,
  support: MigrationSupport | undefined,
  controlPlane: Pick<MigrationControlPlane, 'kcmConfigPath'>,
): MigrationInput | undefined {
  const m = spec.spec.migration;
  if (!m) {
    return undefined;
  }
  const kubernetesMinor = minorOf(m.kubernetesVersion);
  return {
    platform: spec.spec.platform,
    support,
    phase: m.phase,
    kubernetesMinor,
    // OpenShift ships the CCM of the same release; elsewhere the CCM defaults to the API server's
    // minor (the version skew policy allows N and N-1 against kube-apiserver N, never N+1)
    ccmMinor: m.ccmVersion !== undefined ? minorOf(m.ccmVersion) : kubernetesMinor,
    leaderName: m.leaderName,
    leaseNamespace: m.leaseNamespace,
    nodeIpam: m.nodeIpam,
    // rancher/rke2@v1.26.15+rke2r1 pkg/podexecutor/staticpod.go (k3s pkg/daemons/control/server.go `controllerManager`): --allocate-node-cidrs=true always
    ...(spec.spec.kubernetes?.scheduling.preset === 'rke2' ? { kcmAllocatesNodeCidrs: true } : {}),
    inTreeVolumes: m.inTreeVolumes ?? (support !== undefined && kubernetesMinor <= support.lastInTreeMinor),
    wildcard: m.wildcard,
    leaderElect: m.leaderElect,
    ...(controlPlane.kcmConfigPath !== undefined ? { kcmConfigPath: controlPlane.kcmConfigPath } : {}),
  };
}

/** The CCM's leader-migration mount (its own file) in the phases where the CCM runs leader migration, else undefined. */
export function ccmLeaderMigrationMount(input: MigrationInput | undefined): CcmLeaderMigrationMount | undefined {
  const ccm = input ? phasePlan(input).ccm : undefined;
  if (!input || !ccm?.config || !ccm.file) {
    return undefined;
  }
  return {
    configMapName: CCM_LEADER_MIGRATION_CONFIG_MAP,
    configMapData: { 'config.yaml': ccm.file },
    mountPath: CCM_LEADER_MIGRATION_MOUNT,
    configPath: CCM_LEADER_MIGRATION_PATH,
    leaseNamespace: input.leaseNamespace,
    ccmMinor: input.ccmMinor,
  };
}
