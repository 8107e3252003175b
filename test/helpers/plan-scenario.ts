/**
 * From ccm-gitops's migration plan to simulator scenarios: the KCM as the
 * plan's steps set it, the CCM as the renderers build it (the same pure
 * functions the CCM constructs call), and the plan's ordered steps. It calls
 * the product, so it lives outside test/oracle/ (an oracle never imports src/).
 */
import {
  ccmDeployedIn,
  ccmFile,
  ccmLeaderMigrationFlags,
  ccmLeaderMigrationMount,
  kcmProcess,
  MigrationInput,
  MigrationPhase,
} from '../../src/migration';
import { StepContext, transitionSteps } from '../../src/fleet/migration-targets';
import { CcmBaseFlags } from '../oracle/leader-migration/scenario';
import { Controller, SimProcess, SimScenario } from '../oracle/leader-migration/simulator';

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
