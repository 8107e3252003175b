import { PlatformType } from './schema';

/** Platform types whose documentation writes them otherwise. */
const PLATFORM_NAMES: Partial<Record<PlatformType, string>> = {
  IBMCloud: 'IBM Cloud',
  PowerVS: 'Power VS',
  VSphere: 'vSphere',
  AlibabaCloud: 'Alibaba Cloud',
  EquinixMetal: 'Equinix Metal',
};

/** A platform type as its documentation writes it, for messages (`VSphere` → vSphere). */
export function platformName(platform: PlatformType): string {
  return PLATFORM_NAMES[platform] ?? platform;
}
