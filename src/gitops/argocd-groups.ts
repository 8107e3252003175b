import { ArgoCdMember } from './repo-path';

/** Name of a hub's root Application; `fleet` is a reserved cluster name so no cluster's `ccm-<name>` takes it. */
export const ROOT_APPLICATION_NAME = 'ccm-fleet';

/** Cluster names that would collide with a root Application. */
export const RESERVED_CLUSTER_NAME = /^fleet$/;

/** Name of a per-cluster root Application: `ccm-root.<cluster>` (the dot keeps it apart from every `ccm-<cluster>`, cluster names have none). */
export function perClusterRootName(cluster: string): string {
  return `ccm-root.${cluster}`;
}

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
        topology: 'per-cluster',
        namespace: g.argocd.namespace,
        repoURL: g.repoURL!,
        revision: g.revision,
        outputPath,
        clusters: [spec],
        directory: `cluster/${spec.metadata.name}`,
        rootName: perClusterRootName(spec.metadata.name),
      });
    }
  }
  for (const [namespace, clusters] of [...hubs.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const first = clusters[0].spec.gitops;
    groups.push({
      topology: 'hub',
      namespace,
      repoURL: first.repoURL!,
      revision: first.revision,
      outputPath,
      clusters,
      directory: `hub/${namespace}`,
      rootName: ROOT_APPLICATION_NAME,
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
