import { awsSpecSection } from './aws';
import { azureSpecSection } from './azure';
import { ibmCloudSpecSection } from './ibmcloud';
import { vsphereSpecSection } from './vsphere';

/**
 * The platform sections of `spec`, by key. Each platform that needs inputs
 * beyond the common spec owns one schema here; its definition names the key
 * (`PlatformDefinition.specSection`).
 */
export const PLATFORM_SPEC_SECTIONS = {
  aws: awsSpecSection.optional(),
  azure: azureSpecSection.optional(),
  ibmcloud: ibmCloudSpecSection.optional(),
  vsphere: vsphereSpecSection.optional(),
} as const;

/** A key of a platform section. */
export type PlatformSectionKey = keyof typeof PLATFORM_SPEC_SECTIONS;
