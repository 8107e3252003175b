import { Construct } from 'constructs';
import { OPENSTACK_CREDENTIALS_SECRET, OpenStackCloudControllerManager } from './openstack-cloud-controller-manager';
import { transformOpenStackCloudConfig } from '../../cloud-config/openstack';
import { enabledFeatureGatesOf, operandProps, PlatformDefinition, PreparedCluster, upstreamFeatureGatesFlag, infrastructureNameOf } from '../platform';

export * from './openstack-cloud-controller-manager';

/** OpenStack on OpenShift: the operator's `pkg/cloud/openstack`, with the OpenStack cloud-config transform. */
export const OPENSTACK_PLATFORM: PlatformDefinition = {
  type: 'OpenStack',
  requiredImages: ['cloudControllerManagerOpenStack'],

  /** In-tree OpenStack left Kubernetes in 1.26; OpenShift 4.12 (1.25) runs the external CCM by default. */
  migrationSupport: () => ({ inTreeProvider: 'openstack', volumePlugin: 'openstack', lastInTreeMinor: 25, openshiftExternalSinceMinor: 25, openshiftFeatureGates: ['ExternalCloudProvider'], inTreeCloudConfig: true }),
  credentialsRequest: {
    name: 'openshift-openstack-cloud-controller-manager',
    secretName: OPENSTACK_CREDENTIALS_SECRET,
    providerSpec: { kind: 'OpenStackProviderSpec' },
  },
  validate: () => [],
  transformCloudConfig: (source) => transformOpenStackCloudConfig(source),
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
