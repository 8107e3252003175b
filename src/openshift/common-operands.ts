import { Construct } from 'constructs';
import { CloudConfConfigMap } from './cloud-conf-config-map';
import { CloudControllerManagerPodDisruptionBudget } from './cloud-controller-manager-pod-disruption-budget';
import { CloudControllerManagerService } from './cloud-controller-manager-service';
import { PlatformType } from '../cluster-spec/schema';
import { operandRenders } from './release-operands';

/** Properties for `CommonOperands`. */
export interface CommonOperandsProps {
  /** Platform type: names the PDB and Service `<lower-case type>-cloud-controller-manager` and selects the CCM pods. */
  readonly platformType: PlatformType;
  /** The transformed `cloud.conf`. */
  readonly cloudConf: string;
  /**
   * Other `cloud-conf` keys passed through from the user ConfigMap.
   *
   * @default - none
   */
  readonly cloudConfExtraData?: Readonly<Record<string, string>>;
  /**
   * No `cloud-conf` ConfigMap: the operator's sync controller writes none (AWS before 4.19 without a cloud config named).
   *
   * @default false
   */
  readonly withoutCloudConf?: boolean;
  /**
   * Single-replica control plane: no PodDisruptionBudget.
   *
   * @default false
   */
  readonly singleReplica?: boolean;
  /**
   * Which release's shape the PDB and Service take (Alibaba Cloud: `release-4.16`).
   *
   * @default "main"
   */
  readonly shape?: 'main' | 'release-4.16';
  /**
   * The cluster's release: the PDB's eviction policy follows it (`pdbSetsEvictionPolicy`), and the Service
   * is rendered from 4.16, with the webhooks port before 4.19 (`OPERAND_PARTS_SINCE.service`, `serviceWithoutWebhooksPort`).
   *
   * @default - main's shape
   */
  readonly release?: string;
}

/**
 * What the operator adds to every platform's own assets (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/common/resources.go, pkg/controllers/cloud_config_sync_controller.go): the `cloud-conf` ConfigMap, the PodDisruptionBudget
 * (not on single-replica control planes) and the Service on 10258.
 */
export class CommonOperands extends Construct {
  /** The `cloud-conf` ConfigMap; undefined with `withoutCloudConf`. */
  public readonly cloudConf: CloudConfConfigMap | undefined;

  constructor(scope: Construct, id: string, props: CommonOperandsProps) {
    super(scope, id);
    this.cloudConf = props.withoutCloudConf
      ? undefined
      : new CloudConfConfigMap(this, 'CloudConf', { cloudConf: props.cloudConf, extraData: props.cloudConfExtraData });
    if (!props.singleReplica) {
      new CloudControllerManagerPodDisruptionBudget(this, 'PodDisruptionBudget', {
        platformType: props.platformType,
        shape: props.shape,
        release: props.release,
      });
    }
    // getService joined the common resources in release-4.16 (a migration renders older releases)
    if (props.shape === 'release-4.16' || operandRenders(props.release, 'service')) {
      // release-4.16 to 4.18 list the webhooks port too (OPERAND_PARTS_SINCE.serviceWithoutWebhooksPort)
      const withWebhooks = props.shape === 'release-4.16' || !operandRenders(props.release, 'serviceWithoutWebhooksPort');
      new CloudControllerManagerService(this, 'Service', { platformType: props.platformType, shape: withWebhooks ? 'release-4.16' : 'main' });
    }
  }

  /** The data of `cloud-conf`, for a CCM that mounts it (only a release that writes it mounts it). */
  public cloudConfData(): Readonly<Record<string, string>> {
    if (this.cloudConf === undefined) {
      throw new Error(`'cloudConf' is mounted, but rendered without it (withoutCloudConf)`);
    }
    return this.cloudConf.data;
  }
}
