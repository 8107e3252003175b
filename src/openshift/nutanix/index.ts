import { Construct } from 'constructs';
import { NutanixCloudControllerManager } from './nutanix-cloud-controller-manager';
import { NUTANIX_PLATFORM_FACTS } from './facts';
import { operandProps, PlatformDefinition, PreparedCluster, infrastructureNameOf } from '../platform';

export * from './nutanix-cloud-controller-manager';
export * from './facts';

/** The platform as the renderer takes it: {@link NUTANIX_PLATFORM_FACTS} and its operands ({@link NutanixCloudControllerManager}). */
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
