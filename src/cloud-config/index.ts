import { transformAwsCloudConfig } from './aws';
import { transformAzureCloudConfig, transformAzureStackHubCloudConfig } from './azure';
import { TransformResult } from './errors';
import { transformOpenStackCloudConfig } from './openstack';
import { passThroughCloudConfig } from './pass-through';
import { transformVSphereCloudConfig, VSphereTransformOptions } from './vsphere';

/**
 * Which transform a cluster's cloud config goes through. Azure Stack Hub is
 * its own transform (the operator picks it when the Azure cloud name is
 * `AzureStackCloud`).
 */
export const CLOUD_CONFIG_PLATFORMS = [
  'AWS',
  'Azure',
  'AzureStackHub',
  'GCP',
  'IBMCloud',
  'PowerVS',
  'OpenStack',
  'VSphere',
  'Nutanix',
  'AlibabaCloud',
] as const;
export type CloudConfigPlatform = (typeof CLOUD_CONFIG_PLATFORMS)[number];

/** What the transforms read besides the config text: the parts of the Infrastructure, Network and FeatureGate objects they use. */
export interface CloudConfigContext {
  /**
   * Where the platform's CCM reads its credentials, for the fix of a credential a pass-through config holds.
   *
   * @default - a Secret created from the platform's CredentialsRequest
   */
  readonly credentialHome?: string;
  /**
   * Enabled OpenShift feature gates.
   *
   * @default []
   */
  readonly enabledFeatureGates?: readonly string[];
  /**
   * AWS platform status.
   *
   * @default - no region, no service endpoints
   */
  readonly aws?: { readonly region?: string; readonly serviceEndpoints?: readonly { readonly name: string; readonly url: string }[] };
  /**
   * Azure cloud name.
   *
   * @default - AzurePublicCloud (Azure), AzureStackCloud (Azure Stack Hub)
   */
  readonly azureCloudName?: string;
  /**
   * vSphere platform spec and status, and the service network.
   *
   * @default - none: the vSphere config is only read and re-written
   */
  readonly vsphere?: VSphereTransformOptions;
}

/** The platforms whose operator rewrites the cloud config; the others pass it through. */
const TRANSFORMS: Readonly<Partial<Record<CloudConfigPlatform, (source: string, context: CloudConfigContext) => TransformResult>>> = {
  AWS: (source, context) => transformAwsCloudConfig(source, { ...context.aws, enabledFeatureGates: context.enabledFeatureGates }),
  Azure: (source, context) => transformAzureCloudConfig(source, { cloudName: context.azureCloudName }),
  AzureStackHub: (source, context) => transformAzureStackHubCloudConfig(source, { cloudName: context.azureCloudName }),
  OpenStack: (source) => transformOpenStackCloudConfig(source),
  VSphere: (source, context) => transformVSphereCloudConfig(source, context.vsphere),
};

/** Runs the transform of a platform (pure, no cdk8s). Throws a UserError of kind 'cloud-config' as the operator would fail. */
export function transformCloudConfig(platform: CloudConfigPlatform, source: string, context: CloudConfigContext = {}): TransformResult {
  const transform = Object.hasOwn(TRANSFORMS, platform) ? TRANSFORMS[platform] : undefined;
  return transform ? transform(source, context) : passThroughCloudConfig(platform, source, context.credentialHome);
}
