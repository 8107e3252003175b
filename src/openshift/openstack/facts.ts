import { transformOpenStackCloudConfig } from '../../cloud-config/openstack';
import { PlatformFacts } from '../platform';

/** Secret written by the cloud-credential-operator from CredentialsRequest `openshift-openstack-cloud-controller-manager`. */
export const OPENSTACK_CREDENTIALS_SECRET = 'openstack-cloud-credentials';

/** OpenStack on OpenShift: the operator's `pkg/cloud/openstack`, with the OpenStack cloud-config transform. */
export const OPENSTACK_PLATFORM_FACTS: PlatformFacts = {
  type: 'OpenStack',
  kubeSystemServiceAccountRbac: true,
  requiredImages: ['cloudControllerManagerOpenStack'],

  credentialsRequest: {
    name: 'openshift-openstack-cloud-controller-manager',
    secretName: OPENSTACK_CREDENTIALS_SECRET,
    providerSpec: { kind: 'OpenStackProviderSpec' },
  },
  validate: () => [],
  transformCloudConfig: (source) => transformOpenStackCloudConfig(source),
};
