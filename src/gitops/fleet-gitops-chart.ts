import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { ArgoCdApplication } from './argocd-application';
import { ArgoCdAppProject } from './argocd-app-project';
import { ArgoCdGroup } from './argocd-groups';
import { argoCdDestination, FLEET_DIRECTORY, IN_CLUSTER_SERVER } from './repo-path';
import { declaredKinds } from './stages';

/** Folder of the fleet-level entry points, at the root of the output (defined with the repository paths). */
export { FLEET_DIRECTORY };
// the groups and shares of the Argo CD roots, apart from their constructs (the loader and the run's main thread need them without cdk8s)
export type { ArgoCdGroup } from './argocd-groups';
export { argoCdGroups, argoCdShares, perClusterRootName, RESERVED_CLUSTER_NAME, ROOT_APPLICATION_NAME } from './argocd-groups';

/**
 * Kinds the generator renders that are cluster-scoped: Kubernetes built-ins
 * (kubernetes/api@v0.33.0 core/v1 Namespace, rbac/v1 ClusterRole(Binding),
 * admissionregistration/v1 ValidatingAdmissionPolicy(Binding)) and the
 * OpenShift CRDs with `scope: Cluster` (openshift/api@2a3d739
 * config/v1 ClusterOperator, FeatureGate; machineconfiguration/v1 MachineConfig).
 */
const CLUSTER_SCOPED = new Set([
  '/Namespace',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'config.openshift.io/ClusterOperator',
  'config.openshift.io/FeatureGate',
  'machineconfiguration.openshift.io/MachineConfig',
]);

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
