/**
 * The distributions this version renders, by `spec.distribution`, with their
 * constructs (`distribution-facts.ts` without): loaded where a cluster is
 * rendered, never where specs are only checked.
 */
import { ClusterSpec, Distribution } from './cluster-spec/schema';
import { DistributionRendering } from './cluster/distribution';
import { KUBERNETES_DISTRIBUTION } from './kubernetes/distribution';
import { OPENSHIFT_DISTRIBUTION } from './openshift/distribution';

export const DISTRIBUTIONS_RENDERING: Readonly<Record<Distribution, DistributionRendering>> = {
  openshift: OPENSHIFT_DISTRIBUTION,
  kubernetes: KUBERNETES_DISTRIBUTION,
};

/** What renders a spec's distribution. */
export function distributionOf(spec: ClusterSpec): DistributionRendering {
  return DISTRIBUTIONS_RENDERING[spec.spec.distribution];
}
