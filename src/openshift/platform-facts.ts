import { ALIBABA_CLOUD_PLATFORM_FACTS } from './alibabacloud/facts';
import { AWS_PLATFORM_FACTS } from './aws/facts';
import { AZURE_PLATFORM_FACTS } from './azure/facts';
import { GCP_PLATFORM_FACTS } from './gcp/facts';
import { IBM_CLOUD_PLATFORM_FACTS } from './ibmcloud/facts';
import { NUTANIX_PLATFORM_FACTS } from './nutanix/facts';
import { OPENSTACK_PLATFORM_FACTS } from './openstack/facts';
import { PlatformFacts } from './platform';
import { POWERVS_PLATFORM_FACTS } from './powervs/facts';
import { withReleaseChecks } from './release-problems';
import { VSPHERE_PLATFORM_FACTS } from './vsphere/facts';
import { PlatformType } from '../cluster-spec/schema';

/**
 * A registry of platforms by their Infrastructure type, in the order given,
 * each validating the release too ({@link withReleaseChecks}).
 */
export function platformRegistry<P extends PlatformFacts>(platforms: readonly P[]): Readonly<Partial<Record<PlatformType, P>>> {
  return Object.fromEntries(platforms.map((p) => [p.type, withReleaseChecks(p)]));
}

/**
 * The platforms this version renders, by Infrastructure platform type: their
 * facts without their constructs ({@link PlatformFacts}), for what checks
 * specs without rendering them. The renderer's registry is
 * `src/openshift/platforms.ts` (the same platforms with their constructs).
 */
export const PLATFORM_FACTS: Readonly<Partial<Record<PlatformType, PlatformFacts>>> = platformRegistry([
  AWS_PLATFORM_FACTS,
  AZURE_PLATFORM_FACTS,
  GCP_PLATFORM_FACTS,
  IBM_CLOUD_PLATFORM_FACTS,
  POWERVS_PLATFORM_FACTS,
  OPENSTACK_PLATFORM_FACTS,
  VSPHERE_PLATFORM_FACTS,
  NUTANIX_PLATFORM_FACTS,
  ALIBABA_CLOUD_PLATFORM_FACTS,
]);

/** A platform's facts, or undefined when it is not rendered yet. */
export function platformFactsFor(type: PlatformType): PlatformFacts | undefined {
  return PLATFORM_FACTS[type];
}

/** Platform types this version renders, sorted. */
export function supportedPlatforms(): PlatformType[] {
  return (Object.keys(PLATFORM_FACTS) as PlatformType[]).sort();
}
