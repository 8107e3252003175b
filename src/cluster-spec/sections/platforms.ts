import { awsSpecSection } from './aws';
import { azureSpecSection } from './azure';
import { ibmCloudSpecSection } from './ibmcloud';
import { vsphereSpecSection } from './vsphere';
import type { PlatformType } from '../schema';

/**
 * The platform sections of `spec`, by key. Each platform that needs inputs
 * beyond the common spec owns one schema here, and its key in
 * {@link PLATFORM_SECTION}.
 */
export const PLATFORM_SPEC_SECTIONS = {
  aws: awsSpecSection.optional(),
  azure: azureSpecSection.optional(),
  ibmcloud: ibmCloudSpecSection.optional(),
  vsphere: vsphereSpecSection.optional(),
} as const;

/** A key of a platform section. */
export type PlatformSectionKey = keyof typeof PLATFORM_SPEC_SECTIONS;

/** The key of each platform's own section of `spec`, by platform type; a platform absent here has none. */
export const PLATFORM_SECTION: Readonly<Partial<Record<PlatformType, PlatformSectionKey>>> = {
  AWS: 'aws',
  Azure: 'azure',
  IBMCloud: 'ibmcloud',
  VSphere: 'vsphere',
};
