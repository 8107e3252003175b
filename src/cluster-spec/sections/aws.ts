import { z } from 'zod';

/** AWS service names the AWS cloud provider accepts in `[ServiceOverride]`. */
const SERVICE_NAME = /^[a-z0-9][a-z0-9-]*$/;

/**
 * `spec.aws`: what the operator reads from `Infrastructure.status.platformStatus.aws`.
 */
export const awsSpecSection = z
  .strictObject({
    // openshift/api@2a3d73913b5a config/v1/types_infrastructure.go AWSPlatformStatus.Region has no pattern; partitions differ
    // (eusc-de-east-1, us-isob-east-1), so only what cannot be a region is refused.
    region: z
      .string()
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { message: 'is not an AWS region name (lower-case letters, digits and dashes)' })
      .optional()
      .describe('AWS region (Infrastructure status.platformStatus.aws.region). Required when serviceEndpoints are set.'),
    serviceEndpoints: z
      .array(
        z.strictObject({
          name: z.string().regex(SERVICE_NAME, { message: 'is not an AWS service name' }).describe('AWS service name, e.g. ec2'),
          url: z
            .string()
            .regex(/^https:\/\/[^\s/$.?#][^\s]*$/, { message: 'is not an https:// URL' })
            .describe('Endpoint URL'),
        }),
      )
      .optional()
      .describe('Custom service endpoints (Infrastructure status.platformStatus.aws.serviceEndpoints); each becomes a [ServiceOverride] section.'),
  })
  .describe('AWS platform status.');

export type AwsSpecSection = z.output<typeof awsSpecSection>;
