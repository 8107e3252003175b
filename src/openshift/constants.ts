/** Namespace of the CCM operands. */
export const OPERAND_NAMESPACE = 'openshift-cloud-controller-manager';
/** Namespace of the operator. */
export const OPERATOR_NAMESPACE = 'openshift-cloud-controller-manager-operator';
/** Namespace where CredentialsRequests live. */
export const CREDENTIALS_NAMESPACE = 'openshift-cloud-credential-operator';

/** ServiceAccount of every CCM Deployment. */
export const CCM_SERVICE_ACCOUNT = 'cloud-controller-manager';
/** ServiceAccount of the cloud node manager DaemonSets. */
export const CNM_SERVICE_ACCOUNT = 'cloud-node-manager';
/** ServiceAccount of the operator. */
export const OPERATOR_SERVICE_ACCOUNT = 'cluster-cloud-controller-manager';

/** ConfigMap holding the transformed cloud config. */
export const CLOUD_CONF_CONFIG_MAP = 'cloud-conf';
/** ConfigMap holding the trust bundle mounted by every CCM container. */
export const TRUSTED_CA_CONFIG_MAP = 'ccm-trusted-ca';

/** Annotations the operator's static manifests carry (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/). */
export const RELEASE_ANNOTATIONS: Readonly<Record<string, string>> = {
  'capability.openshift.io/name': 'CloudControllerManager',
  'include.release.openshift.io/self-managed-high-availability': 'true',
  'include.release.openshift.io/single-node-developer': 'true',
};

/** Annotations of the static CredentialsRequests (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/). */
export const CREDENTIALS_REQUEST_ANNOTATIONS: Readonly<Record<string, string>> = {
  ...RELEASE_ANNOTATIONS,
  'capability.openshift.io/name': 'CloudCredential+CloudControllerManager',
};

/** Pod-template annotation holding the hash of the configuration the pods mount. */
export { CONFIG_HASH_ANNOTATION } from '../constructs/config-hash';

/** Metadata of a static-manifest object: name, namespace when namespaced, and the release annotations. */
export function releaseMetadata(name: string, namespace?: string): { name: string; namespace?: string; annotations: Record<string, string> } {
  return { name, namespace, annotations: { ...RELEASE_ANNOTATIONS } };
}
