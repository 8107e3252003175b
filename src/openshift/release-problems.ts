import { PlatformFacts, PlatformSpecProblem } from './platform';
import {
  hasOperatorBranch,
  knownReleaseMinors,
  newestOperatorRelease,
  OKD_FEATURE_SET_SINCE,
  parseRelease,
  releaseAtLeast,
  releaseTable,
} from './release';

import { ClusterSpec } from '../cluster-spec/schema';
import { operandReleaseProblems } from './release-operands';
import { operatorModeProblem } from './release-payload';

/** Why `spec.openshift.release` is required, and where to read it. */
export const RELEASE_REQUIRED_MESSAGE =
  'is required for an OpenShift cluster: it decides which rendered objects the release payload ships as they are ' +
  '(and so the ClusterVersion overrides), the default feature gates and the version the operator reports; ' +
  "set the cluster's release, read with: oc get clusterversion version -o jsonpath='{.status.desired.version}'";

/**
 * Checks of `spec.openshift` every platform shares: the release is named and
 * known to the gate table, operator mode renders the release's payload, and Alibaba
 * Cloud needs 4.16.z (the only release whose operator shipped it).
 */
export function releaseProblems(spec: ClusterSpec, platform: PlatformFacts): PlatformSpecProblem[] {
  const s = spec.spec;
  const release = s.openshift?.release;
  const at = ['spec', 'openshift', 'release'];
  const problems: PlatformSpecProblem[] = [];
  if (release === undefined) {
    // Without it the decisions below would guess: an object "as the release ships it" differs between releases.
    problems.push({ path: at, message: RELEASE_REQUIRED_MESSAGE });
    return problems;
  }
  if (!releaseTable(release)) {
    const known = knownReleaseMinors();
    problems.push({
      path: at,
      message: `"${release}" is a release this version has no feature-gate table for (known: ${known[0]} to ${known[known.length - 1]}); name a known release or upgrade ccm-gitops`,
    });
  }
  if (releaseTable(release) && !hasOperatorBranch(release)) {
    // The gate table may run ahead of the operator: without its branch the operands are a guess.
    const minor = parseRelease(release).minor;
    problems.push({
      path: at,
      message:
        `"${release}": openshift/cluster-cloud-controller-manager-operator has no release-${minor} branch, so what its operator renders there is not known ` +
        `(the newest release known is ${newestOperatorRelease()}); name the release the cluster runs, or upgrade ccm-gitops`,
    });
    return problems;
  }
  const operatorProblem = s.managementMode === 'operator' && releaseTable(release) ? operatorModeProblem(release, platform) : undefined;
  if (operatorProblem !== undefined) {
    problems.push({ path: at, message: operatorProblem });
  }
  const only = platform.onlyRelease;
  if (only !== undefined && parseRelease(release).minor !== only.minor) {
    problems.push({
      path: at,
      message: `"${release}": the operator shipped ${only.name} operands in release ${only.minor} only (removed in ${only.removedIn}); name the cluster's ${only.minor}.z release`,
    });
  }
  if (releaseTable(release)) {
    problems.push(...operandReleaseProblems(spec, platform));
  }
  const k8s = s.migration?.kubernetesVersion;
  const shipped = releaseTable(release)?.kubernetesMinor;
  if (k8s !== undefined && shipped !== undefined && k8s !== shipped) {
    // One OpenShift minor ships one Kubernetes minor (the k8s.io/api of openshift/api's go.mod on its branch).
    problems.push({
      path: ['spec', 'migration', 'kubernetesVersion'],
      message: `"${k8s}": spec.openshift.release ${release} ships Kubernetes ${shipped}; set spec.migration.kubernetesVersion to "${shipped}", or spec.openshift.release to the release the cluster runs`,
    });
  }
  if (s.openshift?.featureSet === 'OKD') {
    problems.push(...okdProblems(spec, release));
  }
  return problems;
}

/**
 * OKD: rendered as Default for the rendering gates (`OKD_FEATURE_SET_SINCE`). Refused before 4.22, whose
 * FeatureGate has no OKD set, and with a migration: its CustomNoUpgrade FeatureGate carries the release's
 * Default lists, which would switch OKD's own gates off, and `OKD cannot transition to Default` back.
 */
function okdProblems(spec: ClusterSpec, release: string): PlatformSpecProblem[] {
  const at = ['spec', 'openshift', 'featureSet'];
  if (!releaseAtLeast(release, OKD_FEATURE_SET_SINCE)) {
    return [
      {
        path: at,
        message: `"OKD": release ${release} has no OKD feature set (it exists from ${OKD_FEATURE_SET_SINCE}); set the FeatureGate's feature set of the cluster (oc get featuregate cluster -o jsonpath='{.spec.featureSet}')`,
      },
    ];
  }
  if (spec.spec.migration) {
    return [
      {
        path: at,
        message:
          "\"OKD\": the migration's FeatureGate carries the release's Default gate lists, not OKD's, and would switch OKD's own gates off; migrate an OKD cluster without ccm-gitops (remove spec.migration)",
      },
    ];
  }
  return [];
}

/** A platform definition whose `validate` also runs `releaseProblems`. */
export function withReleaseChecks<P extends PlatformFacts>(platform: P): P {
  return { ...platform, validate: (spec) => [...releaseProblems(spec, platform), ...platform.validate(spec)] };
}
