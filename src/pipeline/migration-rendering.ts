/**
 * The rendering side of the migration's composition root
 * (`migration-targets.ts` checks and plans): the distribution's side of a
 * cluster's migration with the objects it renders, by `spec.distribution`
 * (`distributions.ts`).
 */
import { ClusterSpec } from '../cluster-spec/schema';
import { distributionOf } from '../distributions';
import { MigrationTarget } from '../migration/target';

/** The distribution's side of a cluster's migration. */
export function migrationTargetFor(spec: ClusterSpec): MigrationTarget {
  return distributionOf(spec).migrationTarget(spec);
}
