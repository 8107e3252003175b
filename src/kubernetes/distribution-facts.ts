import { KUBERNETES_CONTROL_PLANE_STEPS, KUBERNETES_MIGRATION_CHECKS, KUBERNETES_MIGRATION_CONTROL_PLANE } from './migration/migration-control-plane';
import { kubernetesCredentialHome } from './credential-home';
import { ClusterApiVersion, CLUSTER_API_VERSIONS, CONTROL_PLANE_FORMATS, controlPlaneChange, ControlPlaneFormat } from './migration/control-plane';
import { kubernetesPlatforms, upstreamProviderFor } from './providers';
import { imageMinor, kubernetesCloudConfigProblems, kubernetesProblems, kubernetesWarnings } from './validate';
import { refuseCredentials, withoutComments } from '../cloud-config/pass-through';
import { ImageKey } from '../cluster-spec/images';
import { ClusterSpec, PlatformType } from '../cluster-spec/schema';
import { DistributionFacts, PrepareContext } from '../cluster/distribution';
import { PreparedCluster } from '../cluster/prepared-cluster';
import { MigrationInput } from '../migration/flags';
import { isUserError } from '../util/user-error';

/**
 * Upstream CCM images of the kubernetes distribution, pinned by release tag:
 * the same pins as this repository's example fleet
 * (`clusters/kubernetes/defaults.yaml`, checked by test/init.test.ts).
 */
export const KUBERNETES_EXAMPLE_IMAGES: Readonly<Partial<Record<ImageKey, string>>> = {
  cloudControllerManagerAWS: 'registry.k8s.io/provider-aws/cloud-controller-manager:v1.35.0',
  cloudControllerManagerAzure: 'mcr.microsoft.com/oss/v2/kubernetes/azure-cloud-controller-manager:v1.33.2',
  cloudNodeManagerAzure: 'mcr.microsoft.com/oss/v2/kubernetes/azure-cloud-node-manager:v1.33.2',
  cloudControllerManagerGCP: 'registry.k8s.io/cloud-provider-gcp/cloud-controller-manager:v35.0.0',
  cloudControllerManagerVSphere: 'registry.k8s.io/cloud-pv-vsphere/cloud-provider-vsphere:v1.36.0',
  cloudControllerManagerOpenStack: 'registry.k8s.io/provider-os/openstack-cloud-controller-manager:v1.36.0',
  cloudControllerManagerAlibaba: 'registry.cn-hangzhou.aliyuncs.com/acs/cloud-controller-manager-amd64:v2.12.4',
  cloudControllerManagerNutanix: 'ghcr.io/nutanix-cloud-native/cloud-provider-nutanix/controller:v0.5.2',
  cloudControllerManagerDigitalOcean: 'digitalocean/digitalocean-cloud-controller-manager:v0.1.68',
  cloudControllerManagerEquinixMetal: 'ghcr.io/equinix/cloud-provider-equinix-metal:v3.8.1',
};

/** The CCM image key of a spec and the minor its tag is built for, when the tag tells. */
function ccmImage(spec: ClusterSpec): { key: string; minor: string } | undefined {
  const provider = upstreamProviderFor(spec.spec.platform);
  const image = provider ? spec.spec.images[provider.imageKey] : undefined;
  const minor = provider && image ? imageMinor(provider, image) : undefined;
  return provider && minor !== undefined ? { key: provider.imageKey, minor } : undefined;
}

/** Prepares a kubernetes-distribution cluster: the inline cloud config (checked for credentials, never transformed) and the deprecation warning. */
function prepare(spec: ClusterSpec, ctx: PrepareContext, migration: MigrationInput | undefined): PreparedCluster | undefined {
  const { file, issue, warn } = ctx;
  const provider = upstreamProviderFor(spec.spec.platform)!;
  const warnings: string[] = [];
  if (provider.deprecated) {
    warnings.push(`platform ${spec.spec.platform}: ${provider.deprecated}`);
  }
  warnings.push(...kubernetesWarnings(spec));
  const read = ctx.readCloudConfig();
  if (!read) {
    return undefined;
  }
  const { cloudConfigFile, text: source } = read;
  if (cloudConfigFile && source.trim() === '') {
    issue({
      file: cloudConfigFile,
      path: '',
      message: `cluster ${spec.metadata.name}: is empty; fill it, or remove spec.cloudConfig.file to read the provider's existing config object`,
    });
    return undefined;
  }
  // passed through to the CCM unchanged but for its comments: a comment is not configuration, and a commented-out credential must not reach git
  const cloudConf = cloudConfigFile ? withoutComments(source) : source;
  if (cloudConfigFile && cloudConf.trim() === '') {
    issue({
      file: cloudConfigFile,
      path: '',
      message: `cluster ${spec.metadata.name}: holds only comments; fill it, or remove spec.cloudConfig.file to read the provider's existing config object`,
    });
    return undefined;
  }
  if (cloudConfigFile) {
    try {
      refuseCredentials(spec.spec.platform, source, kubernetesCredentialHome(spec.spec.platform));
    } catch (e) {
      if (isUserError(e, 'cloud-config')) {
        issue({ file: cloudConfigFile, path: '', line: e.line, message: `cluster ${spec.metadata.name}: ${e.message}` });
        return undefined;
      }
      throw e;
    }
    const configProblems = kubernetesCloudConfigProblems(spec, cloudConf);
    for (const p of configProblems) {
      issue({ file: cloudConfigFile, path: p.path.join('.'), message: `cluster ${spec.metadata.name}: ${p.message}` });
    }
    if (configProblems.length > 0) {
      return undefined;
    }
  }
  for (const w of warnings) {
    warn({ file, message: `cluster ${spec.metadata.name}: ${w}` });
  }
  return { spec, specFile: file, specPath: ctx.specPath, cloudConfigFile, cloudConf, migration, warnings };
}

/**
 * The Kubernetes minor an example runs: the one its pinned CCM image is built
 * for, so the example fits the version-skew policy (src/util/version-skew.ts).
 */
function exampleKubernetesVersion(platform: PlatformType): string {
  const provider = upstreamProviderFor(platform)!;
  const image = KUBERNETES_EXAMPLE_IMAGES[provider.imageKey];
  return (image && imageMinor(provider, image)) ?? '1.33';
}

/** Vanilla Kubernetes (kubeadm, Cluster API, RKE2, k3s): the upstream CCMs of `src/kubernetes/providers.ts`, without rendering them. */
export const KUBERNETES_DISTRIBUTION_FACTS: DistributionFacts = {
  name: 'kubernetes',
  platforms: kubernetesPlatforms,
  renders: (platform) => upstreamProviderFor(platform) !== undefined,
  credentialHome: kubernetesCredentialHome,
  specProblems: kubernetesProblems,
  prepare,
  migrationControlPlane: KUBERNETES_MIGRATION_CONTROL_PLANE,
  migrationChecks: KUBERNETES_MIGRATION_CHECKS,
  controlPlaneSteps: () => KUBERNETES_CONTROL_PLANE_STEPS,
  ccmImage,
  migrationCheckSection(spec) {
    const s = spec.spec;
    const k = s.kubernetes;
    const image = ccmImage(spec);
    return k
      ? {
          kubernetes: {
            allocateNodeCidrs: k.allocateNodeCidrs,
            configureCloudRoutes: k.configureCloudRoutes,
            namespace: k.namespace,
            clusterName: k.clusterName,
            clusterNameFlag: upstreamProviderFor(s.platform)?.clusterNameFlag ?? false,
            ...(s.migration?.ccmVersion !== undefined ? { ccmVersion: s.migration.ccmVersion } : {}),
            ...(image ? { image } : {}),
            ...(k.controllers ? { controllers: k.controllers } : {}),
            ...(k.extraArgs['leader-elect-resource-name'] !== undefined
              ? { leaderElectResourceName: String(k.extraArgs['leader-elect-resource-name']) }
              : {}),
            preset: k.scheduling.preset,
            extraArgNames: Object.keys(k.extraArgs),
          },
        }
      : {};
  },
  // the administrator changes the control plane by hand: every phase may be moved back
  externalIsOneWay: () => false,
  scaffold: {
    examplePrefix: 'k8s-',
    argoCdNamespace: 'argocd',
    argoCdNamespaceComment: '                    # upstream Argo CD',
    defaultsHeader: `# Vanilla Kubernetes clusters (kubeadm, Cluster API, RKE2, k3s): the upstream CCMs in kube-system.
# Images are upstream release tags; pin them by digest in production.`,
    imageKeys(platform) {
      const provider = upstreamProviderFor(platform)!;
      return provider.cloudNodeManager ? [provider.imageKey, 'cloudNodeManagerAzure'] : [provider.imageKey];
    },
    exampleImage: (key) => KUBERNETES_EXAMPLE_IMAGES[key]!,
    exampleSpecBody: (platform) => `  kubernetes:
    version: "${exampleKubernetesVersion(platform)}"                   # minor version of the cluster's kube-controller-manager
`,
    exampleCloudConfig: () => undefined,
  },
  // the administrator changes kubeadm, Cluster API or the static pods: `migration control-plane` writes the change
  manualControlPlaneChange: {
    formats: CONTROL_PLANE_FORMATS,
    clusterApiVersions: CLUSTER_API_VERSIONS,
    write: (input, format, clusterApi, current) => controlPlaneChange(input, format as ControlPlaneFormat, clusterApi as ClusterApiVersion, current),
  },
};
