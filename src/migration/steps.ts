/**
 * The ordered steps of each phase change, forward and back, with the checks
 * that gate each next step. One function computes them; MIGRATION.md, the
 * `.migration.json` plan and the protocol simulator
 * (`test/oracle/leader-migration/`) all read its result. Pure: no cdk8s import.
 *
 * The order follows the implemented KEP-2436 (kubernetes/website
 * content/en/docs/tasks/administer-cluster/controller-manager-leader-migration.md):
 * leader migration on every KCM first; then the CCM with its own file; then
 * the KCMs to `--cloud-provider=external` without leader migration; then,
 * optionally, leader migration off on the CCM. Rollbacks reverse it.
 */
import { MigrationInput } from './flags';
import { phasePlan } from './phase-plan';
import { DEFAULT_LEASE_NAMESPACE, externalIn, kcmLeaderMigrationIn, MigrationPhase } from './phases';
import { ControlPlaneChange, ControlPlaneSteps } from './control-plane';
import { ccmRunsRoutes } from './controller-flags';

/** How one controller manager runs: its cloud and leader-election flags and its LeaderMigrationConfiguration. */
export interface ProcessConfig {
  /** Flags (cloud-related and leader election only). */
  readonly flags: readonly string[];
  /** The LeaderMigrationConfiguration file it reads, when it runs leader migration. */
  readonly file?: string;
}

/** When a step happens relative to merging the change. */
export type StepTiming = 'before-merge' | 'merge' | 'after-merge';

/**
 * What a check looks for, in a form `migration preflight` evaluates against an
 * export of the cluster (`oc get -o yaml` / `kubectl get -o yaml`); not written to `.migration.json`.
 */
export type Probe =
  /** OpenShift KubeControllerManager `cluster`: every node's `currentRevision` is `status.latestAvailableRevision`. */
  | { readonly kind: 'kcm-revisions' }
  /** OpenShift KubeControllerManager `cluster`: `spec.unsupportedConfigOverrides.extendedArguments` has (or lacks) every key. */
  | { readonly kind: 'kcm-override'; readonly present: boolean; readonly keys: readonly string[] }
  /** MachineConfigPools (these, or every one): updated and ready machines equal the machine count, none degraded. */
  | { readonly kind: 'pools-updated'; readonly pools?: readonly string[] }
  /** The migration Lease is held, renewed, and by the holder of one of the main Leases `mains`. */
  | { readonly kind: 'lease-holder'; readonly namespace: string; readonly lease: string; readonly mains: readonly string[] }
  /** The main Lease `lease` of `who` is held and renewed within its duration of the newest renewal in the export. */
  | { readonly kind: 'lease-live'; readonly namespace: string; readonly lease: string; readonly who: string }
  /** The CCM workload (`deployment/NAME` or `daemonset/NAME`) has rolled out and is ready. */
  | { readonly kind: 'workload-rolled-out'; readonly namespace: string; readonly workload: string }
  /** The CCM workload is gone. */
  | { readonly kind: 'workload-absent'; readonly namespace: string; readonly workload: string }
  /**
   * Every kube-controller-manager pod (label `label`, `key=value`) is Ready and runs with each of `present` and none of the
   * flags named in `absent`, and every control-plane Node runs one.
   */
  | {
      readonly kind: 'kcm-pods';
      readonly namespace: string;
      readonly label: string;
      readonly present: readonly string[];
      readonly absent: readonly string[];
    }
  /** Every Node has `spec.providerID` and no `node.cloudprovider.kubernetes.io/uninitialized` taint. */
  | { readonly kind: 'nodes-initialized' }
  /**
   * No kube-controller-manager pod (label `label`, `key=value`) allocates node CIDRs or programs cloud routes in-tree
   * that the CCM would not take over: routes when `ccmRoutes` is false (and the in-tree provider has routes),
   * a `CloudAllocator` when node IPAM does not move.
   */
  | {
      readonly kind: 'kcm-handover';
      readonly namespace: string;
      readonly label: string;
      /** Whether the CCM as rendered runs its route controller. */
      readonly ccmRoutes: boolean;
      /** Whether node IPAM moves to the CCM (spec.migration.nodeIpam). */
      readonly nodeIpam: boolean;
      /** Whether the in-tree provider programs cloud routes at all. */
      readonly inTreeRoutes: boolean;
    };

/** A check with the command that performs it. */
export interface PlanCheck {
  readonly check: string;
  readonly command?: string;
  /** What `migration preflight` looks for in an export; absent when only the live API can tell (e.g. `kubectl auth can-i`). */
  readonly probes?: readonly Probe[];
}

/** The leader-migration flag names of a controller manager. */
export const LEADER_MIGRATION_FLAG_NAMES = ['--enable-leader-migration', '--leader-migration-config'] as const;

/**
 * The probe of kube-controller-manager pods running `kcm`: its flags present, the leader-migration flags absent when it runs none.
 *
 * @param label the pods' label, `key=value`
 */
export function kcmPodsProbe(namespace: string, label: string, kcm: ProcessConfig): Probe {
  const name = (f: string) => f.split('=')[0];
  // only the flags that decide who runs the cloud controllers: feature gates and controller lists may hold more than ours
  const present = kcm.flags.filter(
    (f) => name(f) === '--cloud-provider' || name(f) === LEASE_NAMESPACE_FLAG || (LEADER_MIGRATION_FLAG_NAMES as readonly string[]).includes(name(f)),
  );
  const absent = LEADER_MIGRATION_FLAG_NAMES.filter((n) => !present.some((f) => name(f) === n));
  return { kind: 'kcm-pods', namespace, label, present, absent };
}

/** One step of a phase change. */
export interface PlanStep {
  readonly when: StepTiming;
  /** Who makes it: the GitOps engine, you, or an OpenShift operator. */
  readonly by: string;
  readonly action: string;
  readonly command?: string;
  /** Every kube-controller-manager restarts into this, one control-plane node at a time. */
  readonly kcm?: ProcessConfig;
  /** The GitOps engine applies the CCM as rendered for the target phase (deploys, rolls or removes it). */
  readonly ccm?: 'apply';
  /** Confirm these before the next step. */
  readonly checks: readonly PlanCheck[];
}

/** A phase change and its steps in order. */
export interface PhaseTransition {
  readonly from: MigrationPhase;
  readonly to: MigrationPhase;
  readonly steps: readonly PlanStep[];
}

/** Where the CCM runs, for commands. */
export interface CcmLocation {
  readonly namespace: string;
  readonly serviceAccount: string;
  /** `deployment/NAME` or `daemonset/NAME`. */
  readonly workload: string;
  /** The rendered CCM's leader-election and cloud-controller flags without leader migration (none rendered: unknown, and no diagram). */
  readonly electionFlags?: readonly string[];
}

/** What the steps need beyond the migration input. */
export interface PhaseChangeContext {
  readonly ccm: CcmLocation;
  /** The distribution's side: how its kube-controller-manager and kubelets change. */
  readonly controlPlane: ControlPlaneSteps;
}

/**
 * The KCM as it runs in a phase (the OpenShift KCM gets the same flags through the operator and the override).
 * Both its leases live in its `--leader-elect-resource-namespace` (kubernetes/kubernetes@v1.30.14
 * cmd/kube-controller-manager/app/controllermanager.go `leaderElectAndRun`), so with a lease namespace other than
 * its default it runs that flag in every phase: already set, never among the flags to set (a roll that moved it would
 * run two leaders), and checked in its pods.
 */
export function kcmProcess(input: MigrationInput, phase: MigrationPhase): ProcessConfig {
  const kcm = phasePlan(input.phase === phase ? input : { ...input, phase }).kcm;
  const elects = input.support && !input.support.noLeaderMigration && input.leaseNamespace !== DEFAULT_LEASE_NAMESPACE;
  return {
    flags: [...kcm.flags.flags, ...(elects ? [`${LEASE_NAMESPACE_FLAG}=${input.leaseNamespace}`] : [])],
    ...(kcm.file ? { file: kcm.file } : {}),
  };
}

/** The flag naming the namespace of a controller manager's leases. */
const LEASE_NAMESPACE_FLAG = '--leader-elect-resource-namespace';

/** The CCM's own file in a phase, if it runs leader migration there. */
export function ccmFile(input: MigrationInput, phase: MigrationPhase): string | undefined {
  return phasePlan(input.phase === phase ? input : { ...input, phase }).ccm.file;
}

/** A step the GitOps engine makes by applying the render. */
export function mergeStep(action: string, checks: PlanCheck[], extra: Partial<PlanStep> = {}): PlanStep {
  return { when: 'merge', by: 'gitops', action, checks, ...extra };
}

/**
 * Builds the steps of one phase change (adjacent phases, either direction):
 * the protocol's order and lease checks here, the control plane's part from
 * the distribution (`ctx.controlPlane`).
 */
export function phaseChangeSteps(input: MigrationInput, ctx: PhaseChangeContext, from: MigrationPhase, to: MigrationPhase): PhaseTransition {
  const cp = ctx.controlPlane;
  const ns = input.leaseNamespace;
  const lease = input.leaderName;
  const holder = (name: string) => `kubectl -n ${ns} get lease ${name} -o jsonpath='{.spec.holderIdentity}'`;
  const holds = (main: string, who: string): PlanCheck => ({
    check: `${who} holds the migration lease: the holder of ${ns}/${lease} is the holder of ${who}'s main lease ${ns}/${main} (both leases carry the same identity; prints "yes")`,
    command: `[ "$(${holder(lease)})" = "$(${holder(main)})" ] && echo yes || echo no`,
    probes: [{ kind: 'lease-holder', namespace: ns, lease, mains: [main] }],
  });
  const kcmHolds = holds('kube-controller-manager', 'kube-controller-manager');
  const ccmHolds = holds('cloud-controller-manager', 'the CCM');
  // while both run leader migration, a KCM restart may let the CCM take the lease: either live holder is right
  const eitherHolds: PlanCheck = {
    check: `a kube-controller-manager or the CCM holds the migration lease: the holder of ${ns}/${lease} is the holder of ${ns}/kube-controller-manager or of ${ns}/cloud-controller-manager (prints "yes")`,
    command: `h="$(${holder(lease)})"; [ "$h" = "$(${holder('kube-controller-manager')})" ] || [ "$h" = "$(${holder('cloud-controller-manager')})" ] && echo yes || echo no`,
    probes: [{ kind: 'lease-holder', namespace: ns, lease, mains: ['kube-controller-manager', 'cloud-controller-manager'] }],
  };
  // with leader migration the CCM takes its main lease first, then waits for the migration lease: without a live main lease it never would
  const ccmLeads: PlanCheck = {
    check: `the CCM is leader: it holds its main lease ${ns}/cloud-controller-manager and renews it`,
    command: `kubectl -n ${ns} get lease cloud-controller-manager -o jsonpath='{.spec.holderIdentity}{" "}{.spec.renewTime}{"\\n"}'`,
    probes: [{ kind: 'lease-live', namespace: ns, lease: 'cloud-controller-manager', who: 'the CCM' }],
  };
  const workload = { namespace: ctx.ccm.namespace, workload: ctx.ccm.workload };
  // the CCM's cloud-node controller sets providerID and lifts the uninitialized taint: a ready CCM that has not is not working
  const ccmReady: PlanCheck = {
    check: 'the CCM is rolled out and ready',
    command: `kubectl -n ${ctx.ccm.namespace} rollout status ${ctx.ccm.workload}`,
    probes: [{ kind: 'workload-rolled-out', ...workload }, { kind: 'nodes-initialized' }],
  };
  const ccmGone: PlanCheck = {
    check: 'no CCM pod is left',
    command: `kubectl -n ${ctx.ccm.namespace} get ${ctx.ccm.workload}`,
    probes: [{ kind: 'workload-absent', ...workload }],
  };
  const canI = (user: string): PlanCheck => ({
    check: `${user} may update the migration lease`,
    command: `kubectl auth can-i update leases.coordination.k8s.io/${lease} -n ${ns} --as=${user}`,
  });
  const kcmUser = 'system:kube-controller-manager';
  const ccmUser = `system:serviceaccount:${ctx.ccm.namespace}:${ctx.ccm.serviceAccount}`;
  const merge = mergeStep;
  const target = kcmProcess(input, to);
  const change: ControlPlaneChange = { input, from, to, kcm: target };
  const steps: PlanStep[] = [];
  const kcmRoll = (when: StepTiming, what: string): PlanStep => cp.kcmRoll(when, what, target);
  const kcmFile = cp.kcmFile;
  // what the KCMs run in-tree besides the cloud controllers must have a taker before the CCM may take the lease or they go external
  const flags = ctx.ccm.electionFlags;
  const handover = flags ? cp.handoverCheck?.(input, { routes: ccmRunsRoutes(flags) }) : undefined;
  const handoverStep: PlanStep[] = handover
    ? [
        {
          when: 'before-merge',
          by: 'you',
          action: 'confirm the CCM takes over the cloud routes and node CIDRs the kube-controller-managers handle in-tree',
          checks: [handover],
        },
      ]
    : [];

  if (!input.support) {
    return { from, to, steps: [merge('apply the rendered CCM', [ccmReady], { ccm: 'apply' })] };
  }
  if (input.support.noLeaderMigration) {
    // No leader migration: never both at once, so the KCMs leave first and the CCM comes after (gap in between).
    if (to === 'external') {
      steps.push(...handoverStep);
      steps.push(
        cp.switchToExternalFirst?.(change) ??
          kcmRoll(
            'before-merge',
            'switch every kube-controller-manager (and kubelet) to --cloud-provider=external; the cloud controllers run nowhere until the CCM is up',
          ),
      );
      steps.push(merge('deploy the CCM', [ccmReady], { ccm: 'apply' }));
      const after = cp.afterCcmDeployed?.(change);
      if (after) {
        steps.push(after);
      }
    } else {
      steps.push(merge('remove the CCM', [ccmGone], { ccm: 'apply' }));
      steps.push(kcmRoll('after-merge', 'switch every kube-controller-manager (and kubelet) back to the in-tree provider'));
    }
    return { from, to, steps };
  }

  const key = `${from}>${to}`;
  switch (key) {
    case 'in-tree>leader-migration-kcm':
      steps.push(
        merge(kcmFile ? `apply the lease RBAC and ${kcmFile.apply}` : 'apply the lease RBAC', [canI(kcmUser), ...(kcmFile ? [kcmFile.applied] : [])]),
      );
      steps.push(cp.enableLeaderMigration(change));
      steps[steps.length - 1] = { ...steps[steps.length - 1], checks: [...steps[steps.length - 1].checks, kcmHolds] };
      break;
    case 'leader-migration-kcm>in-tree':
      // Before the merge: the merge prunes the lease RBAC (and what carries the KCM's file, which the KCM reads until then).
      steps.push(cp.disableLeaderMigration(change));
      steps.push(merge('prune the lease RBAC' + (kcmFile ? ` and ${kcmFile.leaveGit}` : ''), []));
      steps.push(...(kcmFile?.remove ? [kcmFile.remove] : []));
      break;
    case 'leader-migration-kcm>leader-migration-ccm':
      steps.push({
        when: 'before-merge',
        by: 'you',
        action: 'confirm every kube-controller-manager runs leader migration and one of them holds the migration lease',
        checks: [cp.everyKcm('runs --enable-leader-migration', true, target), kcmHolds, canI(ccmUser), ...(handover ? [handover] : [])],
      });
      steps.push(
        merge(
          'deploy the CCM with leader migration and its own file (component cloud-controller-manager); it waits for the migration lease',
          [ccmReady, ccmLeads, eitherHolds],
          { ccm: 'apply' },
        ),
      );
      break;
    case 'leader-migration-ccm>leader-migration-kcm':
      steps.push(
        merge('remove the CCM; if a CCM held the migration lease, a kube-controller-manager takes it when it expires', [ccmGone, kcmHolds], {
          ccm: 'apply',
        }),
      );
      break;
    case 'leader-migration-ccm>external-leader-migration': {
      steps.push(...handoverStep);
      const own = cp.switchToExternal?.(change);
      if (own) {
        steps.push(...own);
      } else {
        steps.push(merge('nothing changes in the rendered CCM', []));
        steps.push(
          kcmRoll(
            'after-merge',
            "switch every kube-controller-manager to --cloud-provider=external WITHOUT leader migration (and each node's kubelet to --cloud-provider=external; from 1.29 give it --image-credential-provider-config and --image-credential-provider-bin-dir for the cloud registry)",
          ),
        );
      }
      steps[steps.length - 1] = { ...steps[steps.length - 1], checks: [...steps[steps.length - 1].checks, ccmHolds] };
      break;
    }
    case 'external-leader-migration>leader-migration-ccm':
      steps.push(merge('nothing changes in the rendered CCM', []));
      steps.push(
        kcmRoll(
          'after-merge',
          'switch every kube-controller-manager back to the in-tree provider WITH leader migration and its own file (and each kubelet back to the in-tree provider); the CCM keeps the lease until it fails over',
        ),
      );
      break;
    case 'external-leader-migration>external':
      steps.push({
        when: 'before-merge',
        by: 'you',
        action: 'confirm no kube-controller-manager runs leader migration any more and the CCM holds the migration lease',
        checks: [cp.everyKcm('runs --cloud-provider=external without --enable-leader-migration', false, target), ccmHolds],
      });
      steps.push(merge(`roll the CCM without leader migration${kcmFile ? ` and ${kcmFile.leaveGit}` : ''}`, [ccmReady], { ccm: 'apply' }));
      steps.push(...(kcmFile?.remove ? [kcmFile.remove] : []));
      break;
    case 'external>external-leader-migration':
      steps.push(
        merge(`roll the CCM with leader migration and its own file${kcmFile ? ` and restore ${kcmFile.name}` : ''}`, [ccmReady, ccmHolds], {
          ccm: 'apply',
        }),
      );
      break;
    default:
      throw new Error(`no steps from "${from}" to "${to}": phases change one step at a time`);
  }
  return { from, to, steps };
}

/** The sequence of phase changes to check: every adjacent pair, forward and back. */
export function adjacentTransitions(sequence: readonly MigrationPhase[]): [MigrationPhase, MigrationPhase][] {
  const out: [MigrationPhase, MigrationPhase][] = [];
  for (let i = 0; i + 1 < sequence.length; i++) {
    out.push([sequence[i], sequence[i + 1]], [sequence[i + 1], sequence[i]]);
  }
  return out;
}

/** Whether a phase's KCM runs leader migration or the external provider (for text). */
export function kcmMode(phase: MigrationPhase): string {
  return externalIn(phase) ? 'external' : kcmLeaderMigrationIn(phase) ? 'in-tree with leader migration' : 'in-tree';
}
