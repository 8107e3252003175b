import { passThroughCloudConfig } from '../../cloud-config/pass-through';
import { openshiftCredentialHome } from '../credential-home';
import { PlatformFacts } from '../platform';

/** Secret written by the cloud-credential-operator from CredentialsRequest `openshift-nutanix-cloud-controller-manager`. */
export const NUTANIX_CREDENTIALS_SECRET = 'nutanix-credentials';

/** Nutanix on OpenShift: the operator's `pkg/cloud/nutanix`. The cloud config (JSON) passes through unchanged. */
export const NUTANIX_PLATFORM_FACTS: PlatformFacts = {
  type: 'Nutanix',
  requiredImages: ['cloudControllerManagerNutanix'],
  credentialsRequest: {
    name: 'openshift-nutanix-cloud-controller-manager',
    secretName: NUTANIX_CREDENTIALS_SECRET,
    providerSpec: { kind: 'NutanixProviderSpec' },
  },
  validate: () => [],
  transformCloudConfig: (source) => passThroughCloudConfig('Nutanix', source, openshiftCredentialHome(NUTANIX_PLATFORM_FACTS)),
};
