import * as fs from 'fs';
import * as path from 'path';
import { ClusterSpec } from '../cluster-spec/schema';

/** Folder of the fleet-level entry points, at the root of the output. */
export const FLEET_DIRECTORY = '_fleet';

/** Argo CD's name and URL of the cluster it runs in. */
export const IN_CLUSTER_SERVER = 'https://kubernetes.default.svc';
export const IN_CLUSTER_NAME = 'in-cluster';

/** The root of the git work tree holding a path (the nearest folder above it with `.git`), if any. */
export function repositoryRootOf(p: string): string | undefined {
  for (let dir = path.resolve(p); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) {
      return dir;
    }
    if (path.dirname(dir) === dir) {
      return undefined;
    }
  }
}

/**
 * Why the engine paths of an output may not exist in the repository the
 * specs are in: the output is in no git work tree while the specs are, so
 * its repository path is only guessed (its own name, at a root). Undefined
 * when both are in a work tree, or neither is.
 */
export function outputRepositoryProblem(clusters: string, out: string): string | undefined {
  const specsRoot = repositoryRootOf(clusters);
  if (specsRoot === undefined || repositoryRootOf(out) !== undefined) {
    return undefined;
  }
  return (
    `${out} is in no git repository, while the specs are in ${specsRoot}: Argo CD and Flux objects name the output "${repositoryPathOf(out)}" ` +
    'from the root of the repository they clone, which may not exist there; render into that repository (--out inside it)'
  );
}

/**
 * Path of the output folder relative to the root of the git work tree that
 * holds it (the folder with `.git`, a directory or a worktree file), with `/`
 * separators; the output folder's own name when it is in no git work tree
 * (then the repository is taken to be its parent, as for `dist`).
 */
export function repositoryPathOf(out: string): string {
  const resolved = path.resolve(out);
  let dir = path.dirname(resolved);
  for (;;) {
    if (fs.existsSync(path.join(dir, '.git'))) {
      const rel = path.relative(dir, resolved).split(path.sep).join('/');
      return rel === '' ? '.' : rel;
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      return path.basename(resolved);
    }
    dir = parent;
  }
}

/** Repository path of a cluster's rendered folder, from the output folder's repository path. */
export function clusterRepoPath(outputPath: string, name: string): string {
  return outputPath === '.' ? name : `${outputPath}/${name}`;
}

/** A path as written in a spec, normalized (`./` and trailing slashes dropped). */
export function normalizeRepoPath(p: string): string {
  return p
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '')
    .replace(/\/{2,}/g, '/');
}

/**
 * The problem of a cluster's `spec.gitops.path`: it must name the folder synth
 * writes the cluster to (relative to the repository root), or an engine would
 * read another folder (another cluster's, or none).
 */
export function gitopsPathProblem(spec: ArgoCdMember, outputPath: string): string | undefined {
  const given = spec.spec.gitops.path;
  const expected = clusterRepoPath(outputPath, spec.metadata.name);
  if (given === undefined || normalizeRepoPath(given) === expected) {
    return undefined;
  }
  return (
    `"${given}" is not where synth writes this cluster ("${expected}", relative to the repository root); the engine would read ` +
    `${normalizeRepoPath(given).split('/').pop() !== spec.metadata.name ? "another cluster's folder or none" : 'a folder that does not exist'}. Remove spec.gitops.path (it is derived from --out)`
  );
}

/**
 * What the Argo CD roots read of a cluster spec: its name and `spec.gitops`
 * (what `fleetFolderKey` digests). A cluster spec is one; the roots can be
 * rendered from these alone (a worker thread is sent nothing more).
 */
export interface ArgoCdMember {
  readonly metadata: { readonly name: string };
  readonly spec: { readonly gitops: ClusterSpec['spec']['gitops'] };
}

/** The name and `spec.gitops` of each Argo CD cluster among `specs`, nothing more: what {@link argoCdGroups} needs. */
export function argoCdMembers(specs: readonly ArgoCdMember[]): ArgoCdMember[] {
  return specs
    .filter((s) => s.spec.gitops.engine === 'argocd')
    .map((s) => ({ metadata: { name: s.metadata.name }, spec: { gitops: s.spec.gitops } }));
}

/** The Argo CD destination of a cluster: its registered server or name; in-cluster for topology per-cluster when none is given. */
export function argoCdDestination(spec: ArgoCdMember): { server?: string; name?: string } {
  const a = spec.spec.gitops.argocd;
  if (a.destinationName !== undefined) {
    return { name: a.destinationName };
  }
  return { server: a.destinationServer ?? IN_CLUSTER_SERVER };
}

/** One key per cluster an Argo CD destination points at (`in-cluster` and the in-cluster URL are one). */
export function destinationKey(d: { server?: string; name?: string }): string {
  if (d.name !== undefined) {
    return d.name === IN_CLUSTER_NAME ? `server:${IN_CLUSTER_SERVER}` : `name:${d.name}`;
  }
  return `server:${(d.server ?? IN_CLUSTER_SERVER).replace(/\/+$/, '')}`;
}
