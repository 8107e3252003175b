import { Construct } from 'constructs';
import { PowerVsCloudControllerManager } from './powervs-cloud-controller-manager';
import { POWERVS_PLATFORM_FACTS } from './facts';
import { operandProps, PlatformDefinition, PreparedCluster } from '../platform';

export * from './powervs-cloud-controller-manager';
export * from './facts';

/** The platform as the renderer takes it: {@link POWERVS_PLATFORM_FACTS} and its operands ({@link PowerVsCloudControllerManager}). */
export const POWERVS_PLATFORM: PlatformDefinition = {
  ...POWERVS_PLATFORM_FACTS,
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    new PowerVsCloudControllerManager(scope, 'PowerVsCloudControllerManager', {
      ...operandProps(cluster),
      image: cluster.spec.spec.images.cloudControllerManagerPowerVS!,
    });
  },
};
