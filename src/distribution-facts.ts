/**
 * The distributions this version renders, by `spec.distribution`: what checks,
 * prepares and plans their clusters, without their constructs (what loads specs
 * never loads cdk8s). The renderer's registry is `distributions.ts`.
 */
import { Distribution, DISTRIBUTIONS, PlatformType } from './cluster-spec/schema';
import { CloudConfigTransforms, DistributionFacts, ManualControlPlaneChange } from './cluster/distribution';
import { KUBERNETES_DISTRIBUTION_FACTS } from './kubernetes/distribution-facts';
import { OPENSHIFT_DISTRIBUTION_FACTS } from './openshift/distribution-facts';

export const DISTRIBUTION_FACTS: Readonly<Record<Distribution, DistributionFacts>> = {
  openshift: OPENSHIFT_DISTRIBUTION_FACTS,
  kubernetes: KUBERNETES_DISTRIBUTION_FACTS,
};

/** A distribution's facts by its name (`spec.distribution`). */
export function distributionFacts(distribution: Distribution): DistributionFacts {
  return DISTRIBUTION_FACTS[distribution];
}

/** A distribution's facts by a name read elsewhere than a validated spec (a migration's check input, a step context). */
export function distributionFactsNamed(name: string): DistributionFacts {
  const facts = (DISTRIBUTIONS as readonly string[]).includes(name) ? DISTRIBUTION_FACTS[name as Distribution] : undefined;
  if (!facts) {
    throw new Error(`distribution "${name}" is not one of ${DISTRIBUTIONS.join(', ')}`);
  }
  return facts;
}

/** The distributions other than `distribution` that render `platform`, in the order of `DISTRIBUTIONS`. */
export function otherRenderers(distribution: Distribution, platform: PlatformType): Distribution[] {
  return DISTRIBUTIONS.filter((d) => d !== distribution && DISTRIBUTION_FACTS[d].renders(platform));
}

/**
 * Where the platform of a spec, valid or not, keeps its credentials on its
 * distribution, for the fix of a refused credential; undefined when either is unknown.
 */
export function credentialHomeOf(data: unknown): string | undefined {
  const spec = (data as { spec?: { distribution?: unknown; platform?: unknown } } | null)?.spec;
  const distribution = spec?.distribution;
  if (typeof distribution !== 'string' || !(DISTRIBUTIONS as readonly string[]).includes(distribution) || typeof spec?.platform !== 'string') {
    return undefined;
  }
  const facts = DISTRIBUTION_FACTS[distribution as Distribution];
  return facts.renders(spec.platform as PlatformType) ? facts.credentialHome(spec.platform as PlatformType) : undefined;
}

/**
 * The distribution whose operator transforms the cloud config, with its
 * transforms: what `cloud-config transform` runs, whatever a spec's distribution.
 */
export function cloudConfigTransformer(): { readonly facts: DistributionFacts; readonly transforms: CloudConfigTransforms } {
  for (const name of DISTRIBUTIONS) {
    const transforms = DISTRIBUTION_FACTS[name].cloudConfigTransforms;
    if (transforms) return { facts: DISTRIBUTION_FACTS[name], transforms };
  }
  throw new Error(`none of the distributions ${DISTRIBUTIONS.join(', ')} transforms the cloud config`);
}

/** The control-plane change a distribution's administrator applies in a migration (`migration control-plane`). */
export function manualControlPlaneChangeOf(distribution: Distribution): ManualControlPlaneChange {
  const change = DISTRIBUTION_FACTS[distribution].manualControlPlaneChange;
  if (!change) {
    throw new Error(`distribution ${distribution} renders the change of its control plane itself`);
  }
  return change;
}
