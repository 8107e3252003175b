import { clusterIdentity } from '../cluster-spec/identity';
import { App, Chart } from 'cdk8s';
import { ApiObject } from 'cdk8s';
import { ClusterChart } from './cluster-chart';
import { distributionOf } from '../distributions';
import { migrationPlanFiles } from '../migration/plan-files';
import { migrationTargetFor } from './migration-rendering';
import { ccmDeployedIn } from '../migration/phases';
import { FleetEntry, fleetSummaryFiles } from './fleet-summary';
import { ClusterGitOpsChart } from '../gitops/cluster-gitops-chart';
import { FluxEntryKustomization } from '../gitops/flux-entry-kustomization';
import { FluxHealthCheck } from '../gitops/flux-stage-chain';
import { argoCdGroups, FLEET_DIRECTORY, FleetGitOpsChart, HubProjectsChart } from '../gitops/fleet-gitops-chart';
import { ArgoCdMember, clusterRepoPath } from '../gitops/repo-path';
import { bundleYaml, directoryFiles, groupByStage, kustomization, RenderedFile, RenderedObject } from '../gitops/layout';
import { Stage, STAGE_CREDENTIALS, STAGE_WORKLOADS, STAGES } from '../gitops/stages';
import { PreparedCluster } from '../cluster/prepared-cluster';
import { Fleet } from '../fleet/load';

/** Directory of a cluster's GitOps engine objects, beside its stages. */
export const GITOPS_DIRECTORY = 'gitops';
/** Directory of the single manifest of output mode manifest-dir (k3s/RKE2). */
export const MANIFESTS_DIRECTORY = 'manifests';
/** Directory of a Flux cluster's entry Kustomization. */
export const FLUX_ENTRY_DIRECTORY = 'flux-entry';

/** One rendered cluster: its files and its fleet summary line. */
export interface RenderedCluster {
  /** Cluster name (its folder). */
  readonly name: string;
  /** Files under `<name>/`. */
  readonly files: RenderedFile[];
  /** The cluster's line in FLEET.md / .fleet.json. */
  readonly entry: FleetEntry;
}

/**
 * Renders one cluster into files under `<cluster>/`: one directory per
 * non-empty stage, each with its kustomization, a cluster kustomization
 * listing the stages in order, the GitOps engine objects in `gitops/` and,
 * for Flux, the entry Kustomization in `flux-entry/`.
 */
export function renderCluster(cluster: PreparedCluster, outputPath = 'dist'): RenderedCluster {
  const { spec } = cluster;
  const name = spec.metadata.name;
  // where the engines find this cluster in the repository: derived from --out, never assumed
  const repoPath = clusterRepoPath(outputPath, name);
  const app = new App({ outdir: 'unused' });
  const chart = new ClusterChart(app, name, { cluster });
  const objects = chart.toJson() as RenderedObject[];
  const distribution = distributionOf(spec);
  const mode = distribution.outputMode(spec);
  const files: RenderedFile[] = [];
  let groups: { stage: Stage; objects: RenderedObject[] }[] = [];
  let manifestFile: string | undefined;
  if (mode === 'manifest-dir') {
    // k3s / RKE2 apply each file of server/manifests themselves: one file, stages in order
    manifestFile = `${MANIFESTS_DIRECTORY}/ccm-gitops-${name}.yaml`;
    files.push({ path: `${name}/${manifestFile}`, content: bundleYaml(objects) });
    files.push({ path: `${name}/kustomization.yaml`, content: kustomization([manifestFile]) });
  } else {
    const applied = mode === 'cluster-resource-set' ? distribution.applied(app, spec, objects) : objects;
    groups = groupByStage(applied);
    for (const group of groups) {
      files.push(...directoryFiles(`${name}/${group.stage.directory}`, group.objects));
    }
    files.push({ path: `${name}/kustomization.yaml`, content: kustomization(groups.map((g) => g.stage.directory)) });
  }

  // Flux: once a cluster has any stage, every stage keeps its Kustomization (an empty one lists nothing), so an object
  // whose stage empties is pruned by that stage, not orphaned with its deleted Kustomization (deletionPolicy Orphan).
  const chained =
    spec.spec.gitops.engine === 'flux' && groups.length > 0
      ? STAGES.map((stage) => groups.find((g) => g.stage === stage) ?? { stage, objects: [] as RenderedObject[] })
      : groups;
  for (const g of chained) {
    if (g.objects.length === 0) {
      files.push(...directoryFiles(`${name}/${g.stage.directory}`, []));
    }
  }
  const stages = chained.map((g) => ({
    stage: g.stage,
    healthChecks: g.stage === STAGE_CREDENTIALS ? credentialSecrets(g.objects) : g.stage === STAGE_WORKLOADS ? workloads(g.objects) : undefined,
    // Removing a CredentialsRequest makes the cloud-credential-operator delete the Secret the CCM runs with.
    prune: g.stage !== STAGE_CREDENTIALS,
  }));
  const gitops = new ClusterGitOpsChart(app, `${name}-gitops`, { spec, stages, repoPath }).toJson() as RenderedObject[];
  if (gitops.length > 0) {
    files.push(...directoryFiles(`${name}/${GITOPS_DIRECTORY}`, gitops));
  }
  const g = spec.spec.gitops;
  if (g.engine === 'flux') {
    const chart = new Chart(app, `${name}-flux-entry`, { disableResourceNameHashes: true });
    new FluxEntryKustomization(chart, 'Entry', {
      name: `ccm-${name}`,
      namespace: g.flux.namespace,
      sourceRef: g.flux.entrySourceRef,
      path: `${repoPath}/${GITOPS_DIRECTORY}`,
      interval: g.flux.interval,
    });
    // No stage chain (phase in-tree): the folder the user registered stays, listing nothing, so Flux applies nothing.
    const entry = gitops.length > 0 ? (chart.toJson() as RenderedObject[]) : [];
    files.push(...directoryFiles(`${name}/${FLUX_ENTRY_DIRECTORY}`, entry));
  }

  files.push(...distribution.extraFiles({ cluster, repoPath, objects, manifestFile }));

  if (cluster.migration) {
    const inTree = !ccmDeployedIn(cluster.migration.phase);
    const staticSet = chart.node.tryFindChild('StaticSet');
    const rendered = inTree
      ? chart.node
          .findAll()
          .filter((c): c is ApiObject => c instanceof ApiObject && !(staticSet && c.node.path.startsWith(`${staticSet.node.path}/`)))
      : (chart.migration?.objects ?? []);
    const migrating = {
      distribution: spec.spec.distribution,
      migration: cluster.migration,
      target: migrationTargetFor(spec),
      identity: clusterIdentity(spec.spec),
    };
    files.push(...migrationPlanFiles(name, migrating, objects, rendered));
  }

  const entry: FleetEntry = {
    name,
    spec: cluster.specPath,
    distribution: spec.spec.distribution,
    platform: spec.spec.platform,
    topology: spec.spec.controlPlaneTopology,
    managementMode: spec.spec.managementMode,
    engine: g.engine,
    phase: cluster.migration?.phase ?? 'external',
    objects: objects.length,
    stages: manifestFile ? [MANIFESTS_DIRECTORY] : groups.map((gr) => gr.stage.directory),
    images: Object.fromEntries(
      Object.entries(spec.spec.images)
        .filter(([, v]) => v)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  };
  return { name, files, entry };
}

/** Renders every cluster of a fleet plus the fleet files (summary, Argo CD app-of-apps roots). */
export function renderFleet(fleet: Fleet, outputPath = 'dist'): RenderedFile[] {
  const clusters = fleet.clusters.map((c) => renderCluster(c, outputPath));
  return [
    ...clusters.flatMap((c) => c.files),
    ...fleetFiles(
      fleet,
      clusters.map((c) => c.entry),
      outputPath,
    ),
  ];
}

/** The files at the root of the output that describe the whole fleet. */
export function fleetFiles(fleet: Fleet, entries: readonly FleetEntry[], outputPath = 'dist'): RenderedFile[] {
  return [...fleetSummaryFiles(entries), ...argoCdFleetFiles(fleet, outputPath)];
}

/** The Argo CD roots of the fleet (`_fleet/argocd/`): they depend on the specs only, not on what the clusters rendered. */
export function argoCdFleetFiles(fleet: Fleet, outputPath = 'dist'): RenderedFile[] {
  return argoCdRootFiles(
    fleet.clusters.map((c) => c.spec),
    outputPath,
  );
}

/** The Argo CD roots (`_fleet/argocd/`) of the Argo CD clusters among `members`, from their names and `spec.gitops` alone. */
export function argoCdRootFiles(members: readonly ArgoCdMember[], outputPath = 'dist'): RenderedFile[] {
  const files: RenderedFile[] = [];
  for (const group of argoCdGroups(members, outputPath)) {
    const dir = `${FLEET_DIRECTORY}/argocd/${group.directory}`;
    const resources = group.clusters.map((c) => `../../../../${c.metadata.name}/${GITOPS_DIRECTORY}`);
    if (group.topology === 'hub') {
      const projects = new HubProjectsChart(new App({ outdir: 'unused' }), `${group.rootName}-projects`, { group }).toJson() as RenderedObject[];
      files.push(...directoryFiles(`${dir}/projects`, projects));
      resources.unshift('projects');
    }
    files.push({ path: `${dir}/kustomization.yaml`, content: kustomization(resources) });
    const root = new FleetGitOpsChart(new App({ outdir: 'unused' }), group.rootName, { group }).toJson() as RenderedObject[];
    files.push(...directoryFiles(`${dir}/root`, root));
  }
  return files;
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
