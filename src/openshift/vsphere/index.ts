import { Construct } from 'constructs';
import { VSphereCloudControllerManager } from './vsphere-cloud-controller-manager';
import { VSPHERE_PLATFORM_FACTS } from './facts';
import {
  enabledFeatureGatesOf,
  operandProps,
  PlatformDefinition,
  PreparedCluster,
  upstreamFeatureGatesFlag,
  infrastructureNameOf,
} from '../platform';

export * from '../../cluster-spec/sections/vsphere';
export * from './vsphere-cloud-controller-manager';
export * from './facts';

/** The platform as the renderer takes it: {@link VSPHERE_PLATFORM_FACTS} and its operands ({@link VSphereCloudControllerManager}). */
export const VSPHERE_PLATFORM: PlatformDefinition = {
  ...VSPHERE_PLATFORM_FACTS,
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    const s = cluster.spec.spec;
    new VSphereCloudControllerManager(scope, 'VSphereCloudControllerManager', {
      ...operandProps(cluster),
      image: s.images.cloudControllerManagerVSphere!,
      infrastructureName: infrastructureNameOf(cluster),
      featureGates: upstreamFeatureGatesFlag(enabledFeatureGatesOf(cluster.spec)),
      mixedNodeEnv: enabledFeatureGatesOf(cluster.spec).includes('VSphereMixedNodeEnv'),
      multiVCenterDay2: enabledFeatureGatesOf(cluster.spec).includes('VSphereMultiVCenterDay2'),
    });
  },
};
