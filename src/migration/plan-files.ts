import { ApiObject } from 'cdk8s';
import { Distribution } from '../cluster-spec/schema';
import { RenderedFile, RenderedObject } from '../gitops/layout';
import { ccmLeaderMigrationFlags, MigrationInput } from './flags';
import { ccmLeaderMigrationMount } from './cluster-migration';
import { phaseSequence } from './phases';
import { buildMigrationPlan, migrationMarkdown, MigrationPlan, PlannedObject } from './plan';
import { ccmElectionFlags } from './step-model';
import { MigrationTarget } from './target';

/** File names of the plan, in the cluster's output folder. */
export const MIGRATION_MARKDOWN = 'MIGRATION.md';
/** Hidden, like `.fleet.json`: manifest readers take every `*.json` for a Kubernetes object. */
export const MIGRATION_JSON = '.migration.json';

function identity(o: { kind: string; metadata: { name?: string; namespace?: string } }): PlannedObject {
  return { kind: o.kind, name: o.metadata.name ?? '', ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}) };
}

function byIdentity(a: PlannedObject, b: PlannedObject): number {
  const ka = `${a.kind}/${a.namespace ?? ''}/${a.name}`;
  const kb = `${b.kind}/${b.namespace ?? ''}/${b.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** What the plan needs of a cluster that declares a migration. */
export interface MigratingCluster {
  /** The target distribution (named in the plan). */
  readonly distribution: Distribution;
  /** The cluster's migration. */
  readonly migration: MigrationInput;
  /** The distribution's side of the migration. */
  readonly target: MigrationTarget;
  /**
   * What identifies the cluster across a rename (platform and infrastructure
   * name), recorded so the phase guard finds a renamed cluster's last phase.
   *
   * @default - not recorded
   */
  readonly identity?: string;
}

/** `kind/name` of the CCM workload the steps name: the rendered one, else the distribution's default. */
export function ccmWorkloadOf(target: MigrationTarget, objects: readonly RenderedObject[]): string {
  const ccm = objects.find((o) => target.isCcmWorkload(o));
  return ccm ? `${ccm.kind.toLowerCase()}/${ccm.metadata.name}` : target.ccmWorkload;
}

/** The plan of a cluster that declares a migration. */
export function clusterMigrationPlan(
  name: string,
  cluster: MigratingCluster,
  objects: readonly RenderedObject[],
  rendered: readonly ApiObject[],
): MigrationPlan {
  const m = cluster.migration;
  const target = cluster.target;
  const ccm = objects.find((o) => target.isCcmWorkload(o));
  const mount = ccmLeaderMigrationMount(m);
  const workload = ccmWorkloadOf(target, objects);
  return buildMigrationPlan({
    ...m,
    cluster: name,
    distribution: cluster.distribution,
    phases: phaseSequence(m.support),
    rendered: rendered.map((o) => identity({ kind: o.kind, metadata: { name: o.metadata.name, namespace: o.metadata.namespace } })).sort(byIdentity),
    ccm: {
      workload,
      namespace: target.ccmNamespace,
      serviceAccount: target.ccmServiceAccount,
      leaderMigrationFlags: ccm && mount ? ccmLeaderMigrationFlags([], mount) : [],
      ...(ccm ? { electionFlags: ccmElectionFlags(ccm) } : {}),
    },
    controlPlane: target.controlPlane.plan(m),
  });
}

function withoutProbes(key: string, value: unknown): unknown {
  return key === 'probes' || key === 'holdings' ? undefined : value;
}

/** MIGRATION.md and .migration.json of a cluster. */
export function migrationPlanFiles(
  name: string,
  cluster: MigratingCluster,
  objects: readonly RenderedObject[],
  rendered: readonly ApiObject[],
): RenderedFile[] {
  const plan = clusterMigrationPlan(name, cluster, objects, rendered);
  const { cluster: planned, ...rest } = plan;
  return [
    { path: `${name}/${MIGRATION_MARKDOWN}`, content: migrationMarkdown(plan) },
    // the probes are how migration preflight reads an export: the record keeps the checks as people read them (and MIGRATION.md the diagrams)
    {
      path: `${name}/${MIGRATION_JSON}`,
      content: `${JSON.stringify(cluster.identity ? { cluster: planned, identity: cluster.identity, ...rest } : plan, withoutProbes, 2)}\n`,
    },
  ];
}
