import { ClusterSpec } from './cluster-spec/schema';
import { kubernetesMigrationTarget } from './kubernetes/migration-target';
import { MigrationTarget } from './migration/target';
import { OPENSHIFT_MIGRATION_TARGET } from './openshift/migration-target';

/** The distribution's side of a cluster's migration (composition root: the migration imports no distribution). */
export function migrationTargetFor(spec: ClusterSpec): MigrationTarget {
  const kubernetes = spec.spec.kubernetes;
  return spec.spec.distribution === 'kubernetes' && kubernetes
    ? kubernetesMigrationTarget(spec.spec.platform, kubernetes)
    : OPENSHIFT_MIGRATION_TARGET;
}
