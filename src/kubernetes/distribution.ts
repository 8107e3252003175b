import { CLUSTER_SELECTOR_LABEL, ClusterResourceSetChart } from './cluster-resource-set-chart';
import { CONTROL_PLANE_FILE, controlPlaneMarkdown } from './control-plane-plan';
import { KubernetesCloudControllerManager } from './kubernetes-cloud-controller-manager';
import { KUBERNETES_MIGRATION_CONTROL_PLANE } from './migration/migration-control-plane';
import { kubernetesMigrationTarget } from './migration-target';
import { DistributionRendering } from '../cluster/distribution';
import { bundleYaml, groupByStage, RenderedObject } from '../gitops/layout';

/**
 * What renders a vanilla Kubernetes cluster: the upstream CCM, its output
 * modes (stages, one manifest for k3s/RKE2, a ClusterResourceSet),
 * CONTROL-PLANE.md, and its side of the migration (nothing rendered: the
 * administrator changes the control plane).
 */
export const KUBERNETES_DISTRIBUTION: DistributionRendering = {
  renderCluster: (_chart, cluster) => (scope) => new KubernetesCloudControllerManager(scope, 'Kubernetes', { cluster }),
  outputMode: (spec) => spec.spec.kubernetes?.output.mode ?? 'plain',
  applied(scope, spec, objects) {
    const name = spec.metadata.name;
    const crs = spec.spec.kubernetes!.output.clusterResourceSet;
    const stages = groupByStage(objects);
    if (stages.length === 0) {
      // Phase in-tree: nothing for Cluster API to apply, so neither ConfigMaps nor a ClusterResourceSet.
      return [];
    }
    return new ClusterResourceSetChart(scope, `${name}-crs`, {
      clusterName: name,
      namespace: crs.namespace,
      clusterSelector: crs.clusterSelector ?? { [CLUSTER_SELECTOR_LABEL]: name },
      strategy: crs.strategy,
      apiVersion: crs.apiVersion,
      resources: crs.resources,
      stages: stages.map((g) => ({ directory: g.stage.directory, yaml: bundleYaml(g.objects) })),
    }).toJson() as RenderedObject[];
  },
  extraFiles({ cluster, repoPath, objects, manifestFile }) {
    const { spec } = cluster;
    const section = spec.spec.kubernetes;
    if (!section) {
      return [];
    }
    const name = spec.metadata.name;
    return [
      {
        path: `${name}/${CONTROL_PLANE_FILE}`,
        content: controlPlaneMarkdown({
          clusterName: name,
          platform: spec.spec.platform,
          section,
          migration: cluster.migration,
          outputPath: repoPath,
          manifestFile,
          podSecrets: podSecrets(objects),
        }),
      },
    ];
  },
  migrationTarget: (spec) => kubernetesMigrationTarget(spec.spec.platform, spec.spec.kubernetes!),
  migrationControlPlane: () => KUBERNETES_MIGRATION_CONTROL_PLANE,
};

/** The Secrets the rendered workloads mount, read as env or pull images with, sorted. */
function podSecrets(objects: readonly RenderedObject[]): { namespace: string; name: string; usedBy: string }[] {
  const uses = new Map<string, Set<string>>();
  const add = (namespace: string, name: string, use: string) => {
    const k = `${namespace}/${name}`;
    uses.set(k, (uses.get(k) ?? new Set()).add(use));
  };
  for (const o of objects.filter((x) => x.kind === 'Deployment' || x.kind === 'DaemonSet')) {
    const ns = o.metadata.namespace ?? 'default';
    type Container = { env?: { name: string; valueFrom?: { secretKeyRef?: { name?: string } } }[]; envFrom?: { secretRef?: { name?: string } }[] };
    const pod =
      (
        o.spec as
          | {
              template?: {
                spec?: {
                  volumes?: { name: string; secret?: { secretName?: string } }[];
                  containers?: Container[];
                  initContainers?: Container[];
                  imagePullSecrets?: { name: string }[];
                };
              };
            }
          | undefined
      )?.template?.spec ?? {};
    const who = `${o.kind} ${o.metadata.name}`;
    for (const v of pod.volumes ?? []) {
      if (v.secret?.secretName) {
        add(ns, v.secret.secretName, `volume ${v.name} of ${who}`);
      }
    }
    for (const c of [...(pod.containers ?? []), ...(pod.initContainers ?? [])]) {
      for (const e of c.env ?? []) {
        if (e.valueFrom?.secretKeyRef?.name) {
          add(ns, e.valueFrom.secretKeyRef.name, `env ${e.name} of ${who}`);
        }
      }
      for (const e of c.envFrom ?? []) {
        if (e.secretRef?.name) {
          add(ns, e.secretRef.name, `envFrom of ${who}`);
        }
      }
    }
    for (const p of pod.imagePullSecrets ?? []) {
      add(ns, p.name, `image pull secret of ${who}`);
    }
  }
  return [...uses.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, set]) => ({
      namespace: k.split('/')[0],
      name: k.split('/')[1],
      usedBy: [...set].sort().join('; '),
    }));
}
