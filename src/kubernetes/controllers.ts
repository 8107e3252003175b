/**
 * The `--controllers` names each k8s.io/cloud-provider based CCM accepts at the image tags read:
 * its controllers' names plus the alias map its main passes. Anything else makes the binary exit
 * at start ("is not in the list of known controllers", kubernetes/controller-manager options/generic.go
 * Validate, called by kubernetes/cloud-provider options/options.go Validate). Pure: no cdk8s import.
 */
import { closest } from '../cluster-spec/zod-issues';

/** The names one binary accepts at one tag, and where they were read. */
export interface ControllerNames {
  readonly known: readonly string[];
  /** Alias -> name, as the binary passes them to app.NewCloudControllerManagerCommand. */
  readonly aliases: Readonly<Record<string, string>>;
  readonly source: string;
}

/** app.DefaultInitFuncConstructors' names from k8s.io/cloud-provider v0.28 (names/controller_names.go). */
const GENERIC = ['cloud-node-controller', 'cloud-node-lifecycle-controller', 'service-lb-controller', 'node-route-controller'];

/** names.CCMControllerAliases() (kubernetes/cloud-provider@v0.33.3 names/controller_names.go). */
const CCM_ALIASES: Readonly<Record<string, string>> = {
  'cloud-node': 'cloud-node-controller',
  'cloud-node-lifecycle': 'cloud-node-lifecycle-controller',
  service: 'service-lb-controller',
  route: 'node-route-controller',
};

/** Per `<provider>@<tag>`, the keys of the flag tables (flags/binaries.data.ts). */
export const CONTROLLER_NAMES: Readonly<Record<string, ControllerNames>> = {
  'aws@v1.35.0': {
    known: [...GENERIC, 'tagging'],
    aliases: { ...CCM_ALIASES, tagging: 'tagging' },
    source: 'kubernetes/cloud-provider-aws@v1.35.0 cmd/aws-cloud-controller-manager/main.go (controllerInitializers, controllerAliases)',
  },
  'azure@v1.33.2': {
    known: [...GENERIC, 'node-ipam'],
    aliases: CCM_ALIASES,
    source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/controllermanager.go (newControllerInitializers)',
  },
  'gcp@v35.0.0': {
    known: [...GENERIC, 'node-ipam-controller', 'gkenetworkparamset', 'gke-service-lb-controller'],
    aliases: { ...CCM_ALIASES, nodeipam: 'node-ipam-controller', 'gke-service': 'gke-service-lb-controller' },
    source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 cmd/cloud-controller-manager/main.go (controllerInitializers, aliasMap)',
  },
  'vsphere@v1.36.0': {
    known: GENERIC,
    aliases: CCM_ALIASES,
    source:
      'kubernetes/cloud-provider-vsphere@v1.36.0 cmd/vsphere-cloud-controller-manager/main.go (app.DefaultInitFuncConstructors, names.CCMControllerAliases)',
  },
  'openstack@v1.36.0': {
    known: GENERIC,
    aliases: CCM_ALIASES,
    source:
      'kubernetes/cloud-provider-openstack@v1.36.0 cmd/openstack-cloud-controller-manager/main.go (app.DefaultInitFuncConstructors, names.CCMControllerAliases)',
  },
  // before v0.28 the short names were the controllers' own, and there was no alias map
  'openstack@v1.25.6': {
    known: ['cloud-node', 'cloud-node-lifecycle', 'service', 'route'],
    aliases: {},
    source:
      'kubernetes/cloud-provider-openstack@v1.25.6 cmd/openstack-cloud-controller-manager/main.go; kubernetes/cloud-provider@v0.25.10 app/controllermanager.go (DefaultInitFuncConstructors)',
  },
  'equinix-metal@v3.8.1': {
    known: GENERIC,
    aliases: CCM_ALIASES,
    source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 main.go (app.DefaultInitFuncConstructors, names.CCMControllerAliases)',
  },
  // both pass an empty alias map: only the full names work
  'nutanix@v0.5.2': {
    known: GENERIC,
    aliases: {},
    source: 'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 main.go (app.NewCloudControllerManagerCommand with map[string]string{})',
  },
  'digitalocean@v0.1.68': {
    known: GENERIC,
    aliases: {},
    source:
      'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/cmd/digitalocean-cloud-controller-manager/main.go (app.NewCloudControllerManagerCommand with map[string]string{})',
  },
};

/** The names of a binary at the tag its image pins; a digest-only pin uses the one tag read. Undefined: not checked. */
export function controllerNamesFor(binary: string, tag: string | undefined): (ControllerNames & { readonly tag: string }) | undefined {
  const tags = Object.keys(CONTROLLER_NAMES)
    .filter((k) => k.startsWith(`${binary}@`))
    .map((k) => k.slice(binary.length + 1));
  const t = tag ?? (tags.length === 1 ? tags[0] : undefined);
  const names = t === undefined ? undefined : CONTROLLER_NAMES[`${binary}@${t}`];
  return names && t !== undefined ? { ...names, tag: t } : undefined;
}

/** The items of a `--controllers` list the binary refuses, each with the accepted name closest to it. */
export function refusedControllers(list: readonly string[], names: ControllerNames): { index: number; name: string; closest?: string }[] {
  const accepted = acceptedControllers(names);
  return list.flatMap((item, index) => {
    const name = item.replace(/^-/, '');
    if (item === '*' || names.known.includes(names.aliases[name] ?? name)) {
      return [];
    }
    // the library's alias pairs first: `route` on a binary without aliases is `node-route-controller`
    // then the name with or without "-controller" (`tagging-controller` is AWS's `tagging`)
    const synonyms = [
      CCM_ALIASES[name],
      Object.keys(CCM_ALIASES).find((a) => CCM_ALIASES[a] === name),
      name.endsWith('-controller') ? name.slice(0, -'-controller'.length) : `${name}-controller`,
    ];
    return [{ index, name, closest: synonyms.find((n) => n !== undefined && accepted.includes(n)) ?? closest(name, accepted) }];
  });
}

/** Every name a binary accepts in `--controllers`, sorted, besides "*". */
export function acceptedControllers(names: ControllerNames): string[] {
  return [...new Set([...names.known, ...Object.keys(names.aliases)])].sort();
}

/**
 * The item of a `--controllers` list that turns `controller` on, as the binary reads it: aliases
 * resolved, the first item naming it (with "-" or without) decides, else a "*" (for a controller
 * on by default). Undefined: the list leaves it off (kubernetes/controller-manager@v0.33.3
 * app/helper.go IsControllerEnabled).
 */
export function enablingItem(list: readonly string[], names: ControllerNames, controller: string): { index: number; item: string } | undefined {
  const resolve = (n: string) => names.aliases[n] ?? n;
  for (const [index, item] of list.entries()) {
    if (resolve(item) === controller) {
      return { index, item };
    }
    if (item.startsWith('-') && resolve(item.slice(1)) === controller) {
      return undefined;
    }
  }
  const star = list.indexOf('*');
  return star >= 0 ? { index: star, item: '*' } : undefined;
}
