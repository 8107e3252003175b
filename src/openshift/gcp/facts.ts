import { passThroughCloudConfig } from '../../cloud-config/pass-through';
import { CCM_SERVICE_ACCOUNT } from '../constants';
import { openshiftCredentialHome } from '../credential-home';
import { PlatformFacts } from '../platform';

/** Secret written by the cloud-credential-operator from CredentialsRequest `openshift-gcp-ccm`. */
export const GCP_CREDENTIALS_SECRET = 'gcp-ccm-cloud-credentials';

/** The GCP permissions of CredentialsRequest `openshift-gcp-ccm` (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_16_credentialsrequest-gcp.yaml), in the operator's order. */
export const GCP_CCM_PERMISSIONS: readonly string[] = [
  ...['create', 'createInternal', 'delete', 'deleteInternal', 'get', 'list', 'use', 'useInternal'].map((v) => `compute.addresses.${v}`),
  ...['create', 'delete', 'get', 'update'].map((v) => `compute.firewalls.${v}`),
  ...['create', 'delete', 'get'].map((v) => `compute.forwardingRules.${v}`),
  ...['create', 'delete', 'get', 'update', 'useReadOnly'].map((v) => `compute.healthChecks.${v}`),
  ...['create', 'delete', 'get', 'update', 'useReadOnly'].map((v) => `compute.httpHealthChecks.${v}`),
  ...['create', 'delete', 'get', 'list', 'update', 'use'].map((v) => `compute.instanceGroups.${v}`),
  ...['get', 'list', 'use'].map((v) => `compute.instances.${v}`),
  'compute.networks.updatePolicy',
  ...['create', 'delete', 'get', 'update', 'use'].map((v) => `compute.regionBackendServices.${v}`),
  'compute.subnetworks.use',
  ...['addInstance', 'create', 'delete', 'get', 'removeInstance', 'use'].map((v) => `compute.targetPools.${v}`),
  'compute.zones.list',
];

/** GCP on OpenShift: the operator's `pkg/cloud/gcp`. The cloud config passes through unchanged. */
export const GCP_PLATFORM_FACTS: PlatformFacts = {
  type: 'GCP',
  requiredImages: ['cloudControllerManagerGCP'],

  /** In-tree GCE left Kubernetes in 1.31; OpenShift runs the external CCM by default from 4.16 (1.29), when library-go stopped gating GCP. */
  // openshift/api@release-4.15 payload-manifests/featuregates/featureGate-Default.yaml enables ExternalCloudProviderGCP: external by default from 4.15 (1.28)
  migrationSupport: () => ({
    inTreeProvider: 'gce',
    volumePlugin: 'gce',
    lastInTreeMinor: 30,
    openshiftExternalSinceMinor: 28,
    openshiftFeatureGates: ['ExternalCloudProvider', 'ExternalCloudProviderGCP'],
    inTreeCloudConfig: true,
  }),
  credentialsRequest: {
    name: 'openshift-gcp-ccm',
    secretName: GCP_CREDENTIALS_SECRET,
    providerSpec: { kind: 'GCPProviderSpec', permissions: [...GCP_CCM_PERMISSIONS], skipServiceCheck: true },
    serviceAccountNames: [CCM_SERVICE_ACCOUNT],
  },
  validate: () => [],
  transformCloudConfig: (source) => passThroughCloudConfig('GCP', source, openshiftCredentialHome(GCP_PLATFORM_FACTS)),
};
