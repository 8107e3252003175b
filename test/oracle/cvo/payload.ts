/**
 * A release payload as the cluster-version operator (CVO) reads it: every
 * manifest with its file name (`0000_<runlevel>_<component>_…`), identity,
 * `release.openshift.io/create-only`, and for a ClusterOperator the versions
 * it declares (the payload build replaces `0.0.1-snapshot` by the release).
 *
 * The cloud-controller-manager operator's manifests are those of the
 * release's own branch (../openshift-branches: every document of manifests/
 * at the pinned commit, in file order); around them a few neighbours at other
 * runlevels, so a replay shows what an update leaves undone when it stops at
 * runlevel 0000_26. Never imports from `src/`.
 */
import { branch, BRANCH_RELEASES, namespacedName, PayloadFact } from '../openshift-branches';

/** One `ClusterOperator` `status.versions` entry. */
export interface OperandVersion {
  readonly name: string;
  readonly version: string;
}

/** The Deployment whose operator writes a ClusterOperator's `status.versions`. */
export interface Reporter {
  readonly namespace: string;
  readonly name: string;
}

/** One manifest of the payload. */
export interface PayloadManifest {
  /** The file name in the release image's `release-manifests/`. */
  readonly file: string;
  readonly kind: string;
  readonly group: string;
  readonly namespace?: string;
  readonly name: string;
  /** `release.openshift.io/create-only: "true"`: CVO creates it when absent and never updates it. */
  readonly createOnly?: boolean;
  /** `release.openshift.io/delete: "true"`: a tombstone; CVO deletes the object and writes nothing. */
  readonly delete?: boolean;
  /** ClusterOperator only: the versions CVO waits for during an update. */
  readonly versions?: readonly OperandVersion[];
  /** ClusterOperator only: the operator Deployment that reports its versions. */
  readonly reportedBy?: Reporter;
}

/** A release payload. */
export interface ReleasePayload {
  readonly version: string;
  /** Sorted by file name, as CVO reads `release-manifests/`. */
  readonly manifests: readonly PayloadManifest[];
}

function clusterOperator(file: string, name: string, version: string, reportedBy: Reporter): PayloadManifest {
  return { file, kind: 'ClusterOperator', group: 'config.openshift.io', name, versions: [{ name: 'operator', version }], reportedBy };
}

/**
 * The payload of release `version`. Neighbours: kube-apiserver (runlevel 20),
 * ingress (50) and machine-config (80, where the nodes update), each with its
 * operator Deployment before its ClusterOperator, as their payloads have them.
 */
export function releasePayload(version: string): ReleasePayload {
  const ccm: PayloadManifest[] = ccmPayload(branchOf(version)).map((m) =>
    m.kind === 'ClusterOperator' ? { ...m, versions: [{ name: 'operator', version }] } : m,
  );
  const neighbours: PayloadManifest[] = [
    {
      file: '0000_20_kube-apiserver-operator_06_deployment.yaml',
      kind: 'Deployment',
      group: 'apps',
      namespace: 'openshift-kube-apiserver-operator',
      name: 'kube-apiserver-operator',
    },
    clusterOperator('0000_20_kube-apiserver-operator_07_clusteroperator.yaml', 'kube-apiserver', version, {
      namespace: 'openshift-kube-apiserver-operator',
      name: 'kube-apiserver-operator',
    }),
    {
      file: '0000_50_cluster-ingress-operator_02-deployment.yaml',
      kind: 'Deployment',
      group: 'apps',
      namespace: 'openshift-ingress-operator',
      name: 'ingress-operator',
    },
    clusterOperator('0000_50_cluster-ingress-operator_03-cluster-operator.yaml', 'ingress', version, {
      namespace: 'openshift-ingress-operator',
      name: 'ingress-operator',
    }),
    {
      file: '0000_80_machine-config_04_deployment.yaml',
      kind: 'Deployment',
      group: 'apps',
      namespace: 'openshift-machine-config-operator',
      name: 'machine-config-operator',
    },
    clusterOperator('0000_80_machine-config_06_clusteroperator.yaml', 'machine-config', version, {
      namespace: 'openshift-machine-config-operator',
      name: 'machine-config-operator',
    }),
  ];
  // Stable sort: the CCM operator's files sharing a name keep the table's order (one file, several documents).
  const manifests = [...neighbours, ...ccm].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { version, manifests };
}

/** The minor of `version` (`X.Y.Z` or `X.Y`), or the newest branch read when none holds it (a later minor, 5.x). */
function branchOf(version: string): string {
  const minor = version.split('.').slice(0, 2).join('.');
  return BRANCH_RELEASES.includes(minor) ? minor : BRANCH_RELEASES[BRANCH_RELEASES.length - 1];
}

function manifestOf(p: PayloadFact, reportedBy: Reporter): PayloadManifest {
  const { kind, group, namespace, name } = namespacedName(p.id);
  return {
    file: p.file,
    kind,
    group,
    ...(namespace ? { namespace } : {}),
    name,
    ...(p.annotations['release.openshift.io/create-only'] === 'true' ? { createOnly: true } : {}),
    ...(p.annotations['release.openshift.io/delete'] === 'true' ? { delete: true } : {}),
    ...(kind === 'ClusterOperator' ? { versions: [{ name: 'operator', version: '0.0.1-snapshot' }], reportedBy } : {}),
  };
}

/**
 * The cloud-controller-manager operator's manifests of release `minor`, in file order: the documents of its
 * branch's manifests/ (up to release-4.19 with the tombstone of the 4.8 operator Deployment), the ClusterOperator
 * reported by the operator Deployment.
 */
export function ccmPayload(minor: string): PayloadManifest[] {
  const docs = branch(minor).payload;
  const operator = namespacedName(
    docs.find((p) => p.id.startsWith('apps/Deployment ') && p.annotations['release.openshift.io/delete'] !== 'true')!.id,
  );
  return docs.map((p) => manifestOf(p, { namespace: operator.namespace, name: operator.name }));
}
