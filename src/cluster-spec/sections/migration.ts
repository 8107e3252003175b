/**
 * The vocabulary of `spec.migration`: the phase names, the lease defaults and
 * the Kubernetes minor pattern. What each phase means for rendering is in
 * src/migration/phases.ts, which re-exports these. Pure: no cdk8s import.
 */

/**
 * The phases, in migration order; rollback walks them backwards. They follow
 * the order of the implemented KEP-2436 and the kubernetes.io task "Migrate
 * Replicated Control Plane To Use Cloud Controller Manager"
 * (kubernetes/website content/en/docs/tasks/administer-cluster/controller-manager-leader-migration.md;
 * kubernetes/enhancements keps/sig-cloud-provider/2436-controller-manager-leader-migration/README.md):
 * - `in-tree`: the kube-controller-managers (KCMs) run the cloud controllers with the in-tree provider;
 * - `leader-migration-kcm`: leader migration on every KCM, with the KCM's own file
 *   (`component: kube-controller-manager`); no CCM yet;
 * - `leader-migration-ccm`: the CCM is deployed with leader migration and its own file
 *   (`component: cloud-controller-manager`); whoever holds the migration lease runs the controllers;
 * - `external-leader-migration`: the KCMs (and kubelets) move to `--cloud-provider=external`
 *   WITHOUT leader migration ("kube-controller-manager of version N+1 MUST NOT have Leader
 *   Migration enabled"); the last KCM that held the migration lease gives it up and the CCM takes it;
 * - `external`: leader migration off on the CCM too (optional upstream; a cluster may stay in
 *   `external-leader-migration`).
 */
export const MIGRATION_PHASES = ['in-tree', 'leader-migration-kcm', 'leader-migration-ccm', 'external-leader-migration', 'external'] as const;
export type MigrationPhase = (typeof MIGRATION_PHASES)[number];

/** The default migration lease name (k8s.io/controller-manager default configuration). */
export const DEFAULT_LEADER_NAME = 'cloud-provider-extraction-migration';
/** The namespace both controller managers elect leaders in by default. */
export const DEFAULT_LEASE_NAMESPACE = 'kube-system';

/** A Kubernetes minor version written `1.NN`. */
export const KUBERNETES_MINOR = /^1\.(0|[1-9][0-9]*)$/;
