import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { ArgoCdApplication } from './argocd-application';
import { ArgoCdAppProject } from './argocd-app-project';
import { ArgoCdMember, argoCdDestination, FLEET_DIRECTORY, IN_CLUSTER_SERVER } from './repo-path';
import { declaredKinds } from './stages';

/** Folder of the fleet-level entry points, at the root of the output (defined with the repository paths). */
export { FLEET_DIRECTORY };

/** Name of a hub's root Application; `fleet` is a reserved cluster name so no cluster's `ccm-<name>` takes it. */
export const ROOT_APPLICATION_NAME = 'ccm-fleet';
/** Cluster names that would collide with a root Application. */
export const RESERVED_CLUSTER_NAME = /^fleet$/;

/** Name of a per-cluster root Application: `ccm-root.<cluster>` (the dot keeps it apart from every `ccm-<cluster>`, cluster names have none). */
export function perClusterRootName(cluster: string): string {
  return `ccm-root.${cluster}`;
}

/**
 * Kinds the generator renders that are cluster-scoped: Kubernetes built-ins
 * (kubernetes/api@v0.33.0 core/v1 Namespace, rbac/v1 ClusterRole(Binding),
 * admissionregistration/v1 ValidatingAdmissionPolicy(Binding)) and the
 * OpenShift CRDs with `scope: Cluster` (openshift/api@2a3d739
 * config/v1 ClusterOperator, FeatureGate; machineconfiguration/v1 MachineConfig).
 */
const CLUSTER_SCOPED = new Set(['/Namespace', 'rbac.authorization.k8s.io/ClusterRole', 'rbac.authorization.k8s.io/ClusterRoleBinding',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy', 'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'config.openshift.io/ClusterOperator', 'config.openshift.io/FeatureGate', 'machineconfiguration.openshift.io/MachineConfig']);

/**
 * The Argo CD entry point of one Argo CD: `hub` (one Argo CD applies many
 * registered clusters: its root lists their Applications and AppProjects) or
 * `per-cluster` (the Argo CD inside one cluster: its root lists only that
 * cluster's Application).
 */
export interface ArgoCdGroup {
  /** Which fleet model. */
  readonly topology: 'hub' | 'per-cluster';
  /** Argo CD namespace. */
  readonly namespace: string;
  /** Repository of the rendered tree. */
  readonly repoURL: string;
  /** Revision followed. */
  readonly revision: string;
  /** Repository path of the output folder (parent of the cluster folders), `.` at the root. */
  readonly outputPath: string;
  /** Clusters, sorted by name. */
  readonly clusters: readonly ArgoCdMember[];
  /** Folder of the group below `_fleet/argocd/`: `hub/<namespace>` or `cluster/<cluster>`. */
  readonly directory: string;
  /** Root Application name. */
  readonly rootName: string;
}

/** The Argo CD entry points of a fleet: one per hub Argo CD namespace, one per cluster with its own Argo CD. */
export function argoCdGroups(specs: readonly ArgoCdMember[], outputPath = 'dist'): ArgoCdGroup[] {
  const sorted = specs.filter((s) => s.spec.gitops.engine === 'argocd').sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  const groups: ArgoCdGroup[] = [];
  const hubs = new Map<string, ArgoCdMember[]>();
  for (const spec of sorted) {
    const g = spec.spec.gitops;
    if (g.argocd.topology === 'hub') {
      hubs.set(g.argocd.namespace, [...(hubs.get(g.argocd.namespace) ?? []), spec]);
    } else {
      groups.push({
        topology: 'per-cluster', namespace: g.argocd.namespace, repoURL: g.repoURL!, revision: g.revision, outputPath,
        clusters: [spec], directory: `cluster/${spec.metadata.name}`, rootName: perClusterRootName(spec.metadata.name),
      });
    }
  }
  for (const [namespace, clusters] of [...hubs.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const first = clusters[0].spec.gitops;
    groups.push({
      topology: 'hub', namespace, repoURL: first.repoURL!, revision: first.revision, outputPath,
      clusters, directory: `hub/${namespace}`, rootName: ROOT_APPLICATION_NAME,
    });
  }
  return groups.sort((a, b) => (a.directory < b.directory ? -1 : 1));
}

/**
 * The Argo CD clusters of `members` in shares of about `size`, each holding
 * whole groups ({@link argoCdGroups}), in group order: the roots of the
 * shares, one after the other, are the roots of all (rendered a share at a
 * time, the roots of ten thousand clusters are never held as one task's).
 */
export function argoCdShares(members: readonly ArgoCdMember[], size: number): ArgoCdMember[][] {
  const shares: ArgoCdMember[][] = [];
  for (const group of argoCdGroups(members)) {
    const last = shares[shares.length - 1];
    if (last && last.length + group.clusters.length <= size) {
      last.push(...group.clusters);
    } else {
      shares.push([...group.clusters]);
    }
  }
  return shares;
}

/** Repository path of a group's folder. */
export function groupRepoPath(group: ArgoCdGroup): string {
  return `${group.outputPath === '.' ? '' : `${group.outputPath}/`}${FLEET_DIRECTORY}/argocd/${group.directory}`;
}

/** Properties for `FleetGitOpsChart`. */
export interface FleetGitOpsChartProps {
  /** One Argo CD group. */
  readonly group: ArgoCdGroup;
}

/**
 * The root Application of one Argo CD (applied by hand once, into the Argo CD
 * namespace of the cluster Argo CD runs in). It is in project `default`, which
 * every Argo CD has, and applies the group's folder: the AppProjects (hub) and
 * the clusters' Applications.
 */
export class FleetGitOpsChart extends Chart {
  constructor(scope: Construct, id: string, props: FleetGitOpsChartProps) {
    super(scope, id, { disableResourceNameHashes: true });
    const { group } = props;
    new ArgoCdApplication(this, 'Root', {
      name: group.rootName,
      namespace: group.namespace,
      project: 'default',
      repoURL: group.repoURL,
      revision: group.revision,
      path: groupRepoPath(group),
      destinationServer: IN_CLUSTER_SERVER,
      destinationNamespace: group.namespace,
      syncProfile: 'fleet',
    });
  }
}

/** Properties for `HubProjectsChart`. */
export interface HubProjectsChartProps {
  /** One hub group. */
  readonly group: ArgoCdGroup;
}

/** The AppProjects of a hub Argo CD: one per project its clusters name, scoped to their destinations and the rendered kinds. */
export class HubProjectsChart extends Chart {
  constructor(scope: Construct, id: string, props: HubProjectsChartProps) {
    super(scope, id, { disableResourceNameHashes: true });
    const { group } = props;
    const kinds = declaredKinds();
    const scoped = (k: { group: string; kind: string }) => CLUSTER_SCOPED.has(`${k.group}/${k.kind}`);
    const projects = [...new Set(group.clusters.map((c) => c.spec.gitops.argocd.project))].sort();
    for (const project of projects) {
      new ArgoCdAppProject(this, project, {
        name: project,
        namespace: group.namespace,
        repoURL: group.repoURL,
        destinations: group.clusters.filter((c) => c.spec.gitops.argocd.project === project).map(argoCdDestination),
        clusterKinds: kinds.filter(scoped),
        namespacedKinds: kinds.filter((k) => !scoped(k)),
      });
    }
  }
}
