import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CLOUD_CONF_CONFIG_MAP, OPERAND_NAMESPACE } from './constants';

/** Properties for `CloudConfConfigMap`. */
export interface CloudConfConfigMapProps {
  /** The transformed cloud config, stored under key `cloud.conf`. */
  readonly cloudConf: string;
  /**
   * Other keys of the user's cloud-provider-config ConfigMap that the
   * operator passes through (e.g. Azure Stack Hub `endpoints`).
   *
   * @default - none
   */
  readonly extraData?: Readonly<Record<string, string>>;
}

/**
 * ConfigMap `openshift-cloud-controller-manager/cloud-conf` (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/controllers/cloud_config_sync_controller.go):
 * the platform-transformed cloud config every CCM pod mounts.
 */
export class CloudConfConfigMap extends Construct {
  /** The ConfigMap object. */
  public readonly apiObject: ApiObject;
  /** The rendered data, for config hashing. */
  public readonly data: Readonly<Record<string, string>>;

  constructor(scope: Construct, id: string, props: CloudConfConfigMapProps) {
    super(scope, id);
    if (props.extraData && 'cloud.conf' in props.extraData) {
      throw new Error("'extraData' must not contain the key \"cloud.conf\"; pass the config as 'cloudConf'");
    }
    this.data = { ...props.extraData, 'cloud.conf': props.cloudConf };
    this.apiObject = new k8s.KubeConfigMap(this, 'Resource', {
      metadata: { name: CLOUD_CONF_CONFIG_MAP, namespace: OPERAND_NAMESPACE },
      data: { ...this.data },
    });
  }
}
