/**
 * From a provider and `spec.kubernetes` to the CCM's pod: flags (typed knobs,
 * then `extraArgs` merged by name), env and volumes (merged by name),
 * scheduling, requests and probe. The constructs render this plan as it is.
 * Pure: no cdk8s import.
 */
import { UpstreamProvider } from './providers';
import { schedulingPlan, SchedulingPlan } from './scheduling';
import { KubernetesSection } from '../cluster-spec/sections/kubernetes';
import { ccmLeaderMigrationFlags, CcmLeaderMigration } from '../migration/flags';
import { proxyEnv, ProxySettings } from '../cluster-spec/proxy';
import { ccmTlsFlags, ResolvedTls } from '../cluster-spec/tls';

/** The --cluster-name of the in-tree kube-controller-manager and of the upstream charts (kubernetes/cloud-provider@v0.33.0 config/v1alpha1/defaults.go: ClusterName defaults to "kubernetes"). */
export const DEFAULT_CLUSTER_NAME = 'kubernetes';

/** Host CA directories (`spec.kubernetes.hostCertificates`), as the upstream charts mount them (OpenStack chart: ca-certs, k8s-certs). */
export const HOST_CERTIFICATE_DIRS: readonly [string, string][] = [
  ['ssl-certs', '/etc/ssl/certs'],
  ['kubernetes-pki', '/etc/kubernetes/pki'],
];
/**
 * Azure workload identity without the webhook: the projected token the
 * upstream chart mounts (kubernetes-sigs/cloud-provider-azure@v1.33.2
 * helm/cloud-provider-azure/templates/cloud-provider-azure.yaml, values.yaml federatedTokenPath).
 */
export const WORKLOAD_IDENTITY_VOLUME = 'azure-identity-token';
export const WORKLOAD_IDENTITY_DIR = '/var/run/secrets/azure/tokens';
export const WORKLOAD_IDENTITY_FILE = 'azure-identity-token';

/**
 * AWS IAM roles for service accounts without the pod identity webhook (kubeadm clusters have
 * none): what the webhook injects, with its names, so a cluster that runs it leaves the pod as is
 * (aws/amazon-eks-pod-identity-webhook@v0.6.17 pkg/handler/handler.go: env skipped when
 * AWS_ROLE_ARN is set, volume and mount skipped when aws-iam-token exists; main.go
 * --token-audience sts.amazonaws.com; pkg/constants.go DefaultTokenExpiration 86400; the
 * ServiceAccount annotations eks.amazonaws.com/audience and /token-expiration override them).
 */
export const IRSA_ROLE_ANNOTATION = 'eks.amazonaws.com/role-arn';
export const IRSA_VOLUME = 'aws-iam-token';
export const IRSA_DIR = '/var/run/secrets/eks.amazonaws.com/serviceaccount';

/** The CCM ServiceAccount of every upstream manifest. */
export const UPSTREAM_CCM_SERVICE_ACCOUNT = 'cloud-controller-manager';
/** The name of the volume holding the cloud config. */
export const CLOUD_CONFIG_VOLUME = 'cloud-config';
/** The ConfigMap an inline cloud config is rendered into. */
export const INLINE_CLOUD_CONFIG_SUFFIX = 'cloud-config';

/** An env var of the CCM container. */
export interface EnvVar {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: {
    readonly secretKeyRef?: { readonly name: string; readonly key: string; readonly optional?: boolean };
    readonly configMapKeyRef?: { readonly name: string; readonly key: string; readonly optional?: boolean };
    readonly fieldRef?: { readonly fieldPath: string };
  };
}

/** A volume with its mount in the CCM container. */
export interface MountedVolume {
  readonly name: string;
  readonly mountPath: string;
  readonly readOnly: boolean;
  /** The mount's subPath (one file of the volume), when set. */
  readonly subPath?: string;
  readonly source:
    | { readonly secret: { readonly secretName: string; readonly items?: readonly { key: string; path: string }[] } }
    | { readonly configMap: { readonly name: string; readonly items?: readonly { key: string; path: string }[] } }
    | { readonly hostPath: { readonly path: string; readonly type?: 'File' | 'Directory' } }
    | { readonly emptyDir: Record<string, never> }
    | {
        readonly projected: {
          readonly sources: readonly {
            readonly serviceAccountToken: { readonly audience: string; readonly expirationSeconds: number; readonly path: string };
          }[];
        };
      };
}

/** Where the cloud config comes from, resolved. */
export interface CloudConfigSource {
  /** `HostPath`: a file on the node (`name` is its path). */
  readonly kind: 'Secret' | 'ConfigMap' | 'HostPath';
  readonly name: string;
  readonly key: string;
  /** Whether ccm-gitops renders the ConfigMap (inline config); its content is then hashed into the pod template. */
  readonly rendered: boolean;
}

/** Everything the CCM workload constructs render. */
export interface CcmWorkloadPlan {
  readonly name: string;
  readonly namespace: string;
  readonly kind: 'Deployment' | 'DaemonSet';
  /** Deployment replicas (undefined for a DaemonSet). */
  readonly replicas?: number;
  readonly podDisruptionBudget: boolean;
  /** Selector labels (also on the pods and the workload). */
  readonly selector: Readonly<Record<string, string>>;
  readonly podLabels: Readonly<Record<string, string>>;
  readonly podAnnotations: Readonly<Record<string, string>>;
  readonly image: string;
  /** The container command (the `command` knob); undefined: the image's ENTRYPOINT. */
  readonly command?: readonly string[];
  /** The container args: the binary path first when the image's ENTRYPOINT does not run it, then the flags. */
  readonly args: readonly string[];
  /** The flags alone (without the binary path). */
  readonly flags: readonly string[];
  readonly env: readonly EnvVar[];
  readonly volumes: readonly MountedVolume[];
  readonly requests: Readonly<Record<string, string>>;
  readonly limits?: Readonly<Record<string, string>>;
  readonly scheduling: SchedulingPlan;
  /** Required hostname anti-affinity against its own pods (replicas > 1). */
  readonly antiAffinity: boolean;
  readonly hostNetwork: boolean;
  readonly dnsPolicy: 'Default' | 'ClusterFirst';
  readonly priorityClassName: string;
  readonly imagePullSecrets: readonly string[];
  readonly serviceAccountName: string;
  /** The port the CCM serves /healthz and /metrics on. */
  readonly port: number;
  /** The liveness probe's scheme and host. */
  readonly probe: { readonly scheme: 'HTTPS' | 'HTTP'; readonly host?: string; readonly path: string };
  /** The cloud config's source, when the CCM reads one. */
  readonly cloudConfig?: CloudConfigSource;
}

/** Inputs of `ccmWorkloadPlan`. */
export interface CcmWorkloadInput {
  readonly provider: UpstreamProvider;
  readonly section: KubernetesSection;
  readonly image: string;
  /** controlPlaneTopology SingleReplica. */
  readonly singleReplica: boolean;
  /** Whether an inline cloud config (spec.cloudConfig.file) is rendered. */
  readonly inlineCloudConfig: boolean;
  readonly proxy?: ProxySettings;
  readonly tls?: ResolvedTls;
  /** Leader migration of the CCM, in a leader-migration phase. */
  readonly leaderMigration?: CcmLeaderMigration & { readonly mountPath: string; readonly configMapName: string };
}

/** `--name=value` → name. */
export function flagName(flag: string): string {
  const body = flag.replace(/^--/, '');
  const eq = body.indexOf('=');
  return eq < 0 ? body : body.slice(0, eq);
}

/**
 * Merges `extraArgs` over rendered flags: a flag named in both keeps its
 * place with the extra value; the others are appended, sorted by name.
 */
export function mergeArgs(flags: readonly string[], extra: Readonly<Record<string, string | number | boolean>>): string[] {
  const out = [...flags];
  for (const name of Object.keys(extra).sort()) {
    const flag = `--${name}=${String(extra[name])}`;
    const at = out.findIndex((f) => flagName(f) === name);
    if (at >= 0) {
      out[at] = flag;
    } else {
      out.push(flag);
    }
  }
  return out;
}

/** Merges items by name: an extra item replaces the one of the same name in place; new ones are appended in order. */
export function mergeByName<T extends { readonly name: string }>(base: readonly T[], extra: readonly T[]): T[] {
  const out = [...base];
  for (const item of extra) {
    const at = out.findIndex((b) => b.name === item.name);
    if (at >= 0) {
      out[at] = item;
    } else {
      out.push(item);
    }
  }
  return out;
}

/** The resolved cloud config source: the spec's existing object, the inline ConfigMap, or the provider's default. */
export function cloudConfigSource(provider: UpstreamProvider, section: KubernetesSection, inline: boolean): CloudConfigSource | undefined {
  const c = section.cloudConfig;
  const key = c?.key ?? provider.config.defaultSource?.key ?? provider.config.fileName;
  if (inline) {
    return { kind: 'ConfigMap', name: `${provider.name}-${INLINE_CLOUD_CONFIG_SUFFIX}`, key: provider.config.fileName, rendered: true };
  }
  if (c?.hostPath) {
    return { kind: 'HostPath', name: c.hostPath, key: provider.config.fileName, rendered: false };
  }
  if (c?.existingSecret) {
    return { kind: 'Secret', name: c.existingSecret, key, rendered: false };
  }
  if (c?.existingConfigMap) {
    return { kind: 'ConfigMap', name: c.existingConfigMap, key, rendered: false };
  }
  const d = provider.config.defaultSource;
  return d ? { kind: d.kind, name: d.name, key, rendered: false } : undefined;
}

/** The replicas, kind and PDB a section selects. */
export function workloadShape(
  provider: UpstreamProvider,
  section: KubernetesSection,
  singleReplica: boolean,
): { kind: 'Deployment' | 'DaemonSet'; replicas?: number; pdb: boolean } {
  const kind = section.workload.kind ?? provider.defaultKind;
  if (kind === 'DaemonSet') {
    return { kind, pdb: false };
  }
  const replicas = section.workload.replicas ?? (singleReplica ? 1 : (provider.defaultReplicas?.replicas ?? 2));
  return { kind, replicas, pdb: section.workload.podDisruptionBudget ?? replicas > 1 };
}

/** The bind address of the secure port. */
export function bindAddress(section: KubernetesSection): string {
  return section.secureServing.bindAddress ?? (section.hostNetwork && !section.metrics.enabled ? '127.0.0.1' : '0.0.0.0');
}

/** The CCM workload of a cluster. */
export function ccmWorkloadPlan(input: CcmWorkloadInput): CcmWorkloadPlan {
  const { provider, section } = input;
  const name = `${provider.name}-cloud-controller-manager`;
  const shape = workloadShape(provider, section, input.singleReplica);
  const port = section.secureServing.port ?? provider.defaultPort;
  const source = cloudConfigSource(provider, section, input.inlineCloudConfig);
  const cloudProviderFramework = provider.framework === 'cloud-provider';
  // every key of the object is mounted (CA files beside the config), so the flag names the key's file
  const configPath = `${provider.config.mountDir}/${source && source.kind !== 'HostPath' ? source.key : provider.config.fileName}`;
  const bind = bindAddress(section);

  const flags: string[] = [];
  if (provider.cloudProvider) {
    flags.push(`--cloud-provider=${provider.cloudProvider}`);
  }
  if (source && provider.config.flag) {
    flags.push(`${provider.config.flag}=${configPath}`);
  }
  if (provider.clusterNameFlag) {
    flags.push(`--cluster-name=${section.clusterName ?? DEFAULT_CLUSTER_NAME}`);
  }
  flags.push(...provider.extraFlags);
  const ipamOff = provider.nodeIpamController && !section.allocateNodeCidrs ? [`-${provider.nodeIpamController.name}`] : [];
  const controllers =
    section.controllers ?? (ipamOff.length > 0 ? [...(provider.defaultControllers ?? ['*']), ...ipamOff] : provider.defaultControllers);
  if (controllers) {
    flags.push(`--controllers=${controllers.join(',')}`);
  }
  flags.push(`--configure-cloud-routes=${section.configureCloudRoutes}`);
  if (cloudProviderFramework || section.allocateNodeCidrs) {
    flags.push(`--allocate-node-cidrs=${section.allocateNodeCidrs}`);
  }
  if (section.clusterCIDR) {
    flags.push(`--cluster-cidr=${section.clusterCIDR.join(',')}`);
  }
  if (cloudProviderFramework) {
    flags.push(`--use-service-account-credentials=${section.useServiceAccountCredentials}`);
  }
  flags.push(`--leader-elect=${section.leaderElect}`);
  if (section.leaderElect && section.namespace !== 'kube-system') {
    flags.push(`--leader-elect-resource-namespace=${section.namespace}`);
  }
  if (cloudProviderFramework) {
    flags.push(`--bind-address=${bind}`, `--secure-port=${port}`, ...ccmTlsFlags(input.tls));
  }
  flags.push('--v=2');
  const withMigration = input.leaderMigration ? ccmLeaderMigrationFlags(flags, input.leaderMigration) : flags;
  const args = mergeArgs(withMigration, section.extraArgs);

  const env: EnvVar[] = [];
  for (const e of provider.env ?? []) {
    env.push(e.fieldPath ? { name: e.name, valueFrom: { fieldRef: { fieldPath: e.fieldPath } } } : { name: e.name, value: e.value ?? '' });
  }
  if (source && provider.config.envVar) {
    env.push({ name: provider.config.envVar, valueFrom: { secretKeyRef: { name: source.name, key: source.key } } });
  }
  env.push(...proxyEnv(input.proxy));

  const volumes: MountedVolume[] = [];
  if (source && !provider.config.envVar) {
    volumes.push(
      source.kind === 'HostPath'
        ? { name: CLOUD_CONFIG_VOLUME, mountPath: configPath, readOnly: true, source: { hostPath: { path: source.name, type: 'File' } } }
        : {
            name: CLOUD_CONFIG_VOLUME,
            mountPath: provider.config.mountDir,
            readOnly: true,
            source: source.kind === 'Secret' ? { secret: { secretName: source.name } } : { configMap: { name: source.name } },
          },
    );
  }
  if (section.hostCertificates) {
    for (const [name, hostPath] of HOST_CERTIFICATE_DIRS) {
      volumes.push({ name, mountPath: hostPath, readOnly: true, source: { hostPath: { path: hostPath, type: 'Directory' } } });
    }
  }
  if (section.workloadIdentity.enabled) {
    const w = section.workloadIdentity;
    volumes.push({
      name: WORKLOAD_IDENTITY_VOLUME,
      mountPath: WORKLOAD_IDENTITY_DIR,
      readOnly: true,
      source: {
        projected: {
          sources: [{ serviceAccountToken: { audience: w.audience, expirationSeconds: w.expirationSeconds, path: WORKLOAD_IDENTITY_FILE } }],
        },
      },
    });
    env.push({ name: 'AZURE_FEDERATED_TOKEN_FILE', value: `${WORKLOAD_IDENTITY_DIR}/${WORKLOAD_IDENTITY_FILE}` });
  }
  const sa = section.serviceAccount.annotations;
  const roleArn = provider.serviceAccountRole ? sa[IRSA_ROLE_ANNOTATION] : undefined;
  if (roleArn) {
    const expiration = Number(sa['eks.amazonaws.com/token-expiration'] ?? 86400);
    volumes.push({
      name: IRSA_VOLUME,
      mountPath: IRSA_DIR,
      readOnly: true,
      source: {
        projected: {
          sources: [
            {
              serviceAccountToken: {
                audience: sa['eks.amazonaws.com/audience'] ?? 'sts.amazonaws.com',
                expirationSeconds: expiration,
                path: 'token',
              },
            },
          ],
        },
      },
    });
    env.push({ name: 'AWS_ROLE_ARN', value: roleArn }, { name: 'AWS_WEB_IDENTITY_TOKEN_FILE', value: `${IRSA_DIR}/token` });
  }
  const lm = input.leaderMigration;
  if (lm) {
    volumes.push({ name: 'leader-migration', mountPath: lm.mountPath, readOnly: true, source: { configMap: { name: lm.configMapName } } });
  }
  const extraVolumes: MountedVolume[] = section.extraVolumes.map((v) => ({
    name: v.name,
    mountPath: v.mountPath,
    readOnly: v.readOnly,
    source: v.secret
      ? { secret: { secretName: v.secret } }
      : v.configMap
        ? { configMap: { name: v.configMap } }
        : v.hostPath
          ? { hostPath: { path: v.hostPath } }
          : { emptyDir: {} },
  }));

  const selector = provider.selector ? { ...provider.selector } : { 'k8s-app': name };
  const requests: Record<string, string> = {
    cpu: section.resources.requests.cpu ?? provider.requests.cpu,
    memory: section.resources.requests.memory ?? provider.requests.memory,
  };
  const limits =
    section.resources.limits && Object.keys(section.resources.limits).length > 0
      ? (Object.fromEntries(Object.entries(section.resources.limits).filter(([, v]) => v !== undefined)) as Record<string, string>)
      : undefined;

  return {
    name,
    namespace: section.namespace,
    kind: shape.kind,
    replicas: shape.replicas,
    podDisruptionBudget: shape.pdb,
    selector,
    podLabels: { ...section.podLabels, ...selector },
    podAnnotations: { ...section.podAnnotations },
    image: input.image,
    ...(section.command ? { command: [...section.command] } : {}),
    args: !section.command && provider.entrypoint.kind === 'cmd' ? [provider.entrypoint.binary, ...args] : args,
    flags: args,
    env: mergeByName(env, section.extraEnv as EnvVar[]),
    volumes: mergeByName(volumes, extraVolumes),
    requests,
    limits,
    scheduling: schedulingPlan(
      section.scheduling.preset,
      section.scheduling.extraTolerations,
      section.scheduling.nodeSelector,
      provider.anyNode !== undefined,
    ),
    antiAffinity: shape.kind === 'Deployment' && (shape.replicas ?? 1) > 1,
    hostNetwork: section.hostNetwork,
    dnsPolicy: section.hostNetwork ? 'Default' : 'ClusterFirst',
    priorityClassName: section.priorityClassName ?? provider.priorityClassName?.name ?? 'system-cluster-critical',
    imagePullSecrets: [...section.imagePullSecrets],
    serviceAccountName: UPSTREAM_CCM_SERVICE_ACCOUNT,
    port,
    probe: cloudProviderFramework
      ? { scheme: 'HTTPS', path: '/healthz', ...(section.hostNetwork && bind === '127.0.0.1' ? { host: '127.0.0.1' } : {}) }
      : { scheme: 'HTTP', path: '/healthz' },
    cloudConfig: source,
  };
}
