import { z } from 'zod';

/** AWS service names the AWS cloud provider accepts in `[ServiceOverride]`. */
const SERVICE_NAME = /^[a-z0-9][a-z0-9-]*$/;

/**
 * `spec.aws`: what the operator reads from `Infrastructure.status.platformStatus.aws`.
 */
export const awsSpecSection = z.strictObject({
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, { message: 'is not an AWS region name' }).optional()
    .describe('AWS region (Infrastructure status.platformStatus.aws.region). Required when serviceEndpoints are set.'),
  serviceEndpoints: z.array(z.strictObject({
    name: z.string().regex(SERVICE_NAME, { message: 'is not an AWS service name' }).describe('AWS service name, e.g. ec2'),
    url: z.string().regex(/^https:\/\/[^\s/$.?#][^\s]*$/, { message: 'is not an https:// URL' }).describe('Endpoint URL'),
  })).optional()
    .describe('Custom service endpoints (Infrastructure status.platformStatus.aws.serviceEndpoints); each becomes a [ServiceOverride] section.'),
}).describe('AWS platform status.');

export type AwsSpecSection = z.output<typeof awsSpecSection>;
