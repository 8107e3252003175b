import { ClusterSpec } from '../cluster-spec/schema';

/** An SSH git URL: `ssh://…`, or the scp-like `user@host:path`. */
export function isSshRepoUrl(url: string): boolean {
  return /^ssh:\/\//.test(url) || /^[^/@:\s]+@[^/:\s]+:/.test(url);
}

/**
 * Warnings on a cluster's GitOps settings that do not stop the render but
 * stop the engine. Flux clones an SSH URL only with a key from a Secret
 * (fluxcd/source-controller@v1.6.0 docs/spec/v1/gitrepositories.md,
 * "Secret reference": SSH authentication needs `identity` and `known_hosts`),
 * so without spec.gitops.flux.secretRef its GitRepository never becomes Ready.
 * Never prints the URL: it names the field.
 */
export function gitopsWarnings(gitops: ClusterSpec['spec']['gitops']): string[] {
  const warnings: string[] = [];
  if (gitops.engine === 'flux' && gitops.repoURL !== undefined && isSshRepoUrl(gitops.repoURL) && gitops.flux.secretRef === undefined) {
    warnings.push(
      'spec.gitops.repoURL is an SSH URL and spec.gitops.flux.secretRef names no Secret: Flux cannot clone the repository without a key. ' +
        `Create one in namespace ${gitops.flux.namespace} (flux create secret git <name> --url=<repoURL> --private-key-file=<key>) and name it in spec.gitops.flux.secretRef`,
    );
  }
  return warnings;
}
