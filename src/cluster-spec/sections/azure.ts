import { z } from 'zod';

/** The Azure clouds the operator accepts in `status.platformStatus.azure.cloudName`. */
export const AZURE_CLOUD_NAME_VALUES = [
  'AzurePublicCloud',
  'AzureUSGovernmentCloud',
  'AzureChinaCloud',
  'AzureGermanCloud',
  'AzureStackCloud',
] as const;

/**
 * `spec.azure`: what the operator reads from `Infrastructure.status.platformStatus.azure`.
 * `AzureStackCloud` selects the Azure Stack Hub operands.
 */
export const azureSpecSection = z
  .strictObject({
    cloudName: z
      .enum(AZURE_CLOUD_NAME_VALUES)
      .default('AzurePublicCloud')
      .describe('Azure cloud (Infrastructure status.platformStatus.azure.cloudName); AzureStackCloud renders the Azure Stack Hub operands.'),
  })
  .describe('Azure platform status.');

/** Whether `spec.azure.cloudName` selects Azure Stack Hub, which always ran the external CCM. */
export function isAzureStackHubCloud(cloudName: string | undefined): boolean {
  return cloudName === 'AzureStackCloud';
}

export type AzureSpecSection = z.output<typeof azureSpecSection>;
