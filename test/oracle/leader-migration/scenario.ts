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
import { StepContext, transitionSteps } from '../../../src/migration-targets';
import { UPSTREAM_PROVIDERS } from '../../../src/kubernetes/providers';
import { PlatformType } from '../../../src/cluster-spec/schema';
import { Controller, SimProcess, SimScenario } from './simulator';

/**
 * What an upstream CCM can run, from the provider facts (each cites its
 * `main.go` or provider at the pinned tag): service and node lifecycle always
 * (kubernetes/cloud-provider@v0.29.0 app `DefaultInitFuncConstructors`, which
 * kubernetes/cloud-provider-aws@v1.29.0 cmd/aws-cloud-controller-manager/main.go
 * extends with tagging only); node IPAM only where the binary registers it
 * (`nodeIpam`); routes unless its `Routes()` depends on something the cluster
 * may lack (`routesNeed`: OpenStack's extraroute extension, vSphere's NSX-T
 * routerPath), in which case only when `routesConfigured` says it is there.
 */
export function upstreamCcmControllers(platform: string, opts: { routesConfigured?: boolean } = {}): readonly Controller[] {
  const provider = UPSTREAM_PROVIDERS[platform as PlatformType];
  const routes = !provider?.routesNeed || opts.routesConfigured === true;
  return ['service', ...(routes ? ['route' as const] : []), 'cloud-node-lifecycle', ...(provider?.nodeIpam ? ['node-ipam' as const] : [])];
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
