/**
 * The migration phases of a cluster moving from an in-tree cloud provider to
 * its external CCM, and what each platform allows. Pure: no cdk8s import.
 */

// The spec's vocabulary (the phases, the lease defaults, the minor pattern) lives with the spec section.
import { KUBERNETES_MINOR, MIGRATION_PHASES, MigrationPhase } from '../cluster-spec/sections/migration';
export { DEFAULT_LEADER_NAME, DEFAULT_LEASE_NAMESPACE, KUBERNETES_MINOR, MIGRATION_PHASES } from '../cluster-spec/sections/migration';
export type { MigrationPhase } from '../cluster-spec/sections/migration';

/** The phases in which at least one controller manager runs with leader migration. */
export const LEADER_MIGRATION_PHASES: readonly MigrationPhase[] = ['leader-migration-kcm', 'leader-migration-ccm', 'external-leader-migration'];

/** Whether a phase runs leader migration on either side. */
export function isLeaderMigrationPhase(phase: MigrationPhase): boolean {
  return LEADER_MIGRATION_PHASES.includes(phase);
}

/** Whether the KCMs run with leader migration (and their own file) in a phase. */
export function kcmLeaderMigrationIn(phase: MigrationPhase): boolean {
  return phase === 'leader-migration-kcm' || phase === 'leader-migration-ccm';
}

/** Whether the CCM runs with leader migration (and its own file) in a phase. */
export function ccmLeaderMigrationIn(phase: MigrationPhase): boolean {
  return phase === 'leader-migration-ccm' || phase === 'external-leader-migration';
}

/** Whether the CCM is deployed in a phase. */
export function ccmDeployedIn(phase: MigrationPhase): boolean {
  return phase === 'leader-migration-ccm' || phase === 'external-leader-migration' || phase === 'external';
}

/** Whether the KCMs, kubelets and API servers run `--cloud-provider=external` in a phase. */
export function externalIn(phase: MigrationPhase): boolean {
  return phase === 'external-leader-migration' || phase === 'external';
}

/**
 * What a platform allows for migration. A platform without this never had an
 * in-tree provider (IBM Cloud, Power VS, Nutanix, Alibaba Cloud, Azure Stack
 * Hub on OpenShift) and only has the `external` phase.
 */
export interface MigrationSupport {
  /** The in-tree provider name (`--cloud-provider` value of the KCM and kubelet). */
  readonly inTreeProvider: string;
  /** The in-tree volume plugin (`--external-cloud-volume-plugin` value). */
  readonly volumePlugin: string;
  /** The last Kubernetes minor whose kube-controller-manager has this in-tree provider (as `1.NN` → NN). */
  readonly lastInTreeMinor: number;
  /**
   * The first Kubernetes minor in which OpenShift runs this platform's external CCM by default
   * (OpenShift 4.N runs Kubernetes 1.(N+13)); from then on the operators have migrated it.
   */
  readonly openshiftExternalSinceMinor: number;
  /** OpenShift feature gates that make the operators switch this platform to external before that version. */
  readonly openshiftFeatureGates: readonly string[];
  /** Whether the in-tree kubelet and KCM read a cloud config file (`--cloud-config`). */
  readonly inTreeCloudConfig: boolean;
  /**
   * Why the external CCM cannot take part in leader migration, when it cannot;
   * the platform then goes from `in-tree` straight to `external`.
   *
   * @default - the CCM implements leader migration
   */
  readonly noLeaderMigration?: string;
}

/** The NN of `1.NN`. */
export function minorOf(version: string): number {
  const m = KUBERNETES_MINOR.exec(version);
  if (!m) {
    throw new Error(`not a Kubernetes minor version: ${JSON.stringify(version)}`);
  }
  return Number(m[1]);
}

/** The phases a platform goes through, in migration order. */
export function phaseSequence(support: MigrationSupport | undefined): readonly MigrationPhase[] {
  if (!support) {
    return ['external'];
  }
  return support.noLeaderMigration ? ['in-tree', 'external'] : MIGRATION_PHASES;
}

/** The phase after `phase` on the way to `external`, if any. */
export function nextPhase(sequence: readonly MigrationPhase[], phase: MigrationPhase): MigrationPhase | undefined {
  const i = sequence.indexOf(phase);
  return i >= 0 && i + 1 < sequence.length ? sequence[i + 1] : undefined;
}

/** The phase a rollback from `phase` goes to, if any. */
export function previousPhase(sequence: readonly MigrationPhase[], phase: MigrationPhase): MigrationPhase | undefined {
  const i = sequence.indexOf(phase);
  return i > 0 ? sequence[i - 1] : undefined;
}

/**
 * Why moving from the rendered phase `from` to the requested `to` is not
 * allowed (one step forward or back per change), or undefined when it is.
 */
export function transitionProblem(sequence: readonly MigrationPhase[], from: string, to: MigrationPhase): string | undefined {
  if (from === to) {
    return undefined;
  }
  const i = sequence.indexOf(from as MigrationPhase);
  const j = sequence.indexOf(to);
  if (i < 0) {
    return (
      `the last render has phase "${from}", which this platform does not have (its phases: ${sequence.join(' → ')}); ` +
      `set the phase back to "${from}" only if the cluster really is there, or remove the cluster's output to start over at "${to}"`
    );
  }
  if (Math.abs(i - j) === 1) {
    return undefined;
  }
  const legal = [sequence[i - 1], sequence[i + 1]].filter((p): p is MigrationPhase => p !== undefined);
  const direction = j > i ? 'skips' : 'rolls back past';
  const skipped = (j > i ? sequence.slice(i + 1, j) : sequence.slice(j + 1, i).reverse()).map((p) => `"${p}"`).join(', ');
  return (
    `moves from "${from}" to "${to}" in one change, which ${direction} ${skipped}; each phase is its own reviewed change: ` +
    `the legal next step is ${legal.map((p) => `"${p}"`).join(' or ')}`
  );
}
