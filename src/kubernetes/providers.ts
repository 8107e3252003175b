/**
 * The upstream CCMs of the `kubernetes` distribution, as data (each
 * cites its upstream manifest or chart): what each provider's own manifest or chart runs, its flags,
 * where it reads its config, its requests and its RBAC. Pure: no cdk8s import.
 * The knobs of `spec.kubernetes` are applied on top by `workload-plan.ts`.
 */
import { ALIBABA } from './alibabacloud';
import { AWS } from './aws';
import { AZURE } from './azure';
import { DIGITALOCEAN } from './digitalocean';
import { EQUINIX_METAL } from './equinixmetal';
import { GCP } from './gcp';
import { NUTANIX } from './nutanix';
import { OPENSTACK } from './openstack';
import { VSPHERE } from './vsphere';
import { UpstreamProvider } from './provider';
import { PlatformType } from '../cluster-spec/schema';

export type {
  ProviderConfig,
  EntrypointFact,
  LeaderElectionFact,
  ProviderGrant,
  ProviderClientFact,
  TagMinor,
  UpstreamInstall,
  UpstreamProvider,
} from './provider';

/** The providers of the `kubernetes` distribution, by platform type. */
export const UPSTREAM_PROVIDERS: Readonly<Partial<Record<PlatformType, UpstreamProvider>>> = {
  AWS,
  Azure: AZURE,
  GCP,
  VSphere: VSPHERE,
  OpenStack: OPENSTACK,
  AlibabaCloud: ALIBABA,
  Nutanix: NUTANIX,
  DigitalOcean: DIGITALOCEAN,
  EquinixMetal: EQUINIX_METAL,
};

/** The provider of a platform on the `kubernetes` distribution, or undefined. */
export function upstreamProviderFor(platform: PlatformType): UpstreamProvider | undefined {
  return UPSTREAM_PROVIDERS[platform];
}

/** Platform types the `kubernetes` distribution renders, sorted. */
export function kubernetesPlatforms(): PlatformType[] {
  return (Object.keys(UPSTREAM_PROVIDERS) as PlatformType[]).sort();
}
