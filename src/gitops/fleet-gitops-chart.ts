import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { ArgoCdApplication } from './argocd-application';
import { ClusterSpec } from '../spec/schema';

/** Folder of the fleet-level entry points, at the root of the output. */
export const FLEET_DIRECTORY = '_fleet';

/** One Argo CD app-of-apps group: the clusters of one Argo CD namespace, repository, revision and output folder. */
export interface ArgoCdGroup {
  /** Argo CD namespace. */
  readonly namespace: string;
  /** Repository of the rendered tree. */
  readonly repoURL: string;
  /** Revision followed. */
  readonly revision: string;
  /** Repository path of the output folder (parent of the cluster folders). */
  readonly outputPath: string;
  /** Clusters, sorted by name. */
  readonly clusters: readonly ClusterSpec[];
  /** Folder of the group below `_fleet/argocd/`. */
  readonly directory: string;
  /** Root Application name. */
  readonly rootName: string;
}

/** The clusters applied by Argo CD, grouped by where their root Application lives and what it reads. */
export function argoCdGroups(specs: readonly ClusterSpec[]): ArgoCdGroup[] {
  const groups = new Map<string, ClusterSpec[]>();
  for (const spec of specs) {
    const g = spec.spec.gitops;
    if (g.engine !== 'argocd') {
      continue;
    }
    const key = JSON.stringify([g.argocd.namespace, g.repoURL, g.revision, outputPathOf(spec)]);
    groups.set(key, [...(groups.get(key) ?? []), spec]);
  }
  const keys = [...groups.keys()].sort();
  const perNamespace = new Map<string, number>();
  return keys.map((key) => {
    const [namespace, repoURL, revision, outputPath] = JSON.parse(key) as string[];
    const index = (perNamespace.get(namespace) ?? 0) + 1;
    perNamespace.set(namespace, index);
    const clusters = groups.get(key)!.sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    const inNamespace = keys.filter((k) => (JSON.parse(k) as string[])[0] === namespace).length;
    const suffix = inNamespace > 1 ? `-${index}` : '';
    return { namespace, repoURL, revision, outputPath, clusters, directory: `${namespace}${suffix}`, rootName: `ccm-fleet${suffix}` };
  });
}

/** Repository path of the folder holding a cluster's rendered folder. */
export function outputPathOf(spec: ClusterSpec): string {
  const clusterPath = spec.spec.gitops.path ?? `dist/${spec.metadata.name}`;
  const trimmed = clusterPath.replace(/^\.\//, '').replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  return slash < 0 ? '.' : trimmed.slice(0, slash);
}

/** Properties for `FleetGitOpsChart`. */
export interface FleetGitOpsChartProps {
  /** One Argo CD group. */
  readonly group: ArgoCdGroup;
}

/** The root Application of one Argo CD group. */
export class FleetGitOpsChart extends Chart {
  constructor(scope: Construct, id: string, props: FleetGitOpsChartProps) {
    super(scope, id, { disableResourceNameHashes: true });
    const { group } = props;
    const projects = [...new Set(group.clusters.map((c) => c.spec.gitops.argocd.project))];
    new ArgoCdApplication(this, 'Root', {
      name: group.rootName,
      namespace: group.namespace,
      project: projects.length === 1 ? projects[0] : 'default',
      repoURL: group.repoURL,
      revision: group.revision,
      path: `${group.outputPath === '.' ? '' : `${group.outputPath}/`}${FLEET_DIRECTORY}/argocd/${group.directory}`,
      destinationServer: 'https://kubernetes.default.svc',
      destinationNamespace: group.namespace,
      syncProfile: 'fleet',
    });
  }
}
