/**
 * From a cluster spec to the migration inputs: the phase logic's input, the
 * CCM's leader-migration mount, and the OpenShift host-file locations.
 * Pure: no cdk8s import.
 */
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
 * OpenShift: where the MachineConfig writes the KCM's file on control-plane
 * hosts, and where the KCM pod sees it. The operator mounts the host's
 * `…/kube-controller-manager-certs` at `/etc/kubernetes/static-pod-certs`.
 */
export const OPENSHIFT_KCM_HOST_PATH = '/etc/kubernetes/static-pod-resources/kube-controller-manager-certs/leader-migration/config.yaml';
export const OPENSHIFT_KCM_POD_PATH = '/etc/kubernetes/static-pod-certs/leader-migration/config.yaml';
/** Name of that MachineConfig. */
export const OPENSHIFT_LEADER_MIGRATION_MACHINE_CONFIG = '99-master-kcm-leader-migration';

/** The migration input of a cluster spec, with the platform's support; undefined without spec.migration. */
export function migrationInputFor(spec: ClusterSpec, support: MigrationSupport | undefined): MigrationInput | undefined {
  const m = spec.spec.migration;
  if (!m) {
    return undefined;
  }
  const kubernetesMinor = minorOf(m.kubernetesVersion);
  const openshift = spec.spec.distribution === 'openshift';
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
    inTreeVolumes: m.inTreeVolumes ?? (support !== undefined && kubernetesMinor <= support.lastInTreeMinor),
    wildcard: m.wildcard,
    leaderElect: m.leaderElect,
    ...(openshift ? { kcmConfigPath: OPENSHIFT_KCM_POD_PATH } : {}),
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
