/**
 * Which releases' operands ccm-gitops renders in gitops mode, per release
 * branch of openshift/cluster-cloud-controller-manager-operator
 * (`pkg/cloud/<platform>/assets/*`, `pkg/cloud/<platform>/*.go`,
 * `pkg/cloud/common/resources.go`). Pure: no cdk8s import.
 */
import { ClusterSpec, PlatformType } from '../cluster-spec/schema';
import { ccmDeployedIn } from '../migration/phases';
import { compareMinor, openshiftRelease, parseRelease, releaseAtLeast } from './release';
import { PlatformFacts, PlatformSpecProblem } from './platform';

/**
 * The oldest release whose operands gitops mode renders outside a migration (up to the data-like
 * differences below). release-4.21 and earlier differ on every platform: no `--tls-cipher-suites` /
 * `--tls-min-version` from the cluster's TLS profile (IBM Cloud, Power VS and Nutanix hard-code a cipher
 * list), no AWS ValidatingAdmissionPolicy, another AWS cloud.conf serialisation (`NodeIPFamilies`),
 * and further back other Azure, GCP and vSphere assets and no AWS cloud.conf at all (release-4.18)
 * (…@release-4.21 vs …@release-4.22 pkg/cloud/*). A migration's CCM phases render AWS and GCP of older
 * releases with {@link OPERAND_PARTS_SINCE}.
 */
export const OPERANDS_RENDERED_SINCE = '4.22';

/**
 * The first release whose PodDisruptionBudget sets `unhealthyPodEvictionPolicy: AlwaysAllow`
 * (…@release-4.23 pkg/cloud/common/resources.go getPDB; release-4.22 does not set it).
 */
export const PDB_EVICTION_POLICY_SINCE = '4.23';

/** Whether the CCM PodDisruptionBudget of `release` sets `unhealthyPodEvictionPolicy` (main's shape without a release). */
export function pdbSetsEvictionPolicy(release: string | undefined): boolean {
  return release === undefined || compareMinor(parseRelease(release).minor, PDB_EVICTION_POLICY_SINCE) >= 0;
}

/**
 * The first release whose operator renders each part of the AWS and GCP operands, read from
 * openshift/cluster-cloud-controller-manager-operator@release-4.11 … release-4.22
 * (`pkg/cloud/aws/assets/deployment.yaml`, `pkg/cloud/gcp/assets/*`, `pkg/cloud/common/resources.go`).
 * A migration runs on these releases, so its CCM phases render the release's parts.
 */
export const OPERAND_PARTS_SINCE = {
  /** `--tls-cipher-suites` / `--tls-min-version` from the cluster's TLS profile (…@release-4.22 aws and gcp assets). */
  tlsFlags: '4.22',
  /** The CCM Service on 10258 (…@release-4.16 pkg/cloud/common/resources.go getService; absent at release-4.15). */
  service: '4.16',
  /** `--secure-port=0` (…@release-4.14 aws/assets/deployment.yaml and gcp/assets/cloud-controller-manager.yaml). */
  securePortOff: '4.14',
  /** `terminationMessagePolicy: FallbackToLogsOnError` on the CCM container (…@release-4.16 aws and gcp assets). */
  terminationMessagePolicy: '4.16',
  /** AWS: `--cloud-config` with the `cloud-conf` ConfigMap mounted (…@release-4.19 pkg/cloud/aws/assets/deployment.yaml). */
  awsCloudConfig: '4.19',
  /** AWS: the load-balancer-type admission policy (…@release-4.22 pkg/cloud/aws/assets/validating-admission-policy*.yaml). */
  awsAdmissionPolicy: '4.22',
  /** GCP: the pod's management-workload annotation (…@release-4.14 pkg/cloud/gcp/assets/cloud-controller-manager.yaml). */
  gcpWorkloadAnnotation: '4.14',
  /** GCP: `--concurrent-service-syncs=10` (…@release-4.15 pkg/cloud/gcp/assets/cloud-controller-manager.yaml). */
  gcpConcurrentServiceSyncs: '4.15',
  /** GCP: the `gcp-cloud-controller-manager` ClusterRole and binding (…@release-4.16 pkg/cloud/gcp/assets/). */
  gcpClusterRole: '4.16',
  /** GCP: the network-tier admission policy (…@release-4.19 pkg/cloud/gcp/assets/validating-admission-policy*.yaml). */
  gcpAdmissionPolicy: '4.19',
} as const;

/** A part of the operands whose first release is in {@link OPERAND_PARTS_SINCE}. */
export type OperandPart = keyof typeof OPERAND_PARTS_SINCE;

/** Whether the operator of `release` renders `part` (main's shape without a release). */
export function operandRenders(release: string | undefined, part: OperandPart): boolean {
  return release === undefined || releaseAtLeast(release, OPERAND_PARTS_SINCE[part]);
}

/**
 * The platforms whose operands before 4.22 differ from release-4.22's only by the parts of
 * {@link OPERAND_PARTS_SINCE}, so a migration's CCM phases render them per release. The others
 * differ in structure before 4.22 (Azure: other assets and policies; OpenStack: another
 * openstack.go; vSphere: no cloud-config transformer before release-4.13, other RBAC before 4.14).
 */
export const OPERANDS_PER_RELEASE: readonly PlatformType[] = ['AWS', 'GCP'];

/**
 * Gitops mode renders the operator's operands in place of the operator: refuse a release whose operator
 * renders them differently (Alibaba Cloud renders its one release, 4.16). Only when the CCM is deployed:
 * the phases before it render no platform operand but RBAC the payload ships. A migration always runs
 * on a release before 4.22: its CCM phases render the release's operands where they differ in data
 * only ({@link OPERANDS_PER_RELEASE}), and are refused on the other platforms.
 */
export function operandReleaseProblems(spec: ClusterSpec, platform?: Pick<PlatformFacts, 'migrationSupport'>): PlatformSpecProblem[] {
  const s = spec.spec;
  const release = s.openshift?.release;
  if (s.managementMode !== 'gitops' || release === undefined || s.platform === 'AlibabaCloud') {
    return [];
  }
  const minor = parseRelease(release).minor;
  if (compareMinor(minor, OPERANDS_RENDERED_SINCE) >= 0) {
    return [];
  }
  const at = ['spec', 'openshift', 'release'];
  if (s.migration !== undefined) {
    if (!ccmDeployedIn(s.migration.phase) || OPERANDS_PER_RELEASE.includes(s.platform)) {
      return [];
    }
    const support = platform?.migrationSupport?.(spec);
    const external = support ? openshiftRelease(support.openshiftExternalSinceMinor) : undefined;
    // On a release whose operators already run the CCM, the general refusal below says what to do.
    if (external !== undefined && compareMinor(minor, external) < 0) {
      return [
        {
          path: at,
          message:
            `"${release}": phase "${s.migration.phase}" deploys the cloud controller manager, and the operator of ${minor} renders other ${s.platform} operands than ccm-gitops renders ` +
            `(before ${OPERANDS_RENDERED_SINCE} only ${OPERANDS_PER_RELEASE.join(' and ')} operands are rendered per release); ` +
            `migrate by updating the cluster to OpenShift ${external}, whose operators move ${s.platform} to its CCM themselves, and remove spec.migration`,
        },
      ];
    }
  }
  return [
    {
      path: at,
      message:
        `"${release}": gitops mode renders the cloud controller manager as the operator of release ${OPERANDS_RENDERED_SINCE} and later renders it; ` +
        `the operator of ${minor} renders other ${s.platform} operands (flags, admission policies, cloud.conf). ` +
        `Leave the cloud controller manager to the cluster's operator until the cluster runs ${OPERANDS_RENDERED_SINCE} or later (an OpenShift update moves an in-tree platform to its CCM itself), then hand it over`,
    },
  ];
}
