import { Construct } from 'constructs';
import { AlibabaCloudControllerManager } from './alibaba-cloud-controller-manager';
import { ALIBABA_CLOUD_PLATFORM_FACTS } from './facts';
import { operandProps, PlatformDefinition, PreparedCluster } from '../platform';

export * from './alibaba-cloud-controller-manager';
export * from './facts';

/** Alibaba Cloud on OpenShift (tech preview): the operator's last shipped `pkg/cloud/alibaba`. The cloud config passes through unchanged. */
export const ALIBABA_CLOUD_PLATFORM: PlatformDefinition = {
  ...ALIBABA_CLOUD_PLATFORM_FACTS,
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    new AlibabaCloudControllerManager(scope, 'AlibabaCloudControllerManager', {
      ...operandProps(cluster),
      image: cluster.spec.spec.images.cloudControllerManagerAlibaba!,
    });
  },
};
