/**
 * The upstream CCMs of the `kubernetes` distribution, as data (reference
 * §1.1–§1.7): what each provider's own manifest or chart runs, its flags,
 * where it reads its config, its requests and its RBAC. Pure: no cdk8s import.
 * The knobs of `spec.kubernetes` are applied on top by `workload-plan.ts`.
 */
import { PolicyRule } from './rbac-rules';
import { ImageKey } from '../spec/images';
import { PlatformType } from '../spec/schema';

/** Where a provider's CCM reads its cloud config (or credentials) from. */
export interface ProviderConfig {
  /** What the object holds, for messages: a cloud config or an API token. */
  readonly what: 'cloud config' | 'API token';
  /** The directory the object is mounted at (unused when delivered as env). */
  readonly mountDir: string;
  /** The file name the key is mounted as. */
  readonly fileName: string;
  /** The flag that names the file (`--cloud-config`), when the CCM takes one. */
  readonly flag?: string;
  /** Delivered as this env var from the Secret key instead of a file (DigitalOcean). */
  readonly envVar?: string;
  /** The existing object read when the spec names none; undefined: the CCM runs without config unless one is given. */
  readonly defaultSource?: { readonly kind: 'Secret' | 'ConfigMap'; readonly name: string; readonly key: string };
  /** Whether an inline config (spec.cloudConfig.file, rendered as a ConfigMap) is accepted. */
  readonly inline: boolean;
  /** Whether a ConfigMap is accepted as the source (false when the object always holds a credential). */
  readonly configMapAllowed: boolean;
}

/** One upstream CCM. */
export interface UpstreamProvider {
  /** The platform type of the spec. */
  readonly platform: PlatformType;
  /** Short name: the workload is `<name>-cloud-controller-manager`. */
  readonly name: string;
  /** The spec.images key of the CCM image. */
  readonly imageKey: ImageKey;
  /** `--cloud-provider` value; undefined when the binary's default is the provider and upstream sets none. */
  readonly cloudProvider?: string;
  /**
   * `cloud-provider`: built on k8s.io/cloud-provider/app (secure serving, leader
   * election, --controllers, leader migration); `controller-runtime`: Alibaba's
   * own flags, an HTTP health probe and no leader migration.
   */
  readonly framework: 'cloud-provider' | 'controller-runtime';
  /** The workload kind of the upstream manifest. */
  readonly defaultKind: 'Deployment' | 'DaemonSet';
  /** The secure (or health) port of the upstream manifest. */
  readonly defaultPort: number;
  /** `--controllers` of the upstream manifest, when it sets one. */
  readonly defaultControllers?: readonly string[];
  /** Whether the CCM takes `--cluster-name`. */
  readonly clusterNameFlag: boolean;
  /** Provider flags that no knob renders, in order (after --cloud-provider and --cloud-config). */
  readonly extraFlags: readonly string[];
  /** Where it reads its config. */
  readonly config: ProviderConfig;
  /** CPU and memory requests of the upstream manifest (or ours where it sets none). */
  readonly requests: { readonly cpu: string; readonly memory: string };
  /** ClusterRole rules the CCM process needs itself, whatever runs its controllers (config reads, CRDs). */
  readonly processRules: readonly PolicyRule[];
  /** Extra rules of the service controller (load balancers) beyond the common set. */
  readonly serviceRules: readonly PolicyRule[];
  /** Whether the CCM binds `extension-apiserver-authentication-reader` (delegated authentication on the secure port). */
  readonly authenticationReader: boolean;
  /** Static env of the CCM container: a literal value or a pod field. */
  readonly env?: readonly { readonly name: string; readonly value?: string; readonly fieldPath?: string }[];
  /** Whether the provider runs the Azure cloud-node-manager DaemonSet beside the CCM. */
  readonly cloudNodeManager?: boolean;
  /** Why the project is deprecated, when it is: rendered with a warning. */
  readonly deprecated?: string;
}

const core = (resources: string[], verbs: string[], resourceNames?: string[]): PolicyRule => ({ apiGroups: [''], resources, verbs, ...(resourceNames ? { resourceNames } : {}) });
const READ = ['get', 'list', 'watch'];

/** AWS (kubernetes/cloud-provider-aws): credentials from the instance profile or IRSA; the config is optional. */
const AWS: UpstreamProvider = {
  platform: 'AWS',
  name: 'aws',
  imageKey: 'cloudControllerManagerAWS',
  cloudProvider: 'aws',
  framework: 'cloud-provider',
  defaultKind: 'DaemonSet',
  defaultPort: 10258,
  clusterNameFlag: false,
  extraFlags: [],
  config: { what: 'cloud config', mountDir: '/etc/kubernetes/cloud-config', fileName: 'cloud.conf', flag: '--cloud-config', inline: true, configMapAllowed: true },
  requests: { cpu: '200m', memory: '50Mi' },
  processRules: [],
  serviceRules: [],
  authenticationReader: true,
};

/** Azure (kubernetes-sigs/cloud-provider-azure): the CCM skips cloud-node, which the cloud-node-manager DaemonSet runs on every node. */
const AZURE: UpstreamProvider = {
  platform: 'Azure',
  name: 'azure',
  imageKey: 'cloudControllerManagerAzure',
  cloudProvider: 'azure',
  framework: 'cloud-provider',
  defaultKind: 'Deployment',
  defaultPort: 10268,
  defaultControllers: ['*', '-cloud-node'],
  clusterNameFlag: true,
  extraFlags: ['--route-reconciliation-period=10s'],
  config: {
    what: 'cloud config',
    mountDir: '/etc/kubernetes/cloud-config',
    fileName: 'azure.json',
    flag: '--cloud-config',
    defaultSource: { kind: 'Secret', name: 'azure-cloud-provider', key: 'cloud-config' },
    inline: true,
    configMapAllowed: true,
  },
  requests: { cpu: '100m', memory: '128Mi' },
  processRules: [core(['secrets'], READ)],
  serviceRules: [{ apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: READ }],
  authenticationReader: true,
  cloudNodeManager: true,
};

/** GCP (kubernetes/cloud-provider-gcp): reads the project from the metadata server; gce.conf is optional. */
const GCP: UpstreamProvider = {
  platform: 'GCP',
  name: 'gcp',
  imageKey: 'cloudControllerManagerGCP',
  cloudProvider: 'gce',
  framework: 'cloud-provider',
  defaultKind: 'DaemonSet',
  defaultPort: 10258,
  clusterNameFlag: true,
  extraFlags: [],
  config: { what: 'cloud config', mountDir: '/etc/kubernetes/cloud-config', fileName: 'cloud.config', flag: '--cloud-config', inline: true, configMapAllowed: true },
  requests: { cpu: '50m', memory: '50Mi' },
  processRules: [core(['namespaces'], ['get']), core(['configmaps'], READ)],
  serviceRules: [],
  authenticationReader: true,
};

/** vSphere (kubernetes/cloud-provider-vsphere): vsphere.conf in a ConfigMap, the vCenter credentials in the Secret it names. */
const VSPHERE: UpstreamProvider = {
  platform: 'VSphere',
  name: 'vsphere',
  imageKey: 'cloudControllerManagerVSphere',
  cloudProvider: 'vsphere',
  framework: 'cloud-provider',
  defaultKind: 'DaemonSet',
  defaultPort: 10258,
  clusterNameFlag: false,
  extraFlags: [],
  config: {
    what: 'cloud config',
    mountDir: '/etc/cloud',
    fileName: 'vsphere.conf',
    flag: '--cloud-config',
    defaultSource: { kind: 'ConfigMap', name: 'vsphere-cloud-config', key: 'vsphere.conf' },
    inline: true,
    configMapAllowed: true,
  },
  requests: { cpu: '200m', memory: '50Mi' },
  processRules: [core(['secrets'], READ)],
  serviceRules: [{ apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: READ }],
  authenticationReader: true,
};

/** OpenStack (kubernetes/cloud-provider-openstack): cloud.conf holds the application credential, so it comes from a Secret. */
const OPENSTACK: UpstreamProvider = {
  platform: 'OpenStack',
  name: 'openstack',
  imageKey: 'cloudControllerManagerOpenStack',
  cloudProvider: 'openstack',
  framework: 'cloud-provider',
  defaultKind: 'DaemonSet',
  defaultPort: 10258,
  defaultControllers: ['cloud-node', 'cloud-node-lifecycle', 'route', 'service'],
  clusterNameFlag: true,
  extraFlags: [],
  config: {
    what: 'cloud config',
    mountDir: '/etc/config',
    fileName: 'cloud.conf',
    flag: '--cloud-config',
    defaultSource: { kind: 'Secret', name: 'cloud-config', key: 'cloud.conf' },
    inline: true,
    configMapAllowed: true,
  },
  requests: { cpu: '200m', memory: '50Mi' },
  processRules: [core(['secrets', 'configmaps'], READ)],
  serviceRules: [],
  authenticationReader: true,
};

/** Alibaba Cloud (kubernetes/cloud-provider-alibaba-cloud v2): controller-runtime, not k8s.io/cloud-provider. */
const ALIBABA: UpstreamProvider = {
  platform: 'AlibabaCloud',
  name: 'alibaba',
  imageKey: 'cloudControllerManagerAlibaba',
  cloudProvider: 'alibabacloud',
  framework: 'controller-runtime',
  defaultKind: 'DaemonSet',
  defaultPort: 10258,
  clusterNameFlag: false,
  extraFlags: ['--metrics-bind-addr=0'],
  config: {
    what: 'cloud config',
    mountDir: '/etc/kubernetes/config',
    fileName: 'cloud-config.conf',
    flag: '--cloud-config',
    defaultSource: { kind: 'ConfigMap', name: 'cloud-config', key: 'cloud-config.conf' },
    inline: true,
    configMapAllowed: true,
  },
  requests: { cpu: '100m', memory: '200Mi' },
  processRules: [
    { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get', 'list', 'watch', 'create', 'update'] },
  ],
  serviceRules: [core(['endpoints'], READ), { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: READ }],
  authenticationReader: false,
};

/** Nutanix (nutanix-cloud-native/cloud-provider-nutanix): only cloud-node and cloud-node-lifecycle; the Prism Central credentials are in the Secret the config names. */
const NUTANIX: UpstreamProvider = {
  platform: 'Nutanix',
  name: 'nutanix',
  imageKey: 'cloudControllerManagerNutanix',
  framework: 'cloud-provider',
  defaultKind: 'Deployment',
  defaultPort: 10258,
  clusterNameFlag: false,
  extraFlags: [],
  config: {
    what: 'cloud config',
    mountDir: '/etc/cloud',
    fileName: 'nutanix_config.json',
    flag: '--cloud-config',
    defaultSource: { kind: 'ConfigMap', name: 'nutanix-config', key: 'nutanix_config.json' },
    inline: true,
    configMapAllowed: true,
  },
  requests: { cpu: '100m', memory: '50Mi' },
  processRules: [core(['secrets', 'configmaps'], READ)],
  serviceRules: [],
  authenticationReader: false,
  env: [{ name: 'POD_NAMESPACE', fieldPath: 'metadata.namespace' }],
};

/** DigitalOcean (digitalocean/digitalocean-cloud-controller-manager): the API token comes as env from a Secret. */
const DIGITALOCEAN: UpstreamProvider = {
  platform: 'DigitalOcean',
  name: 'digitalocean',
  imageKey: 'cloudControllerManagerDigitalOcean',
  framework: 'cloud-provider',
  defaultKind: 'Deployment',
  defaultPort: 10258,
  clusterNameFlag: false,
  extraFlags: [],
  config: {
    what: 'API token',
    mountDir: '',
    fileName: '',
    envVar: 'DO_ACCESS_TOKEN',
    defaultSource: { kind: 'Secret', name: 'digitalocean', key: 'access-token' },
    inline: false,
    configMapAllowed: false,
  },
  requests: { cpu: '100m', memory: '50Mi' },
  processRules: [],
  serviceRules: [],
  authenticationReader: false,
};

/** Equinix Metal (kubernetes-sigs/cloud-provider-equinix-metal): cloud-sa.json holds the API key; the project is deprecated. */
const EQUINIX_METAL: UpstreamProvider = {
  platform: 'EquinixMetal',
  name: 'equinix-metal',
  imageKey: 'cloudControllerManagerEquinixMetal',
  cloudProvider: 'equinixmetal',
  framework: 'cloud-provider',
  defaultKind: 'DaemonSet',
  defaultPort: 10258,
  clusterNameFlag: false,
  extraFlags: ['--authentication-skip-lookup=true'],
  config: {
    what: 'cloud config',
    mountDir: '/etc/cloud-sa',
    fileName: 'cloud-sa.json',
    flag: '--cloud-config',
    defaultSource: { kind: 'Secret', name: 'metal-cloud-config', key: 'cloud-sa.json' },
    inline: false,
    configMapAllowed: false,
  },
  requests: { cpu: '100m', memory: '50Mi' },
  processRules: [core(['namespaces'], ['get']), core(['configmaps'], ['get', 'list', 'watch', 'create', 'update', 'patch'])],
  serviceRules: [
    core(['endpoints'], READ),
    { apiGroups: ['metallb.io'], resources: ['ipaddresspools', 'bgppeers', 'bgpadvertisements'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
  ],
  authenticationReader: false,
  deprecated: 'the Equinix Metal CCM is deprecated upstream (Equinix Metal is sunset in June 2026) and no longer maintained; plan the move off the platform',
};

/** The providers of the `kubernetes` distribution, by platform type. */
export const UPSTREAM_PROVIDERS: Readonly<Partial<Record<PlatformType, UpstreamProvider>>> = {
  AWS,
  Azure: AZURE,
  GCP,
  VSphere: VSPHERE,
  OpenStack: OPENSTACK,
  AlibabaCloud: ALIBABA,
  Nutanix: NUTANIX,
  DigitalOcean: DIGITALOCEAN,
  EquinixMetal: EQUINIX_METAL,
};

/** The provider of a platform on the `kubernetes` distribution, or undefined. */
export function upstreamProviderFor(platform: PlatformType): UpstreamProvider | undefined {
  return UPSTREAM_PROVIDERS[platform];
}

/** Platform types the `kubernetes` distribution renders, sorted. */
export function kubernetesPlatforms(): PlatformType[] {
  return (Object.keys(UPSTREAM_PROVIDERS) as PlatformType[]).sort();
}
