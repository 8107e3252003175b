/**
 * What the migration needs from the distribution that renders a cluster. The
 * migration is distribution-neutral (ARCHITECTURE.md: distributions import the
 * migration, never the reverse); each distribution implements this interface
 * (src/openshift/migration-target.ts, src/kubernetes/migration-target.ts) and
 * the composition root (src/fleet/migration-targets.ts) picks one per cluster.
 * Pure: no cdk8s import.
 */
import { MigrationControlPlane } from './control-plane';
import { RenderedObject } from '../gitops/layout';

/** A distribution's side of a migration: where its CCM runs, how to find it, how its control plane changes. */
export interface MigrationTarget {
  /** Namespace of the CCM: its LeaderMigrationConfiguration ConfigMap goes there. */
  readonly ccmNamespace: string;
  /** The CCM's ServiceAccount name (in `ccmNamespace`): the migration lease RBAC binds it. */
  readonly ccmServiceAccount: string;
  /** Whether a rendered object is the CCM workload (the plan reads its leader-migration flags). */
  isCcmWorkload(object: RenderedObject): boolean;
  /** `kind/name` of the CCM workload, lower-case kind, for the plan when the workload is not rendered here. */
  readonly ccmWorkload: string;
  /** How the distribution's control plane (kube-controller-manager, kube-apiserver, kubelets) changes in each phase. */
  readonly controlPlane: MigrationControlPlane;
}
