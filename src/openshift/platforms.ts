import { ALIBABA_CLOUD_PLATFORM } from './alibabacloud';
import { AWS_PLATFORM } from './aws';
import { AZURE_PLATFORM } from './azure';
import { GCP_PLATFORM } from './gcp';
import { IBM_CLOUD_PLATFORM } from './ibmcloud';
import { NUTANIX_PLATFORM } from './nutanix';
import { OPENSTACK_PLATFORM } from './openstack';
import { PlatformDefinition } from './platform';
import { withReleaseChecks } from './release-problems';
import { POWERVS_PLATFORM } from './powervs';
import { VSPHERE_PLATFORM } from './vsphere';
import { PlatformType } from '../cluster-spec/schema';

export * from './platform';
export * from './platform-facts';
export * from '../cluster-spec/sections/platforms';
export * from './alibabacloud';
export * from './aws';
export * from './azure';
export * from './gcp';
export * from './ibmcloud';
export * from './nutanix';
export * from './openstack';
export * from './powervs';
export * from './vsphere';

/** The platforms this version renders, by Infrastructure platform type, with their constructs (`PLATFORM_FACTS` without). */
export const PLATFORMS: Readonly<Partial<Record<PlatformType, PlatformDefinition>>> = Object.fromEntries(Object.entries({
  AWS: AWS_PLATFORM,
  Azure: AZURE_PLATFORM,
  GCP: GCP_PLATFORM,
  IBMCloud: IBM_CLOUD_PLATFORM,
  PowerVS: POWERVS_PLATFORM,
  OpenStack: OPENSTACK_PLATFORM,
  VSphere: VSPHERE_PLATFORM,
  Nutanix: NUTANIX_PLATFORM,
  AlibabaCloud: ALIBABA_CLOUD_PLATFORM,
}).map(([type, definition]) => [type, withReleaseChecks(definition)]));

/** The platform definition for a type, or undefined when it is not rendered yet. */
export function platformFor(type: PlatformType): PlatformDefinition | undefined {
  return PLATFORMS[type];
}
