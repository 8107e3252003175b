/**
 * What each release branch of openshift/cluster-cloud-controller-manager-operator ships and renders, as
 * facts (facts.ts) read from the branch by generate.ts into branches.data.json; each release names the
 * commit read (`source`). The pinned commits: release-4.16 d721cd62b5ed, release-4.17 6d4c0096477d,
 * release-4.18 8abb067318de, release-4.19 5b39a4dfc245, release-4.20 276696ccf679, release-4.21 6148c0cca626,
 * release-4.22 b99c3d88b0e7, release-4.23 bc52198c1c3c. Never imports from `src/`.
 */
import data from './branches.data.json';
import { ObjectFacts } from './facts';

/** One document of a payload manifest (manifests/0000_26_*.yaml). */
export interface PayloadFact extends ObjectFacts {
  /** The file name in the release image's `release-manifests/`. */
  readonly file: string;
  /** The annotations CVO reads (capability, include/exclude profiles, create-only, delete). */
  readonly annotations: Readonly<Record<string, string>>;
  /** ClusterOperator: `status.versions` as `name=version` (the build replaces `0.0.1-snapshot`). */
  readonly versions?: readonly string[];
}

/** The objects one platform's operator renders from its assets. */
export interface PlatformFacts {
  /** `EmbedFsPath` of pkg/cloud/<platform>/<platform>.go, in order. */
  readonly assets: readonly string[];
  /** Each with `asset`, the file it is read from (`pkg/cloud/<platform>/assets/…`). */
  readonly objects: readonly (ObjectFacts & { readonly asset: string })[];
}

/** One release branch. */
export interface BranchFacts {
  /** `openshift/cluster-cloud-controller-manager-operator@<sha> (release-X.Y)`. */
  readonly source: string;
  /** Every document of manifests/, in file order. */
  readonly payload: readonly PayloadFact[];
  /** pkg/cloud/common/resources.go: getService's ports (`name:port->target`) and the PDB spec fields getPDB sets. */
  readonly common: { readonly servicePorts: readonly string[]; readonly pdbFields: readonly string[] };
  /** Per platform as ccm-gitops names it (AzureStackHub: pkg/cloud/azurestack). */
  readonly platforms: Readonly<Record<string, PlatformFacts>>;
}

/** Every release branch read, by minor (`4.16` … `4.23`). */
export const BRANCHES: Readonly<Record<string, BranchFacts>> = (data as unknown as { releases: Record<string, BranchFacts> }).releases;

/** The releases with a branch, oldest first. */
export const BRANCH_RELEASES: readonly string[] = Object.keys(BRANCHES).sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));

/** The branch of release `minor` (`X.Y`); throws when none was read. */
export function branch(minor: string): BranchFacts {
  const b = BRANCHES[minor];
  if (b === undefined) {
    throw new Error(`no release branch read for ${minor} (read: ${BRANCH_RELEASES.join(', ')})`);
  }
  return b;
}

/** The prefix of every payload file of the cloud-controller-manager operator (runlevel 26). */
export const PAYLOAD_PREFIX = '0000_26_cloud-controller-manager-operator_';

/** The identity of the operator Deployment in the payload (not the `release.openshift.io/delete` tombstone). */
export function operatorDeploymentOf(minor: string): PayloadFact {
  return branch(minor).payload.find((p) => p.id.startsWith('apps/Deployment ') && p.annotations['release.openshift.io/delete'] === undefined)!;
}

/** `<namespace>/<name>` of an {@link ObjectFacts.id}. */
export function namespacedName(id: string): { kind: string; group: string; namespace: string; name: string } {
  const [groupKind, nsName] = id.split(' ');
  const [group, kind] = groupKind.split('/');
  const [namespace, name] = nsName.split('/');
  return { group, kind, namespace, name };
}
