import { passThroughCloudConfig } from '../../cloud-config/pass-through';
import { CCM_SERVICE_ACCOUNT } from '../constants';
import { openshiftCredentialHome } from '../credential-home';
import type { CloudCredentialsRequestProps } from '../cloud-credentials-request';
import { PlatformFacts } from '../platform';
import { payloadHas } from '../release-payload';

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

/**
 * Those `openshift-gcp-ccm` asks for before `PAYLOAD_PARTS_SINCE.gcpCredentialsPermissions`, in the operator's order
 * (openshift/cluster-cloud-controller-manager-operator@b99c3d88 (release-4.22) manifests/0000_26_cloud-controller-manager-operator_16_credentialsrequest-gcp.yaml;
 * the same file on release-4.16 to 4.21).
 */
export const GCP_CCM_PERMISSIONS_BEFORE_4_23: readonly string[] = [
  ...['create', 'delete', 'get', 'list'].map((v) => `compute.addresses.${v}`),
  ...['create', 'delete', 'get', 'update'].map((v) => `compute.firewalls.${v}`),
  ...['create', 'delete', 'get'].map((v) => `compute.forwardingRules.${v}`),
  ...['create', 'delete', 'get', 'update'].map((v) => `compute.healthChecks.${v}`),
  ...['create', 'delete', 'get', 'update'].map((v) => `compute.httpHealthChecks.${v}`),
  ...['create', 'delete', 'get', 'update'].map((v) => `compute.instanceGroups.${v}`),
  ...['get', 'use'].map((v) => `compute.instances.${v}`),
  ...['create', 'delete', 'get', 'update'].map((v) => `compute.regionBackendServices.${v}`),
  ...['addInstance', 'create', 'delete', 'get', 'removeInstance'].map((v) => `compute.targetPools.${v}`),
  'compute.zones.list',
];

/** CredentialsRequest `openshift-gcp-ccm` as the payload of `release` ships it (main's without a release). */
function gcpCredentialsRequest(release: string | undefined): CloudCredentialsRequestProps {
  const permissions = payloadHas(release, 'gcpCredentialsPermissions') ? GCP_CCM_PERMISSIONS : GCP_CCM_PERMISSIONS_BEFORE_4_23;
  return {
    name: 'openshift-gcp-ccm',
    secretName: GCP_CREDENTIALS_SECRET,
    providerSpec: { kind: 'GCPProviderSpec', permissions: [...permissions], skipServiceCheck: true },
    serviceAccountNames: [CCM_SERVICE_ACCOUNT],
  };
}

/** GCP on OpenShift: the operator's `pkg/cloud/gcp`. The cloud config passes through unchanged. */
export const GCP_PLATFORM_FACTS: PlatformFacts = {
  type: 'GCP',
  requiredImages: ['cloudControllerManagerGCP'],

  credentialsRequest: gcpCredentialsRequest(undefined),
  credentialsRequestOf: gcpCredentialsRequest,
  validate: () => [],
  transformCloudConfig: (source) => passThroughCloudConfig('GCP', source, openshiftCredentialHome(GCP_PLATFORM_FACTS)),
};
