/**
 * Which releases' operands ccm-gitops renders in gitops mode, per release
 * branch of openshift/cluster-cloud-controller-manager-operator
 * (`pkg/cloud/<platform>/assets/*`, `pkg/cloud/<platform>/*.go`,
 * `pkg/cloud/common/resources.go`). Pure: no cdk8s import.
 */
import { ClusterSpec } from '../cluster-spec/schema';
import { compareMinor, parseRelease } from './release';
import { PlatformSpecProblem } from './platform';

/**
 * The oldest release whose operands are the ones rendered (up to the data-like differences below).
 * release-4.21 and earlier differ on every platform in more than data: no `--tls-cipher-suites` /
 * `--tls-min-version` from the cluster's TLS profile (IBM Cloud, Power VS and Nutanix hard-code a cipher
 * list), no AWS ValidatingAdmissionPolicy, another AWS cloud.conf serialisation (`NodeIPFamilies`),
 * and further back other Azure, GCP and vSphere assets and no AWS cloud.conf at all (release-4.18)
 * (…@release-4.21 vs …@release-4.22 pkg/cloud/*).
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
 * Gitops mode renders the operator's operands in place of the operator: refuse a release whose operator
 * renders them differently (Alibaba Cloud renders its one release, 4.16). Only when the CCM is deployed:
 * the phases before it render no platform operand but RBAC the payload ships. Not for a cluster under
 * `spec.migration`: it runs an in-tree release, always before 4.22, and refusing would refuse the whole
 * migration; its CCM phases render these operands (docs/migration.md says so).
 */
export function operandReleaseProblems(spec: ClusterSpec): PlatformSpecProblem[] {
  const s = spec.spec;
  const release = s.openshift?.release;
  if (s.managementMode !== 'gitops' || release === undefined || s.platform === 'AlibabaCloud' || s.migration !== undefined) {
    return [];
  }
  const minor = parseRelease(release).minor;
  if (compareMinor(minor, OPERANDS_RENDERED_SINCE) >= 0) {
    return [];
  }
  return [{
    path: ['spec', 'openshift', 'release'],
    message: `"${release}": gitops mode renders the cloud controller manager as the operator of release ${OPERANDS_RENDERED_SINCE} and later renders it; `
      + `the operator of ${minor} renders other ${s.platform} operands (flags, admission policies, cloud.conf). `
      + `Leave the cloud controller manager to the cluster's operator until the cluster runs ${OPERANDS_RENDERED_SINCE} or later (an OpenShift update moves an in-tree platform to its CCM itself), then hand it over`,
  }];
}
