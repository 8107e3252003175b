/**
 * The OpenShift release a cluster runs, and what it decides for rendering:
 * the feature gates its feature set enables, the Kubernetes minor it ships,
 * the version the operator reports (`RELEASE_VERSION`), and which assets
 * apply. Pure: no cdk8s import.
 */

import { FeatureSet, RELEASE_VERSION_PATTERN } from '../cluster-spec/sections/openshift';

// The spec's vocabulary (feature sets, the release pattern) lives with the spec section.
export { FEATURE_SETS, RELEASE_VERSION_PATTERN } from '../cluster-spec/sections/openshift';
export type { FeatureSet } from '../cluster-spec/sections/openshift';

/** The OpenShift release that runs a Kubernetes minor (4.N runs 1.(N+13)). */
export function openshiftRelease(kubernetesMinor: number): string {
  return `4.${kubernetesMinor - 13}`;
}

/** A parsed release. */
export interface OpenShiftRelease {
  /** The full version, e.g. `4.22.3`: what the operator reports as `RELEASE_VERSION`. */
  readonly version: string;
  /** `X.Y`, e.g. `4.22`: the release branch of every repository (`release-X.Y`). */
  readonly minor: string;
  readonly majorNumber: number;
  readonly minorNumber: number;
}

/** Parses `X.Y.Z`; throws with the value when it is not one. */
export function parseRelease(version: string): OpenShiftRelease {
  const m = RELEASE_VERSION_PATTERN.exec(version);
  if (!m) {
    throw new Error(`"${version}" is not an OpenShift release version like "4.22.3"`);
  }
  return { version, minor: `${m[1]}.${m[2]}`, majorNumber: Number(m[1]), minorNumber: Number(m[2]) };
}

/** Compares release minors `X.Y` numerically. */
export function compareMinor(a: string, b: string): number {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am !== bm ? am - bm : an - bn;
}

/** Whether release `version` is at least minor `minor` (`X.Y`). */
export function releaseAtLeast(version: string, minor: string): boolean {
  return compareMinor(parseRelease(version).minor, minor) >= 0;
}

/**
 * The feature gates that change what the operator renders, and the first
 * release whose operator reads each (before it, the gate changes nothing):
 * - `AWSServiceLBNetworkSecurityGroup`: `NLBSecurityGroupMode = Managed` in the AWS cloud.conf
 *   (openshift/cluster-cloud-controller-manager-operator@release-4.21 pkg/cloud/aws/aws_config_transformer.go; not at release-4.20);
 * - `VSphereMixedNodeEnv`: the vSphere CCM's node label
 *   (…@release-4.21 pkg/cloud/vsphere/vsphere.go; not at release-4.20);
 * - `VSphereMultiVCenterDay2`: the operator writes openshift-config-managed/kube-cloud-config
 *   (…@release-4.23 pkg/controllers/cloud_config_sync_controller.go; not at release-4.22).
 */
export const RENDERING_GATES_READ_SINCE: Readonly<Record<string, string>> = {
  AWSServiceLBNetworkSecurityGroup: '4.21',
  VSphereMixedNodeEnv: '4.21',
  VSphereMultiVCenterDay2: '4.23',
};

type GateSets = Readonly<Record<string, readonly FeatureSet[]>>;

/** One release branch of openshift/api: the commit read and the feature sets enabling each rendering gate. */
export interface ReleaseGateTable {
  /** `openshift/api` commit (or branch) of `release-X.Y` that was read. */
  readonly apiRef: string;
  /** Kubernetes minor the release ships (the `k8s.io/api` version in openshift/api go.mod of the branch). */
  readonly kubernetesMinor: string;
  /** Rendering gate → the feature sets (self-managed profile) that enable it in `features/features.go`. */
  readonly gates: GateSets;
}

const TP: readonly FeatureSet[] = ['TechPreviewNoUpgrade', 'DevPreviewNoUpgrade'];
const ALL: readonly FeatureSet[] = ['Default', 'TechPreviewNoUpgrade', 'DevPreviewNoUpgrade'];

/**
 * Per release, from `openshift/api@release-X.Y features/features.go` (the
 * `enableIn(...)` / `enable(in...())` of each gate, self-managed profile) and
 * `go.mod` (`k8s.io/api`). A gate absent from a release is not a known gate
 * there: the operator reads it as disabled (`isFeatureGateEnabled` returns
 * false for unknown names, …@bc52198c1c3c pkg/cloud/aws/aws_config_transformer.go).
 * Releases 4.11-4.15 have no `features/features.go`; none of the rendering
 * gates existed before release-4.20.
 */
export const RELEASE_GATE_TABLE: Readonly<Record<string, ReleaseGateTable>> = {
  '4.11': { apiRef: 'release-4.11', kubernetesMinor: '1.24', gates: {} },
  '4.12': { apiRef: 'release-4.12', kubernetesMinor: '1.25', gates: {} },
  '4.13': { apiRef: 'release-4.13', kubernetesMinor: '1.26', gates: {} },
  '4.14': { apiRef: 'release-4.14', kubernetesMinor: '1.27', gates: {} },
  '4.15': { apiRef: 'release-4.15', kubernetesMinor: '1.28', gates: {} },
  '4.16': { apiRef: '0677a8879a4608a5b6ecafd490fbbeb0ff77c6ef', kubernetesMinor: '1.29', gates: {} },
  '4.17': { apiRef: '92c55bf0f372c222dc02f17685c383d18e2c2e8b', kubernetesMinor: '1.30', gates: {} },
  '4.18': { apiRef: 'f9b2d1ae30ebf759bc287c38474b41f246852cae', kubernetesMinor: '1.31', gates: {} },
  '4.19': { apiRef: '1ebdd7bba8e6c503a1f61c6d467ed877783826e1', kubernetesMinor: '1.32', gates: {} },
  '4.20': {
    apiRef: '05da40ea98557f8351483a39db3d0e7d9076bc8f',
    kubernetesMinor: '1.33',
    gates: { AWSServiceLBNetworkSecurityGroup: TP, VSphereMixedNodeEnv: ['DevPreviewNoUpgrade'] },
  },
  '4.21': {
    apiRef: '1cb630ce7109e6c4780332bb8140c8c4f7157426',
    kubernetesMinor: '1.34',
    gates: { AWSServiceLBNetworkSecurityGroup: TP, VSphereMixedNodeEnv: TP },
  },
  '4.22': {
    apiRef: '9fda5179a7f76209e548ccc46d16767ed1e0bddb',
    kubernetesMinor: '1.35',
    gates: { AWSServiceLBNetworkSecurityGroup: ALL, VSphereMixedNodeEnv: TP, VSphereMultiVCenterDay2: ['DevPreviewNoUpgrade'] },
  },
  '4.23': {
    apiRef: 'dffcf504e2ea64d417e0778229b7be6df398a9be',
    kubernetesMinor: '1.36',
    gates: { AWSServiceLBNetworkSecurityGroup: ALL, VSphereMixedNodeEnv: ALL, VSphereMultiVCenterDay2: TP },
  },
  '5.0': {
    apiRef: 'e543cc5080e8c93e5dd65ffa26992321c7b079ca',
    kubernetesMinor: '1.36',
    gates: { AWSServiceLBNetworkSecurityGroup: ALL, VSphereMixedNodeEnv: ALL, VSphereMultiVCenterDay2: TP },
  },
  // AWSServiceLBNetworkSecurityGroup removed: openshift/api f89b3ce1d "chore: remove AWSServiceLBNetworkSecurityGroup feature gate"
  '5.1': {
    apiRef: '2a3d73913b5a7caec4c57d5c3d04f51106ec4da3',
    kubernetesMinor: '1.36',
    gates: { VSphereMixedNodeEnv: ALL, VSphereMultiVCenterDay2: TP },
  },
  '5.2': {
    apiRef: '2a3d73913b5a7caec4c57d5c3d04f51106ec4da3',
    kubernetesMinor: '1.36',
    gates: { VSphereMixedNodeEnv: ALL, VSphereMultiVCenterDay2: TP },
  },
};

/** The release minors the table knows, oldest first. */
export function knownReleaseMinors(): string[] {
  return Object.keys(RELEASE_GATE_TABLE).sort(compareMinor);
}

/** The table row of a release, or undefined when this version does not know it. */
export function releaseTable(version: string): ReleaseGateTable | undefined {
  return RELEASE_GATE_TABLE[parseRelease(version).minor];
}

/**
 * The Kubernetes minor (`1.NN`) an OpenShift release ships, for the migration
 * version defaults; undefined for a release the table does not know.
 */
export function kubernetesMinorOfRelease(version: string): string | undefined {
  return releaseTable(version)?.kubernetesMinor;
}

/**
 * The first release with the `OKD` feature set (openshift/api@release-4.22 config/v1/types_feature.go).
 * The operator has no OKD-specific code (…@release-4.22 pkg/: only the vendored openshift/api names OKD), so
 * for what ccm-gitops renders OKD differs only by the gates it enables: each rendering gate is enabled in
 * `inDefault()` and `inOKD()` together (openshift/api features/features.go at the 4.22 … 5.2 commits of `RELEASE_GATE_TABLE`).
 */
export const OKD_FEATURE_SET_SINCE = '4.22';

/**
 * The rendering gates a release's feature set enables and its operator reads.
 * `CustomNoUpgrade` starts from the Default set (the explicit lists are applied on top);
 * `OKD` enables the rendering gates Default enables (`OKD_FEATURE_SET_SINCE`).
 */
export function releaseDefaultGates(version: string, featureSet: FeatureSet): string[] {
  const row = releaseTable(version);
  if (!row) {
    return [];
  }
  const set: FeatureSet = featureSet === 'CustomNoUpgrade' || featureSet === 'OKD' ? 'Default' : featureSet;
  return Object.entries(row.gates)
    .filter(([gate, sets]) => sets.includes(set) && releaseAtLeast(version, RENDERING_GATES_READ_SINCE[gate] ?? '0.0'))
    .map(([gate]) => gate)
    .sort();
}

/** The parts of a spec the effective gates depend on. */
export interface GateInputs {
  readonly release?: string;
  readonly featureSet?: FeatureSet;
  readonly enabled: readonly string[];
  readonly disabled: readonly string[];
}

/**
 * The enabled feature gates the render uses: the release's defaults for its
 * feature set (none when the spec names no release), plus `enabled`, minus
 * `disabled`, minus the rendering gates the release's operator does not read
 * yet (`RENDERING_GATES_READ_SINCE`). Sorted, without duplicates.
 */
export function effectiveEnabledGates(inputs: GateInputs): string[] {
  const release = inputs.release;
  const base = release ? releaseDefaultGates(release, inputs.featureSet ?? 'Default') : [];
  const disabled = new Set(inputs.disabled);
  const read = (g: string) => !release || RENDERING_GATES_READ_SINCE[g] === undefined || releaseAtLeast(release, RENDERING_GATES_READ_SINCE[g]);
  return [...new Set([...base, ...inputs.enabled])].filter((g) => !disabled.has(g) && read(g)).sort();
}

/**
 * Alibaba Cloud operands: the operator shipped them last in release 4.16
 * (openshift/cluster-cloud-controller-manager-operator@release-4.16 pkg/cloud/alibaba; removed by a0fe9b16 on main).
 */
export const ALIBABA_RELEASE_MINOR = '4.16';

/**
 * The release branches of openshift/cluster-cloud-controller-manager-operator that were read, with the
 * commit: what a release renders is what the operator of its branch renders, so a release without a
 * branch here is not known. release-5.0 and release-5.1 point at the commit release-4.23 and main do.
 */
export const OPERATOR_BRANCH_COMMITS: Readonly<Record<string, string>> = {
  '4.11': '2dbffc67e4fb2ef972f4ba6e6c1a76447193c6ce',
  '4.12': '3b1f0843e2bd25fb4e39659ef47424f67ccaa727',
  '4.13': '38f638f020ff1e34d33fd44c42b0351912a74486',
  '4.14': '54dce160186799ac2d6e21f9609f8f8b1e493003',
  '4.15': '445ccbfe8aba60c99931701d7728ae7ee012eba8',
  '4.16': 'd721cd62b5edec3f1b0b7a61b3e6e2af50bb71bc',
  '4.17': '6d4c0096477d7e15f31ef0492ad9382ea1be1ef1',
  '4.18': '8abb067318de3cc68967a0f24627c26912242524',
  '4.19': '5b39a4dfc245942db4a21cec493bfb2a15bb4b21',
  '4.20': '276696ccf679830b25df341edb7aae9bb3f4e763',
  '4.21': '6148c0cca626bcf0bfebcc6dd0c77a41944cba87',
  '4.22': 'b99c3d88b0e7b125f0340bb5d8e3333fa3940a60',
  '4.23': 'bc52198c1c3c61099ba3cd20bf5fca80ed7754e7',
  '5.0': 'bc52198c1c3c61099ba3cd20bf5fca80ed7754e7',
  '5.1': 'bc52198c1c3c61099ba3cd20bf5fca80ed7754e7',
};

/** The newest release minor with an operator branch in {@link OPERATOR_BRANCH_COMMITS}. */
export function newestOperatorRelease(): string {
  return Object.keys(OPERATOR_BRANCH_COMMITS).sort(compareMinor).reverse()[0];
}

/** Whether the operator has a release branch (read) for the minor of `version`. */
export function hasOperatorBranch(version: string): boolean {
  return OPERATOR_BRANCH_COMMITS[parseRelease(version).minor] !== undefined;
}
