import { Construct } from 'constructs';
import { AwsCloudControllerManager } from './aws-cloud-controller-manager';
import { AWS_PLATFORM_FACTS } from './facts';
import { operandProps, PlatformDefinition, PreparedCluster } from '../platform';

export * from './aws-cloud-controller-manager';
export * from '../../cluster-spec/sections/aws';
export * from './facts';

/** The platform as the renderer takes it: {@link AWS_PLATFORM_FACTS} and its operands ({@link AwsCloudControllerManager}). */
export const AWS_PLATFORM: PlatformDefinition = {
  ...AWS_PLATFORM_FACTS,
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    new AwsCloudControllerManager(scope, 'AwsCloudControllerManager', {
      ...operandProps(cluster),
      image: cluster.spec.spec.images.cloudControllerManagerAWS!,
    });
  },
};
