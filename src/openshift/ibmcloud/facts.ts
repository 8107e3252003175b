import { passThroughCloudConfig } from '../../cloud-config/pass-through';
import { CloudCredentialsRequestProps } from '../cloud-credentials-request';
import { openshiftCredentialHome } from '../credential-home';
import { PlatformFacts } from '../platform';

/** Secret written by the cloud-credential-operator for IBM Cloud and Power VS (same name on both). */
export const IBM_CREDENTIALS_SECRET = 'ibm-cloud-credentials';

/** The IAM policies of CredentialsRequest `openshift-ibm-cloud-controller-manager` (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_15_credentialsrequest-ibm.yaml). */
export const IBM_CCM_POLICIES: readonly { attributes: { name: string; value: string }[]; roles: string[] }[] = [
  { attributes: [{ name: 'resourceType', value: 'resource-group' }], roles: ['crn:v1:bluemix:public:iam::::role:Viewer'] },
  {
    attributes: [{ name: 'serviceName', value: 'is' }],
    roles: ['crn:v1:bluemix:public:iam::::role:Editor', 'crn:v1:bluemix:public:iam::::role:Operator', 'crn:v1:bluemix:public:iam::::role:Viewer'],
  },
];

/** Label the IBM CredentialsRequests carry. */
export const IBM_CREDENTIALS_REQUEST_LABELS: Readonly<Record<string, string>> = { 'controller-tools.k8s.io': '1.0' };

/**
 * The CredentialsRequest of an IBM platform (IBM Cloud, Power VS): the IBM
 * credentials Secret and label, and the IAM policies of the provider spec.
 */
export function ibmCredentialsRequest(name: string, kind: string, policies: typeof IBM_CCM_POLICIES): CloudCredentialsRequestProps {
  return {
    name,
    secretName: IBM_CREDENTIALS_SECRET,
    providerSpec: { kind, policies: policies.map((p) => ({ attributes: [...p.attributes], roles: [...p.roles] })) },
    labels: IBM_CREDENTIALS_REQUEST_LABELS,
  };
}

/** IBM Cloud (VPC) on OpenShift: the operator's `pkg/cloud/ibm`. The cloud config passes through unchanged. */
export const IBM_CLOUD_PLATFORM_FACTS: PlatformFacts = {
  type: 'IBMCloud',
  requiredImages: ['cloudControllerManagerIBM'],
  credentialsRequest: ibmCredentialsRequest('openshift-ibm-cloud-controller-manager', 'IBMCloudProviderSpec', IBM_CCM_POLICIES),
  validate: () => [],
  transformCloudConfig: (source) => passThroughCloudConfig('IBM Cloud', source, openshiftCredentialHome(IBM_CLOUD_PLATFORM_FACTS)),
};
