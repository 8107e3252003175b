import { Construct } from 'constructs';
import { GcpCloudControllerManager } from './gcp-cloud-controller-manager';
import { GCP_PLATFORM_FACTS } from './facts';
import { operandProps, PlatformDefinition, PreparedCluster, infrastructureNameOf } from '../platform';

export * from './gcp-cloud-controller-manager';
export * from './facts';

/** The platform as the renderer takes it: {@link GCP_PLATFORM_FACTS} and its operands ({@link GcpCloudControllerManager}). */
export const GCP_PLATFORM: PlatformDefinition = {
  ...GCP_PLATFORM_FACTS,
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    new GcpCloudControllerManager(scope, 'GcpCloudControllerManager', {
      ...operandProps(cluster),
      image: cluster.spec.spec.images.cloudControllerManagerGCP!,
      infrastructureName: infrastructureNameOf(cluster),
    });
  },
};
