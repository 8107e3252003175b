import { Construct } from 'constructs';
import { GcpCloudControllerManager } from './gcp-cloud-controller-manager';
import { GCP_PLATFORM_FACTS } from './facts';
import { operandProps, PlatformDefinition, PreparedCluster, infrastructureNameOf } from '../platform';

export * from './gcp-cloud-controller-manager';
export * from './facts';

/** GCP on OpenShift: the operator's `pkg/cloud/gcp`. The cloud config passes through unchanged. */
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
