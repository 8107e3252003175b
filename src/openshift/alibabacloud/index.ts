import { Construct } from 'constructs';
import { AlibabaCloudControllerManager } from './alibaba-cloud-controller-manager';
import { ALIBABA_CLOUD_PLATFORM_FACTS } from './facts';
import { operandProps, PlatformDefinition, PreparedCluster } from '../platform';

export * from './alibaba-cloud-controller-manager';
export * from './facts';

/** The platform as the renderer takes it: {@link ALIBABA_CLOUD_PLATFORM_FACTS} and its operands ({@link AlibabaCloudControllerManager}). */
export const ALIBABA_CLOUD_PLATFORM: PlatformDefinition = {
  ...ALIBABA_CLOUD_PLATFORM_FACTS,
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    new AlibabaCloudControllerManager(scope, 'AlibabaCloudControllerManager', {
      ...operandProps(cluster),
      image: cluster.spec.spec.images.cloudControllerManagerAlibaba!,
    });
  },
};
