/**
 * Which releases' operands ccm-gitops renders in gitops mode, per release
 * branch of openshift/cluster-cloud-controller-manager-operator
 * (`pkg/cloud/<platform>/assets/*`, `pkg/cloud/<platform>/*.go`,
 * `pkg/cloud/common/resources.go`). Pure: no cdk8s import.
 */
import { ClusterSpec, PlatformType } from '../cluster-spec/schema';
import { ccmTlsFlags, ResolvedTls } from '../cluster-spec/tls';
import { ccmDeployedIn } from '../migration/phases';
import { migrationSupportFor } from '../migration/support';
import { compareMinor, openshiftRelease, parseRelease, releaseAtLeast } from './release';
import { PlatformFacts, PlatformSpecProblem } from './platform';

/**
 * The oldest release whose operands gitops mode renders outside a migration on a platform that
 * {@link GITOPS_RENDERED_SINCE} does not list, and the release a migration's CCM phases render as
 * on the platforms outside {@link OPERANDS_PER_RELEASE}.
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
 * The first release whose operator renders each part of the operands, read from the release branches of
 * openshift/cluster-cloud-controller-manager-operator (commits in {@link OPERATOR_BRANCH_COMMITS}; `…@<sha> (release-4.x)`
 * below abbreviates that repository). Gitops mode and a migration's CCM phases render the cluster's release's parts.
 */
export const OPERAND_PARTS_SINCE = {
  /** `--tls-cipher-suites` / `--tls-min-version` from the cluster's TLS profile (…@b99c3d88 (release-4.22) pkg/cloud/{aws,gcp}/assets). */
  tlsFlags: '4.22',
  /**
   * The CCM Service on 10258 (…@d721cd62 (release-4.16) pkg/cloud/common/resources.go getService; absent at release-4.15).
   * A z-stream backport: merged on release-4.16 at e806159b (2025-09-04), 4.17 at 9422c760 (2025-08-12), 4.18 at 1f8672a6
   * (2025-08-07), 4.19 at 5a484a0f (2025-08-04), before 4.20 branched; the first z-stream of each is not known (the mirror has
   * no tags), so it is rendered on every z-stream: on an older one it is a Service the payload lacks, selecting the CCM pods.
   */
  service: '4.16',
  /** The CCM Service without the `webhooks` port 10260 (…@5b39a4df (release-4.19) resources.go getService; release-4.16 to 4.18 list it). */
  serviceWithoutWebhooksPort: '4.19',
  /**
   * `--secure-port=0` (…@54dce160 (release-4.14) pkg/cloud/aws/assets/deployment.yaml and gcp/assets/cloud-controller-manager.yaml).
   * A z-stream backport ("ccm: disable unused secure-serving port and webhook"): merged on release-4.16 at d721cd62 (2025-10-29),
   * 4.17 to 4.20 at their heads (2025-10-30), and on release-4.21 at 9f2dcd38 (2025-10-14) before 4.21 shipped; the first
   * z-stream of 4.14 to 4.20 is not known, so it is rendered on every z-stream: the flag only turns off a port nothing uses.
   */
  securePortOff: '4.14',
  /** `terminationMessagePolicy: FallbackToLogsOnError` on the CCM container (…@d721cd62 (release-4.16) aws and gcp assets). */
  terminationMessagePolicy: '4.16',
  /** AWS: `--cloud-config` with the `cloud-conf` ConfigMap mounted (…@5b39a4df (release-4.19) pkg/cloud/aws/assets/deployment.yaml). */
  awsCloudConfig: '4.19',
  /** AWS: the load-balancer-type admission policy (…@b99c3d88 (release-4.22) pkg/cloud/aws/assets/validating-admission-policy*.yaml). */
  awsAdmissionPolicy: '4.22',
  /**
   * AWS: `NodeIPFamilies` written once per family (…@b99c3d88 (release-4.22) pkg/cloud/aws/aws_config_transformer.go marshalAWSConfig);
   * release-4.21 and earlier write go-ini's comma-joined slice.
   */
  awsNodeIpFamiliesPerKey: '4.22',
  /**
   * AWS: the operator's own cloud-config transformer (…@5b39a4df (release-4.19) pkg/cloud/aws/aws_config_transformer.go); release-4.18
   * and earlier copy openshift-config-managed/kube-cloud-config as the cluster-config-operator wrote it (…@8abb0673 (release-4.18) pkg/cloud/cloud.go).
   */
  awsConfigTransformer: '4.19',
  /** AWS: `[Global] SupportedTopologyInstanceTypePattern` in the transformer's vendored CloudConfig (…@276696cc (release-4.20) vendor/k8s.io/cloud-provider-aws v1.33.1). */
  awsTopologyInstanceTypePattern: '4.20',
  /** AWS: `[Global] NLBSecurityGroupMode` in the transformer's vendored CloudConfig (…@6148c0cc (release-4.21) vendor/k8s.io/cloud-provider-aws). */
  awsNlbSecurityGroupModeField: '4.21',
  /**
   * vSphere: `cloud.conf` written with sigs.k8s.io/yaml, every key sorted (…@bc52198c (release-4.23) vendor/github.com/openshift/library-go/pkg/cloudprovider/vsphere);
   * release-4.22 and earlier write gopkg.in/yaml.v2 in the Go structs' field order (…@b99c3d88 pkg/cloud/vsphere/vsphere_cloud_config).
   */
  vsphereSortedYaml: '4.23',
  /** vSphere: the `ADDITIONAL_NODE_LABELS` env (…@6148c0cc (release-4.21) pkg/cloud/vsphere/assets/cloud-controller-manager-deployment.yaml). */
  vsphereNodeLabelsEnv: '4.21',
  /** GCP: the pod's management-workload annotation (…@54dce160 (release-4.14) pkg/cloud/gcp/assets/cloud-controller-manager.yaml). */
  gcpWorkloadAnnotation: '4.14',
  /** GCP: `--concurrent-service-syncs=10` (…@445ccbfe (release-4.15) pkg/cloud/gcp/assets/cloud-controller-manager.yaml). */
  gcpConcurrentServiceSyncs: '4.15',
  /** GCP: the `gcp-cloud-controller-manager` ClusterRole and binding (…@d721cd62 (release-4.16) pkg/cloud/gcp/assets/). */
  gcpClusterRole: '4.16',
  /** GCP: the network-tier admission policy (…@5b39a4df (release-4.19) pkg/cloud/gcp/assets/validating-admission-policy*.yaml). */
  gcpAdmissionPolicy: '4.19',
  /**
   * Azure and Azure Stack Hub: the credentials injector reads `--creds-path=/etc/azure/credentials` from a `cloud-sa-volume`
   * (…@5b39a4df (release-4.19) pkg/cloud/azure{,stack}/assets/*.yaml); release-4.16 to 4.18 pass the Secret's keys as env instead.
   */
  azureCredentialsPath: '4.19',
  /** Azure and Azure Stack Hub: Role and RoleBinding `kube-system/azure-cloud-provider` (…@5b39a4df (release-4.19) pkg/cloud/azure{,stack}/azure{,stack}.go templates). */
  azureCloudProviderRole: '4.19',
  /** Azure: the node-admission policy (…@8abb0673 (release-4.18) pkg/cloud/azure/assets/validating-admission-policy*.yaml; not at release-4.17). */
  azureNodeAdmissionPolicy: '4.18',
  /** Azure: the TCP idle timeout service-annotation policy (…@5b39a4df (release-4.19) pkg/cloud/azure/assets/validating-admission-service-annotation-policy*.yaml). */
  azureServiceAnnotationPolicy: '4.19',
} as const;

/**
 * The cipher suites the operator of release-4.21 and earlier hard-codes in `--tls-cipher-suites` where it sets any,
 * in its order (…@6148c0cc (release-4.21) pkg/cloud/{ibm,powervs}/assets/deployment.yaml and
 * pkg/cloud/nutanix/assets/cloud-controller-manager-deployment.yaml; the same lists on release-4.16 to 4.20).
 * Release-4.22 replaced them with the TLS profile's ({@link OPERAND_PARTS_SINCE}.tlsFlags).
 */
export const HARD_CODED_CIPHERS_BEFORE_TLS_FLAGS = {
  ibm: [
    'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
    'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
    'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
    'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
    'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
    'TLS_AES_128_GCM_SHA256',
    'TLS_CHACHA20_POLY1305_SHA256',
    'TLS_AES_256_GCM_SHA384',
  ],
  nutanix: [
    'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
    'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
    'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
    'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
    'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  ],
} as const;

/**
 * A CCM's `--tls-*` flags as the operator of `release` writes them: the TLS profile's from release-4.22 (main's
 * without a release); before it the hard-coded `cipherList` of the platform, or none.
 */
export function releaseTlsFlags(
  release: string | undefined,
  tls: ResolvedTls | undefined,
  cipherList?: keyof typeof HARD_CODED_CIPHERS_BEFORE_TLS_FLAGS,
): string[] {
  if (operandRenders(release, 'tlsFlags')) {
    return ccmTlsFlags(tls);
  }
  return cipherList ? [`--tls-cipher-suites=${HARD_CODED_CIPHERS_BEFORE_TLS_FLAGS[cipherList].join(',')}`] : [];
}

/** The platforms whose operator hard-codes a cipher list before {@link OPERAND_PARTS_SINCE}.tlsFlags, and which. */
const HARD_CODED_CIPHER_LIST: Readonly<Partial<Record<PlatformType, keyof typeof HARD_CODED_CIPHERS_BEFORE_TLS_FLAGS>>> = {
  IBMCloud: 'ibm',
  PowerVS: 'ibm',
  Nutanix: 'nutanix',
};

/**
 * `spec.tls` on a release whose operator passes no TLS profile to the CCM: the setting changes nothing, so say so,
 * with what that release serves with instead. Only a profile other than the default is worth a warning.
 */
export function tlsSettingWarnings(spec: ClusterSpec): string[] {
  const s = spec.spec;
  const release = s.openshift?.release;
  if (release === undefined || s.tls.profile === 'Intermediate' || operandRenders(release, 'tlsFlags')) {
    return [];
  }
  const list = HARD_CODED_CIPHER_LIST[s.platform];
  const instead = list
    ? `the hard-coded list of ${HARD_CODED_CIPHERS_BEFORE_TLS_FLAGS[list].length} cipher suites in --tls-cipher-suites`
    : "the CCM's own defaults (no --tls-* flag)";
  return [
    `spec.tls.profile "${s.tls.profile}" has no effect on OpenShift ${release}: the operator of ${parseRelease(release).minor} passes no TLS profile to the CCM, ` +
      `which serves with ${instead}; the profile takes effect from ${OPERAND_PARTS_SINCE.tlsFlags} (--tls-cipher-suites / --tls-min-version)`,
  ];
}

/** A part of the operands whose first release is in {@link OPERAND_PARTS_SINCE}. */
export type OperandPart = keyof typeof OPERAND_PARTS_SINCE;

/** Whether the operator of `release` renders `part` (main's shape without a release). */
export function operandRenders(release: string | undefined, part: OperandPart): boolean {
  return release === undefined || releaseAtLeast(release, OPERAND_PARTS_SINCE[part]);
}

/**
 * The oldest release whose operands gitops mode renders outside a migration, per platform: every part of
 * {@link OPERAND_PARTS_SINCE} that differs on the platform from there on is rendered per release. A platform
 * not listed renders from {@link OPERANDS_RENDERED_SINCE}.
 */
export const GITOPS_RENDERED_SINCE: Readonly<Partial<Record<PlatformType, string>>> = {
  AWS: '4.16',
  Azure: '4.16',
  GCP: '4.16',
  IBMCloud: '4.16',
  PowerVS: '4.16',
  Nutanix: '4.16',
  OpenStack: '4.16',
  VSphere: '4.16',
};

/** The oldest release whose `platform` operands gitops mode renders outside a migration. */
export function gitopsRenderedSince(platform: PlatformType): string {
  return GITOPS_RENDERED_SINCE[platform] ?? OPERANDS_RENDERED_SINCE;
}

/**
 * The platforms whose operands before 4.22 differ from release-4.22's only by the parts of
 * {@link OPERAND_PARTS_SINCE}, so a migration's CCM phases render them per release. The others
 * differ in structure on the releases a migration runs on (Azure before 4.14: branches not compared
 * part by part; OpenStack: another openstack.go; vSphere: no cloud-config transformer before
 * release-4.13, other RBAC before 4.14).
 */
export const OPERANDS_PER_RELEASE: readonly PlatformType[] = ['AWS', 'GCP'];

/**
 * What the operator of a release before {@link gitopsRenderedSince} renders otherwise on `platform`: every
 * platform but Alibaba Cloud is rendered per release from 4.16 ({@link OPERAND_PARTS_SINCE}), and the
 * branches before release-4.16 (out of support) were not compared part by part.
 */
export function operandDifferences(platform: PlatformType): string[] {
  return [`those of releases before ${gitopsRenderedSince(platform)}, whose branches were not compared part by part`];
}

/**
 * Gitops mode renders the operator's operands in place of the operator: refuse a release whose operator
 * renders them differently (Alibaba Cloud renders its one release, 4.16). Only when the CCM is deployed:
 * the phases before it render no platform operand but RBAC the payload ships. A migration always runs
 * on a release before 4.22: its CCM phases render the release's operands where they differ in data
 * only ({@link OPERANDS_PER_RELEASE}), and are refused on the other platforms.
 */
export function operandReleaseProblems(spec: ClusterSpec, platform: Pick<PlatformFacts, 'onlyRelease'>): PlatformSpecProblem[] {
  const s = spec.spec;
  const release = s.openshift?.release;
  if (s.managementMode !== 'gitops' || release === undefined || platform.onlyRelease !== undefined) {
    return [];
  }
  const minor = parseRelease(release).minor;
  const since = gitopsRenderedSince(s.platform);
  if (compareMinor(minor, since) >= 0 && s.migration === undefined) {
    return [];
  }
  if (compareMinor(minor, OPERANDS_RENDERED_SINCE) >= 0) {
    return [];
  }
  const at = ['spec', 'openshift', 'release'];
  if (s.migration !== undefined) {
    if (!ccmDeployedIn(s.migration.phase) || OPERANDS_PER_RELEASE.includes(s.platform)) {
      return [];
    }
    const support = migrationSupportFor(spec);
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
        `"${release}": gitops mode renders the ${s.platform} cloud controller manager as the operator of release ${since} and later renders it; ` +
        `the operator of ${minor} renders other ${s.platform} operands: ${operandDifferences(s.platform).join('; ')}. ` +
        `Leave the cloud controller manager to the cluster's operator until the cluster runs ${since} or later (an OpenShift update moves an in-tree platform to its CCM itself), then hand it over`,
    },
  ];
}
