import { Construct } from 'constructs';
import { NUTANIX_CREDENTIALS_SECRET, NutanixCloudControllerManager } from './nutanix-cloud-controller-manager';
import { passThroughCloudConfig } from '../../cloud-config/pass-through';
import { operandProps, PlatformDefinition, PreparedCluster, infrastructureNameOf } from '../platform';

export * from './nutanix-cloud-controller-manager';

/** Nutanix on OpenShift: the operator's `pkg/cloud/nutanix`. The cloud config (JSON) passes through unchanged. */
export const NUTANIX_PLATFORM: PlatformDefinition = {
  type: 'Nutanix',
  requiredImages: ['cloudControllerManagerNutanix'],
  credentialsRequest: {
    name: 'openshift-nutanix-cloud-controller-manager',
    secretName: NUTANIX_CREDENTIALS_SECRET,
    providerSpec: { kind: 'NutanixProviderSpec' },
  },
  validate: () => [],
  transformCloudConfig: (source) => passThroughCloudConfig('Nutanix', source),
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    new NutanixCloudControllerManager(scope, 'NutanixCloudControllerManager', {
      ...operandProps(cluster),
      image: cluster.spec.spec.images.cloudControllerManagerNutanix!,
      infrastructureName: infrastructureNameOf(cluster),
    });
  },
};
