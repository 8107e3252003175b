import { PlatformFacts, PlatformSpecProblem } from './platform';
import { ALIBABA_RELEASE_MINOR, knownReleaseMinors, parseRelease, releaseAtLeast, releaseTable } from './release';

/**
 * The first release whose operator Deployment is the one `OperatorDeployment` renders: release-4.22
 * manifests/0000_26_cloud-controller-manager-operator_50_deployment.yaml (no kube-rbac-proxy,
 * --webhook-port=9443, --metrics-bind-address=:9258); release-4.21 and earlier differ.
 */
export const OPERATOR_DEPLOYMENT_SINCE = '4.22';
import { ClusterSpec } from '../cluster-spec/schema';

/**
 * Checks of `spec.openshift` every platform shares: the release is known to
 * the gate table, named in operator mode (the operator reports it), and
 * 4.16.z on Alibaba Cloud (the only release whose operator shipped it).
 */
export function releaseProblems(spec: ClusterSpec, platform: PlatformFacts): PlatformSpecProblem[] {
  const s = spec.spec;
  const release = s.openshift?.release;
  const at = ['spec', 'openshift', 'release'];
  const problems: PlatformSpecProblem[] = [];
  if (release === undefined) {
    if (s.managementMode === 'operator') {
      problems.push({
        path: at,
        message: 'is required in operator mode: the operator reports it as RELEASE_VERSION on ClusterOperator cloud-controller-manager and the cluster-version operator waits for that version; '
          + 'set the ClusterVersion status.desired.version, e.g. "4.22.3"',
      });
    }
    if (platform.type === 'AlibabaCloud') {
      problems.push({ path: at, message: `is required on AlibabaCloud: its operands are rendered as release ${ALIBABA_RELEASE_MINOR} shipped them; set the cluster's ${ALIBABA_RELEASE_MINOR}.z release` });
    }
    return problems;
  }
  if (!releaseTable(release)) {
    const known = knownReleaseMinors();
    problems.push({
      path: at,
      message: `"${release}" is a release this version has no feature-gate table for (known: ${known[0]} to ${known[known.length - 1]}); name a known release or upgrade ccm-gitops`,
    });
  }
  if (s.managementMode === 'operator' && releaseTable(release) && !releaseAtLeast(release, OPERATOR_DEPLOYMENT_SINCE)) {
    problems.push({
      path: at,
      message: `"${release}": operator mode renders the operator Deployment of release ${OPERATOR_DEPLOYMENT_SINCE} and later `
        + `(${parseRelease(release).minor} and earlier run it with kube-rbac-proxy and other flags); use gitops mode, or leave the operator to the cluster-version operator`,
    });
  }
  if (platform.type === 'AlibabaCloud' && parseRelease(release).minor !== ALIBABA_RELEASE_MINOR) {
    problems.push({
      path: at,
      message: `"${release}": the operator shipped Alibaba Cloud operands in release ${ALIBABA_RELEASE_MINOR} only (removed in 4.17); name the cluster's ${ALIBABA_RELEASE_MINOR}.z release`,
    });
  }
  return problems;
}

/** A platform definition whose `validate` also runs `releaseProblems`. */
export function withReleaseChecks<P extends PlatformFacts>(platform: P): P {
  return { ...platform, validate: (spec) => [...releaseProblems(spec, platform), ...platform.validate(spec)] };
}
