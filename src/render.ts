import { App } from 'cdk8s';
import { ClusterChart } from './cluster-chart';
import { ClusterGitOpsChart } from './gitops/cluster-gitops-chart';
import { FluxHealthCheck } from './gitops/flux-stage-chain';
import { directoryFiles, groupByStage, kustomization, RenderedFile, RenderedObject } from './gitops/layout';
import { STAGE_CREDENTIALS, STAGE_WORKLOADS } from './gitops/stages';
import { PreparedCluster } from './platforms/platform';
import { Fleet } from './spec/load';

/** Directory of a cluster's GitOps engine objects, beside its stages. */
export const GITOPS_DIRECTORY = 'gitops';

/**
 * Renders one cluster into files under `<cluster>/`: one directory per
 * non-empty stage, each with its kustomization, a cluster kustomization
 * listing the stages in order, and the GitOps engine objects in `gitops/`.
 */
export function renderCluster(cluster: PreparedCluster): RenderedFile[] {
  const name = cluster.spec.metadata.name;
  const app = new App({ outdir: 'unused' });
  const objects = new ClusterChart(app, name, { cluster }).toJson() as RenderedObject[];
  const groups = groupByStage(objects);
  const files: RenderedFile[] = [];
  for (const group of groups) {
    files.push(...directoryFiles(`${name}/${group.stage.directory}`, group.objects));
  }
  files.push({ path: `${name}/kustomization.yaml`, content: kustomization(groups.map((g) => g.stage.directory)) });

  const stages = groups.map((g) => ({
    stage: g.stage,
    healthChecks: g.stage === STAGE_CREDENTIALS ? credentialSecrets(g.objects) : g.stage === STAGE_WORKLOADS ? workloads(g.objects) : undefined,
  }));
  const gitops = new ClusterGitOpsChart(app, `${name}-gitops`, { spec: cluster.spec, stages }).toJson() as RenderedObject[];
  if (gitops.length > 0) {
    files.push(...directoryFiles(`${name}/${GITOPS_DIRECTORY}`, gitops));
  }
  return files;
}

/** Renders every cluster of a fleet; paths are unique because cluster names are. */
export function renderFleet(fleet: Fleet): RenderedFile[] {
  return fleet.clusters.flatMap(renderCluster);
}

/** The Secrets the cloud-credential-operator creates for the rendered CredentialsRequests. */
function credentialSecrets(objects: readonly RenderedObject[]): FluxHealthCheck[] {
  return objects
    .filter((o) => o.kind === 'CredentialsRequest')
    .map((o) => (o.spec as { secretRef: { name: string; namespace: string } }).secretRef)
    .map((ref) => ({ apiVersion: 'v1', kind: 'Secret', name: ref.name, namespace: ref.namespace }));
}

/** The Deployments and DaemonSets of a stage, for Flux to wait on by name. */
function workloads(objects: readonly RenderedObject[]): FluxHealthCheck[] {
  return objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'DaemonSet')
    .map((o) => ({ apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, namespace: o.metadata.namespace }));
}
