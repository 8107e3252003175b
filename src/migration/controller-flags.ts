/**
 * How a controller manager reads the flags that decide which controllers it
 * runs, for checks of a live or rendered command line. Pure: no cdk8s import.
 */

/** The last value of a flag (`true` for a bare boolean flag), or undefined when absent; quotes around the value dropped. */
export function flagValue(flags: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (const f of flags) {
    if (f === name) {
      value = 'true';
    } else if (f.startsWith(`${name}=`)) {
      value = f.slice(name.length + 1).replace(/^["']|["']$/g, '');
    }
  }
  return value;
}

/**
 * Whether a `--controllers` list runs a controller known by `names`: the first item naming it decides, else "*"
 * (none of the cloud controllers is disabled by default: kubernetes/cloud-provider@v0.28.0 app/controllermanager.go
 * `IsControllerEnabled`, `ControllersDisabledByDefault`; kube-controller-manager reads its list the same way).
 */
export function controllerEnabled(list: readonly string[], names: readonly string[]): boolean {
  let star = false;
  for (const item of list) {
    if (names.includes(item)) {
      return true;
    }
    if (item.startsWith('-') && names.includes(item.slice(1))) {
      return false;
    }
    star = star || item === '*';
  }
  return star;
}

/** Whether a command line runs a controller known by `names`: without `--controllers` the list is "*". */
export function runsController(flags: readonly string[], names: readonly string[]): boolean {
  return controllerEnabled((flagValue(flags, '--controllers') ?? '*').split(','), names);
}

/** The route controller's names, before and from 1.28 (the binaries resolve one to the other). */
export const ROUTE_CONTROLLER = ['route', 'node-route-controller'] as const;
/** The node IPAM controller's names, before and from 1.28. */
export const NODE_IPAM_CONTROLLER = ['nodeipam', 'node-ipam-controller'] as const;

/**
 * Whether a cloud-controller-manager with these flags runs its route controller: `--configure-cloud-routes`
 * (true by default: kubernetes/cloud-provider@v0.30.0 config/v1alpha1/defaults.go) and route in `--controllers`;
 * unlike kube-controller-manager's, it does not also need `--allocate-node-cidrs` (app/core.go `startRouteController`).
 */
export function ccmRunsRoutes(flags: readonly string[]): boolean {
  return flagValue(flags, '--configure-cloud-routes') !== 'false' && runsController(flags, ROUTE_CONTROLLER);
}
