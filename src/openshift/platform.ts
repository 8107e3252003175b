import { Construct } from 'constructs';
import { TransformResult } from '../cloud-config/errors';
import { ccmLeaderMigrationMount } from '../migration/cluster-migration';
import { CloudCredentialsRequestProps } from './cloud-credentials-request';
import { OperandProps } from './operand-props';
import { ImageKey } from '../cluster-spec/images';
import { ClusterSpec, PlatformType } from '../cluster-spec/schema';
import { PreparedCluster } from '../cluster/prepared-cluster';
import type { ImportedPlatformSections, LivePlatformObjects } from '../cluster/distribution';
import { resolveTlsProfile } from '../cluster-spec/tls';
import { effectiveEnabledGates } from './release';

/** A problem a platform finds in a spec: field path and message (with the fix). */
export interface PlatformSpecProblem {
  /** Field path, e.g. `['spec', 'aws', 'region']`. */
  readonly path: readonly (string | number)[];
  /** What is wrong and what to do. */
  readonly message: string;
}

// Both distributions render a PreparedCluster; it lives below them (src/cluster/).
export type { PreparedCluster } from '../cluster/prepared-cluster';

/** The one release whose operator shipped a platform's operands, with what the checks and the hand-over say about it. */
export interface OnlyRelease {
  /** Its minor (`4.16`). */
  readonly minor: string;
  /** The platform's name in a message (`Alibaba Cloud`). */
  readonly name: string;
  /** The first release without the platform. */
  readonly removedIn: string;
  /** The hand-over's paragraph on a minor update, which the platform does not have. */
  readonly minorUpdate: string;
}

/**
 * What the generator knows about one platform apart from rendering it:
 * what the loader checks a spec with and the cloud config is transformed
 * with. Kept apart from the platform's constructs so that what loads and
 * checks specs (the main thread of synth, `transform-cloud-config`,
 * `import`, `init`) never loads cdk8s (each platform's `facts.ts`, the
 * registry in `src/openshift/platform-facts.ts`).
 */
export interface PlatformFacts {
  /** Infrastructure `status.platformStatus.type`. */
  readonly type: PlatformType;
  /** Images the operands of this platform use (images.json keys). */
  readonly requiredImages: readonly ImageKey[];
  /**
   * Whether the platform runs a cloud node manager DaemonSet (its identity is part of the static RBAC).
   *
   * @default false
   */
  readonly cloudNodeManager?: boolean;
  /**
   * Whether the static set renders the operator's provider RBAC of ServiceAccount `kube-system/cloud-controller-manager`
   * (`openstack-rbac.ts`: the operator applies it on every platform; rendered for OpenStack only).
   *
   * @default false
   */
  readonly kubeSystemServiceAccountRbac?: boolean;
  /**
   * Tech preview: the operator no longer ships it; rendered from its last shipped assets.
   *
   * @default false
   */
  readonly techPreview?: boolean;
  /**
   * The platform's CredentialsRequest (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/*credentialsrequest-*.yaml), when it has one.
   *
   * @default - none (the CCM uses the instance identity)
   */
  readonly credentialsRequest?: CloudCredentialsRequestProps;
  /**
   * Where the CCM reads its credentials when the platform has no CredentialsRequest, for the fix of a refused credential.
   *
   * @default - the Secret of the CredentialsRequest
   */
  readonly credentialHome?: string;
  /**
   * The platform's CredentialsRequest as the payload of `release` ships it, where releases differ.
   *
   * @default - `credentialsRequest` on every release
   */
  credentialsRequestOf?(release: string | undefined): CloudCredentialsRequestProps;
  /**
   * The release since which the platform's CredentialsRequest no longer changes: without
   * `credentialsRequestOf`, operator mode renders from it only, and refuses an older `minor` saying how it differs there.
   *
   * @default - it never changed
   */
  readonly credentialsRequestSettled?: { readonly release: string; readonly differsOn: (minor: string) => string };
  /**
   * The one release whose operator shipped the platform's operands, when only one did: it renders there only.
   *
   * @default - every release from those the support table names
   */
  readonly onlyRelease?: OnlyRelease;
  /**
   * The platform `cloud-config transform` names for a spec, where a cloud of the platform has a transform of its own.
   *
   * @default - the platform type
   */
  cloudConfigPlatformOf?(spec: ClusterSpec): string;
  /**
   * Its sections of a spec imported from a live cluster (`import`), from the Infrastructure's platform status and spec.
   *
   * @default - none
   */
  importLiveSections?(live: LivePlatformObjects): ImportedPlatformSections;
  /** Platform-specific checks beyond the schema. */
  validate(spec: ClusterSpec): PlatformSpecProblem[];
  /** The platform's cloud-config transform (pure). Throws a UserError of kind 'cloud-config'. */
  transformCloudConfig(source: string, spec: ClusterSpec): TransformResult;
}

/**
 * Everything the generator knows about one platform: its facts and its
 * operands. Adding a platform is a new folder under `src/openshift/`
 * exporting its facts (`facts.ts`) and one of these (`index.ts`), their
 * entries in the registries (`src/openshift/platform-facts.ts`,
 * `src/openshift/platforms.ts`) and, when it has inputs of its own, its spec
 * section (`src/cluster-spec/sections/platforms.ts`).
 */
export interface PlatformDefinition extends PlatformFacts {
  /** Renders the platform's operands (CCM workloads, RBAC, admission policies, PDB, Service, cloud-conf). */
  renderOperands(scope: Construct, cluster: PreparedCluster): void;
}

/** The props every platform construct takes from a prepared cluster. */
export function operandProps(cluster: PreparedCluster): OperandProps {
  const s = cluster.spec.spec;
  return {
    cloudConf: cluster.cloudConf,
    cloudConfExtraData: cluster.cloudConfExtraData,
    cloudConfigNamed: s.cloudConfig !== undefined,
    singleReplica: s.controlPlaneTopology === 'SingleReplica',
    proxy: s.proxy,
    tls: resolveTlsProfile(s.tls),
    leaderMigration: ccmLeaderMigrationMount(cluster.migration),
    release: s.openshift?.release,
  };
}

/** The Infrastructure name of an OpenShift cluster (the loader requires it with distribution openshift). */
export function infrastructureNameOf(cluster: PreparedCluster): string {
  const name = cluster.spec.spec.infrastructureName;
  if (name === undefined) {
    throw new Error(`'spec.infrastructureName' is required with distribution openshift, got none (cluster ${cluster.spec.metadata.name})`);
  }
  return name;
}

/** The upstream controller-manager feature gates the operator passes through to `--feature-gates` (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/util/featuregates.go). */
export const UPSTREAM_CLOUD_FEATURE_GATES: readonly string[] = [
  'AllAlpha',
  'AllBeta',
  'CloudControllerManagerWatchBasedRoutesReconciliation',
  'CloudControllerManagerWebhook',
  'ControllerManagerReleaseLeaderElectionLockOnExit',
];

/**
 * The `--feature-gates` value of OpenStack and vSphere: enabled OpenShift
 * gates that are upstream cloud gates, as `Name=true`, sorted (the operator
 * follows the FeatureGate status order; sorting keeps the output stable).
 */
export function upstreamFeatureGatesFlag(enabled: readonly string[]): string {
  return [...new Set(enabled.filter((g) => UPSTREAM_CLOUD_FEATURE_GATES.includes(g)))]
    .sort()
    .map((g) => `${g}=true`)
    .join(',');
}

/**
 * The OpenShift feature gates a cluster renders with: the defaults of its
 * release and feature set (`spec.openshift`, see `RELEASE_GATE_TABLE`), plus
 * `spec.featureGates.enabled`, minus `spec.featureGates.disabled`.
 */
export function enabledFeatureGatesOf(spec: ClusterSpec): string[] {
  const s = spec.spec;
  return effectiveEnabledGates({
    release: s.openshift?.release,
    featureSet: s.openshift?.featureSet,
    enabled: s.featureGates.enabled,
    disabled: s.featureGates.disabled,
  });
}
