import { z } from 'zod';
import { IMAGE_KEYS, KUBE_RBAC_PROXY_IMAGE_KEY } from './images';
import { TLS_PROFILE_TYPES, TLS_VERSIONS } from './tls';
import { DEFAULT_LEADER_NAME, DEFAULT_LEASE_NAMESPACE, KUBERNETES_MINOR, MIGRATION_PHASES } from './sections/migration';
import { kubernetesSectionSchema } from './sections/kubernetes';
import { PLATFORM_SPEC_SECTIONS } from './sections/platforms';
import { cidrSchema } from './sections/vsphere';
import { openshiftSpecSection } from './sections/openshift';
import { DNS_LABEL, dnsLabel, dnsSubdomain, GIT_REF } from './shapes';

export const SPEC_API_VERSION = 'ccm-gitops.io/v1alpha1';
export const SPEC_KIND = 'CloudControllerManagerCluster';

/** The target distributions. */
export const DISTRIBUTIONS = ['openshift', 'kubernetes'] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];

/**
 * Every platform type that runs a CCM: the operator's (Infrastructure
 * `status.platformStatus.type`) plus the upstream-only DigitalOcean and
 * Equinix Metal. Which of them a distribution renders is decided by the
 * platform registry (openshift) and the upstream provider table (kubernetes).
 */
export const PLATFORM_TYPES = [
  'AWS',
  'Azure',
  'GCP',
  'IBMCloud',
  'PowerVS',
  'OpenStack',
  'VSphere',
  'Nutanix',
  'AlibabaCloud',
  'DigitalOcean',
  'EquinixMetal',
] as const;
export type PlatformType = (typeof PLATFORM_TYPES)[number];

const FEATURE_GATE = /^[A-Z][A-Za-z0-9]*$/;

const imagesSchema = z
  .strictObject(
    Object.fromEntries(
      IMAGE_KEYS.map((key) => [
        key,
        z
          .string()
          .optional()
          .describe(
            key === KUBE_RBAC_PROXY_IMAGE_KEY
              ? "The release's kube-rbac-proxy image: the operator's metrics sidecar in operator mode before OpenShift 4.22 (not an images.json key)"
              : `Image for images.json key ${key}`,
          ),
      ]),
    ) as Record<(typeof IMAGE_KEYS)[number], z.ZodOptional<z.ZodString>>,
  )
  .describe('Pinned images by images.json key.');

const proxyUrl = z.string().regex(/^https?:\/\/[^\s]+$/, { message: 'is not an http:// or https:// URL' });

export const clusterSpecSchema = z.strictObject({
  apiVersion: z.literal(SPEC_API_VERSION),
  kind: z.literal(SPEC_KIND),
  metadata: z.strictObject({
    name: z
      .string()
      .max(40, { message: 'is longer than 40 characters' })
      .regex(DNS_LABEL, { message: 'is not a DNS-1123 label' })
      .describe('Cluster name: the output directory and the prefix of GitOps object names.'),
    labels: z.record(z.string(), z.string()).optional().describe('Free-form labels, for fleet selection.'),
  }),
  spec: z.strictObject({
    distribution: z
      .enum(DISTRIBUTIONS)
      .describe(
        'openshift: what the cluster-cloud-controller-manager-operator renders; kubernetes: the upstream CCMs in kube-system (spec.kubernetes).',
      ),
    platform: z.enum(PLATFORM_TYPES).describe('Infrastructure status.platformStatus.type.'),
    infrastructureName: z
      .string()
      .max(63, { message: 'is longer than 63 characters' })
      .regex(DNS_LABEL, { message: 'is not a DNS-1123 label' })
      .optional()
      .describe('Infrastructure status.infrastructureName (openshift; required there).'),
    controlPlaneTopology: z
      .enum(['HighlyAvailable', 'SingleReplica'])
      .default('HighlyAvailable')
      .describe('Infrastructure status.controlPlaneTopology; SingleReplica renders 1 replica and no PodDisruptionBudget.'),
    managementMode: z
      .enum(['gitops', 'operator'])
      .default('gitops')
      .describe('gitops: render the operands directly (no operator Deployment); operator: render the operator, which renders the operands.'),
    images: imagesSchema,
    cloudConfig: z
      .strictObject({
        file: z.string().min(1).describe('Path of the cloud config, relative to this spec file.'),
        extraKeys: z
          .record(z.string().regex(/^[-._a-zA-Z0-9]+$/, { message: 'is not a ConfigMap key' }), z.string().min(1))
          .optional()
          .describe(
            'Other keys of the cloud-provider-config ConfigMap (e.g. Azure Stack Hub "endpoints"), as paths relative to this spec file; passed to cloud-conf unchanged.',
          ),
      })
      .optional()
      .describe('The user cloud config (openshift-config/cloud-provider-config, key "config").'),
    proxy: z
      .strictObject({
        httpProxy: proxyUrl.optional(),
        httpsProxy: proxyUrl.optional(),
        noProxy: z.string().regex(/^\S+$/, { message: 'contains white space' }).optional(),
      })
      .optional()
      .describe('Proxy status: appended as HTTP_PROXY, HTTPS_PROXY, NO_PROXY to every CCM container.'),
    featureGates: z
      .strictObject({
        enabled: z.array(z.string().regex(FEATURE_GATE, { message: 'is not a feature gate name' })).default([]),
        disabled: z.array(z.string().regex(FEATURE_GATE, { message: 'is not a feature gate name' })).default([]),
      })
      .prefault({})
      .describe('OpenShift feature gates as the FeatureGate status reports them.'),
    tls: z
      .strictObject({
        profile: z.enum(TLS_PROFILE_TYPES).default('Intermediate').describe('APIServer spec.tlsSecurityProfile.type.'),
        minTLSVersion: z.enum(TLS_VERSIONS).optional().describe('Custom profile only: minimum TLS version.'),
        ciphers: z.array(z.string().min(1)).optional().describe('Custom profile only: cipher names, OpenSSL (as the APIServer) or IANA.'),
      })
      .prefault({})
      .describe('TLS security profile of the serving endpoints (APIServer spec.tlsSecurityProfile).'),
    network: z
      .strictObject({
        serviceNetwork: z.array(cidrSchema).max(2).default([]).describe('Network spec.serviceNetwork, in order.'),
      })
      .optional()
      .describe('The cluster Network configuration the transforms read (vSphere IP families).'),
    migration: z
      .strictObject({
        phase: z
          .enum(MIGRATION_PHASES)
          .describe(
            'The phase to render: in-tree, leader-migration-kcm, leader-migration-ccm, external-leader-migration or external (docs/migration.md); one step forward or back per change.',
          ),
        kubernetesVersion: z
          .string()
          .regex(KUBERNETES_MINOR, { message: 'is not a Kubernetes minor version like "1.26"' })
          .describe('Minor version of the kube-controller-manager the control plane runs now (N).'),
        ccmVersion: z
          .string()
          .regex(KUBERNETES_MINOR, { message: 'is not a Kubernetes minor version like "1.27"' })
          .optional()
          .describe(
            'Minor of the k8s.io/controller-manager the CCM is built with. Defaults to kubernetesVersion; the version skew policy allows N and N-1, not N+1.',
          ),
        preStage: z
          .boolean()
          .default(false)
          .describe('Phase in-tree: render the CCM RBAC, the migration lease RBAC and the CredentialsRequest ahead of the move.'),
        inTreeVolumes: z
          .boolean()
          .optional()
          .describe(
            'Phase external: keep the in-tree volume plugins in kube-controller-manager (--external-cloud-volume-plugin). Defaults to true while the KCM still has them.',
          ),
        nodeIpam: z.boolean().default(false).describe('Node IPAM moves to the CCM too (never on OpenShift).'),
        wildcard: z
          .boolean()
          .default(false)
          .describe(
            'Both sides\' files name component "*" (whoever holds the migration lease runs the controllers) instead of each naming its own component.',
          ),
        leaderName: dnsSubdomain('is not a DNS-1123 subdomain (the Lease name)').default(DEFAULT_LEADER_NAME).describe('The migration Lease name.'),
        leaseNamespace: dnsLabel()
          .default(DEFAULT_LEASE_NAMESPACE)
          .describe('The namespace kube-controller-manager elects its leader in; the CCM uses the same during leader migration.'),
        leaderElect: z.boolean().default(true).describe('Whether kube-controller-manager runs with --leader-elect=true (leader migration needs it).'),
        featureSet: z
          .enum(['CustomNoUpgrade', 'TechPreviewNoUpgrade'])
          .default('CustomNoUpgrade')
          .describe('OpenShift, phase external on a release that is not external by default: the feature set of the rendered FeatureGate.'),
      })
      .optional()
      .describe('Migration from the in-tree cloud provider; absent means the cluster already runs the external CCM.'),
    gitops: z
      .strictObject({
        engine: z.enum(['argocd', 'flux', 'plain']).default('plain'),
        repoURL: z.string().min(1).optional(),
        revision: z
          .string()
          .min(1)
          .max(255, { message: 'is longer than 255 characters (a git ref)', abort: true })
          .regex(GIT_REF, {
            message:
              'is not a git ref (a branch, tag or commit as git check-ref-format accepts it: no white space, "..", "~^:?*[\\", "@{", trailing "/" or ".", or ".lock" ending)',
          })
          .default('main'),
        path: z.string().min(1).optional().describe('Defaults to dist/<metadata.name>.'),
        argocd: z
          .strictObject({
            namespace: dnsLabel().default('openshift-gitops'),
            project: dnsSubdomain('is not an Argo CD project name (a DNS-1123 subdomain)').default('default'),
            topology: z
              .enum(['per-cluster', 'hub'])
              .default('per-cluster')
              .describe(
                'per-cluster: an Argo CD runs in each cluster and applies only that cluster (destination in-cluster); ' +
                  'hub: one Argo CD applies many registered clusters (destinationServer or destinationName required, a dedicated project rendered as an AppProject).',
              ),
            destinationServer: z
              .string()
              .min(1)
              .optional()
              .describe('API server URL of the target cluster as registered in Argo CD. Default (per-cluster): https://kubernetes.default.svc.'),
            destinationName: z
              .string()
              .min(1)
              .optional()
              .describe('Name of the target cluster as registered in Argo CD (instead of destinationServer).'),
          })
          .prefault({}),
        flux: z
          .strictObject({
            namespace: dnsLabel().default('flux-system'),
            interval: z
              .string()
              .regex(/^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$/, { message: 'is not a duration' })
              .default('10m'),
            secretRef: dnsSubdomain('is not a Secret name (a DNS-1123 subdomain)')
              .optional()
              .describe('Secret with the git credentials, in the Flux namespace.'),
            entrySourceRef: dnsSubdomain('is not a GitRepository name (a DNS-1123 subdomain)')
              .default('flux-system')
              .describe('GitRepository (in the Flux namespace, existing before ccm-gitops) the entry Kustomization reads the stage chain from.'),
          })
          .prefault({}),
      })
      .prefault({})
      .describe('How the GitOps engine finds and applies the rendered stages.'),
    openshift: openshiftSpecSection.optional(),
    kubernetes: kubernetesSectionSchema.optional().describe('The knobs of distribution kubernetes (required there, refused with openshift).'),
    ...PLATFORM_SPEC_SECTIONS,
  }),
});

/** A cluster spec as written (defaults not applied). */
export type ClusterSpecInput = z.input<typeof clusterSpecSchema>;
/** A validated cluster spec with defaults applied. */
export type ClusterSpec = z.output<typeof clusterSpecSchema>;
