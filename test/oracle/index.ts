/**
 * The oracle: what the CCM binaries really do, as data, and the RBAC authorizer that checks
 * rendered objects against it. One entry point for the tests.
 *
 * Each provider's inventory = the calls of the k8s.io/cloud-provider app and its generic
 * controllers (common.ts, for the binaries built on it, at the library version they vendor)
 * + the provider's own calls (inventory/<provider>.ts). Alibaba is controller-runtime based:
 * its inventory is complete on its own.
 */
import { ALIBABA_INVENTORY } from './inventory/alibaba';
import { AWS_INVENTORY } from './inventory/aws';
import { AZURE_INVENTORY } from './inventory/azure';
import { CLOUD_PROVIDER_CONTROLLERS, cloudProviderAppCalls, clientBuilderCalls, LibraryVersions } from './inventory/common';
import {
  DIGITALOCEAN_CLIENT_NAMES,
  DIGITALOCEAN_CONTROLLER_ALIASES,
  DIGITALOCEAN_CONTROLLERS,
  DIGITALOCEAN_INVENTORY,
  DIGITALOCEAN_WORKING_CONTROLLERS,
} from './inventory/digitalocean';
import {
  EQUINIX_METAL_CLIENT_NAMES,
  EQUINIX_METAL_CONTROLLER_ALIASES,
  EQUINIX_METAL_CONTROLLERS,
  EQUINIX_METAL_INVENTORY,
  EQUINIX_METAL_WORKING_CONTROLLERS,
} from './inventory/equinixmetal';
import { GCP_INVENTORY } from './inventory/gcp';
import {
  NUTANIX_CLIENT_NAMES,
  NUTANIX_CONTROLLER_ALIASES,
  NUTANIX_CONTROLLERS,
  NUTANIX_INVENTORY,
  NUTANIX_WORKING_CONTROLLERS,
} from './inventory/nutanix';
import { OPENSTACK_INVENTORY, OPENSTACK_INVENTORY_V1_25 } from './inventory/openstack';
import { ProviderInventory } from './inventory/types';
import { VSPHERE_INVENTORY } from './inventory/vsphere';
import { controllerFacts, ControllerFacts, DEFAULT_CONTROLLER_FACTS } from './images';

export * from './inventory/types';
export * from './api-server';
export * from './pod-security';
export * from './scheduling';
export * from './rbac-authorizer';
export { ALL_IMAGE_FACTS, CLOUD_NODE_MANAGER_FACTS, CLOUD_NODE_MANAGER_WINDOWS_FACTS, imageFacts } from './images';
export type { ControllerFacts, ImageFacts } from './images';

const lib = (v: string): LibraryVersions => ({ cloudProvider: v, controllerManager: v, apiserver: v, clientGo: v });

/** A k8s.io/cloud-provider based inventory that lists only the provider's own calls: add the app's and the client builder's. */
function withCloudProviderApp(inv: ProviderInventory, v: LibraryVersions, clients: readonly string[]): ProviderInventory {
  return { ...inv, calls: [...cloudProviderAppCalls(v), ...clients.flatMap((c) => clientBuilderCalls(c, v)), ...inv.calls] };
}

/** Every provider's inventory by provider key (src/kubernetes/providers.ts `name`). */
export const INVENTORIES: Readonly<Record<string, ProviderInventory>> = {
  aws: AWS_INVENTORY,
  azure: AZURE_INVENTORY,
  gcp: GCP_INVENTORY,
  vsphere: VSPHERE_INVENTORY,
  openstack: OPENSTACK_INVENTORY,
  alibaba: ALIBABA_INVENTORY,
  // library versions: go.mod of each at its pinned tag; k8s.io/cloud-provider, controller-manager, apiserver and
  // client-go are at the same version in all three (checked: DO v0.36.2, Nutanix v0.33.3, Equinix Metal v0.30.2)
  nutanix: withCloudProviderApp(NUTANIX_INVENTORY, lib('v0.33.3'), NUTANIX_CLIENT_NAMES),
  digitalocean: withCloudProviderApp(DIGITALOCEAN_INVENTORY, lib('v0.36.2'), DIGITALOCEAN_CLIENT_NAMES),
  'equinix-metal': withCloudProviderApp(EQUINIX_METAL_INVENTORY, lib('v0.30.2'), EQUINIX_METAL_CLIENT_NAMES),
};

/** Controller facts of the Nutanix, DigitalOcean and Equinix Metal binaries (lists from their inventories, canonical names). */
const TRIMMED: Readonly<Record<string, ControllerFacts>> = {
  nutanix: {
    ...DEFAULT_CONTROLLER_FACTS,
    known: NUTANIX_CONTROLLERS,
    aliases: NUTANIX_CONTROLLER_ALIASES,
    working: NUTANIX_WORKING_CONTROLLERS,
    source:
      'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 main.go (app.DefaultInitFuncConstructors; NewCloudControllerManagerCommand with an empty alias map)',
  },
  digitalocean: {
    ...DEFAULT_CONTROLLER_FACTS,
    known: DIGITALOCEAN_CONTROLLERS,
    aliases: DIGITALOCEAN_CONTROLLER_ALIASES,
    working: DIGITALOCEAN_WORKING_CONTROLLERS,
    source:
      'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/cmd/digitalocean-cloud-controller-manager/main.go (app.DefaultInitFuncConstructors; NewCloudControllerManagerCommand with an empty alias map)',
  },
  'equinix-metal': {
    ...DEFAULT_CONTROLLER_FACTS,
    known: EQUINIX_METAL_CONTROLLERS,
    aliases: EQUINIX_METAL_CONTROLLER_ALIASES,
    working: EQUINIX_METAL_WORKING_CONTROLLERS,
    needsLoadBalancerSetting: {
      controller: 'service-lb-controller',
      source:
        'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/cloud.go (LoadBalancer: c.loadBalancer != nil), metal/loadbalancers.go (newLoadBalancers: nil without a loadbalancer setting)',
    },
    source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 main.go (app.DefaultInitFuncConstructors, names.CCMControllerAliases)',
  },
};

/** Inventories read at other tags than the pinned default (older CCMs for older clusters, by the version-skew policy). */
export const OTHER_VERSIONS: readonly ProviderInventory[] = [OPENSTACK_INVENTORY_V1_25];

/**
 * The inventory of one provider at `tag` (undefined when the oracle was not read at that tag);
 * without a tag, the one at the tag pinned in clusters/kubernetes/defaults.yaml.
 */
export function inventoryFor(provider: string, tag?: string): ProviderInventory | undefined {
  const all = [INVENTORIES[provider], ...OTHER_VERSIONS.filter((i) => i.provider === provider)];
  return all.find((i) => i !== undefined && (tag === undefined || i.imageTag === tag));
}

/** The controller facts of one provider's binary. */
export function controllersOf(provider: string): ControllerFacts {
  return TRIMMED[provider] ?? controllerFacts(provider);
}

/**
 * Whether `--controllers` enables a controller (aliases resolved; `*` enables all but the
 * disabled-by-default ones; kubernetes/controller-manager app/helper.go IsControllerEnabled).
 */
export function controllerRuns(facts: ControllerFacts, flag: readonly string[], name: string): boolean {
  return controllerEnabled(facts, flag, name) && (facts.working ?? facts.known).includes(name);
}

/**
 * The `--controllers` items the binary refuses at start: after trimming "-" and resolving the
 * aliases it passes, a name not among its controllers (kubernetes/controller-manager@v0.33.3
 * options/generic.go Validate: "%q is not in the list of known controllers"; the cloud-provider
 * command exits on a Validate error). An empty alias map (Nutanix, DigitalOcean) leaves the short names unknown.
 */
export function refusedControllers(facts: ControllerFacts, flag: readonly string[]): string[] {
  return flag
    .filter((c) => c !== '*')
    .map((c) => c.replace(/^-/, ''))
    .filter((c) => !facts.known.includes(facts.aliases[c] ?? c));
}

/** Whether `--controllers` enables a controller (see {@link controllerRuns} for "and it gets past its start"). */
export function controllerEnabled(facts: ControllerFacts, flag: readonly string[], name: string): boolean {
  if (!facts.known.includes(name)) {
    return false;
  }
  const resolved = flag.map((c) => (c.startsWith('-') ? `-${facts.aliases[c.slice(1)] ?? c.slice(1)}` : (facts.aliases[c] ?? c)));
  let star = false;
  for (const c of resolved) {
    if (c === name) {
      return true;
    }
    if (c === `-${name}`) {
      return false;
    }
    star ||= c === '*';
  }
  return star && !facts.disabledByDefault.includes(name);
}

export { CLOUD_PROVIDER_CONTROLLERS };
