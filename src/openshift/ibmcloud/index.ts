import { Construct } from 'constructs';
import { IbmCloudControllerManager } from './ibm-cloud-controller-manager';
import { IBM_CLOUD_PLATFORM_FACTS } from './facts';
import { operandProps, PlatformDefinition, PreparedCluster } from '../platform';

export * from './ibm-cloud-controller-manager';
export * from '../../cluster-spec/sections/ibmcloud';
export * from './facts';

/** The platform as the renderer takes it: {@link IBM_CLOUD_PLATFORM_FACTS} and its operands ({@link IbmCloudControllerManager}). */
export const IBM_CLOUD_PLATFORM: PlatformDefinition = {
  ...IBM_CLOUD_PLATFORM_FACTS,
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    new IbmCloudControllerManager(scope, 'IbmCloudControllerManager', {
      ...operandProps(cluster),
      image: cluster.spec.spec.images.cloudControllerManagerIBM!,
      publicEndpoint: cluster.spec.spec.ibmcloud?.publicEndpoint,
    });
  },
};
