// What identifies a cluster across renames, from its spec alone: the fleet loader
// (duplicate identities) and the migration phase guard (a renamed cluster) read it.

/** The upstream default of --cluster-name, shared by many clusters: no identity. */
const UPSTREAM_DEFAULT_CLUSTER_NAME = 'kubernetes';

/**
 * A cluster's identity that survives a rename: its platform and the name the
 * cloud knows it by (OpenShift `infrastructureName`, Kubernetes `clusterName`
 * unless it is the upstream default "kubernetes", which many clusters share).
 */
export function clusterIdentity(spec: {
  readonly platform: string;
  readonly infrastructureName?: string;
  readonly kubernetes?: { readonly clusterName?: string };
}): string | undefined {
  const clusterName = spec.kubernetes?.clusterName;
  const name = spec.infrastructureName ?? (clusterName !== UPSTREAM_DEFAULT_CLUSTER_NAME ? clusterName : undefined);
  return name ? `${spec.platform}/${name}` : undefined;
}
