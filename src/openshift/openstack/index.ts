import { Construct } from 'constructs';
import { OpenStackCloudControllerManager } from './openstack-cloud-controller-manager';
import { OPENSTACK_PLATFORM_FACTS } from './facts';
import {
  enabledFeatureGatesOf,
  operandProps,
  PlatformDefinition,
  PreparedCluster,
  upstreamFeatureGatesFlag,
  infrastructureNameOf,
} from '../platform';

export * from './openstack-cloud-controller-manager';
export * from './facts';

/** The platform as the renderer takes it: {@link OPENSTACK_PLATFORM_FACTS} and its operands ({@link OpenStackCloudControllerManager}). */
export const OPENSTACK_PLATFORM: PlatformDefinition = {
  ...OPENSTACK_PLATFORM_FACTS,
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    const s = cluster.spec.spec;
    new OpenStackCloudControllerManager(scope, 'OpenStackCloudControllerManager', {
      ...operandProps(cluster),
      image: s.images.cloudControllerManagerOpenStack!,
      infrastructureName: infrastructureNameOf(cluster),
      featureGates: upstreamFeatureGatesFlag(enabledFeatureGatesOf(cluster.spec)),
    });
  },
};
