/**
 * The Kubernetes version-skew rule for the controller managers, as a pure
 * function. kubernetes/website content/en/releases/version-skew-policy.md
 * ("Version Skew Policy", section kube-controller-manager, kube-scheduler,
 * and cloud-controller-manager): they "must not be newer than the
 * kube-apiserver instances they communicate with" and "are expected to match
 * the kube-apiserver minor version, but may be up to one minor version older
 * (to allow live upgrades)".
 */

/** `1.NN` → NN; undefined when it is not a minor version. */
function minorNumber(version: string): number | undefined {
  const m = /^1\.(0|[1-9][0-9]*)$/.exec(version);
  return m ? Number(m[1]) : undefined;
}

/**
 * The problem of running `component` at `componentMinor` against a
 * kube-apiserver at `apiServerMinor` (both `1.NN`), with the allowed range as
 * the fix; undefined when the pair fits the policy (or a version is not a minor).
 */
export function minorSkewProblem(
  component: string,
  componentMinor: string,
  apiServerMinor: string,
  fix = 'pin an image built for one of those',
): string | undefined {
  const c = minorNumber(componentMinor);
  const a = minorNumber(apiServerMinor);
  if (c === undefined || a === undefined || c === a || c === a - 1) {
    return undefined;
  }
  const allowed = a === 0 ? '1.0' : `1.${a - 1} to 1.${a}`;
  const what = c > a ? `is newer than the kube-apiserver ${apiServerMinor}` : `is ${a - c} minors older than the kube-apiserver ${apiServerMinor}`;
  return `${component} ${componentMinor} ${what}; the version skew policy allows ${allowed}: ${fix}`;
}

/** The tag of an image reference (`repo[:tag][@digest]`), or undefined when it has none. */
export function imageTag(image: string): string | undefined {
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  return colon < 0 ? undefined : withoutDigest.slice(colon + 1);
}
