/**
 * A replay of an OpenShift cluster going through its migration phases in gitops mode, fed with the
 * rendered `dist/<cluster>/` tree of each phase (`.migration.json` and `HANDOVER.md` included). Each
 * phase change runs the steps of the new tree's `.migration.json` `enter` in order: a `before-merge` or
 * `after-merge` step with `kcm` flags is the KubeControllerManager override the
 * cluster-kube-controller-manager-operator rolls out (its check waits for every node's revision); an
 * `oc delete machineconfig` step deletes it; the `merge` is the difference of the two trees, which Argo CD
 * or Flux applies and prunes when it syncs (the writers of mode-change.ts: CVO, the GitOps engine, the
 * operator). What it reports:
 * - a kube-controller-manager started with `--leader-migration-config` while the MachineConfig that
 *   writes that file is gone (the machine-config-operator removes the file and reboots each master; the
 *   KCM exits at start);
 * - after each phase change, objects written by two writers for ever, operands no writer keeps, operands
 *   deleted while they ran, a z-stream update that stalls (model.ts), and a minor update CVO would be
 *   asked for while overrides are set: CVO refuses it (`Upgradeable=False`, `ClusterVersionOverridesSet`,
 *   openshift/cluster-version-operator@release-4.18 pkg/cvo/upgradeable.go `clusterVersionOverridesUpgradeable`,
 *   pkg/payload/precondition/clusterversion/upgradeable.go), so the tree's HANDOVER.md must send the user
 *   through the way back (the overrides removed) first.
 */
import { notUpgradeableOperatorReasons, readRenderedCluster, replayUpdate, upgradeablePrecondition } from './model';
import { fights, handOver, installedCluster, mergeAndSync, ModeChangeState, operandIds, Tree, unmanagedOperands } from './mode-change';
import { releasePayload } from './payload';

/** The id (mode-change.ts) of the leader-migration MachineConfig. */
export const KCM_MACHINE_CONFIG = 'machineconfiguration.openshift.io/machineconfig//99-master-kcm-leader-migration';

const LEADER_MIGRATION_CONFIG_FLAG = '--leader-migration-config=';

interface PlanStep {
  readonly when: 'before-merge' | 'merge' | 'after-merge';
  readonly action: string;
  readonly command?: string;
  readonly kcm?: { readonly flags: readonly string[] };
}

/** What one phase change left. */
export interface PhaseChangeReport {
  readonly change: string;
  /** KCMs started with the leader-migration file while the MachineConfig writing it was gone. */
  readonly kcmExits: readonly string[];
  readonly fights: readonly string[];
  readonly unmanaged: readonly string[];
  readonly operandsDeleted: readonly string[];
  /** Where a z-stream update stopped, if it started and stopped. */
  readonly zStreamStall?: string;
  /** A minor update requested with overrides set that CVO did not refuse, or that HANDOVER.md does not route through the way back. */
  readonly minorUpdateWithOverrides?: string;
  /** A FeatureGate feature set that refuses minor updates after the way back too, which HANDOVER.md does not say. */
  readonly minorUpdateAfterWayBack?: string;
}

function phaseOf(tree: Tree): string {
  return JSON.parse(tree['.migration.json']).phase;
}

function releaseOf(tree: Tree): string {
  return /release (\d+\.\d+\.\d+)/.exec(tree['HANDOVER.md'] ?? '')![1];
}

function bump(version: string, part: 'minor' | 'patch'): string {
  const [M, m, z] = version.split('.').map(Number) as [number, number, number];
  return part === 'minor' ? `${M}.${m + 1}.0` : `${M}.${m}.${z + 1}`;
}

/** The replay: the cluster as the release installed it, handed over to the first tree, then each tree in order. */
export class MigrationReplay {
  public readonly state: ModeChangeState;
  /** The flags the KCMs run with (the KubeControllerManager override as rolled out). */
  private kcmFlags: readonly string[] = [];
  private readonly operands: ReadonlySet<string>;

  constructor(first: Tree, all: readonly Tree[]) {
    // The CCM's operands: what the last phase keeps (the leader-migration objects leave on purpose).
    this.operands = operandIds(all[all.length - 1]);
    this.state = installedCluster(new Set(), [], first);
    handOver(this.state, first, new Set());
  }

  private kcmReadsFile(): boolean {
    return this.kcmFlags.some((f) => f.startsWith(LEADER_MIGRATION_CONFIG_FLAG));
  }

  private checkKcm(at: string, out: string[]): void {
    if (this.kcmReadsFile() && !this.state.live.has(KCM_MACHINE_CONFIG)) {
      out.push(
        `${at}: kube-controller-manager runs with ${this.kcmFlags.find((f) => f.startsWith(LEADER_MIGRATION_CONFIG_FLAG))} but MachineConfig 99-master-kcm-leader-migration is gone: it exits at start`,
      );
    }
  }

  /** Moves the cluster to `next` by the steps of `next`'s `.migration.json` (enter, or rollback when it goes back). */
  public change(next: Tree): PhaseChangeReport {
    const from = phaseOf(this.state.tree);
    const to = phaseOf(next);
    const plan = JSON.parse(next['.migration.json']);
    const transition =
      [plan.enter, plan.rollback].find((t) => t && t.from === from && t.to === to) ??
      // The plan of `next` describes how it was entered; a rollback is described by the tree left.
      [JSON.parse(this.state.tree['.migration.json']).rollback].find((t) => t && t.from === from && t.to === to);
    if (!transition) {
      throw new Error(`no steps from ${from} to ${to}`);
    }
    const change = `${from} → ${to}`;
    const kcmExits: string[] = [];
    const deletedBefore = this.state.operandsDeleted.length;
    const atStart = this.kcmFlags;
    const merge = () => {
      const before = this.state.live.has(KCM_MACHINE_CONFIG);
      mergeAndSync(this.state, next, this.operands, `${change}: merge`);
      // A before-merge step skipped (or its rollout unfinished) leaves the KCMs as they were: the merge must not take their file.
      if (before && !this.state.live.has(KCM_MACHINE_CONFIG) && atStart.some((f) => f.startsWith(LEADER_MIGRATION_CONFIG_FLAG))) {
        kcmExits.push(
          `${change}, merge: the sync prunes MachineConfig 99-master-kcm-leader-migration while a kube-controller-manager may still run with ` +
            `${atStart.find((f) => f.startsWith(LEADER_MIGRATION_CONFIG_FLAG))}: it exits at start`,
        );
      }
    };
    for (const step of transition.steps as PlanStep[]) {
      if (step.kcm) {
        this.kcmFlags = step.kcm.flags;
      }
      if (step.command?.startsWith('oc delete machineconfig')) {
        this.state.live.delete(KCM_MACHINE_CONFIG);
      }
      if (step.when === 'merge') {
        merge();
      }
      this.checkKcm(`${change}, ${step.when}: ${step.action.split(' (')[0]}`, kcmExits);
    }
    if (this.state.tree !== next) {
      merge();
    }
    const cluster = readRenderedCluster(next);
    const release = releaseOf(next);
    const zStream = replayUpdate(cluster, release, releasePayload(bump(release, 'patch')));
    // The FeatureGate on the cluster (applied by an earlier phase and never pruned), else the one the tree renders.
    const liveGates = [...this.state.live.values()].map((l) => l.obj).filter((o) => o.kind === 'FeatureGate');
    const operatorReasons = notUpgradeableOperatorReasons({ objects: [...liveGates, ...cluster.objects] });
    const minor = upgradeablePrecondition(release, bump(release, 'minor'), cluster.overrides, false, operatorReasons);
    const afterWayBack = upgradeablePrecondition(release, bump(release, 'minor'), [], false, operatorReasons);
    const handover = next['HANDOVER.md'] ?? '';
    let minorUpdateWithOverrides: string | undefined;
    if (cluster.overrides.length > 0 && minor.result !== 'block') {
      minorUpdateWithOverrides = `CVO lets a minor update from ${release} through with ${cluster.overrides.length} overrides set`;
    } else if (
      cluster.overrides.length > 0 &&
      !/\*\*Minor update\*\*[^\n]*refuses it while an override is set[^\n]*take the way back/.test(handover)
    ) {
      minorUpdateWithOverrides = 'HANDOVER.md does not say to remove the overrides (the way back) before a minor update';
    }
    const gate = operatorReasons.find((r) => r.startsWith('FeatureGates_'));
    const minorUpdateAfterWayBack =
      afterWayBack.result === 'block' && gate !== undefined && !/refuses minor updates for good/.test(handover)
        ? `ClusterOperator config-operator stays Upgradeable=False (${gate}) after the way back; HANDOVER.md does not say minor updates are refused for good`
        : undefined;
    return {
      change,
      kcmExits,
      fights: fights(this.state, operandIds(next)),
      unmanaged: unmanagedOperands(this.state, operandIds(next)),
      operandsDeleted: this.state.operandsDeleted.slice(deletedBefore),
      ...(zStream.stall ? { zStreamStall: `${zStream.stall.manifest}: ${zStream.stall.reason}` } : {}),
      ...(minorUpdateWithOverrides ? { minorUpdateWithOverrides } : {}),
      ...(minorUpdateAfterWayBack ? { minorUpdateAfterWayBack } : {}),
    };
  }
}
