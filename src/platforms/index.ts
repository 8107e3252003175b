import { AWS_PLATFORM } from './aws';
import { PlatformDefinition } from './platform';
import { PlatformType } from '../spec/schema';

export * from './platform';
export * from './aws';

/** The platforms this version renders, by Infrastructure platform type. */
export const PLATFORMS: Readonly<Partial<Record<PlatformType, PlatformDefinition>>> = {
  AWS: AWS_PLATFORM,
};

/** The platform definition for a type, or undefined when it is not rendered yet. */
export function platformFor(type: PlatformType): PlatformDefinition | undefined {
  return PLATFORMS[type];
}

/** Platform types this version renders, sorted. */
export function supportedPlatforms(): PlatformType[] {
  return (Object.keys(PLATFORMS) as PlatformType[]).sort();
}
