import { z } from 'zod';

/** `spec.ibmcloud`: IBM Cloud VPC settings of the CCM. */
export const ibmCloudSpecSection = z
  .strictObject({
    publicEndpoint: z
      .boolean()
      .default(false)
      .describe('Reach the VPC API through its public endpoint (env VPCCTL_PUBLIC_ENDPOINT); the operator always renders false.'),
  })
  .describe('IBM Cloud settings.');

export type IbmCloudSpecSection = z.output<typeof ibmCloudSpecSection>;
