/**
 * From ccm-gitops's migration plan to simulator scenarios: the KCM as the
 * plan's steps set it, the CCM as the renderers build it (the same pure
 * functions the CCM constructs call), and the plan's ordered steps.
 */
import {
  ccmDeployedIn,
  ccmFile,
  ccmLeaderMigrationFlags,
  ccmLeaderMigrationMount,
  kcmProcess,
  MigrationInput,
  MigrationPhase,
} from '../../../src/migration';
import { StepContext, transitionSteps } from '../../../src/fleet/migration-targets';
import { INVENTORIES } from '../index';
import { Controller, SimProcess, SimScenario } from './simulator';

/** The API-call inventory of each platform's upstream CCM (test/oracle/inventory, read at the pinned image tags). */
const INVENTORY_OF: Readonly<Record<string, string>> = {
  AWS: 'aws',
  Azure: 'azure',
  GCP: 'gcp',
  OpenStack: 'openstack',
  VSphere: 'vsphere',
};

/**
 * Route controllers whose provider's `Routes()` depends on something the
 * cluster may lack: OpenStack's Neutron extraroute extension
 * (kubernetes/cloud-provider-openstack@v1.36.0 pkg/openstack/openstack.go `Routes`),
 * vSphere's NSX-T routerPath (kubernetes/cloud-provider-vsphere@v1.36.0
 * pkg/cloudprovider/vsphere/route/routeprovider.go `NewRouteProvider`).
 */
const ROUTES_NEED = new Set(['OpenStack', 'VSphere']);

/**
 * What an upstream CCM can run, from its API-call inventory: service and node
 * lifecycle always (kubernetes/cloud-provider app `DefaultInitFuncConstructors`);
 * the route controller and node IPAM where the inventory lists calls made only
 * when they run (`when: routes`, `when: nodeIpam`); routes of a provider in
 * `ROUTES_NEED` only when `routesConfigured` says the cluster has what they need.
 */
export function upstreamCcmControllers(platform: string, opts: { routesConfigured?: boolean } = {}): readonly Controller[] {
  const inventory = INVENTORIES[INVENTORY_OF[platform] ?? ''];
  const makes = (key: string) => (inventory?.calls ?? []).some((c) => (Array.isArray(c.when) ? c.when.includes(key) : c.when === key));
  const routes = makes('routes') && (!ROUTES_NEED.has(platform) || opts.routesConfigured === true);
  return ['service', ...(routes ? ['route' as const] : []), 'cloud-node-lifecycle', ...(makes('nodeIpam') ? ['node-ipam' as const] : [])];
}

/** The CCM's rendered flags that matter to leader election and the cloud controllers, before leader migration is added. */
export type CcmBaseFlags = readonly string[];

/** The OpenShift CCM's flags as its Deployment renders them (checked against a real render in test/migration-simulator.test.ts). */
export const OPENSHIFT_CCM_BASE: CcmBaseFlags = [
  '--configure-cloud-routes=false',
  '--leader-elect=true',
  '--leader-elect-lease-duration=137s',
  '--leader-elect-renew-deadline=107s',
  '--leader-elect-retry-period=26s',
  '--leader-elect-resource-namespace=openshift-cloud-controller-manager',
];

/** The upstream CCM's flags for the kubernetes distribution (spec.kubernetes defaults unless given). */
export function kubernetesCcmBase(opts: {
  configureCloudRoutes: boolean;
  allocateNodeCidrs: boolean;
  namespace?: string;
  /** The pod CIDR node IPAM allocates from (R10: needed wherever it runs). */
  clusterCidr?: string;
}): CcmBaseFlags {
  return [
    `--configure-cloud-routes=${opts.configureCloudRoutes}`,
    `--allocate-node-cidrs=${opts.allocateNodeCidrs}`,
    ...(opts.allocateNodeCidrs ? [`--cluster-cidr=${opts.clusterCidr ?? '10.64.0.0/14'}`] : []),
    '--leader-elect=true',
    ...(opts.namespace && opts.namespace !== 'kube-system' ? [`--leader-elect-resource-namespace=${opts.namespace}`] : []),
  ];
}

/** The CCM as rendered in a phase, or undefined where it is not deployed. */
export function ccmAt(input: MigrationInput, phase: MigrationPhase, base: CcmBaseFlags): SimProcess | undefined {
  if (!ccmDeployedIn(phase)) {
    return undefined;
  }
  const at = { ...input, phase };
  const mount = ccmLeaderMigrationMount(at);
  const file = ccmFile(input, phase);
  return { flags: mount ? ccmLeaderMigrationFlags(base, mount) : [...base], ...(file ? { file } : {}) };
}

/** The scenario of one phase change as the plan orders it. */
export function planScenario(
  input: MigrationInput,
  ctx: StepContext,
  from: MigrationPhase,
  to: MigrationPhase,
  opts: {
    ccmBase: CcmBaseFlags;
    kcmBaseFlags: readonly string[];
    ccmStrategy: 'Recreate' | 'RollingUpdate';
    ccmControllers?: readonly Controller[];
    required?: readonly Controller[];
  },
): SimScenario {
  const t = transitionSteps({ ...input, phase: to }, ctx, from, to);
  const target = ccmAt(input, to, opts.ccmBase);
  const before = ccmAt(input, from, opts.ccmBase);
  return {
    kcmMinor: input.kubernetesMinor,
    ccmMinor: input.ccmMinor,
    kcmBaseFlags: opts.kcmBaseFlags,
    kcm: kcmProcess(input, from),
    ...(before ? { ccm: before } : {}),
    ccmStrategy: opts.ccmStrategy,
    ...(opts.ccmControllers ? { ccmControllers: opts.ccmControllers } : {}),
    ...(opts.required ? { required: opts.required } : {}),
    steps: t.steps.map((s) => ({
      label: `${s.when}: ${s.action}`,
      ...(s.kcm ? { kcm: s.kcm } : {}),
      ...(s.ccm ? { ccm: target ?? null } : {}),
    })),
  };
}
