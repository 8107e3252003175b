import { Construct } from 'constructs';
import { NutanixCloudControllerManager } from './nutanix-cloud-controller-manager';
import { NUTANIX_PLATFORM_FACTS } from './facts';
import { operandProps, PlatformDefinition, PreparedCluster, infrastructureNameOf } from '../platform';

export * from './nutanix-cloud-controller-manager';
export * from './facts';

/** Nutanix on OpenShift: the operator's `pkg/cloud/nutanix`. The cloud config (JSON) passes through unchanged. */
export const NUTANIX_PLATFORM: PlatformDefinition = {
  ...NUTANIX_PLATFORM_FACTS,
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    new NutanixCloudControllerManager(scope, 'NutanixCloudControllerManager', {
      ...operandProps(cluster),
      image: cluster.spec.spec.images.cloudControllerManagerNutanix!,
      infrastructureName: infrastructureNameOf(cluster),
    });
  },
};
