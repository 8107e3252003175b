import type { Construct } from 'constructs';
import { SpecIssue } from '../cluster-spec/errors';
import { ClusterSpec, Distribution, PlatformType } from '../cluster-spec/schema';
import { ImageKey } from '../cluster-spec/images';
import { ControlPlaneSteps, MigrationControlPlane } from '../migration/control-plane';
import { MigrationInput } from '../migration/flags';
import { MigrationCheckInput, MigrationControlPlaneChecks } from '../migration/validate';
import { MigrationTarget } from '../migration/target';
import { RenderedFile, RenderedObject } from '../gitops/layout';
import { PreparedCluster } from './prepared-cluster';

/** A problem of a spec at a field path. */
export interface DistributionProblem {
  readonly path: (string | number)[];
  readonly message: string;
}

/** The objects of a live cluster's export that a platform's spec sections are read from (`import`). */
export interface LivePlatformObjects {
  /** The Infrastructure "cluster" (its `spec.platformSpec` and `status.platformStatus`). */
  readonly infrastructure: { readonly spec?: unknown; readonly status?: unknown };
  /** The Network "cluster", looked up only by a platform that reads it; undefined when the export has none. */
  readonly network: () => { readonly spec?: unknown } | undefined;
}

/** A platform's sections of an imported spec, in the order the spec takes them, and the import's warnings about them. */
export interface ImportedPlatformSections {
  readonly sections: Readonly<Record<string, unknown>>;
  readonly warnings: readonly string[];
}

/** What a distribution needs of the loader to prepare a cluster: reading files inside the clusters folder and reporting. */
export interface PrepareContext {
  /** The spec file, as given to the loader. */
  readonly file: string;
  /** The spec file relative to the clusters folder, `/`-separated. */
  readonly specPath: string;
  readonly issue: (i: SpecIssue) => void;
  readonly warn: (w: { readonly file: string; readonly message: string }) => void;
  /** Reads spec.cloudConfig.file: its path and text, '' without one; undefined after reporting a problem. */
  readonly readCloudConfig: () => { cloudConfigFile?: string; text: string } | undefined;
  /** Reads a file the spec names at `field` (inside the clusters folder); undefined after reporting a problem. */
  readonly readRef: (field: string, ref: string) => { file: string; text: string } | undefined;
}

/** What `init` writes for a distribution: its example fleet's choices. */
export interface DistributionScaffold {
  /** Prefix of the example cluster names (unique across distributions). */
  readonly examplePrefix: string;
  /** The namespace of its Argo CD, and the comment written beside it. */
  readonly argoCdNamespace: string;
  readonly argoCdNamespaceComment: string;
  /** The header of its defaults.yaml. */
  readonly defaultsHeader: string;
  /** The image keys its platforms need, unsorted. */
  imageKeys(platform: PlatformType): ImageKey[];
  /** The example value of an image. */
  exampleImage(key: ImageKey): string;
  /** The lines of an example spec under `spec.platform`. */
  exampleSpecBody(platform: PlatformType, name: string, cloudConfigFile: string | undefined): string;
  /** The example cloud config a platform cannot render without, by cluster name. */
  exampleCloudConfig(platform: PlatformType): ((name: string) => string) | undefined;
}

/** What `cloud-config transform` runs of a distribution whose operator transforms the cloud config. */
export interface CloudConfigTransforms {
  /** The platform the command names for a spec (a platform whose clouds differ may name one transform per cloud). */
  platformOf(spec: ClusterSpec): string;
  /** The spec's cloud config, transformed as the cluster is prepared. Throws CloudConfigError. */
  transform(spec: ClusterSpec, source: string): { readonly config: string; readonly warnings: readonly string[] };
}

/** What `migration control-plane` writes of a distribution whose administrator changes the control plane by hand. */
export interface ManualControlPlaneChange {
  /** The forms the change is written in. */
  readonly formats: readonly string[];
  /** The Cluster API versions form `cluster-api` is written for. */
  readonly clusterApiVersions: readonly string[];
  /** The change of a phase in a form (`current`: the KubeadmControlPlane read back, when given). */
  write(input: MigrationInput, format: string, clusterApi: string, current: unknown): string;
}

/**
 * What checks, prepares and plans a distribution's clusters without rendering
 * them: no construct is loaded through it (synth's main thread, the loader and
 * the CLI read it).
 */
export interface DistributionFacts {
  readonly name: Distribution;
  /** Platforms it renders, sorted. */
  platforms(): PlatformType[];
  /** Whether it renders the platform. */
  renders(platform: PlatformType): boolean;
  /** Where the platform's CCM reads its credentials, for the fix of a refused credential; undefined when it does not render the platform. */
  credentialHome(platform: PlatformType): string | undefined;
  /** Its checks of a spec, beyond those of every distribution; `renderedBy` names the other distributions that render a platform. */
  specProblems(spec: ClusterSpec, renderedBy: (platform: PlatformType) => Distribution[]): DistributionProblem[];
  /** Reads and transforms the spec's cloud config into a cluster ready to render; undefined after reporting a problem. */
  prepare(spec: ClusterSpec, ctx: PrepareContext, migration: MigrationInput | undefined): PreparedCluster | undefined;
  /** Where its kube-controller-manager reads the leader-migration file, and its migration checks. */
  readonly migrationControlPlane: Pick<MigrationControlPlane, 'kcmConfigPath' | 'checks'>;
  readonly migrationChecks: MigrationControlPlaneChecks;
  /** Its part of each phase change's steps. */
  controlPlaneSteps(ctx: {
    readonly featureGates: readonly string[];
    readonly featureSet: string;
    readonly machineConfig?: string;
  }): ControlPlaneSteps;
  /** The CCM image key and the minor its tag is built for, when it pins an upstream image whose tag tells. */
  ccmImage(spec: ClusterSpec): { key: string; minor: string } | undefined;
  /** What the migration checks read of this distribution's own section. */
  migrationCheckSection(spec: ClusterSpec): Pick<MigrationCheckInput, 'kubernetes'>;
  /**
   * The platform's sections of a spec imported from a live cluster, read from its exported objects.
   *
   * @default - none: it imports no live cluster
   */
  importedPlatformSections?(platform: PlatformType, live: LivePlatformObjects): ImportedPlatformSections;
  /** Whether a move back from an external phase is refused: the switch to external cannot be turned off. */
  externalIsOneWay(m: MigrationInput): boolean;
  /** Its example fleet for `init`. */
  readonly scaffold: DistributionScaffold;
  /**
   * The cluster feature gates its CCMs receive in `--feature-gates`.
   *
   * @default - none
   */
  readonly ccmFeatureGates?: readonly string[];
  /**
   * Its operator's cloud-config transforms, for `cloud-config transform`.
   *
   * @default - the distribution does not transform the cloud config
   */
  readonly cloudConfigTransforms?: CloudConfigTransforms;
  /**
   * The control-plane change its administrator applies in a migration, for `migration control-plane`.
   *
   * @default - the distribution renders the control plane's change itself
   */
  readonly manualControlPlaneChange?: ManualControlPlaneChange;
  /**
   * Whether operator mode on `release` needs `spec.images.kubeRbacProxy` (its operator Deployment runs that sidecar), for `import`.
   *
   * @default - never
   */
  needsKubeRbacProxy?(release: string): boolean;
}

/** What the rendered objects of a cluster leave for its extra files. */
export interface RenderedClusterContext {
  readonly cluster: PreparedCluster;
  /** The cluster's folder in the repository, as the engines find it. */
  readonly repoPath: string;
  readonly objects: readonly RenderedObject[];
  /** The single manifest (output mode manifest-dir), relative to the cluster's folder. */
  readonly manifestFile?: string;
}

/** How a distribution's cluster is written: stages, one manifest (k3s/RKE2), or a ClusterResourceSet carrying the stages. */
export type OutputMode = 'plain' | 'manifest-dir' | 'cluster-resource-set';

/** What renders a distribution's clusters: its constructs, its extra files, its migration target. */
export interface DistributionRendering {
  /**
   * Adds the objects rendered in every phase to `chart` and returns what
   * renders the CCM operands (in `gitops` mode, when the phase runs the CCM).
   */
  renderCluster(chart: Construct, cluster: PreparedCluster): (scope: Construct) => void;
  outputMode(spec: ClusterSpec): OutputMode;
  /** Mode cluster-resource-set: the objects applied instead of `objects`. */
  applied(scope: Construct, spec: ClusterSpec, objects: RenderedObject[]): RenderedObject[];
  /** Files beside the stages (CONTROL-PLANE.md, HANDOVER.md). */
  extraFiles(ctx: RenderedClusterContext): RenderedFile[];
  /** Its side of a cluster's migration. */
  migrationTarget(spec: ClusterSpec): MigrationTarget;
  /** How its control plane changes in the migration. */
  migrationControlPlane(spec: ClusterSpec): MigrationControlPlane;
}
