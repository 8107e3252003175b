import { ALIBABA_CLOUD_PLATFORM } from './alibabacloud';
import { AWS_PLATFORM } from './aws';
import { AZURE_PLATFORM } from './azure';
import { GCP_PLATFORM } from './gcp';
import { IBM_CLOUD_PLATFORM } from './ibmcloud';
import { NUTANIX_PLATFORM } from './nutanix';
import { OPENSTACK_PLATFORM } from './openstack';
import { PlatformDefinition } from './platform';
import { platformRegistry } from './platform-facts';
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
export const PLATFORMS: Readonly<Partial<Record<PlatformType, PlatformDefinition>>> = platformRegistry([
  AWS_PLATFORM,
  AZURE_PLATFORM,
  GCP_PLATFORM,
  IBM_CLOUD_PLATFORM,
  POWERVS_PLATFORM,
  OPENSTACK_PLATFORM,
  VSPHERE_PLATFORM,
  NUTANIX_PLATFORM,
  ALIBABA_CLOUD_PLATFORM,
]);

/** The platform definition for a type, or undefined when it is not rendered yet. */
export function platformFor(type: PlatformType): PlatformDefinition | undefined {
  return PLATFORMS[type];
}
