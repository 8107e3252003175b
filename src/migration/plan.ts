/**
 * The migration plan of one cluster, computed once: its phase, each side's
 * LeaderMigrationConfiguration, the flags of each component, the objects
 * rendered, and the ordered steps (with their checks) of the change into
 * this phase and of its rollback. Rendered as MIGRATION.md for reviewers and
 * as JSON for tools; the protocol simulator checks its steps. Pure: no cdk8s import.
 */
import { ccmLeaderMigrationFlags, MigrationInput } from './flags';
import { ccmLeaderMigrationMount } from './cluster-migration';
import { holdingsMermaid, modelSteps, phaseChangeHoldings, StepHolding } from './step-model';
import { phasePlan } from './phase-plan';
import { ControlPlanePlan } from './control-plane';
import { ccmDeployedIn, MigrationPhase, nextPhase, previousPhase } from './phases';
import { ccmFile, CcmLocation, kcmMode, kcmProcess, PhaseChangeContext, phaseChangeSteps, PhaseTransition, PlanCheck, ProcessConfig } from './steps';

export type { PlanCheck } from './steps';

/** An object the phase renders for the migration, by identity. */
export interface PlannedObject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/** How the CCM runs in this phase. */
export interface PlannedCcm extends CcmLocation {
  /** Flags added for leader migration. */
  readonly leaderMigrationFlags: readonly string[];
}

/** Everything the plan is built from. */
export interface PlanInput extends MigrationInput {
  readonly cluster: string;
  readonly distribution: string;
  readonly phases: readonly MigrationPhase[];
  /** The migration-specific objects this phase renders (beyond the usual operands). */
  readonly rendered: readonly PlannedObject[];
  readonly ccm: PlannedCcm;
  /** The distribution's side: who changes the control plane and how (`MigrationControlPlane.plan`). */
  readonly controlPlane: ControlPlanePlan;
}

/** A component's part of the phase. */
export interface PlanComponent {
  readonly component: string;
  /** Cloud-related flags the component runs with in this phase. */
  readonly flags: readonly string[];
  /** Flags it must drop when the change comes from the previous phase. */
  readonly remove: readonly string[];
  /** Flags it must drop only when rolling back into this phase from the next one. */
  readonly removeOnRollback?: readonly string[];
  /** Who makes the change: `gitops` (rendered here) or what a person or another operator does. */
  readonly appliedBy: string;
}

/** One side's LeaderMigrationConfiguration in this phase. */
export interface PlannedConfiguration {
  readonly component: string;
  /** Where that side reads it. */
  readonly path: string;
  readonly file: string;
}

/** The machine-readable plan (`.migration.json`). */
export interface MigrationPlan {
  readonly cluster: string;
  readonly platform: string;
  readonly distribution: string;
  readonly phase: MigrationPhase;
  readonly phases: readonly MigrationPhase[];
  readonly kubernetesVersion: string;
  readonly ccmVersion: string;
  /** The distribution's release of this Kubernetes minor (`ControlPlanePlan.release`; only OpenShift has one). */
  readonly openshiftRelease?: string;
  readonly summary: string;
  readonly leaderMigration?: {
    readonly leaderName: string;
    readonly leaseNamespace: string;
    /** Each side's own file (KCM, CCM), in the phases where that side runs leader migration. */
    readonly configurations: readonly PlannedConfiguration[];
  };
  readonly components: readonly PlanComponent[];
  readonly rendered: readonly PlannedObject[];
  /** What the distribution's objects of this phase change beyond the flags (`ControlPlanePlan.notes`). */
  readonly notes?: readonly { readonly title: string; readonly text: string }[];
  /** The change into this phase from the previous one, step by step. */
  readonly enter?: PhaseTransition;
  /** The rollback to the previous phase, step by step (what the next change must do if it goes back). */
  readonly rollback?: PhaseTransition;
  readonly next?: { readonly phase: MigrationPhase; readonly change: string };
  /** Who may hold which lease and run which cloud controllers after each step (MIGRATION.md's diagrams; not in `.migration.json`). */
  readonly holdings?: { readonly enter?: readonly StepHolding[]; readonly rollback?: readonly StepHolding[] };
  readonly failureScenarios: readonly { readonly title: string; readonly mitigation: string }[];
}

const SUMMARY: Record<MigrationPhase, string> = {
  'in-tree': 'The in-tree provider in kube-controller-manager and the kubelets runs the cloud controllers. Nothing moves yet.',
  'leader-migration-kcm':
    'Every kube-controller-manager runs leader migration with its own file (component kube-controller-manager): the one holding its main lease takes the migration lease and runs the cloud controllers under it. No CCM yet.',
  'leader-migration-ccm':
    'The CCM runs leader migration with its own file (component cloud-controller-manager). The migration lease decides: whichever controller manager holds it runs the cloud controllers, never both. kube-controller-manager, which got there first, normally keeps it.',
  'external-leader-migration':
    'kube-controller-manager and the kubelets run --cloud-provider=external without leader migration; once no kube-controller-manager contends any more, the CCM holds the migration lease and runs the cloud controllers. The CCM keeps leader migration on (upstream: optional to remove).',
  external: 'The CCM runs the cloud controllers under its main lease; leader migration is off on both sides.',
};

/** What moving to a phase changes, in one line. */
function changeTo(phase: MigrationPhase, from: MigrationPhase): string {
  switch (phase) {
    case 'in-tree':
      return from === 'external'
        ? 'Set spec.migration.phase to "in-tree": the CCM is removed and kube-controller-manager and the kubelets get their in-tree --cloud-provider back.'
        : 'Set spec.migration.phase to "in-tree": leader migration is turned off on kube-controller-manager (before the merge).';
    case 'leader-migration-kcm':
      return from === 'in-tree'
        ? 'Set spec.migration.phase to "leader-migration-kcm": leader migration on every kube-controller-manager with its own file; no CCM yet.'
        : 'Set spec.migration.phase to "leader-migration-kcm": the CCM is removed; kube-controller-manager takes the migration lease when it expires.';
    case 'leader-migration-ccm':
      return from === 'leader-migration-kcm'
        ? 'Set spec.migration.phase to "leader-migration-ccm": the CCM is deployed with leader migration and its own file.'
        : 'Set spec.migration.phase to "leader-migration-ccm": kube-controller-manager and the kubelets go back to the in-tree provider, the KCMs with leader migration and their own file.';
    case 'external-leader-migration':
      return from === 'leader-migration-ccm'
        ? 'Set spec.migration.phase to "external-leader-migration": kube-controller-manager and the kubelets switch to --cloud-provider=external without leader migration; the CCM takes the migration lease.'
        : 'Set spec.migration.phase to "external-leader-migration": the CCM runs leader migration again.';
    case 'external':
      return from === 'in-tree'
        ? 'Set spec.migration.phase to "external": kube-controller-manager and the kubelets switch to --cloud-provider=external first, then the CCM is deployed.'
        : 'Set spec.migration.phase to "external": leader migration is turned off on the CCM.';
  }
}

/** Builds the plan of one cluster's phase. */
export function buildMigrationPlan(input: PlanInput): MigrationPlan {
  const { phase } = input;
  const cp = input.controlPlane;
  const phased = phasePlan(input);
  const kubelet = phased.kubelet();
  const kas = phased.apiServer();
  const kcm = kcmProcess(input, phase);
  const ctx: PhaseChangeContext = { ccm: input.ccm, controlPlane: cp };

  const kcmBy = cp.appliedBy.kcm;
  const kubeletBy = cp.appliedBy.kubelet;
  const kasBy = cp.appliedBy.apiServer;
  const ccmDeployed = ccmDeployedIn(phase);
  const components: PlanComponent[] = [
    { component: 'kube-controller-manager', flags: kcm.flags, ...kcmRemovals(input), appliedBy: kcmBy },
    {
      component: 'cloud-controller-manager',
      flags: ccmDeployed ? input.ccm.leaderMigrationFlags : [],
      remove:
        phase === 'external' && input.phases.includes('external-leader-migration') ? ['--enable-leader-migration', '--leader-migration-config'] : [],
      appliedBy: ccmDeployed ? `gitops (this render: ${input.ccm.workload} in ${input.ccm.namespace})` : 'not deployed in this phase',
    },
    { component: 'kubelet', flags: kubelet.flags, remove: kubelet.remove, appliedBy: kubeletBy },
    { component: 'kube-apiserver', flags: kas.flags, remove: kas.remove, appliedBy: kasBy },
  ];

  const configurations: PlannedConfiguration[] = [];
  if (kcm.file) {
    configurations.push({ component: 'kube-controller-manager', path: phased.kcm.path, file: kcm.file });
  }
  const ccmOwn = ccmFile(input, phase);
  if (ccmOwn) {
    configurations.push({
      component: 'cloud-controller-manager',
      path: input.ccm.leaderMigrationFlags.find((f) => f.startsWith('--leader-migration-config='))?.split('=')[1] ?? '',
      file: ccmOwn,
    });
  }

  const next = nextPhase(input.phases, phase);
  const back = previousPhase(input.phases, phase);
  const irreversibleBack =
    cp.oneWayToExternal && back !== undefined && (phase === 'external-leader-migration' || (phase === 'external' && back === 'in-tree'));

  const scenarios: { title: string; mitigation: string }[] = [];
  if (configurations.length > 0 || phase === 'external-leader-migration') {
    scenarios.push({
      title: 'kube-controller-manager and the CCM disagree on the lease name or namespace: both run the cloud controllers',
      mitigation: `The CCM renders --leader-elect-resource-namespace=${input.leaseNamespace} and leaderName ${input.leaderName}; kube-controller-manager must already elect its leader in ${input.leaseNamespace} (ccm-gitops never moves the KCM's main lease).`,
    });
    scenarios.push({
      title: 'leader election is off on kube-controller-manager: leader migration is silently disabled',
      mitigation: 'spec.migration.leaderElect must be true; check the KCM flags for --leader-elect=false.',
    });
  }
  if (phase === 'external-leader-migration') {
    scenarios.push({
      title:
        'a kube-controller-manager restarted external but still with leader migration holds the migration lease: it runs nothing and the CCM waits',
      mitigation:
        'Turn leader migration off on every kube-controller-manager that runs --cloud-provider=external (upstream: "MUST NOT have Leader Migration enabled"); the lease passes to the CCM when that KCM restarts.',
    });
  }
  if (phase === 'external' || phase === 'external-leader-migration') {
    scenarios.push({
      title:
        'the CCM runs while kubelets still run the in-tree provider (the cloud controller manager operator or the kube-controller-manager operator upgraded before the machine-config operator)',
      mitigation:
        'Node addresses are set by both the kubelet and the CCM node controller until every kubelet has restarted; it ends when the kubelet rollout completes.',
    });
    scenarios.push({
      title: 'kubelets run external before the CCM is up',
      mitigation:
        'New nodes keep the node.cloudprovider.kubernetes.io/uninitialized taint until the CCM runs; keep the CCM ready before switching kubelets.',
    });
    scenarios.push({
      title: 'image pulls from the cloud registry fail on external kubelets',
      mitigation:
        "From 1.29 the in-tree kubelet credential providers are off by default and an external kubelet has none: give the kubelets --image-credential-provider-config and --image-credential-provider-bin-dir with the provider's credential provider plugin (OpenShift: the machine-config-operator does).",
    });
  }
  if (scenarios.length === 0) {
    scenarios.push({ title: 'none in this phase', mitigation: 'Nothing moves; the next phase carries the risks.' });
  }

  const enter = back ? phaseChangeSteps(input, ctx, back, phase) : undefined;
  const rollback = back && !irreversibleBack ? phaseChangeSteps(input, ctx, phase, back) : undefined;
  const enterHoldings = enter && transitionHoldings(input, enter);
  const rollbackHoldings = rollback && transitionHoldings(input, rollback);

  return {
    cluster: input.cluster,
    platform: input.platform,
    distribution: input.distribution,
    phase,
    phases: input.phases,
    kubernetesVersion: `1.${input.kubernetesMinor}`,
    ccmVersion: `1.${input.ccmMinor}`,
    ...(cp.release !== undefined ? { openshiftRelease: cp.release } : {}),
    summary: `${SUMMARY[phase]} kube-controller-manager: ${kcmMode(phase)}.`,
    ...(configurations.length > 0 ? { leaderMigration: { leaderName: input.leaderName, leaseNamespace: input.leaseNamespace, configurations } } : {}),
    components,
    rendered: input.rendered,
    ...(cp.notes && cp.notes.length > 0 ? { notes: cp.notes } : {}),
    ...(enter ? { enter } : {}),
    ...(rollback ? { rollback } : {}),
    ...(next ? { next: { phase: next, change: changeTo(next, phase) } } : {}),
    ...(enterHoldings || rollbackHoldings
      ? { holdings: { ...(enterHoldings ? { enter: enterHoldings } : {}), ...(rollbackHoldings ? { rollback: rollbackHoldings } : {}) } }
      : {}),
    failureScenarios: scenarios,
  };
}

/**
 * KCM flags the plan does not render: it is taken to allocate node CIDRs (and
 * program routes, `--configure-cloud-routes` defaulting to true) where node IPAM
 * moves to the CCM or the distribution always starts it so (RKE2).
 */
function kcmElectionBase(input: MigrationInput): string[] {
  return input.nodeIpam || input.kcmAllocatesNodeCidrs
    ? ['--allocate-node-cidrs=true', '--configure-cloud-routes=true']
    : ['--allocate-node-cidrs=false'];
}

/** The holdings after each step of a phase change, from the plan's own processes and the rendered CCM's flags. */
function transitionHoldings(input: PlanInput, t: PhaseTransition): StepHolding[] | undefined {
  // no CCM rendered: only a change without a CCM on either side can be drawn
  const base = input.ccm.electionFlags ?? (ccmDeployedIn(t.from) || ccmDeployedIn(t.to) ? undefined : []);
  if (!input.support || base === undefined) {
    return undefined;
  }
  const ccmAt = (phase: MigrationPhase): ProcessConfig | undefined => {
    if (!ccmDeployedIn(phase)) {
      return undefined;
    }
    const mount = ccmLeaderMigrationMount({ ...input, phase });
    const file = ccmFile(input, phase);
    return { flags: mount ? ccmLeaderMigrationFlags(base, mount) : [...base], ...(file ? { file } : {}) };
  };
  const before = ccmAt(t.from);
  return phaseChangeHoldings({
    kcmMinor: input.kubernetesMinor,
    ccmMinor: input.ccmMinor,
    kcmBaseFlags: kcmElectionBase(input),
    kcm: kcmProcess(input, t.from),
    ...(before ? { ccm: before } : {}),
    steps: modelSteps(t, ccmAt(t.to)),
  });
}

function kcmRemovals(input: PlanInput): { remove: readonly string[]; removeOnRollback?: readonly string[] } {
  if (!input.support) {
    return { remove: [] };
  }
  // the flags of a neighbouring phase (where a change into this one comes from) that this phase does not have
  const here = new Set(kcmProcess(input, input.phase).flags.map((f) => f.split('=')[0]));
  const dropped = (p: MigrationPhase | undefined) =>
    p === undefined
      ? []
      : kcmProcess(input, p)
          .flags.map((f) => f.split('=')[0])
          .filter((n) => !here.has(n) && n !== '--leader-elect');
  const remove = [...new Set(dropped(previousPhase(input.phases, input.phase)))].sort();
  // a next-phase flag is dropped only on the way back: listed apart, so the forward change does not read it as its own
  const back = [...new Set(dropped(nextPhase(input.phases, input.phase)))].filter((n) => !remove.includes(n)).sort();
  return back.length > 0 ? { remove, removeOnRollback: back } : { remove };
}

function checks(list: readonly PlanCheck[]): string[] {
  return list.map((c) => (c.command ? `   - ${c.check}:\n     \`${c.command}\`` : `   - ${c.check}`));
}

function transitionMarkdown(t: PhaseTransition, holdings?: readonly StepHolding[]): string[] {
  const lines: string[] = [];
  if (holdings) {
    lines.push(
      'Who may hold which lease and run which cloud controllers once each step has settled (over every order of lease takeovers and restarts; kube-controller-manager taken to allocate node CIDRs only where node IPAM moves):',
      '',
      ...holdingsMermaid(holdings),
      '',
    );
  }
  t.steps.forEach((s, i) => {
    lines.push(`${i + 1}. **${s.when}** (${s.by}): ${s.action}${s.command ? `:\n   \`${s.command}\`` : '.'}`);
    if (s.checks.length > 0) {
      lines.push('   Confirm before going on:', ...checks(s.checks));
    }
  });
  return [...lines, ''];
}

/** The plan as Markdown for reviewers. */
export function migrationMarkdown(plan: MigrationPlan): string {
  const lines: string[] = [
    `# Migration of ${plan.cluster}: phase \`${plan.phase}\``,
    '',
    `${plan.platform} on ${plan.distribution}${plan.openshiftRelease ? ` ${plan.openshiftRelease}` : ''}, kube-controller-manager ${plan.kubernetesVersion}, CCM ${plan.ccmVersion}.`,
    `Phases: ${plan.phases.map((p) => (p === plan.phase ? `**${p}**` : p)).join(' → ')}.`,
    '',
    plan.summary,
    '',
  ];
  if (plan.leaderMigration) {
    const l = plan.leaderMigration;
    lines.push(
      '## Leader migration',
      '',
      `Lease \`${l.leaseNamespace}/${l.leaderName}\`. Each controller manager reads its own file: the one holding the lease runs only the controllers its own file gives to it.`,
      '',
    );
    for (const c of l.configurations) {
      lines.push(`${c.component} (\`${c.path}\`):`, '', '```yaml', c.file.trimEnd(), '```', '');
    }
  }
  lines.push('## What this phase runs', '', '| component | flags in this phase | flags to remove (if present) | applied by |', '|---|---|---|---|');
  for (const c of plan.components) {
    const cell = (xs: readonly string[]) => (xs.length === 0 ? '-' : xs.map((x) => `\`${x}\``).join('<br>'));
    const rollback =
      c.removeOnRollback && plan.next
        ? `${c.remove.length > 0 ? '<br>' : ''}rolling back from \`${plan.next.phase}\`: ${c.removeOnRollback.map((x) => `\`${x}\``).join(', ')}`
        : '';
    lines.push(
      `| ${c.component} | ${cell(c.flags)} | ${c.remove.length === 0 && rollback ? rollback : `${cell(c.remove)}${rollback}`} | ${c.appliedBy} |`,
    );
  }
  lines.push('');
  if (plan.rendered.length > 0) {
    lines.push(
      'Rendered for the migration:',
      '',
      ...plan.rendered.map((o) => `- ${o.kind} \`${o.namespace ? `${o.namespace}/` : ''}${o.name}\``),
      '',
    );
  }
  for (const n of plan.notes ?? []) {
    lines.push(`## ${n.title}`, '', n.text, '');
  }
  if (plan.enter) {
    lines.push(
      `## Steps from \`${plan.enter.from}\` to \`${plan.phase}\``,
      '',
      'In this order; "merge" is when the GitOps engine applies this render.',
      '',
      ...transitionMarkdown(plan.enter, plan.holdings?.enter),
    );
  }
  lines.push(
    '## Next and rollback',
    '',
    `- Next: ${plan.next ? `\`${plan.next.phase}\`. ${plan.next.change}` : 'none, the migration is complete.'}`,
    `- Rollback: ${plan.rollback ? `\`${plan.rollback.to}\`, in these steps:` : plan.phase === 'in-tree' ? 'none, this is the start.' : "not possible on this cluster (the FeatureGate's feature set cannot be turned off)."}`,
    '',
  );
  if (plan.rollback) {
    lines.push(...transitionMarkdown(plan.rollback, plan.holdings?.rollback));
  }
  lines.push(
    '## Failure scenarios',
    '',
    ...plan.failureScenarios.map((f) => `- **${f.title}.** ${f.mitigation}`),
    '',
    'Generated by ccm-gitops from the cluster spec; do not edit.',
    '',
  );
  return lines.join('\n');
}
