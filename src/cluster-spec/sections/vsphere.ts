import { isIP } from 'net';
import { z } from 'zod';

const ipAddress = z.string().refine((v) => isIP(v) !== 0, { message: 'is not an IP address' });
const cidr = z.string().refine(
  (v) => {
    const [address, bits, ...rest] = v.split('/');
    const family = isIP(address ?? '');
    return rest.length === 0 && family !== 0 && /^\d{1,3}$/.test(bits ?? '') && Number(bits) <= (family === 4 ? 32 : 128);
  },
  { message: 'is not a CIDR (address/prefix)' },
);
const name = z.string().min(1).regex(/^\S+$/, { message: 'contains white space' });

const nodeNetwork = z.strictObject({
  network: z.string().min(1).optional().describe('VM network name.'),
  networkSubnetCidr: z.array(cidr).optional().describe('Subnets whose addresses are node addresses.'),
  excludeNetworkSubnetCidr: z.array(cidr).optional().describe('Subnets whose addresses are never node addresses.'),
});

/**
 * `spec.vsphere`: what the operator reads from the Infrastructure's
 * `spec.platformSpec.vsphere` and `status.platformStatus.vsphere`.
 */
export const vsphereSpecSection = z
  .strictObject({
    vcenters: z
      .array(
        z.strictObject({
          server: name.describe('vCenter host name or address.'),
          port: z.number().int().min(1).max(65535).optional().describe('vCenter port (443 when unset).'),
          datacenters: z.array(name).min(1).describe('Datacenters of this vCenter the cluster uses.'),
        }),
      )
      .min(1)
      .describe('vCenters (spec.platformSpec.vsphere.vcenters); they replace the vCenters of the cloud config.'),
    failureDomains: z
      .array(
        z.strictObject({
          name: z.string().min(1).describe('Failure domain name.'),
          region: z.string().min(1).describe('Region (openshift-region tag value).'),
          zone: z.string().min(1).describe('Zone (openshift-zone tag value).'),
          server: name.describe('vCenter of this failure domain; must be one of vcenters.'),
          topology: z.strictObject({
            datacenter: name.describe('Datacenter of this failure domain.'),
            computeCluster: z.string().min(1).optional(),
            datastore: z.string().min(1).optional(),
            networks: z.array(z.string().min(1)).optional(),
            resourcePool: z.string().min(1).optional(),
            folder: z.string().min(1).optional(),
          }),
        }),
      )
      .default([])
      .describe('Failure domains (spec.platformSpec.vsphere.failureDomains); more than one turns on zone/region labels.'),
    nodeNetworking: z
      .strictObject({
        internal: nodeNetwork.optional(),
        external: nodeNetwork.optional(),
      })
      .optional()
      .describe('Node networking (spec.platformSpec.vsphere.nodeNetworking).'),
    apiServerInternalIPs: z.array(ipAddress).default([]).describe('API VIPs (status.platformStatus.vsphere.apiServerInternalIPs).'),
    ingressIPs: z.array(ipAddress).default([]).describe('Ingress VIPs (status.platformStatus.vsphere.ingressIPs).'),
  })
  .describe('vSphere platform spec and status.');

export type VSphereSpecSection = z.output<typeof vsphereSpecSection>;

/** A CIDR check shared with the cluster-wide network section. */
export const cidrSchema = cidr;
