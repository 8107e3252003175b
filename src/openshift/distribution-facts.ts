import { OPENSHIFT_MIGRATION_CHECKS, OPENSHIFT_MIGRATION_CONTROL_PLANE_FACTS, openshiftControlPlaneSteps } from './migration/migration-control-plane';
import { openshiftCredentialHome } from './credential-home';
import { PLATFORM_FACTS, platformFactsFor, supportedPlatforms } from './platform-facts';
import { OnlyRelease, UPSTREAM_CLOUD_FEATURE_GATES } from './platform';
import { tlsSettingWarnings } from './release-operands';
import { refuseCredentials, withoutComments } from '../cloud-config/pass-through';
import { KUBE_RBAC_PROXY_IMAGE_KEY, OPERATOR_IMAGE_KEY } from '../cluster-spec/images';
import { RELEASE_VERSION_PATTERN } from './release';
import { payloadHas } from './release-payload';
import { ClusterSpec, Distribution, PlatformType } from '../cluster-spec/schema';
import { PLATFORM_SECTION } from '../cluster-spec/sections/platforms';
import { DistributionFacts, DistributionProblem, PrepareContext } from '../cluster/distribution';
import { PreparedCluster } from '../cluster/prepared-cluster';
import { MigrationInput } from '../migration/flags';
import { isUserError } from '../util/user-error';

/**
 * OpenShift images come from the release payload the cluster runs
 * (`oc adm release info --pullspecs <release>`); there is no sensible
 * default, so the scaffold writes a digest of zeros the user must replace.
 */
export const OPENSHIFT_PLACEHOLDER_IMAGE = `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${'0'.repeat(64)}`;

/** Cloud configs the OpenShift platforms cannot render without. */
const OPENSHIFT_EXAMPLE_CLOUD_CONFIGS: Partial<Record<PlatformType, (name: string) => string>> = {
  VSphere: () => `# REPLACE: the cluster's openshift-config/cloud-provider-config "config" (vSphere INI or YAML).
[Global]
secret-name = vsphere-creds
secret-namespace = kube-system
insecure-flag = 1

[VirtualCenter "vcenter.example.com"]
datacenters = dc1
`,
};

/** Checks of distribution openshift: a platform the operator renders, its sections and images, the infrastructure name. */
function openshiftProblems(spec: ClusterSpec, renderedBy: (platform: PlatformType) => Distribution[]): DistributionProblem[] {
  const problems: DistributionProblem[] = [];
  const s = spec.spec;
  const platform = platformFactsFor(s.platform);
  if (!platform) {
    const others = renderedBy(s.platform);
    const upstream = others.length > 0 ? `; it is rendered with distribution ${others.join(' or ')}` : '';
    problems.push({
      path: ['spec', 'platform'],
      message: `"${s.platform}" is not rendered for distribution openshift${upstream}; supported platforms: ${supportedPlatforms().join(', ')}`,
    });
  }
  if (s.infrastructureName === undefined) {
    problems.push({
      path: ['spec', 'infrastructureName'],
      message:
        "is required with distribution openshift; set the Infrastructure status.infrastructureName (oc get infrastructure cluster -o jsonpath='{.status.infrastructureName}')",
    });
  }
  if (s.kubernetes !== undefined) {
    problems.push({
      path: ['spec', 'kubernetes'],
      message: 'holds the knobs of distribution kubernetes; remove it, or set spec.distribution: kubernetes',
    });
  }
  for (const definition of Object.values(PLATFORM_FACTS)) {
    const key = definition && PLATFORM_SECTION[definition.type];
    if (key && s[key] !== undefined && definition.type !== s.platform) {
      problems.push({
        path: ['spec', key],
        message: `is set but spec.platform is "${s.platform}"; remove spec.${key} or set spec.platform to ${definition.type}`,
      });
    }
  }
  const required = [...(platform?.requiredImages ?? [])];
  if (s.managementMode === 'operator') {
    required.push(OPERATOR_IMAGE_KEY);
  }
  for (const key of required) {
    if (!s.images[key]) {
      problems.push({
        path: ['spec', 'images', key],
        message: `is required for platform ${s.platform} in ${s.managementMode} mode but missing; pin it by digest (repo@sha256:...) or by an explicit tag`,
      });
    }
  }
  const release = s.openshift?.release;
  if (s.managementMode === 'operator' && release !== undefined && needsKubeRbacProxy(release) && !s.images[KUBE_RBAC_PROXY_IMAGE_KEY]) {
    problems.push({
      path: ['spec', 'images', KUBE_RBAC_PROXY_IMAGE_KEY],
      message:
        `is required in operator mode on release ${release}, whose operator Deployment runs a kube-rbac-proxy sidecar (until 4.21); pin the cluster's own, read with: ` +
        `oc get deployment -n openshift-cloud-controller-manager-operator cluster-cloud-controller-manager-operator -o jsonpath='{.spec.template.spec.containers[?(@.name=="kube-rbac-proxy")].image}'`,
    });
  }
  if (s.cloudConfig?.extraKeys?.['cloud.conf'] !== undefined) {
    problems.push({
      path: ['spec', 'cloudConfig', 'extraKeys', 'cloud.conf'],
      message: 'is the key of the cloud config itself; use spec.cloudConfig.file',
    });
  }
  if (platform) {
    problems.push(...platform.validate(spec).map((p) => ({ path: [...p.path], message: p.message })));
  }
  return problems;
}

/** Prepares an OpenShift cluster: its extra cloud-config keys (checked for credentials) and the platform's transform of the cloud config. */
function prepare(spec: ClusterSpec, ctx: PrepareContext, migration: MigrationInput | undefined): PreparedCluster | undefined {
  const { file, issue, warn } = ctx;
  const platform = platformFactsFor(spec.spec.platform)!;
  for (const w of tlsSettingWarnings(spec)) {
    warn({ file, message: `cluster ${spec.metadata.name}: ${w}` });
  }
  const read = ctx.readCloudConfig();
  if (!read) {
    return undefined;
  }
  const { cloudConfigFile, text: source } = read;
  const extraData: Record<string, string> = {};
  for (const [key, extraRef] of Object.entries(spec.spec.cloudConfig?.extraKeys ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const field = `spec.cloudConfig.extraKeys.${key}`;
    const read = ctx.readRef(field, extraRef);
    if (!read) {
      return undefined;
    }
    const { file: extraFile, text } = read;
    try {
      refuseCredentials(spec.spec.platform, text, OPENSHIFT_DISTRIBUTION_FACTS.credentialHome(spec.spec.platform));
    } catch (e) {
      if (isUserError(e, 'cloud-config')) {
        issue({ file: extraFile, path: '', line: e.line, message: `cluster ${spec.metadata.name}: ${e.message}` });
        return undefined;
      }
      throw e;
    }
    // a comment is not configuration, and a commented-out value must not reach git
    extraData[key] = withoutComments(text);
  }
  try {
    const result = platform.transformCloudConfig(source, spec);
    for (const w of result.warnings) {
      warn({ file: cloudConfigFile ?? file, message: `cluster ${spec.metadata.name}: ${w}` });
    }
    const cloudConfExtraData = Object.keys(extraData).length > 0 ? extraData : undefined;
    return {
      spec,
      specFile: file,
      specPath: ctx.specPath,
      cloudConfigFile,
      cloudConf: result.config,
      cloudConfExtraData,
      migration,
      warnings: result.warnings,
    };
  } catch (e) {
    if (isUserError(e, 'cloud-config')) {
      issue({
        file: cloudConfigFile ?? file,
        path: cloudConfigFile ? '' : 'spec.cloudConfig',
        line: e.line,
        message: `cluster ${spec.metadata.name}: ${e.message}`,
      });
      return undefined;
    }
    throw e;
  }
}

/** Whether the operator Deployment of `release` runs a kube-rbac-proxy sidecar (until 4.21), whose image operator mode needs. */
function needsKubeRbacProxy(release: string): boolean {
  return RELEASE_VERSION_PATTERN.test(release) && !payloadHas(release, 'operatorServesMetrics');
}

/** OpenShift: what the cluster-cloud-controller-manager-operator renders, by platform (`src/openshift/platform-facts.ts`), without rendering it. */
export const OPENSHIFT_DISTRIBUTION_FACTS: DistributionFacts = {
  name: 'openshift',
  platforms: supportedPlatforms,
  renders: (platform) => platformFactsFor(platform) !== undefined,
  credentialHome: (platform) => {
    const facts = platformFactsFor(platform);
    return facts ? openshiftCredentialHome(facts) : undefined;
  },
  specProblems: openshiftProblems,
  importedPlatformSections: (platform, live) => platformFactsFor(platform)?.importLiveSections?.(live) ?? { sections: {}, warnings: [] },
  prepare,
  migrationControlPlane: OPENSHIFT_MIGRATION_CONTROL_PLANE_FACTS,
  migrationChecks: OPENSHIFT_MIGRATION_CHECKS,
  controlPlaneSteps: (ctx) =>
    openshiftControlPlaneSteps({
      featureGates: ctx.featureGates,
      featureSet: ctx.featureSet,
      ...(ctx.machineConfig !== undefined ? { machineConfig: ctx.machineConfig } : {}),
    }),
  // the payload's CCM images carry no upstream tag to read a minor from
  ccmImage: () => undefined,
  migrationCheckSection: () => ({}),
  // before the release that switches the platform by default, the FeatureGate that switched it cannot be turned off
  externalIsOneWay: (m) => m.support !== undefined && m.kubernetesMinor < m.support.openshiftExternalSinceMinor,
  scaffold: {
    examplePrefix: '',
    argoCdNamespace: 'openshift-gitops',
    argoCdNamespaceComment: '          # OpenShift GitOps',
    defaultsHeader: `# OpenShift clusters: the CCMs of the release payload, in the operator's namespaces.
# REPLACE every image with the digest of the release your clusters run:
#   oc adm release info --pullspecs quay.io/openshift-release-dev/ocp-release:<version>-x86_64
# (key names are the operator's images.json keys). Zeros render, but never pull.`,
    imageKeys: (platform) => [...platformFactsFor(platform)!.requiredImages],
    exampleImage: () => OPENSHIFT_PLACEHOLDER_IMAGE,
    exampleSpecBody: (
      platform,
      name,
      cloudConfigFile,
    ) => `  # Infrastructure status.infrastructureName: oc get infrastructure cluster -o jsonpath='{.status.infrastructureName}'
  infrastructureName: ${name}-abcde   # REPLACE
  # ClusterVersion status.desired.version: oc get clusterversion version -o jsonpath='{.status.desired.version}'
  openshift:
${exampleRelease(platformFactsFor(platform)?.onlyRelease)}${
      cloudConfigFile
        ? `  cloudConfig:
    file: ${cloudConfigFile}   # openshift-config/cloud-provider-config, key "config"
`
        : `  # cloudConfig:
  #   file: ${name}.cloud.conf   # openshift-config/cloud-provider-config, key "config", next to this file
`
    }`,
    exampleCloudConfig: (platform) => OPENSHIFT_EXAMPLE_CLOUD_CONFIGS[platform],
  },
  ccmFeatureGates: UPSTREAM_CLOUD_FEATURE_GATES,
  needsKubeRbacProxy,
  cloudConfigTransforms: {
    platformOf: (spec) => platformFactsFor(spec.spec.platform)?.cloudConfigPlatformOf?.(spec) ?? spec.spec.platform,
    transform: (spec, source) => platformFactsFor(spec.spec.platform)!.transformCloudConfig(source, spec),
  },
};

/** The example spec's release: the one a platform renders on, when it renders on one only. */
function exampleRelease(only: OnlyRelease | undefined): string {
  return only
    ? `    release: "${only.minor}.0"                 # REPLACE: the cluster's ${only.minor}.z release (${only.name} renders as release ${only.minor} shipped it)\n`
    : '    release: "4.22.3"                 # REPLACE: the cluster\'s release (required)\n';
}
