/**
 * `spec.kubernetes`: the knobs of the `kubernetes` distribution (upstream
 * CCMs in kube-system), typed after what users of the upstream charts ask
 * for (the charts' values files). Pure: no cdk8s import.
 */
import { z } from 'zod';
import { KUBERNETES_MINOR } from './migration';
import { dnsLabel, dnsSubdomain, FLAG_NAME } from '../shapes';

/** A Kubernetes quantity (syntax only). */
const QUANTITY = /^[+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+|[numkKMGTPE]i?)?$/;
/** An IPv4 or IPv6 CIDR (syntax only; the octets are checked by the validation step). */
const CIDR = /^(([0-9]{1,3}\.){3}[0-9]{1,3}\/[0-9]{1,2}|[0-9a-fA-F:]+\/[0-9]{1,3})$/;

/** The scheduling presets: where the control plane is and which taints the CCM must tolerate. */
export const SCHEDULING_PRESETS = ['kubeadm', 'rke2', 'k3s', 'openshift', 'all-taints'] as const;
export type SchedulingPreset = (typeof SCHEDULING_PRESETS)[number];

/** The output modes of a kubernetes cluster. */
export const OUTPUT_MODES = ['plain', 'cluster-resource-set', 'manifest-dir'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

/** A ConfigMap or Secret key (kubernetes/apimachinery@v0.33.0 pkg/util/validation/validation.go IsConfigMapKey): at most 253 characters. */
const configMapKey = z
  .string()
  .max(253, { message: 'is longer than 253 characters (a ConfigMap or Secret key)', abort: true })
  .regex(/^[-._a-zA-Z0-9]+$/, { message: 'is not a ConfigMap or Secret key' });
/** Flags by name without "--", with their values. */
const extraArgs = z.record(
  z.string().regex(FLAG_NAME, { message: 'is not a flag name (lower-case letters, digits and "-"; write it without "--" and without "=")' }),
  z.union([z.string(), z.number(), z.boolean()]),
);
const quantity = z.string().regex(QUANTITY, { message: 'is not a Kubernetes quantity like "100m" or "128Mi"' });
const labelMap = z.record(z.string().min(1), z.string());

const tolerationSchema = z.strictObject({
  key: z.string().min(1).optional(),
  operator: z.enum(['Exists', 'Equal']).default('Equal'),
  value: z.string().optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
  tolerationSeconds: z.number().int().min(0).optional(),
});

const keyRef = z.strictObject({
  name: dnsSubdomain(),
  key: configMapKey,
  optional: z.boolean().optional(),
});

const envVarSchema = z.strictObject({
  name: z.string().regex(/^[-._a-zA-Z][-._a-zA-Z0-9]*$/, { message: 'is not an environment variable name' }),
  value: z.string().optional().describe('A literal value; credentials must come from valueFrom.secretKeyRef.'),
  valueFrom: z
    .strictObject({
      secretKeyRef: keyRef.optional(),
      configMapKeyRef: keyRef.optional(),
      fieldRef: z.strictObject({ fieldPath: z.string().min(1) }).optional(),
    })
    .optional(),
});

const extraVolumeSchema = z.strictObject({
  name: dnsLabel(),
  mountPath: z.string().regex(/^\/[^\s:]*$/, { message: 'is not an absolute path without ":"' }),
  readOnly: z.boolean().default(true),
  secret: dnsSubdomain('is not a Secret name').optional().describe('Name of an existing Secret to mount.'),
  configMap: dnsSubdomain('is not a ConfigMap name').optional().describe('Name of an existing ConfigMap to mount.'),
  hostPath: z
    .string()
    .regex(/^\/[^\s]*$/, { message: 'is not an absolute path' })
    .optional()
    .describe('A path on the node.'),
  emptyDir: z.boolean().optional().describe('An empty scratch directory.'),
});

/** `spec.kubernetes`. */
export const kubernetesSectionSchema = z.strictObject({
  version: z
    .string()
    .regex(KUBERNETES_MINOR, { message: 'is not a Kubernetes minor version like "1.33"' })
    .describe('Minor version of the cluster (control plane); picks the kubeadm API and the flags that still exist.'),
  namespace: dnsLabel().default('kube-system').describe('Namespace of the CCM (the upstream CCMs run in kube-system).'),
  clusterName: dnsLabel()
    .optional()
    .describe(
      '--cluster-name (load-balancer and route names) for the providers that take it. Defaults to "kubernetes", the name the in-tree kube-controller-manager and the upstream charts use, so a cluster adopting the CCM keeps its load balancers.',
    ),
  command: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe(
      'The container command: each item a path or binary name, or one --name=value flag. Default: none; the flags go in args, after the binary path for images whose ENTRYPOINT does not run the binary (OpenStack).',
    ),
  workload: z
    .strictObject({
      kind: z.enum(['Deployment', 'DaemonSet']).optional().describe("Defaults to the upstream manifest's kind for the provider."),
      replicas: z
        .number()
        .int()
        .min(1, { message: 'must be at least 1' })
        .max(9)
        .optional()
        .describe(
          "Deployment only. Defaults to the upstream manifest's or chart's (Azure and DigitalOcean 1, Nutanix 2); 1 with controlPlaneTopology SingleReplica, where more is refused while the pods are kept on control-plane nodes. Each replica needs its own control-plane node.",
        ),
      podDisruptionBudget: z.boolean().optional().describe('Deployment only: a PDB with maxUnavailable 1. Defaults to true when replicas > 1.'),
    })
    .prefault({}),
  scheduling: z
    .strictObject({
      preset: z
        .enum(SCHEDULING_PRESETS)
        .default('kubeadm')
        .describe('kubeadm/rke2/k3s/openshift: control-plane labels and taints of that distribution; all-taints: tolerate everything.'),
      extraTolerations: z.array(tolerationSchema).default([]).describe("Appended to the preset's tolerations."),
      nodeSelector: labelMap.optional().describe("Replaces the preset's control-plane node affinity with these labels."),
    })
    .prefault({}),
  hostNetwork: z
    .boolean()
    .default(true)
    .describe('Run on the host network (dnsPolicy Default), so the CCM works before the CNI and reaches the instance metadata service directly.'),
  priorityClassName: dnsSubdomain('is not a PriorityClass name')
    .optional()
    .describe("Default: the provider's upstream manifest or chart (system-node-critical for AWS, Azure and vSphere), else system-cluster-critical."),
  useServiceAccountCredentials: z
    .boolean()
    .default(false)
    .describe(
      'true: each controller runs as its own kube-system ServiceAccount (least-privilege RBAC); false: all run as the CCM ServiceAccount (superset RBAC).',
    ),
  controllers: z
    .array(z.string().regex(/^(\*|-?[a-z][-a-z0-9]*)$/, { message: 'is not a controller name, "*" or "-name"' }))
    .min(1)
    .optional()
    .describe("--controllers; defaults to the provider's upstream list."),
  configureCloudRoutes: z.boolean().default(false).describe('--configure-cloud-routes (kubenet-style routes; most CNIs need false).'),
  allocateNodeCidrs: z.boolean().default(false).describe('--allocate-node-cidrs; needs clusterCIDR.'),
  clusterCIDR: z
    .array(z.string().regex(CIDR, { message: 'is not a CIDR' }))
    .min(1)
    .max(2)
    .optional()
    .describe('--cluster-cidr (pod network), one per IP family.'),
  leaderElect: z.boolean().default(true).describe('--leader-elect; must stay true with more than one replica.'),
  secureServing: z
    .strictObject({
      port: z.number().int().min(1).max(65535).optional().describe("--secure-port; defaults to the provider's (10258; Azure 10268)."),
      bindAddress: z
        .string()
        .regex(/^([0-9]{1,3}\.){3}[0-9]{1,3}$|^[0-9a-fA-F:]+$/, { message: 'is not an IP address' })
        .optional()
        .describe('--bind-address; defaults to 127.0.0.1 on the host network without metrics, else 0.0.0.0.'),
    })
    .prefault({}),
  metrics: z
    .strictObject({
      enabled: z.boolean().default(false).describe('A Service on the secure port, and the RBAC that delegated authorization needs.'),
      serviceMonitor: z.boolean().default(false).describe('A prometheus-operator ServiceMonitor for that Service.'),
      scraper: z
        .string()
        .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, { message: 'is not "namespace/serviceaccount"' })
        .optional()
        .describe('ServiceAccount (namespace/name) allowed to GET /metrics.'),
    })
    .prefault({}),
  cloudConfig: z
    .strictObject({
      existingSecret: dnsSubdomain('is not a Secret name').optional(),
      existingConfigMap: dnsSubdomain('is not a ConfigMap name').optional(),
      key: configMapKey.optional().describe('The key the flag names; every key of the object is mounted (CA files beside the config).'),
      hostPath: z
        .string()
        .regex(/^\/[^\s:]*$/, { message: 'is not an absolute path without ":"' })
        .optional()
        .describe('A file on the control-plane nodes instead of an object, e.g. /etc/kubernetes/azure.json that Cluster API Azure (CAPZ) writes.'),
    })
    .optional()
    .describe("Where the CCM reads its cloud config (or, for DigitalOcean, its API token) from; defaults to the provider's usual Secret."),
  workloadIdentity: z
    .strictObject({
      enabled: z.boolean().default(false),
      audience: z.string().min(1).default('api://AzureADTokenExchange'),
      expirationSeconds: z.number().int().min(600).max(86400).default(3600),
    })
    .prefault({})
    .describe(
      'Azure: a projected ServiceAccount token for Microsoft Entra workload identity (without the webhook), at /var/run/secrets/azure/tokens/azure-identity-token; set aadFederatedTokenFile and useFederatedWorkloadIdentityExtension in azure.json.',
    ),
  equinixMetalLoadBalancer: z
    .enum(['kube-vip', 'metallb', 'metallb-crd', 'emlb'])
    .optional()
    .describe(
      'Equinix Metal: the load-balancer implementation set in cloud-sa.json (`loadbalancer`); grants its calls (metallb: the metallb-system Role, so MetalLB must be installed). Default: none.',
    ),
  hostCertificates: z
    .boolean()
    .default(false)
    .describe(
      "Mount the node's /etc/ssl/certs and /etc/kubernetes/pki read-only (CA bundles a cloud config names, e.g. OpenStack ca-file), as the upstream charts do.",
    ),
  extraArgs: extraArgs
    .default({})
    .describe(
      'Flags merged over the rendered ones: a flag named here replaces the rendered value, others are appended. One flag per entry; no credentials.',
    ),
  extraEnv: z.array(envVarSchema).default([]).describe('Env merged by name over the rendered env.'),
  extraVolumes: z.array(extraVolumeSchema).default([]).describe('Volumes (with their mounts) merged by name over the rendered ones.'),
  resources: z
    .strictObject({
      requests: z.strictObject({ cpu: quantity.optional(), memory: quantity.optional() }).prefault({}),
      limits: z.strictObject({ cpu: quantity.optional(), memory: quantity.optional() }).optional(),
    })
    .prefault({})
    .describe("Requests default to the provider's upstream values; no limits unless set."),
  podLabels: labelMap.default({}),
  podAnnotations: labelMap.default({}),
  serviceAccount: z
    .strictObject({
      labels: labelMap.default({}),
      annotations: labelMap.default({}).describe('e.g. eks.amazonaws.com/role-arn (IRSA) or azure.workload.identity/client-id.'),
    })
    .prefault({}),
  imagePullSecrets: z.array(dnsSubdomain('is not a Secret name')).default([]),
  cloudNodeManager: z
    .strictObject({
      enabled: z.boolean().default(true),
      windows: z.boolean().default(false).describe('Also a HostProcess DaemonSet on Windows nodes (Kubernetes 1.26+, containerd 1.7+).'),
      resources: z
        .strictObject({
          requests: z.strictObject({ cpu: quantity.optional(), memory: quantity.optional() }).prefault({}),
          limits: z.strictObject({ cpu: quantity.optional(), memory: quantity.optional() }).optional(),
        })
        .prefault({})
        .describe('Requests default to 50m / 50Mi; no limits unless set.'),
      tolerations: z
        .array(tolerationSchema)
        .optional()
        .describe('Replace the default (tolerate every taint: it must run on each node before the node is initialised).'),
      extraArgs: extraArgs.default({}).describe('Flags merged over the rendered ones (e.g. kube-api-qps, node-status-update-frequency).'),
    })
    .prefault({})
    .describe('Azure: the cloud-node-manager DaemonSet(s).'),
  output: z
    .strictObject({
      mode: z
        .enum(OUTPUT_MODES)
        .default('plain')
        .describe(
          'plain: the stage folders; cluster-resource-set: a Cluster API ClusterResourceSet for the management cluster; manifest-dir: one file for k3s/RKE2 server/manifests.',
        ),
      clusterResourceSet: z
        .strictObject({
          namespace: dnsLabel().default('default').describe('Namespace of the Cluster object on the management cluster.'),
          clusterSelector: labelMap.optional().describe('Labels of the Cluster(s) to apply to. Defaults to ccm-gitops.io/cluster: <metadata.name>.'),
          strategy: z.enum(['ApplyOnce', 'Reconcile']).default('Reconcile'),
          apiVersion: z
            .enum(['v1beta1', 'v1beta2'])
            .default('v1beta1')
            .describe('addons.cluster.x-k8s.io version of the ClusterResourceSet: v1beta2 needs Cluster API v1.11+ on the management cluster.'),
          resources: z
            .array(z.strictObject({ kind: z.enum(['Secret', 'ConfigMap']), name: dnsSubdomain() }))
            .max(90)
            .default([])
            .describe(
              'Secrets and ConfigMaps the ClusterResourceSet also carries, listed after its own stage ConfigMaps: each holds manifests (the cloud credential Secret, a namespace the rendering expects) and lives in its namespace on the management cluster, a Secret with type addons.cluster.x-k8s.io/resource-set. Not rendered: create them there.',
            ),
        })
        .prefault({}),
    })
    .prefault({}),
});

export type KubernetesSection = z.output<typeof kubernetesSectionSchema>;
