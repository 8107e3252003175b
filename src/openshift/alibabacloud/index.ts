import { Construct } from 'constructs';
import { AlibabaCloudControllerManager } from './alibaba-cloud-controller-manager';
import { passThroughCloudConfig } from '../../cloud-config/pass-through';
import { operandProps, PlatformDefinition, PreparedCluster } from '../platform';

export * from './alibaba-cloud-controller-manager';

/** Alibaba Cloud on OpenShift (tech preview): the operator's last shipped `pkg/cloud/alibaba`. The cloud config passes through unchanged. */
export const ALIBABA_CLOUD_PLATFORM: PlatformDefinition = {
  type: 'AlibabaCloud',
  requiredImages: ['cloudControllerManagerAlibaba'],
  techPreview: true,
  validate: () => [],
  transformCloudConfig: (source) => passThroughCloudConfig('Alibaba Cloud', source),
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    new AlibabaCloudControllerManager(scope, 'AlibabaCloudControllerManager', {
      ...operandProps(cluster),
      image: cluster.spec.spec.images.cloudControllerManagerAlibaba!,
    });
  },
};
