import { transformAzureCloudConfig, transformAzureStackHubCloudConfig } from '../../cloud-config/azure';
import { CCM_SERVICE_ACCOUNT } from '../constants';
import { ClusterSpec } from '../../cluster-spec/schema';
import type { ImportedPlatformSections, LivePlatformObjects } from '../../cluster/distribution';
import { rec, str } from '../../util/exported-fields';
import { isAzureStackHubCloud } from '../../cluster-spec/sections/azure';
import type { CloudCredentialsRequestProps } from '../cloud-credentials-request';
import { PlatformFacts, PlatformSpecProblem } from '../platform';
import { releaseAtLeast } from '../release';

/** Secret written by the cloud-credential-operator from CredentialsRequest `openshift-azure-cloud-controller-manager`. */
export const AZURE_CREDENTIALS_SECRET = 'azure-cloud-credentials';

/**
 * The permissions of CredentialsRequest `openshift-azure-cloud-controller-manager` per release
 * (…@d721cd62 (release-4.16), …@5b39a4df (release-4.19), …@6148c0cc (release-4.21), …@b99c3d88 (release-4.22)
 * manifests/0000_26_cloud-controller-manager-operator_14_credentialsrequest-azure.yaml).
 */
const AZURE_PERMISSIONS_PER_RELEASE = '13 on 4.16 to 4.18, 17 on 4.19 and 4.20, 28 on 4.21, 30 from 4.22';

/** The Azure cloud of a spec (`spec.azure.cloudName`, default `AzurePublicCloud`). */
export function azureCloudName(spec: ClusterSpec): string {
  return spec.spec.azure?.cloudName ?? 'AzurePublicCloud';
}

/** Whether a spec selects the Azure Stack Hub operands. */
export function isAzureStackHub(spec: ClusterSpec): boolean {
  return isAzureStackHubCloud(azureCloudName(spec));
}

/** The fine-grained Azure permissions of CredentialsRequest `openshift-azure-cloud-controller-manager` (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_14_credentialsrequest-azure.yaml), in the operator's order. */
export const AZURE_CCM_PERMISSIONS: readonly string[] = [
  'Microsoft.Compute/virtualMachines/read',
  'Microsoft.Network/loadBalancers/backendAddressPools/join/action',
  'Microsoft.Network/loadBalancers/read',
  'Microsoft.Network/loadBalancers/write',
  'Microsoft.Network/loadBalancers/inboundNatRules/join/action',
  'Microsoft.Network/loadBalancers/loadBalancingRules/read',
  'Microsoft.Network/loadBalancers/delete',
  'Microsoft.Network/natGateways/join/action',
  'Microsoft.Network/networkIntentPolicies/join/action',
  'Microsoft.Network/networkInterfaces/read',
  'Microsoft.Network/networkInterfaces/write',
  'Microsoft.Network/networkManagers/ipamPools/associateResourcesToPool/action',
  'Microsoft.Network/networkSecurityGroups/read',
  'Microsoft.Network/networkSecurityGroups/write',
  'Microsoft.Network/networkSecurityGroups/join/action',
  'Microsoft.Network/privatelinkservices/delete',
  'Microsoft.Network/privatelinkservices/privateEndpointConnections/delete',
  'Microsoft.Network/privatelinkservices/read',
  'Microsoft.Network/privatelinkservices/write',
  'Microsoft.Network/publicIPAddresses/delete',
  'Microsoft.Network/publicIPAddresses/join/action',
  'Microsoft.Network/publicIPAddresses/read',
  'Microsoft.Network/publicIPAddresses/write',
  'Microsoft.Network/routeTables/join/action',
  'Microsoft.Network/serviceEndpointPolicies/join/action',
  'Microsoft.Network/virtualNetworks/subnets/join/action',
  'Microsoft.Network/virtualNetworks/subnets/read',
  'Microsoft.Network/virtualNetworks/subnets/write',
  'Microsoft.Network/publicIPPrefixes/join/action',
  'Microsoft.Network/applicationSecurityGroups/joinNetworkSecurityRule/action',
];

/**
 * The permissions of {@link AZURE_CCM_PERMISSIONS} that joined after release-4.16, by the first release whose
 * manifests/0000_26_cloud-controller-manager-operator_14_credentialsrequest-azure.yaml lists them
 * (openshift/cluster-cloud-controller-manager-operator@5b39a4df (release-4.19), @6148c0cc (release-4.21),
 * @b99c3d88 (release-4.22); release-4.16 to 4.18 list the other 13, release-4.20 the same as release-4.19).
 */
export const AZURE_CCM_PERMISSIONS_SINCE: Readonly<Record<string, readonly string[]>> = {
  '4.19': [
    'Microsoft.Network/loadBalancers/inboundNatRules/join/action',
    'Microsoft.Network/networkSecurityGroups/join/action',
    'Microsoft.Network/publicIPPrefixes/join/action',
    'Microsoft.Network/applicationSecurityGroups/joinNetworkSecurityRule/action',
  ],
  '4.21': [
    'Microsoft.Network/loadBalancers/loadBalancingRules/read',
    'Microsoft.Network/natGateways/join/action',
    'Microsoft.Network/networkIntentPolicies/join/action',
    'Microsoft.Network/networkManagers/ipamPools/associateResourcesToPool/action',
    'Microsoft.Network/privatelinkservices/delete',
    'Microsoft.Network/privatelinkservices/read',
    'Microsoft.Network/privatelinkservices/write',
    'Microsoft.Network/publicIPAddresses/delete',
    'Microsoft.Network/routeTables/join/action',
    'Microsoft.Network/serviceEndpointPolicies/join/action',
    'Microsoft.Network/virtualNetworks/subnets/write',
  ],
  '4.22': ['Microsoft.Network/loadBalancers/delete', 'Microsoft.Network/privatelinkservices/privateEndpointConnections/delete'],
};

/** The permissions `openshift-azure-cloud-controller-manager` asks for at `release` (main's without one), in the operator's order. */
export function azureCcmPermissions(release: string | undefined): string[] {
  const later = Object.entries(AZURE_CCM_PERMISSIONS_SINCE)
    .filter(([since]) => release !== undefined && !releaseAtLeast(release, since))
    .flatMap(([, permissions]) => permissions);
  return AZURE_CCM_PERMISSIONS.filter((p) => !later.includes(p));
}

/** CredentialsRequest `openshift-azure-cloud-controller-manager` as the payload of `release` ships it (main's without a release). */
function azureCredentialsRequest(release: string | undefined): CloudCredentialsRequestProps {
  return {
    name: 'openshift-azure-cloud-controller-manager',
    secretName: AZURE_CREDENTIALS_SECRET,
    providerSpec: { kind: 'AzureProviderSpec', permissions: azureCcmPermissions(release) },
    serviceAccountNames: [CCM_SERVICE_ACCOUNT],
  };
}

/**
 * Azure on OpenShift: the operator's `pkg/cloud/azure` for the public, US
 * Government, China and German clouds, and `pkg/cloud/azurestack` when
 * `spec.azure.cloudName` is `AzureStackCloud`.
 */
export const AZURE_PLATFORM_FACTS: PlatformFacts = {
  type: 'Azure',
  requiredImages: ['cloudControllerManagerAzure', 'cloudNodeManagerAzure', 'cloudControllerManagerOperator'],

  cloudNodeManager: true,
  cloudConfigPlatformOf: (spec) => (isAzureStackHub(spec) ? 'AzureStackHub' : 'Azure'),
  credentialsRequest: azureCredentialsRequest(undefined),
  credentialsRequestOf: azureCredentialsRequest,
  // its CredentialsRequest gained permissions at 4.19, 4.21 and 4.22 (AZURE_CCM_PERMISSIONS_SINCE)
  credentialsRequestSettled: {
    release: '4.22',
    differsOn: (minor) =>
      `the payload of ${minor} ships CredentialsRequest openshift-azure-cloud-controller-manager with other Azure permissions (${AZURE_PERMISSIONS_PER_RELEASE}), not rendered per release yet`,
  },
  importLiveSections: importAzureLiveSections,

  validate(spec: ClusterSpec): PlatformSpecProblem[] {
    const extraKeys = spec.spec.cloudConfig?.extraKeys ?? {};
    if (isAzureStackHub(spec) && extraKeys.endpoints === undefined) {
      return [
        {
          path: ['spec', 'cloudConfig', 'extraKeys', 'endpoints'],
          message:
            'is required for Azure Stack Hub (spec.azure.cloudName AzureStackCloud): the CCM and node manager read the Azure Stack environment ' +
            'from cloud-conf key "endpoints"; point it at the endpoints JSON of the cloud-provider-config ConfigMap',
        },
      ];
    }
    return [];
  },

  transformCloudConfig(source: string, spec: ClusterSpec) {
    return isAzureStackHub(spec)
      ? transformAzureStackHubCloudConfig(source, { cloudName: azureCloudName(spec) })
      : transformAzureCloudConfig(source, { cloudName: azureCloudName(spec) });
  },
};

/** The cloud of the Infrastructure's Azure platform status. */
function importAzureLiveSections({ infrastructure }: LivePlatformObjects): ImportedPlatformSections {
  const cloudName = str(rec(rec(rec(infrastructure.status).platformStatus).azure).cloudName);
  return { sections: cloudName ? { azure: { cloudName } } : {}, warnings: [] };
}
