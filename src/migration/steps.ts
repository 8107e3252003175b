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
import { externalIn, kcmLeaderMigrationIn, MigrationPhase } from './phases';

/** How one controller manager runs: its cloud and leader-election flags and its LeaderMigrationConfiguration. */
export interface ProcessConfig {
  /** Flags (cloud-related and leader election only). */
  readonly flags: readonly string[];
  /** The LeaderMigrationConfiguration file it reads, when it runs leader migration. */
  readonly file?: string;
}

/** When a step happens relative to merging the change. */
export type StepTiming = 'before-merge' | 'merge' | 'after-merge';

/** A check with the command that performs it. */
export interface PlanCheck {
  readonly check: string;
  readonly command?: string;
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
}

/** What the steps need beyond the migration input. */
export interface StepContext {
  readonly distribution: string;
  readonly ccm: CcmLocation;
  /** OpenShift: the gates of the FeatureGate that switches the platform to external (empty: none needed). */
  readonly featureGates: readonly string[];
  /** OpenShift: the feature set of that FeatureGate. */
  readonly featureSet: string;
  /** OpenShift: the MachineConfig writing the KCM's file. */
  readonly machineConfig?: string;
}

/** The KCM as it runs in a phase (the OpenShift KCM gets the same flags through the operator and the override). */
export function kcmProcess(input: MigrationInput, phase: MigrationPhase): ProcessConfig {
  const kcm = phasePlan(input.phase === phase ? input : { ...input, phase }).kcm;
  return { flags: kcm.flags.flags, ...(kcm.file ? { file: kcm.file } : {}) };
}

/** The CCM's own file in a phase, if it runs leader migration there. */
export function ccmFile(input: MigrationInput, phase: MigrationPhase): string | undefined {
  return phasePlan(input.phase === phase ? input : { ...input, phase }).ccm.file;
}

/** The leader-migration keys ccm-gitops adds to the OpenShift KubeControllerManager's `unsupportedConfigOverrides.extendedArguments`. */
export const OPENSHIFT_OVERRIDE_KEYS = ['enable-leader-migration', 'leader-migration-config'] as const;

/** The `oc patch` adding the override (a JSON merge patch: other extendedArguments stay). */
export function openshiftOverrideAdd(podPath: string): string {
  const p = { spec: { unsupportedConfigOverrides: { extendedArguments: { 'enable-leader-migration': ['true'], 'leader-migration-config': [podPath] } } } };
  return `oc patch kubecontrollermanager cluster --type=merge -p '${JSON.stringify(p)}'`;
}

/**
 * The `oc patch` removing only our keys. A JSON merge patch with `null`
 * deletes exactly those keys, keeps every other override and succeeds when
 * they are already gone (a JSON-patch `remove` of a missing path fails, and
 * removing `/spec/unsupportedConfigOverrides/extendedArguments` would drop
 * unrelated overrides).
 */
export function openshiftOverrideRemove(): string {
  const p = { spec: { unsupportedConfigOverrides: { extendedArguments: Object.fromEntries(OPENSHIFT_OVERRIDE_KEYS.map((k) => [k, null])) } } };
  return `oc patch kubecontrollermanager cluster --type=merge -p '${JSON.stringify(p)}'`;
}

/** Every KCM revision rolled out (OpenShift): all nodes at the latest available revision. */
const OPENSHIFT_KCM_REVISIONS: PlanCheck = {
  check: 'every kube-controller-manager runs the latest revision: each node\'s currentRevision equals latestAvailableRevision (the revision made after the change)',
  command: 'oc get kubecontrollermanager cluster -o jsonpath=\'{.status.latestAvailableRevision}{" :"}{range .status.nodeStatuses[*]}{" "}{.currentRevision}{end}{"\\n"}\'',
};

/** Builds the steps of one phase change (adjacent phases, either direction). */
export function transitionSteps(input: MigrationInput, ctx: StepContext, from: MigrationPhase, to: MigrationPhase): PhaseTransition {
  const openshift = ctx.distribution === 'openshift';
  const ns = input.leaseNamespace;
  const lease = input.leaderName;
  const holder = (name: string) => `kubectl -n ${ns} get lease ${name} -o jsonpath='{.spec.holderIdentity}'`;
  const holds = (main: string, who: string): PlanCheck => ({
    check: `${who} holds the migration lease: the holder of ${ns}/${lease} is the holder of ${who}'s main lease ${ns}/${main} (both leases carry the same identity; prints "yes")`,
    command: `[ "$(${holder(lease)})" = "$(${holder(main)})" ] && echo yes || echo no`,
  });
  const kcmHolds = holds('kube-controller-manager', 'kube-controller-manager');
  const ccmHolds = holds('cloud-controller-manager', 'the CCM');
  const kcmPods = openshift
    ? 'oc -n openshift-kube-controller-manager get pods -l app=kube-controller-manager -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.containers[0].args}{"\\n"}{end}\''
    : 'kubectl -n kube-system get pods -l component=kube-controller-manager -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.containers[0].command}{"\\n"}{end}\'';
  const ccmReady: PlanCheck = { check: 'the CCM is rolled out and ready', command: `kubectl -n ${ctx.ccm.namespace} rollout status ${ctx.ccm.workload}` };
  const ccmGone: PlanCheck = { check: 'no CCM pod is left', command: `kubectl -n ${ctx.ccm.namespace} get ${ctx.ccm.workload}` };
  const canI = (user: string): PlanCheck => ({ check: `${user} may update the migration lease`, command: `kubectl auth can-i update leases.coordination.k8s.io/${lease} -n ${ns} --as=${user}` });
  const kcmUser = 'system:kube-controller-manager';
  const ccmUser = `system:serviceaccount:${ctx.ccm.namespace}:${ctx.ccm.serviceAccount}`;
  const everyKcm = (what: string): PlanCheck => (openshift
    ? OPENSHIFT_KCM_REVISIONS
    : { check: `every kube-controller-manager pod (one per control-plane node) has restarted and ${what}`, command: kcmPods });
  const merge = (action: string, checks: PlanCheck[], extra: Partial<PlanStep> = {}): PlanStep => ({ when: 'merge', by: 'gitops', action, checks, ...extra });
  const target = kcmProcess(input, to);
  const steps: PlanStep[] = [];
  const kcmRoll = (when: StepTiming, what: string): PlanStep => (openshift
    ? { when, by: 'you, then cluster-kube-controller-manager-operator (one node at a time)', action: what, kcm: target, checks: [everyKcm(what)] }
    : {
      when, by: 'you, one control-plane node at a time (kubeadm, Cluster API or the static pod; see CONTROL-PLANE.md)',
      action: `${what}; restart the kube-controller-manager of one node, wait until it is Ready, then the next`, kcm: target, checks: [everyKcm(what)],
    });

  if (!input.support) {
    return { from, to, steps: [merge('apply the rendered CCM', [ccmReady], { ccm: 'apply' })] };
  }
  if (input.support.noLeaderMigration) {
    // No leader migration: never both at once, so the KCMs leave first and the CCM comes after (gap in between).
    if (to === 'external') {
      if (openshift && ctx.featureGates.length > 0) {
        const p = { spec: { featureSet: ctx.featureSet, ...(ctx.featureSet === 'CustomNoUpgrade' ? { customNoUpgrade: { enabled: ctx.featureGates } } : {}) } };
        steps.push({
          when: 'before-merge', by: 'you, then the operators', kcm: target,
          action: `set the FeatureGate first, so kube-controller-manager is external before the CCM starts (the rendered FeatureGate is the same object): the operators switch kube-controller-manager, kube-apiserver and the kubelets`,
          command: `oc patch featuregate cluster --type=merge -p '${JSON.stringify(p)}'`,
          checks: [OPENSHIFT_KCM_REVISIONS, { check: 'kube-controller-manager runs --cloud-provider=external', command: kcmPods }],
        });
      } else {
        steps.push(kcmRoll('before-merge', 'switch every kube-controller-manager (and kubelet) to --cloud-provider=external; the cloud controllers run nowhere until the CCM is up'));
      }
      steps.push(merge('deploy the CCM', [ccmReady], { ccm: 'apply' }));
    } else {
      steps.push(merge('remove the CCM', [ccmGone], { ccm: 'apply' }));
      steps.push(kcmRoll('after-merge', 'switch every kube-controller-manager (and kubelet) back to the in-tree provider'));
    }
    return { from, to, steps };
  }

  const key = `${from}>${to}`;
  switch (key) {
    case 'in-tree>leader-migration-kcm':
      steps.push(merge(openshift
        ? `apply the lease RBAC and the MachineConfig ${ctx.machineConfig} writing the KCM's file (the machine-config-operator reboots the control-plane nodes one at a time; the KCMs do not read it yet)`
        : 'apply the lease RBAC', [canI(kcmUser), ...(openshift ? [{ check: 'the master pool has rolled out the MachineConfig', command: 'oc wait machineconfigpool/master --for=condition=Updated --timeout=60m' }] : [])]));
      steps.push(openshift
        ? { ...kcmRoll('after-merge', 'enable leader migration on kube-controller-manager with its own file'), command: openshiftOverrideAdd(input.kcmConfigPath ?? '') }
        : kcmRoll('after-merge', 'enable leader migration on kube-controller-manager with its own file (component kube-controller-manager)'));
      steps[steps.length - 1] = { ...steps[steps.length - 1]!, checks: [...steps[steps.length - 1]!.checks, kcmHolds] };
      break;
    case 'leader-migration-kcm>in-tree':
      // Before the merge: the merge prunes the lease RBAC (and on OpenShift the MachineConfig the override points at).
      steps.push(openshift
        ? { ...kcmRoll('before-merge', 'turn leader migration off on kube-controller-manager (only our override keys)'), command: openshiftOverrideRemove() }
        : kcmRoll('before-merge', 'turn leader migration off on kube-controller-manager'));
      steps.push(merge('prune the lease RBAC' + (openshift ? ` and the MachineConfig ${ctx.machineConfig}` : ''), []));
      break;
    case 'leader-migration-kcm>leader-migration-ccm':
      steps.push({
        when: 'before-merge', by: 'you', action: 'confirm every kube-controller-manager runs leader migration and one of them holds the migration lease',
        checks: [everyKcm('runs --enable-leader-migration'), kcmHolds, canI(ccmUser)],
      });
      steps.push(merge('deploy the CCM with leader migration and its own file (component cloud-controller-manager); it waits for the migration lease', [ccmReady, kcmHolds], { ccm: 'apply' }));
      break;
    case 'leader-migration-ccm>leader-migration-kcm':
      steps.push(merge('remove the CCM; if a CCM held the migration lease, a kube-controller-manager takes it when it expires', [ccmGone, kcmHolds], { ccm: 'apply' }));
      break;
    case 'leader-migration-ccm>external-leader-migration':
      if (openshift && ctx.featureGates.length > 0) {
        steps.push(merge(`apply the FeatureGate (${ctx.featureSet}: ${ctx.featureGates.join(', ')}); cluster-kube-controller-manager-operator restarts each kube-controller-manager with --cloud-provider=external (the override still enables leader migration, so a KCM holding the migration lease runs nothing until the next step), the machine-config-operator restarts the kubelets with --cloud-provider=external`,
          [OPENSHIFT_KCM_REVISIONS, { check: 'the master and worker pools have rolled out', command: 'oc wait machineconfigpool --all --for=condition=Updated --timeout=120m' }],
          { kcm: { flags: [...target.flags, '--enable-leader-migration', `--leader-migration-config=${input.kcmConfigPath ?? ''}`], file: kcmProcess(input, from).file! } }));
        steps.push({ ...kcmRoll('after-merge', 'turn leader migration off on kube-controller-manager (only our override keys); the MachineConfig stays until phase "external"'), command: openshiftOverrideRemove() });
      } else {
        steps.push(merge('nothing changes in the rendered CCM', []));
        steps.push(kcmRoll('after-merge', 'switch every kube-controller-manager to --cloud-provider=external WITHOUT leader migration (and each node\'s kubelet to --cloud-provider=external; from 1.29 give it --image-credential-provider-config and --image-credential-provider-bin-dir for the cloud registry)'));
      }
      steps[steps.length - 1] = { ...steps[steps.length - 1]!, checks: [...steps[steps.length - 1]!.checks, ccmHolds] };
      break;
    case 'external-leader-migration>leader-migration-ccm':
      steps.push(merge('nothing changes in the rendered CCM', []));
      steps.push(kcmRoll('after-merge', 'switch every kube-controller-manager back to the in-tree provider WITH leader migration and its own file (and each kubelet back to the in-tree provider); the CCM keeps the lease until it fails over'));
      break;
    case 'external-leader-migration>external':
      steps.push({
        when: 'before-merge', by: 'you', action: 'confirm no kube-controller-manager runs leader migration any more and the CCM holds the migration lease',
        checks: [openshift ? OPENSHIFT_KCM_REVISIONS : everyKcm('runs --cloud-provider=external without --enable-leader-migration'), ccmHolds],
      });
      steps.push(merge(`roll the CCM without leader migration${openshift ? ` and prune the MachineConfig ${ctx.machineConfig} (no override points at it any more)` : ''}`, [ccmReady], { ccm: 'apply' }));
      break;
    case 'external>external-leader-migration':
      steps.push(merge(`roll the CCM with leader migration and its own file${openshift ? ` and restore the MachineConfig ${ctx.machineConfig}` : ''}`, [ccmReady, ccmHolds], { ccm: 'apply' }));
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
    out.push([sequence[i]!, sequence[i + 1]!], [sequence[i + 1]!, sequence[i]!]);
  }
  return out;
}

/** Whether a phase's KCM runs leader migration or the external provider (for text). */
export function kcmMode(phase: MigrationPhase): string {
  return externalIn(phase) ? 'external' : kcmLeaderMigrationIn(phase) ? 'in-tree with leader migration' : 'in-tree';
}
