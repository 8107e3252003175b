/**
 * A release payload as the cluster-version operator (CVO) reads it: every
 * manifest with its file name (`0000_<runlevel>_<component>_…`), identity,
 * `release.openshift.io/create-only`, and for a ClusterOperator the versions
 * it declares (the payload build replaces `0.0.1-snapshot` by the release).
 *
 * The cloud-controller-manager operator's manifests are the product's payload
 * table (`PAYLOAD_OBJECTS`, from openshift/cluster-cloud-controller-manager-operator
 * manifests/); around them a few neighbours at other runlevels, so a replay
 * shows what an update leaves undone when it stops at runlevel 0000_26.
 */
import { manifestIn, olderPayloadObjects, OPERATOR_DEPLOYMENT, PAYLOAD_OBJECTS } from '../../../src/openshift/cvo-ownership';

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

const CCM_PREFIX = '0000_26_cloud-controller-manager-operator_';

function clusterOperator(file: string, name: string, version: string, reportedBy: Reporter): PayloadManifest {
  return { file, kind: 'ClusterOperator', group: 'config.openshift.io', name, versions: [{ name: 'operator', version }], reportedBy };
}

/**
 * The payload of release `version`. Neighbours: kube-apiserver (runlevel 20),
 * ingress (50) and machine-config (80, where the nodes update), each with its
 * operator Deployment before its ClusterOperator, as their payloads have them.
 */
export function releasePayload(version: string): ReleasePayload {
  // The files of that release branch: older payloads name some differently and hold others (manifestIn).
  const minor = version.split('.').slice(0, 2).join('.');
  const shipped = [...PAYLOAD_OBJECTS.map((o) => ({ ...o, manifest: manifestIn(o, minor) })), ...olderPayloadObjects(minor)].filter(
    (o): o is typeof o & { manifest: string } => o.manifest !== undefined,
  );
  const ccm: PayloadManifest[] = shipped.map((o) => ({
    file: `${CCM_PREFIX}${o.manifest}`,
    kind: o.kind,
    group: o.group,
    namespace: o.namespace,
    name: o.name,
    ...(o.kind === 'ClusterOperator'
      ? { versions: [{ name: 'operator', version }], reportedBy: { namespace: OPERATOR_DEPLOYMENT.namespace!, name: OPERATOR_DEPLOYMENT.name } }
      : {}),
  }));
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
