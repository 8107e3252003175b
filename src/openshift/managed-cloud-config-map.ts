import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';

/** Namespace of the managed copy of the cloud config other operators read. */
export const OPENSHIFT_CONFIG_MANAGED = 'openshift-config-managed';
/** Name of the managed copy (…@bc52198c1c3c pkg/controllers/cloud_config_sync_controller.go `managedCloudConfigMapName`). */
export const MANAGED_CLOUD_CONFIG_MAP = 'kube-cloud-config';

/** Properties for `ManagedCloudConfigMap`. */
export interface ManagedCloudConfigMapProps {
  /** The `cloud-conf` data (transformed `cloud.conf` plus the passed-through keys). */
  readonly data: Readonly<Record<string, string>>;
}

/**
 * ConfigMap `openshift-config-managed/kube-cloud-config` with the same data
 * as `cloud-conf`: what the operator writes for vSphere with feature gate
 * `VSphereMultiVCenterDay2` (…@bc52198c1c3c pkg/controllers/cloud_config_sync_controller.go
 * `shouldManageManagedConfigMap`, `syncManagedCloudConfig`; the
 * cluster-config-operator leaves it to the operator then). With the operator
 * stopped, nothing else would keep it current.
 */
export class ManagedCloudConfigMap extends Construct {
  /** The ConfigMap object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: ManagedCloudConfigMapProps) {
    super(scope, id);
    this.apiObject = new k8s.KubeConfigMap(this, 'Resource', {
      metadata: { name: MANAGED_CLOUD_CONFIG_MAP, namespace: OPENSHIFT_CONFIG_MANAGED },
      data: { ...props.data },
    });
  }
}
