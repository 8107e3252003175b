/**
 * Replays what a GitOps engine does to a cluster, one applied or deleted object at a time, and reports every
 * intermediate state in which a running cloud-controller-manager lost something it needs. It never imports src/:
 * it reads the rendered trees as files, and takes the engine's order from the Argo CD and Flux models.
 *
 * Facts used:
 * - A CCM with `--leader-elect` renews its own lease in `--leader-elect-resource-namespace` (default kube-system),
 *   named `--leader-elect-resource-name` (default cloud-controller-manager); with `--enable-leader-migration` it also
 *   renews the migration lease `leaderName` of its LeaderMigrationConfiguration. When a renewal fails past the renew
 *   deadline the process exits (kubernetes/cloud-provider@v0.30.0 app/controllermanager.go, leaderElectAndRun:
 *   OnStoppedLeading calls klog.Fatalf "leaderelection lost"; options/options.go defaults). A Forbidden update is
 *   such a failure (kubernetes/client-go@v0.30.0 tools/leaderelection/leaderelection.go renew).
 * - A CCM that has not acquired a lease waits for it (the same acquire loop retries), so only leases the running
 *   process held in the state before the change are needs: a grant that never held is not one that is lost.
 * - A rolled workload runs its new pod template once the engine moves past it: Argo CD starts the next wave only
 *   when the workload is healthy, Flux's workloads stage is Ready only when the rollout is done (see the models).
 *   A pod that starts needs its ServiceAccount and every ConfigMap it mounts without `optional: true`
 *   (kubernetes/kubernetes@v1.30.0 pkg/volume/configmap/configmap.go SetUpAt: a missing ConfigMap fails the mount).
 * - A running pod's token names its ServiceAccount and its UID: once that is deleted (or replaced by one of the same
 *   name) the apiserver refuses the token (kubernetes/kubernetes@v1.30.14 pkg/serviceaccount/claims.go,
 *   validator.Validate: GetServiceAccount fails, or the UID no longer matches the claim), so the CCM can renew no lease and exits.
 */
import { parse } from 'yaml';
import { BOOTSTRAP_ROLES, RbacAuthorizer, serviceAccountUser } from '../rbac-authorizer';

/** `Kind namespace/name`. */
export type ObjectKey = string;

/** One thing the engine does to one object, in order; `by` names the Application wave or Flux Kustomization. */
export interface ReplayEvent {
  readonly by: string;
  readonly action: 'apply' | 'prune' | 'orphan';
  readonly object: ObjectKey;
}

/** A state in which a running component lost something it needs. */
export interface Hazard {
  /** Index of the event after which it holds. */
  readonly after: number;
  readonly event: ReplayEvent;
  readonly problem: string;
}

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  [key: string]: any;
}

export const keyOf = (o: Manifest): ObjectKey => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** Every object of the cluster's stage folders (`<cluster>/NN-stage/*.yaml`), by key. */
export function stageObjects(tree: Record<string, string>, cluster: string): Map<ObjectKey, Manifest> {
  const out = new Map<ObjectKey, Manifest>();
  const stageFile = new RegExp(`^${cluster}/[0-9]{2}-[^/]+/[^/]+\\.yaml$`);
  for (const [path, text] of Object.entries(tree)) {
    if (stageFile.test(path) && !path.endsWith('/kustomization.yaml')) {
      const o = parse(text) as Manifest;
      out.set(keyOf(o), o);
    }
  }
  return out;
}

interface Lease {
  readonly namespace: string;
  readonly name: string;
}

const leaseKey = (l: Lease): string => `${l.namespace}/${l.name}`;

interface RunningCcm {
  readonly workload: ObjectKey;
  readonly serviceAccount: { namespace: string; name: string };
  readonly leases: readonly Lease[];
}

// a flag given twice takes its last value (spf13/pflag sets it again)
const flag = (args: readonly string[], name: string): string | undefined => {
  const last = [...args].reverse().find((a) => a === name || a.startsWith(`${name}=`));
  return last === undefined ? undefined : last === name ? 'true' : last.slice(name.length + 1);
};

/** The CCM a workload runs, with the leases it renews (its leader-migration file read from `objects`). */
function ccmOf(w: Manifest, objects: ReadonlyMap<ObjectKey, Manifest>): RunningCcm | undefined {
  if (w.kind !== 'Deployment' && w.kind !== 'DaemonSet') return undefined;
  const pod = w.spec.template.spec;
  const container = (pod.containers as { args?: string[]; command?: string[]; volumeMounts?: { name: string; mountPath: string }[] }[]).find((c) =>
    [...(c.command ?? []), ...(c.args ?? [])].some((a) => a.startsWith('--cloud-provider') || a.includes('cloud-controller-manager')),
  );
  if (!container) return undefined;
  // OpenShift's CCM starts through a shell script: its flags are the words of that script
  const args = [...(container.command ?? []), ...(container.args ?? [])].flatMap((a) => a.replace(/\\\n/g, ' ').split(/\s+/)).filter((a) => a);
  const namespace = w.metadata.namespace ?? 'default';
  const leases: Lease[] = [];
  if (flag(args, '--leader-elect') !== 'false') {
    leases.push({
      namespace: flag(args, '--leader-elect-resource-namespace') ?? 'kube-system',
      name: flag(args, '--leader-elect-resource-name') ?? 'cloud-controller-manager',
    });
    if (flag(args, '--enable-leader-migration') === 'true') {
      const file = flag(args, '--leader-migration-config');
      const mount = (container.volumeMounts ?? []).find((m) => file?.startsWith(`${m.mountPath}/`));
      const volume = ((pod.volumes ?? []) as { name: string; configMap?: { name: string } }[]).find((v) => v.name === mount?.name);
      const cm = volume?.configMap ? objects.get(`ConfigMap ${namespace}/${volume.configMap.name}`) : undefined;
      const config = cm ? (parse(Object.values(cm.data as Record<string, string>)[0]) as { leaderName?: string }) : {};
      leases.push({ namespace: leases[0].namespace, name: config.leaderName ?? 'cloud-provider-extraction-migration' });
    }
  }
  return { workload: keyOf(w), serviceAccount: { namespace, name: pod.serviceAccountName ?? 'default' }, leases };
}

function mayRenew(live: ReadonlyMap<ObjectKey, Manifest>, ccm: RunningCcm, lease: Lease): boolean {
  // a binding whose role is gone grants nothing (the apiserver's authorizer skips it)
  const bootstrap = new Set(BOOTSTRAP_ROLES.map((r) => r.metadata.name));
  const granting = [...live.values()].filter((o) => {
    const ref = o.roleRef as { kind: string; name: string } | undefined;
    if (!ref || (o.kind !== 'RoleBinding' && o.kind !== 'ClusterRoleBinding')) return true;
    return ref.kind === 'Role'
      ? live.has(`Role ${o.metadata.namespace}/${ref.name}`)
      : live.has(`ClusterRole /${ref.name}`) || bootstrap.has(ref.name);
  });
  const authorizer = new RbacAuthorizer(granting);
  const user = serviceAccountUser(ccm.serviceAccount.namespace, ccm.serviceAccount.name);
  return authorizer.allows(user, {
    verb: 'update',
    apiGroup: 'coordination.k8s.io',
    resource: 'leases',
    name: lease.name,
    namespace: lease.namespace,
  });
}

/** What a pod of the workload needs to start: its ServiceAccount and its non-optional ConfigMaps. */
function startNeeds(w: Manifest): ObjectKey[] {
  const pod = w.spec.template.spec;
  const ns = w.metadata.namespace ?? 'default';
  const volumes = (pod.volumes ?? []) as { configMap?: { name: string; optional?: boolean } }[];
  return [
    `ServiceAccount ${ns}/${pod.serviceAccountName ?? 'default'}`,
    ...volumes.filter((v) => v.configMap && v.configMap.optional !== true).map((v) => `ConfigMap ${ns}/${v.configMap!.name}`),
  ];
}

/**
 * Walks `events` from the live state `before` (the objects of the previous tree) towards `after`, and reports:
 * - a running CCM that may no longer renew a lease it renewed before (it exits: "an object a running component
 *   needs is gone");
 * - a workload rolled while its ServiceAccount or a mounted ConfigMap is missing (its new pods cannot start);
 * - no CCM running at some state although both trees run one ("nothing runs the cloud controllers").
 * Objects the engine does not manage (the rendered tree's own ServiceAccount or ConfigMap of another tree) count as
 * live only when the tree has them: the replay asserts that the tree is self-sufficient.
 */
export function replayHazards(
  before: Record<string, string>,
  after: Record<string, string>,
  cluster: string,
  events: readonly ReplayEvent[],
): Hazard[] {
  const was = stageObjects(before, cluster);
  const now = stageObjects(after, cluster);
  const live = new Map(was);
  const running = new Map<ObjectKey, RunningCcm & { held: Set<string>; account: boolean }>();
  const accountOf = (ccm: RunningCcm): ObjectKey => `ServiceAccount ${ccm.serviceAccount.namespace}/${ccm.serviceAccount.name}`;
  for (const o of was.values()) {
    const ccm = ccmOf(o, was);
    if (ccm) {
      const held = new Set(ccm.leases.filter((l) => mayRenew(was, ccm, l)).map(leaseKey));
      running.set(ccm.workload, { ...ccm, held, account: was.has(accountOf(ccm)) });
    }
  }
  const bothRun = running.size > 0 && [...now.values()].some((o) => ccmOf(o, now) !== undefined);
  const hazards: Hazard[] = [];
  events.forEach((event, i) => {
    const report = (problem: string): void => {
      hazards.push({ after: i, event, problem });
    };
    if (event.action === 'prune') {
      live.delete(event.object);
      running.delete(event.object);
    } else if (event.action === 'apply') {
      const o = now.get(event.object);
      if (!o) throw new Error(`the replay applies ${event.object}, which the new tree does not hold`);
      live.set(event.object, o);
      const ccm = ccmOf(o, now);
      if (ccm) {
        for (const need of startNeeds(o).filter((k) => !live.has(k))) {
          report(`${event.object} rolls while ${need} is missing: its new pods cannot start`);
        }
        // the new pods wait for a lease they may not yet access; it becomes a need once they may renew it
        running.set(ccm.workload, { ...ccm, held: new Set(), account: live.has(accountOf(ccm)) });
      }
    }
    for (const ccm of running.values()) {
      if (live.has(accountOf(ccm))) {
        ccm.account = true;
      } else if (ccm.account) {
        report(`${ccm.workload} still runs but its ${accountOf(ccm)} is gone: the apiserver refuses its token and it exits`);
      }
      for (const lease of ccm.leases) {
        if (mayRenew(live, ccm, lease)) {
          ccm.held.add(leaseKey(lease));
        } else if (ccm.held.has(leaseKey(lease))) {
          report(`${ccm.workload} still runs but may no longer renew lease ${leaseKey(lease)}: it exits ("leaderelection lost")`);
        }
      }
    }
    if (bothRun && running.size === 0) {
      report('no CCM runs: nothing runs the cloud controllers');
    }
  });
  return hazards;
}

/** Argo CD's sync as replay events, each named by its phase and wave (hooks are not tracked objects). */
export function fromArgo(events: readonly { phase: string; wave: number; action: string; object: string }[]): ReplayEvent[] {
  return events
    .filter((e) => e.action === 'apply' || e.action === 'prune')
    .map((e) => ({ by: `${e.phase} wave ${e.wave}`, action: e.action as 'apply' | 'prune', object: e.object }));
}

/** Flux's reconciles as replay events, one per object, each named by its Kustomization. */
export function fromFlux(
  events: readonly { kustomization: string; action: 'apply' | 'prune' | 'orphan'; objects: readonly string[] }[],
): ReplayEvent[] {
  return events.flatMap((e) => e.objects.map((object) => ({ by: e.kustomization, action: e.action, object })));
}

/** The leases each CCM of a tree renews once it runs, `namespace/name`, by workload (for checking the replay reads the tree). */
export function ccmLeases(tree: Record<string, string>, cluster: string): Record<ObjectKey, string[]> {
  const objects = stageObjects(tree, cluster);
  const out: Record<ObjectKey, string[]> = {};
  for (const o of objects.values()) {
    const ccm = ccmOf(o, objects);
    if (ccm) out[ccm.workload] = ccm.leases.map(leaseKey);
  }
  return out;
}
