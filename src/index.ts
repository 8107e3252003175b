// The public API of ccm-gitops: everything `import { … } from 'ccm-gitops'`
// gives, by name. docs/api.md documents each name; test/public-api.test.ts
// checks that these exports are exactly the names it documents.

// Cluster specs: schema and types, loading with folder defaults, errors.
export { formatIssue, SpecValidationError } from './cluster-spec/errors';
export type { SpecIssue } from './cluster-spec/errors';
export { IMAGE_KEYS, imagePinProblem } from './cluster-spec/images';
export { clusterSpecJsonSchema } from './cluster-spec/json-schema';
export type { SpecSchema } from './cluster-spec/public-schema';
export { loadFleet, loadSpecFiles, streamSpecFiles } from './fleet/load';
export type { Fleet, FleetMember, LoadedCluster } from './fleet/load';
export { clusterSpecSchema } from './cluster-spec/schema';
export type { ClusterSpec, Distribution, PlatformType } from './cluster-spec/schema';
export { resolveTlsProfile } from './cluster-spec/tls';
export { loadCluster } from './api/load-cluster';
export type { LoadClusterOptions } from './api/load-cluster';
export type { PreparedCluster } from './cluster/prepared-cluster';
export { migrateSpecText } from './spec-migrations/migrate-spec';

// Constructs: the cluster chart, its parts, the platform and provider registries.
export { ClusterChart } from './pipeline/cluster-chart';
export type { ClusterChartProps } from './pipeline/cluster-chart';
export { KubernetesCloudControllerManager } from './kubernetes/kubernetes-cloud-controller-manager';
export { ClusterResourceSetChart } from './kubernetes/cluster-resource-set-chart';
export { kubernetesPlatforms, UPSTREAM_PROVIDERS, upstreamProviderFor } from './kubernetes/providers';
export { OpenShiftStaticSet } from './openshift/openshift-static-set';
export { CloudCredentialsRequest } from './openshift/cloud-credentials-request';
export { PLATFORMS, platformFor } from './openshift/platforms';
export { PLATFORM_FACTS, platformFactsFor, supportedPlatforms } from './openshift/platform-facts';
export type { OnlyRelease, PlatformDefinition, PlatformFacts } from './openshift/platform';
export { MigrationObjects } from './migration/migration-objects';
export { ArgoCdApplication } from './gitops/argocd-application';
export { ClusterGitOpsChart } from './gitops/cluster-gitops-chart';
export { FluxStageChain } from './gitops/flux-stage-chain';
export { STAGES } from './gitops/stages';
export type { Stage } from './gitops/stages';

// Rendering and writing a fleet, the semantic diff, cloud-config transforms.
export type { RenderedFile } from './gitops/layout';
export { renderCluster, renderFleet } from './pipeline/render';
export type { RenderedCluster } from './pipeline/render';
export { synthesize } from './pipeline/synth';
export type { SynthOptions, SynthResult } from './pipeline/synth';
export { staleFiles } from './pipeline/synth-checks';
export { writeTreeAtomically } from './pipeline/output';
export { diffTrees, hasChanges } from './diff/diff-trees';
export type { Tree } from './diff/diff-trees';
export { readTreeFiles } from './diff/load-tree';
export { diffMarkdown } from './diff/markdown';
export { CLOUD_CONFIG_PLATFORMS, transformCloudConfig } from './cloud-config';

// The command line, the fleet scaffold, the generated docs.
export { runCli, runCliAsync } from './cli';
export type { CliIo } from './cli';
export { scaffold } from './init/scaffold';
export type { ScaffoldOptions } from './init/scaffold';
export { initFleet } from './init/init';
export { specReferenceMarkdown } from './docs/spec-reference';
