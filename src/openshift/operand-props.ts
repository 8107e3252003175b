import { ProxySettings } from './pod-conventions';
import { CcmLeaderMigrationMount } from '../migration/flags';
import { ResolvedTls } from '../cluster-spec/tls';

/**
 * What every platform's operands take from the cluster, besides their images
 * and platform inputs.
 */
export interface OperandProps {
  /** The transformed `cloud.conf`. */
  readonly cloudConf: string;
  /**
   * Other keys of `cloud-conf` passed through from the user ConfigMap (e.g. Azure Stack Hub `endpoints`).
   *
   * @default - none
   */
  readonly cloudConfExtraData?: Readonly<Record<string, string>>;
  /**
   * Whether the spec names a cloud config (`spec.cloudConfig`), as the Infrastructure's `spec.cloudConfig.name` does:
   * AWS before 4.19 writes no `cloud-conf` without one.
   *
   * @default true
   */
  readonly cloudConfigNamed?: boolean;
  /**
   * Single-replica control plane: one replica and no PodDisruptionBudget.
   *
   * @default false
   */
  readonly singleReplica?: boolean;
  /**
   * Proxy settings appended as env to every container (not init containers).
   *
   * @default - no proxy
   */
  readonly proxy?: ProxySettings;
  /**
   * TLS settings of the serving endpoint.
   *
   * @default - the Intermediate profile
   */
  readonly tls?: ResolvedTls;
  /**
   * Leader migration of the CCM (phases leader-migration-kcm / -ccm); only
   * platforms whose CCM implements it pass it to their Deployment.
   *
   * @default - no leader migration
   */
  readonly leaderMigration?: CcmLeaderMigrationMount;
  /**
   * The cluster's OpenShift release (`spec.openshift.release`): operands take its shape where it differs.
   *
   * @default - main's shape
   */
  readonly release?: string;
}

// The CCM side of leader migration belongs to the (distribution-neutral) migration.
export type { CcmLeaderMigrationMount } from '../migration/flags';
