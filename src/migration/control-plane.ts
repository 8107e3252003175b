/**
 * How a distribution's control plane changes during the migration: what the
 * migration needs from it, implemented by each distribution
 * (src/openshift/migration/migration-control-plane.ts: a MachineConfig, a
 * FeatureGate and the KubeControllerManager override;
 * src/kubernetes/migration/migration-control-plane.ts: the administrator
 * edits kubeadm, Cluster API or the static pods). The migration keeps the
 * protocol (phases, leader-migration configuration, lease RBAC, the order of
 * the steps and their lease checks); it never names a distribution.
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { MigrationInput } from './flags';
import { MigrationPhase } from './phases';
import { PlanCheck, PlanStep, ProcessConfig, StepTiming } from './steps';
import { MigrationControlPlaneChecks } from './validate';

/**
 * What the distribution renders to carry the kube-controller-manager's
 * leader-migration file, as the steps name it. Absent where the
 * administrator writes the file by hand.
 */
export interface KcmFileObject {
  /** Its name in a step, e.g. `the MachineConfig NAME`. */
  readonly name: string;
  /** What applying it does, after "apply the lease RBAC and " (in-tree → leader-migration-kcm). */
  readonly apply: string;
  /** The check that it is in place on every control-plane host. */
  readonly applied: PlanCheck;
  /**
   * What the merge that stops rendering it does, after "roll the CCM without leader migration and "
   * (phase external) or "prune the lease RBAC and " (back to in-tree).
   */
  readonly leaveGit: string;
  /** The step after that merge that removes it, when the GitOps engine does not prune it. */
  readonly remove?: PlanStep;
}

/** A phase change the distribution may handle itself, with the migration's helpers. */
export interface ControlPlaneChange {
  readonly input: MigrationInput;
  readonly from: MigrationPhase;
  readonly to: MigrationPhase;
  /** How every kube-controller-manager runs in `to`. */
  readonly kcm: ProcessConfig;
}

/** The distribution's side of the steps of a phase change (the kube-controller-manager, kube-apiserver and kubelets). */
export interface ControlPlaneSteps {
  /**
   * The check that every kube-controller-manager has restarted and `what`; `leaderMigration` says
   * whether leader migration must then be on (true) or off (false), when the distribution can check it;
   * `kcm` is how each then runs (its flags, for a probe of the pods).
   */
  everyKcm(what: string, leaderMigration?: boolean, kcm?: ProcessConfig): PlanCheck;
  /** The step that restarts every kube-controller-manager into `kcm`, making the change `what`. */
  kcmRoll(when: StepTiming, what: string, kcm: ProcessConfig): PlanStep;
  /** in-tree → leader-migration-kcm, after the merge: leader migration on with the KCM's own file. */
  enableLeaderMigration(change: ControlPlaneChange): PlanStep;
  /** leader-migration-kcm → in-tree, before the merge: leader migration off. */
  disableLeaderMigration(change: ControlPlaneChange): PlanStep;
  /**
   * Without leader migration, in-tree → external: the step that switches the
   * kube-controller-manager before the CCM is deployed, when the distribution
   * has one of its own (default: every KCM rolled by hand).
   */
  switchToExternalFirst?(change: ControlPlaneChange): PlanStep | undefined;
  /**
   * Without leader migration, in-tree → external: what the distribution
   * switches once the CCM is up (the kubelets, when they are switched on
   * their own), or undefined when the first step switched everything.
   */
  afterCcmDeployed?(change: ControlPlaneChange): PlanStep | undefined;
  /**
   * leader-migration-ccm → external-leader-migration: the steps that switch the
   * kube-controller-manager and kubelets to external, when the distribution
   * has its own (default: nothing changes in the render, every KCM rolled by hand).
   */
  switchToExternal?(change: ControlPlaneChange): PlanStep[] | undefined;
  /** What carries the KCM's file, when the distribution renders it. */
  readonly kcmFile?: KcmFileObject;
  /**
   * The check that what every kube-controller-manager runs in-tree beyond the cloud controllers (node CIDRs,
   * cloud routes) is taken over, given whether the CCM as rendered runs routes; absent where the distribution
   * cannot read its kube-controller-managers' flags.
   */
  handoverCheck?(input: MigrationInput, ccm: { readonly routes: boolean }): PlanCheck;
}

/** The distribution's side of the migration plan of one cluster. */
export interface ControlPlanePlan extends ControlPlaneSteps {
  /** Who applies each component's change (the plan's "applied by" column). */
  readonly appliedBy: { readonly kcm: string; readonly kubelet: string; readonly apiServer: string };
  /** The distribution's release of this Kubernetes minor, named in the plan (OpenShift 4.x). */
  readonly release?: string;
  /** Whether leaving the external phases is impossible (a one-way switch was made): the plan offers no rollback. */
  readonly oneWayToExternal: boolean;
  /** What the distribution's own objects of this phase change beyond the flags (Markdown paragraphs, one section each in MIGRATION.md). */
  readonly notes?: readonly { readonly title: string; readonly text: string }[];
}

/** How a distribution's control plane takes part in the migration. */
export interface MigrationControlPlane {
  /**
   * Where the kube-controller-manager pod reads its leader-migration file
   * (`MigrationInput.kcmConfigPath`).
   *
   * @default - `KCM_LEADER_MIGRATION_PATH` (the same path on the host and in the pod)
   */
  readonly kcmConfigPath?: string;
  /**
   * The distribution's own checks of a requested migration.
   *
   * @default - none
   */
  readonly checks?: MigrationControlPlaneChecks;
  /** Adds to `scope` the objects that change the control plane in the migration's phase (after the protocol's objects); returns them. */
  renderObjects(scope: Construct, migration: MigrationInput): ApiObject[];
  /** The distribution's side of the plan of the migration's phase. */
  plan(migration: MigrationInput): ControlPlanePlan;
}
