import { ApiObject } from 'cdk8s';
import { CCM_SERVICE_ACCOUNT, OPERAND_NAMESPACE } from '../openshift/constants';
import { CCM_PLATFORM_LABEL } from '../openshift/pod-conventions';
import { RenderedFile, RenderedObject } from '../gitops/layout';
import { PreparedCluster } from '../platforms/platform';
import { upstreamProviderFor } from '../kubernetes/providers';
import { UPSTREAM_CCM_SERVICE_ACCOUNT } from '../kubernetes/workload-plan';
import { ccmLeaderMigrationFlags } from './flags';
import { ccmLeaderMigrationMount } from './cluster-migration';
import { phaseSequence } from './phases';
import { buildMigrationPlan, migrationMarkdown, MigrationPlan, OpenShiftPlanInput, PlannedObject } from './plan';

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

/** The plan of a cluster that declares a migration. */
export function clusterMigrationPlan(name: string, cluster: PreparedCluster, objects: readonly RenderedObject[], rendered: readonly ApiObject[], openshift?: OpenShiftPlanInput): MigrationPlan {
  const m = cluster.migration!;
  const kubernetes = cluster.spec.spec.kubernetes;
  const isCcm = (o: RenderedObject) => ((o.kind === 'Deployment' || o.kind === 'DaemonSet')
    && (kubernetes ? /cloud-controller-manager$/.test(o.metadata.name ?? '') : (o.metadata as { labels?: Record<string, string> }).labels?.[CCM_PLATFORM_LABEL] !== undefined));
  const ccm = objects.find(isCcm);
  const mount = ccmLeaderMigrationMount(m);
  const workload = ccm ? `${ccm.kind.toLowerCase()}/${ccm.metadata.name}` : kubernetes ? `${kubernetes.workload.kind === 'DaemonSet' ? 'daemonset' : 'deployment'}/${upstreamProviderFor(cluster.spec.spec.platform as never)?.name ?? 'cloud'}-cloud-controller-manager` : 'deployment/cloud-controller-manager';
  return buildMigrationPlan({
    ...m,
    cluster: name,
    distribution: cluster.spec.spec.distribution,
    phases: phaseSequence(m.support),
    rendered: rendered.map((o) => identity({ kind: o.kind, metadata: { name: o.metadata.name, namespace: o.metadata.namespace } })).sort(byIdentity),
    ccm: {
      workload,
      namespace: kubernetes ? kubernetes.namespace : OPERAND_NAMESPACE,
      serviceAccount: kubernetes ? UPSTREAM_CCM_SERVICE_ACCOUNT : CCM_SERVICE_ACCOUNT,
      leaderMigrationFlags: ccm && mount ? ccmLeaderMigrationFlags([], mount) : [],
    },
    openshift,
  });
}

/** MIGRATION.md and .migration.json of a cluster. */
export function migrationPlanFiles(name: string, cluster: PreparedCluster, objects: readonly RenderedObject[], rendered: readonly ApiObject[], openshift?: OpenShiftPlanInput): RenderedFile[] {
  const plan = clusterMigrationPlan(name, cluster, objects, rendered, openshift);
  return [
    { path: `${name}/${MIGRATION_MARKDOWN}`, content: migrationMarkdown(plan) },
    { path: `${name}/${MIGRATION_JSON}`, content: `${JSON.stringify(plan, null, 2)}\n` },
  ];
}
