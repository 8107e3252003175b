/**
 * The parts of the operator's payload (`manifests/`: its RBAC, Deployment, NetworkPolicies and
 * CredentialsRequests) that changed between the supported release branches of
 * openshift/cluster-cloud-controller-manager-operator, with the first release that ships each.
 * Pure: no cdk8s import.
 */
import { releaseAtLeast } from './release';

/**
 * The first release whose payload ships each part (`…@<sha> (release-4.x)` abbreviates
 * openshift/cluster-cloud-controller-manager-operator; the commits are those of `OPERATOR_BRANCH_COMMITS`).
 * The operator's objects are rendered in operator mode, the CredentialsRequests in both modes.
 */
export const PAYLOAD_PARTS_SINCE = {
  /**
   * The default-deny NetworkPolicies of both namespaces
   * (…@276696cc (release-4.20) manifests/0000_26_cloud-controller-manager-operator_10_networkpolicy-default-deny.yaml; absent at release-4.19).
   */
  defaultDenyNetworkPolicies: '4.20',
  /**
   * The operator's Role and RoleBinding in kube-system for the AKS lease (…@5b39a4df (release-4.19)
   * manifests/0000_26_cloud-controller-manager-operator_02_rbac_operator.yaml, added by 337ac16d; absent at release-4.18).
   */
  operatorKubeSystemRole: '4.19',
  /**
   * The operator's hostaccess SCC: ClusterRoleBinding `system:openshift:scc:hostaccess:cloud-controller-manager-operator`
   * and the pod annotation `openshift.io/required-scc: hostaccess` (…@bc52198c (release-4.23) manifests/…_02_rbac_operator.yaml
   * and …_50_deployment.yaml, added by cd128289; release-4.22 at b99c3d88 has neither).
   */
  operatorHostAccess: '4.23',
  /**
   * The operator writes ConfigMaps in openshift-config-managed (create/update/patch on its Role there;
   * …@bc52198c (release-4.23) manifests/…_02_rbac_operator.yaml, added by 4aec7f72; get/list/watch only at release-4.22).
   */
  operatorWritesConfigManaged: '4.23',
  /**
   * GCP: the 13 permissions CredentialsRequest `openshift-gcp-ccm` gained (…@bc52198c (release-4.23)
   * manifests/0000_26_cloud-controller-manager-operator_16_credentialsrequest-gcp.yaml, added by 6d769e78;
   * release-4.16 to 4.22 ship the same 35 permissions).
   */
  gcpCredentialsPermissions: '4.23',
} as const;

/** A part of the payload whose first release is in {@link PAYLOAD_PARTS_SINCE}. */
export type PayloadPart = keyof typeof PAYLOAD_PARTS_SINCE;

/** Whether the payload of `release` ships `part` (main's payload without a release). */
export function payloadHas(release: string | undefined, part: PayloadPart): boolean {
  return release === undefined || releaseAtLeast(release, PAYLOAD_PARTS_SINCE[part]);
}
