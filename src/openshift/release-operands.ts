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

const TLS_FLAGS = "--tls-cipher-suites / --tls-min-version from the cluster's TLS profile";

/**
 * What the operator of a release before {@link OPERANDS_RENDERED_SINCE} renders otherwise, per platform:
 * each entry holds for the releases before `since`. Read from `git diff release-X release-4.22 -- pkg/cloud manifests`
 * of openshift/cluster-cloud-controller-manager-operator at release-4.16@d721cd62, release-4.17@6d4c0096,
 * release-4.18@8abb0673, release-4.19@5b39a4df, release-4.20@276696cc, release-4.21@6148c0cc, release-4.22@b99c3d88.
 */
export const OPERAND_DIFFERENCES_BEFORE: readonly { since: string; platforms?: readonly PlatformType[]; differs: string }[] = [
  // pkg/cloud/{ibm,powervs}/assets/deployment.yaml and nutanix/assets/cloud-controller-manager-deployment.yaml@release-4.21
  { since: '4.22', platforms: ['IBMCloud', 'PowerVS'], differs: `a hard-coded list of 9 TLS cipher suites instead of ${TLS_FLAGS}` },
  { since: '4.22', platforms: ['Nutanix'], differs: `a hard-coded list of 6 TLS cipher suites instead of ${TLS_FLAGS}` },
  { since: '4.22', platforms: ['AWS', 'Azure', 'GCP', 'OpenStack', 'VSphere'], differs: `no ${TLS_FLAGS}` },
  // pkg/cloud/aws/assets/validating-admission-policy*.yaml, aws_config_transformer.go
  { since: '4.22', platforms: ['AWS'], differs: 'no load-balancer-type admission policy' },
  { since: '4.22', platforms: ['AWS'], differs: 'another cloud.conf transformation' },
  // manifests/0000_26_cloud-controller-manager-operator_14_credentialsrequest-azure.yaml gains permissions at 4.21 and 4.22
  { since: '4.22', platforms: ['Azure'], differs: 'fewer permissions in the CredentialsRequest' },
  // pkg/cloud/vsphere/assets/cloud-controller-manager-deployment.yaml@release-4.21
  { since: '4.21', platforms: ['VSphere'], differs: 'no ADDITIONAL_NODE_LABELS env (--node-labels)' },
  // pkg/cloud/azure{,stack}/assets/*@release-4.19
  { since: '4.19', platforms: ['Azure'], differs: 'credentials as env from the Secret, not --creds-path and a cloud-sa-volume' },
  { since: '4.19', platforms: ['Azure'], differs: 'no Role/RoleBinding kube-system/azure-cloud-provider' },
  { since: '4.19', platforms: ['Azure'], differs: 'no service-annotation admission policy (Azure public cloud)' },
  // pkg/cloud/common/resources.go getService@release-4.18
  { since: '4.19', differs: 'a webhooks port 10260 on the CCM Service' },
  // pkg/cloud/gcp/assets/validating-admission-policy*.yaml@release-4.19
  { since: '4.19', platforms: ['GCP'], differs: 'no network-tier admission policy' },
  // pkg/cloud/aws/assets/deployment.yaml@release-4.19 (OPERAND_PARTS_SINCE.awsCloudConfig)
  { since: '4.19', platforms: ['AWS'], differs: 'no --cloud-config and no cloud.conf' },
  // pkg/cloud/azure/assets/validating-admission-policy*.yaml@release-4.18
  { since: '4.18', platforms: ['Azure'], differs: 'no admission policy (Azure public cloud)' },
];

/** What the operator of `minor` renders otherwise on `platform` than release {@link OPERANDS_RENDERED_SINCE}, each once. */
export function operandDifferences(minor: string, platform: PlatformType): string[] {
  const found = OPERAND_DIFFERENCES_BEFORE.filter(
    (d) => compareMinor(minor, d.since) < 0 && (d.platforms === undefined || d.platforms.includes(platform)),
  ).map((d) => d.differs);
  // the branches before release-4.16 (out of support) were not compared part by part
  const older = compareMinor(minor, '4.16') < 0 ? ['further differences of releases before 4.16'] : [];
  return [...new Set([...found, ...older])];
}

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
        `the operator of ${minor} renders other ${s.platform} operands: ${operandDifferences(minor, s.platform).join('; ')}. ` +
        `Leave the cloud controller manager to the cluster's operator until the cluster runs ${OPERANDS_RENDERED_SINCE} or later (an OpenShift update moves an in-tree platform to its CCM itself), then hand it over`,
    },
  ];
}
