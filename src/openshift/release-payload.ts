/**
 * The parts of the operator's payload (`manifests/`: its RBAC, Deployment, NetworkPolicies and
 * CredentialsRequests) that changed between the supported release branches of
 * openshift/cluster-cloud-controller-manager-operator, with the first release that ships each.
 * Pure: no cdk8s import.
 */
import type { PlatformFacts } from './platform';
import { parseRelease, releaseAtLeast } from './release';

/**
 * The first release whose payload ships each part (`…@<sha> (release-4.x)` abbreviates
 * openshift/cluster-cloud-controller-manager-operator; the commits are those of `OPERATOR_BRANCH_COMMITS`).
 * The operator's objects are rendered in operator mode, the CredentialsRequests in both modes.
 */
export const PAYLOAD_PARTS_SINCE = {
  /**
   * The operator's ClusterRole may write ValidatingAdmissionPolicies and their bindings (…@8abb0673 (release-4.18)
   * manifests/0000_26_cloud-controller-manager-operator_02_rbac_operator.yaml, added by 3149c9a2; absent at release-4.17).
   */
  operatorAdmissionPolicyRule: '4.18',
  /**
   * The operator serves its metrics (`--metrics-bind-address=:9258`) and webhook (`--webhook-port=9443`) itself, with the
   * cluster's TLS profile: no kube-rbac-proxy sidecar and no `kube-rbac-proxy` ConfigMap, the metrics Service's ports
   * `metrics` and `webhook`, and the ClusterRole's `apiservers`, `tokenreviews` and `subjectaccessreviews`
   * (…@b99c3d88 (release-4.22) manifests/…_50_deployment.yaml, …_05_metrics-service.yaml, …_02_rbac_operator.yaml, by 7395feaf).
   * Release-4.16 to 4.21 ship one operator Deployment (…@6148c0cc (release-4.21) manifests/…_11_deployment.yaml): a
   * kube-rbac-proxy on 0.0.0.0:9258 in front of the operator's metrics on 127.0.0.1:9257, and the Service's port `https`.
   */
  operatorServesMetrics: '4.22',
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

/**
 * The oldest release whose payload operator mode renders: the oldest release branch compared part by part
 * (release-4.16; the branches before it were not).
 */
export const OPERATOR_MODE_RENDERED_SINCE = '4.16';

/** The oldest release whose payload operator mode renders on `platform`. */
export function operatorModeRenderedSince(platform: Pick<PlatformFacts, 'credentialsRequestSettled' | 'credentialsRequestOf'>): string {
  // a CredentialsRequest that gained permissions is rendered per release only with credentialsRequestOf
  return platform.credentialsRequestSettled !== undefined && platform.credentialsRequestOf === undefined
    ? platform.credentialsRequestSettled.release
    : OPERATOR_MODE_RENDERED_SINCE;
}

/** Why operator mode refuses `release` on `platform` (what its payload ships otherwise), or undefined when it renders it. */
export function operatorModeProblem(
  release: string,
  platform: Pick<PlatformFacts, 'type' | 'credentialsRequestSettled' | 'credentialsRequestOf'>,
): string | undefined {
  const since = operatorModeRenderedSince(platform);
  if (releaseAtLeast(release, since)) {
    return undefined;
  }
  const minor = parseRelease(release).minor;
  const settled = platform.credentialsRequestSettled;
  const differs =
    since === OPERATOR_MODE_RENDERED_SINCE || settled === undefined
      ? `the payloads before ${since} were not compared with their release branches part by part`
      : settled.differsOn(minor);
  return (
    `"${release}": operator mode renders the ${platform.type} payload of release ${since} and later; ${differs}. ` +
    `Leave the operator to the cluster-version operator until the cluster runs ${since} or later, then hand it over`
  );
}
