import { passThroughCloudConfig } from '../../cloud-config/pass-through';
import { IBM_CCM_POLICIES, ibmCredentialsRequest } from '../ibmcloud/facts';
import { openshiftCredentialHome } from '../credential-home';
import { PlatformFacts } from '../platform';

/** The IAM policies of CredentialsRequest `openshift-powervs-cloud-controller-manager`: IBM's plus Power IaaS (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_15_credentialsrequest-powervs.yaml). */
export const POWERVS_CCM_POLICIES: readonly { attributes: { name: string; value: string }[]; roles: string[] }[] = [
  ...IBM_CCM_POLICIES,
  {
    attributes: [{ name: 'serviceName', value: 'power-iaas' }],
    roles: [
      'crn:v1:bluemix:public:iam::::role:Viewer',
      'crn:v1:bluemix:public:iam::::serviceRole:Reader',
      'crn:v1:bluemix:public:iam::::serviceRole:Manager',
    ],
  },
];

/** IBM Power Virtual Server on OpenShift: the operator's `pkg/cloud/powervs`. The cloud config passes through unchanged. */
export const POWERVS_PLATFORM_FACTS: PlatformFacts = {
  type: 'PowerVS',
  requiredImages: ['cloudControllerManagerPowerVS'],
  credentialsRequest: ibmCredentialsRequest('openshift-powervs-cloud-controller-manager', 'IBMCloudPowerVSProviderSpec', POWERVS_CCM_POLICIES),
  validate: () => [],
  transformCloudConfig: (source) => passThroughCloudConfig('Power VS', source, openshiftCredentialHome(POWERVS_PLATFORM_FACTS)),
};
