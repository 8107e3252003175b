/**
 * From ccm-gitops's migration plan to simulator scenarios: the KCM as the
 * plan's steps set it, the CCM as the renderers build it (the same pure
 * functions the CCM constructs call), and the plan's ordered steps.
 */
import {
  ccmDeployedIn, ccmFile, ccmLeaderMigrationFlags, ccmLeaderMigrationMount, kcmProcess, MigrationInput, MigrationPhase,
} from '../../../src/migration';
import { StepContext, transitionSteps } from '../../../src/migration-targets';
import { UPSTREAM_PROVIDERS } from '../../../src/kubernetes/providers';
import { PlatformType } from '../../../src/cluster-spec/schema';
import { Controller, SimProcess, SimScenario } from './simulator';

/** What an upstream CCM's binary registers, from the provider facts (node IPAM only where its main.go adds it). */
export function upstreamCcmControllers(platform: string): readonly Controller[] {
  const provider = UPSTREAM_PROVIDERS[platform as PlatformType];
  return ['service', 'route', 'cloud-node-lifecycle', ...(provider?.nodeIpam ? ['node-ipam' as const] : [])];
}

/** The CCM's rendered flags that matter to leader election and the cloud controllers, before leader migration is added. */
export type CcmBaseFlags = readonly string[];

/** The OpenShift CCM's flags as its Deployment renders them (checked against a real render in test/migration-simulator.test.ts). */
export const OPENSHIFT_CCM_BASE: CcmBaseFlags = [
  '--configure-cloud-routes=false', '--leader-elect=true',
  '--leader-elect-lease-duration=137s', '--leader-elect-renew-deadline=107s', '--leader-elect-retry-period=26s',
  '--leader-elect-resource-namespace=openshift-cloud-controller-manager',
];

/** The upstream CCM's flags for the kubernetes distribution (spec.kubernetes defaults unless given). */
export function kubernetesCcmBase(opts: { configureCloudRoutes: boolean; allocateNodeCidrs: boolean; namespace?: string }): CcmBaseFlags {
  return [
    `--configure-cloud-routes=${opts.configureCloudRoutes}`,
    `--allocate-node-cidrs=${opts.allocateNodeCidrs}`,
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
export function planScenario(input: MigrationInput, ctx: StepContext, from: MigrationPhase, to: MigrationPhase, opts: {
  ccmBase: CcmBaseFlags;
  kcmBaseFlags: readonly string[];
  ccmStrategy: 'Recreate' | 'RollingUpdate';
  ccmControllers?: readonly Controller[];
  required?: readonly Controller[];
}): SimScenario {
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
