/**
 * The rendering side of the migration's composition root
 * (`migration-targets.ts` checks and plans): the distribution's side of a
 * cluster's migration with the objects it renders, by `spec.distribution`.
 */
import { ClusterSpec } from './cluster-spec/schema';
import { KUBERNETES_MIGRATION_CONTROL_PLANE } from './kubernetes/migration/migration-control-plane';
import { kubernetesMigrationTarget } from './kubernetes/migration-target';
import { MigrationControlPlane } from './migration/control-plane';
import { MigrationTarget } from './migration/target';
import { openshiftMigrationControlPlane } from './openshift/migration/migration-control-plane-objects';
import { openshiftMigrationTarget } from './openshift/migration-target';

/** The distribution's side of a cluster's migration. */
export function migrationTargetFor(spec: ClusterSpec): MigrationTarget {
  const kubernetes = spec.spec.kubernetes;
  return spec.spec.distribution === 'kubernetes' && kubernetes
    ? kubernetesMigrationTarget(spec.spec.platform, kubernetes)
    : openshiftMigrationTarget(spec.spec.migration?.featureSet, spec.spec.platform);
}

/** How the control plane of a cluster's distribution changes in the migration. */
export function migrationControlPlaneFor(spec: ClusterSpec): MigrationControlPlane {
  return spec.spec.distribution === 'openshift'
    ? openshiftMigrationControlPlane(spec.spec.migration?.featureSet ?? 'CustomNoUpgrade')
    : KUBERNETES_MIGRATION_CONTROL_PLANE;
}
