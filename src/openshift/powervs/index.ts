import { Construct } from 'constructs';
import { PowerVsCloudControllerManager } from './powervs-cloud-controller-manager';
import { POWERVS_PLATFORM_FACTS } from './facts';
import { operandProps, PlatformDefinition, PreparedCluster } from '../platform';

export * from './powervs-cloud-controller-manager';
export * from './facts';

/** IBM Power Virtual Server on OpenShift: the operator's `pkg/cloud/powervs`. The cloud config passes through unchanged. */
export const POWERVS_PLATFORM: PlatformDefinition = {
  ...POWERVS_PLATFORM_FACTS,
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    new PowerVsCloudControllerManager(scope, 'PowerVsCloudControllerManager', {
      ...operandProps(cluster),
      image: cluster.spec.spec.images.cloudControllerManagerPowerVS!,
    });
  },
};
