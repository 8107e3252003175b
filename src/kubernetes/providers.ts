/**
 * The upstream CCMs of the `kubernetes` distribution, as data (reference
 * §1.1–§1.7): what each provider's own manifest or chart runs, its flags,
 * where it reads its config, its requests and its RBAC. Pure: no cdk8s import.
 * The knobs of `spec.kubernetes` are applied on top by `workload-plan.ts`.
 */
import { PolicyRule } from './rbac-rules';
import { ImageKey } from '../cluster-spec/images';
import { PlatformType } from '../cluster-spec/schema';

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

/**
 * How the image starts the CCM binary (from its Dockerfile at the pinned tag).
 * `binary`: the ENTRYPOINT is the CCM binary, so the flags go in `args`.
 * `cmd`: the ENTRYPOINT is a wrapper (or absent) and the binary is only the CMD;
 * `args` replace the CMD, so they must start with the binary path.
 */
export interface EntrypointFact {
  readonly kind: 'binary' | 'cmd';
  /** The binary's path in the image. */
  readonly binary: string;
  /** `owner/repo@tag path` of the Dockerfile. */
  readonly source: string;
}

/** The leader-election lock a binary takes by default (overridden by `--leader-elect-resource-name`). */
export interface LeaderElectionFact {
  /** The lock kind (`--leader-elect-resource-lock`). */
  readonly lock: 'leases';
  /** The default lock name. */
  readonly name: string;
  /** `owner/repo@tag path` of the default. */
  readonly source: string;
}

/**
 * One rule a provider's binary needs. `identity`: `root` is the process's
 * own credentials (the CCM ServiceAccount: shared informers, leader
 * election); any other value is a client name the binary asks the client
 * builder for (`provider` stands for `providerClient.name`), which runs as
 * ServiceAccount `kube-system/<name>` with `--use-service-account-credentials`.
 */
export interface ProviderGrant {
  readonly identity: string;
  readonly rule: PolicyRule;
  /** Rendered as a Role in this namespace; cluster-wide when absent. */
  readonly namespace?: string;
  /** Only when the rendered args hold all these flags (e.g. `--allocate-node-cidrs=true`). */
  readonly when?: readonly string[];
  /** Only when `--controllers` names one of these (a controller disabled by default, by its name or alias). */
  readonly whenController?: readonly string[];
  /** Only when the spec selects this feature (`equinix-lb:<implementation>`: spec.kubernetes.equinixMetalLoadBalancer). */
  readonly whenFeature?: string;
  /** `owner/repo@tag path (function)`. */
  readonly source: string;
}

/**
 * The client a provider asks the client builder for in `Initialize`
 * (`clientBuilder.ClientOrDie(name)`): with `--use-service-account-credentials`
 * it runs as ServiceAccount `kube-system/<name>`.
 */
export interface ProviderClientFact {
  readonly name: string;
  /** `owner/repo@tag path` of the ClientOrDie call. */
  readonly source: string;
}

/** The k8s.io/* minor an image tag is built against (its go.mod), for tags that do not follow Kubernetes minors. */
export interface TagMinor {
  /** `1.NN`. */
  readonly minor: string;
  /** `owner/repo@tag go.mod` and the k8s.io/cloud-provider (or client-go) version read there. */
  readonly source: string;
}

/** An install of the upstream manifest or chart that the rendered workload replaces (adoption). */
export interface UpstreamInstall {
  readonly kind: 'Deployment' | 'DaemonSet';
  readonly name: string;
  readonly namespace: string;
  /** Its pod selector labels. */
  readonly selector: Readonly<Record<string, string>>;
  /** `owner/repo@tag path` of the manifest or chart template. */
  readonly source: string;
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
  /**
   * The provider's API calls beyond those of the k8s.io/cloud-provider app and
   * its controllers (rbac-rules.ts), by the identity that makes them, each
   * with the upstream file: the RBAC of both profiles is built from these.
   */
  readonly grants: readonly ProviderGrant[];
  /** Whether the CCM binds `extension-apiserver-authentication-reader` (delegated authentication on the secure port). */
  readonly authenticationReader: boolean;
  /** Static env of the CCM container: a literal value or a pod field. */
  readonly env?: readonly { readonly name: string; readonly value?: string; readonly fieldPath?: string }[];
  /** Whether the provider runs the Azure cloud-node-manager DaemonSet beside the CCM. */
  readonly cloudNodeManager?: boolean;
  /** Why the project is deprecated, when it is: rendered with a warning. */
  readonly deprecated?: string;
  /** How the image starts the binary. */
  readonly entrypoint: EntrypointFact;
  /** The binary's default leader-election lock. */
  readonly leaderElection: LeaderElectionFact;
  /** The port the binary serves /healthz on by default, with its source (the rendered --secure-port overrides it for k8s.io/cloud-provider CCMs). */
  readonly servedPort: { readonly port: number; readonly source: string };
  /** The provider's own client (Initialize), when it asks for one. */
  readonly providerClient?: ProviderClientFact;
  /** Whether image tags are Kubernetes minors (`v1.NN.x`): the CCM minor is read from the tag. */
  readonly tagsFollowKubernetes: boolean;
  /** Per image tag, the k8s.io/* minor it is built against (tags that do not follow Kubernetes minors, or differ). */
  readonly tagMinors: Readonly<Record<string, TagMinor>>;
  /**
   * A controller enabled by default that makes the binary exit without
   * `--allocate-node-cidrs=true`: turned off in `--controllers` (when the spec
   * sets none) while node IPAM is off.
   */
  readonly nodeIpamController?: { readonly name: string; readonly source: string };
  /**
   * The pod selector of the upstream manifest when its workload has our name
   * (`<name>-cloud-controller-manager`): kept so applying over an upstream
   * install updates it in place (a selector is immutable).
   *
   * @default - `k8s-app: <workload name>`
   */
  readonly selector?: Readonly<Record<string, string>>;
  /** The upstream install this replaces, when its name or selector differs from ours (adoption: delete it first). */
  readonly upstreamInstall?: UpstreamInstall;
}

const core = (resources: string[], verbs: string[], resourceNames?: string[]): PolicyRule => ({ apiGroups: [''], resources, verbs, ...(resourceNames ? { resourceNames } : {}) });

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
  grants: [
    { identity: 'provider', rule: core(['events'], ['create', 'patch']), source: 'kubernetes/cloud-provider-aws@v1.35.0 pkg/providers/v1/aws.go (Initialize: eventBroadcaster.StartRecordingToSink)' },
    {
      identity: 'tagging-controller', rule: core(['nodes'], ['get', 'patch']), whenController: ['tagging', 'tagging-controller'],
      source: 'kubernetes/cloud-provider-aws@v1.35.0 pkg/controllers/tagging/tagging_controller_wrapper.go (TaggingControllerClientName; disabled by default: cmd/aws-cloud-controller-manager/main.go)',
    },
  ],
  authenticationReader: true,
  entrypoint: { kind: 'binary', binary: '/bin/aws-cloud-controller-manager', source: 'kubernetes/cloud-provider-aws@v1.35.0 Dockerfile (ENTRYPOINT)' },
  leaderElection: { lock: 'leases', name: 'cloud-controller-manager', source: 'kubernetes/cloud-provider-aws@v1.35.0 go.mod k8s.io/cloud-provider v0.35.0 options/options.go' },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.35.0 options/options.go (CloudControllerManagerPort)' },
  providerClient: { name: 'aws-cloud-provider', source: 'kubernetes/cloud-provider-aws@v1.35.0 pkg/providers/v1/aws.go (Initialize: events, discovery)' },
  tagsFollowKubernetes: true,
  tagMinors: { 'v1.35.0': { minor: '1.35', source: 'kubernetes/cloud-provider-aws@v1.35.0 go.mod (k8s.io/cloud-provider v0.35.0)' } },
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
  grants: [
    { identity: 'root', rule: core(['services'], ['list', 'watch']), source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure.go (SetInformers: service informer)' },
    { identity: 'root', rule: { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] }, source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure.go (SetInformers: EndpointSlice informer)' },
    { identity: 'provider', rule: core(['events'], ['create', 'patch']), source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure.go (eventBroadcaster on KubeClient)' },
    { identity: 'provider', rule: core(['nodes'], ['get', 'patch']), source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure.go (node labels and taints)' },
    { identity: 'provider', rule: core(['namespaces'], ['get']), source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure_loadbalancer.go' },
    { identity: 'provider', rule: core(['services'], ['list']), source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure_loadbalancer.go' },
    {
      identity: 'provider', namespace: 'kube-system',
      rule: { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['aks-managed-resource-locker'], verbs: ['get', 'update'] },
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure_lock.go, pkg/consts/consts.go (Lease kube-system/aks-managed-resource-locker on every LB change)',
    },
    { identity: 'provider', namespace: 'kube-system', rule: { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] }, source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure_lock.go (createLeaseIfNotExists)' },
    { identity: 'node-controller', rule: core(['nodes'], ['list', 'patch']), when: ['--allocate-node-cidrs=true'], source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/nodeipam/ipam/cidr_allocator.go' },
    { identity: 'node-controller', rule: core(['nodes/status'], ['patch']), when: ['--allocate-node-cidrs=true'], source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/nodeipam/ipam (node CIDR status)' },
    { identity: 'node-controller', rule: core(['events'], ['create', 'patch']), when: ['--allocate-node-cidrs=true'], source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/nodeipam/ipam (event recorder)' },
    {
      identity: 'root', rule: core(['secrets'], ['list', 'watch']), when: ['--enable-dynamic-reloading=true'],
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app (dynamic reloading: Secret informer)',
    },
    {
      identity: 'cloud-provider-azure', namespace: 'kube-system', rule: core(['secrets'], ['get']), when: ['--enable-dynamic-reloading=true'],
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app (dynamic reloading: reads the config Secret)',
    },
  ],
  authenticationReader: true,
  cloudNodeManager: true,
  entrypoint: { kind: 'binary', binary: '/usr/local/bin/cloud-controller-manager', source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 Dockerfile (ENTRYPOINT)' },
  leaderElection: { lock: 'leases', name: 'cloud-controller-manager', source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/options/options.go' },
  servedPort: { port: 10258, source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/options/options.go (CloudControllerManagerPort; the chart sets --secure-port=10268)' },
  providerClient: { name: 'azure-cloud-provider', source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure.go (NewCloud: clientBuilder.ClientOrDie)' },
  tagsFollowKubernetes: true,
  tagMinors: { 'v1.33.2': { minor: '1.33', source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 go.mod (k8s.io/cloud-provider v0.33.2)' } },
  upstreamInstall: {
    kind: 'Deployment', name: 'cloud-controller-manager', namespace: 'kube-system', selector: { 'tier': 'control-plane', 'component': 'cloud-controller-manager' },
    source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 helm/cloud-provider-azure/templates/cloud-provider-azure.yaml',
  },
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
  grants: [
    { identity: 'provider', rule: core(['events'], ['create', 'patch']), source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 providers/gce/gce.go (Initialize: eventBroadcaster)' },
    { identity: 'provider', rule: core(['services/status'], ['patch']), source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 providers/gce/gce_loadbalancer.go (ApplyStatus), gce_loadbalancer_external.go (finalizers)' },
    {
      identity: 'provider', namespace: 'kube-system', rule: core(['configmaps'], ['list', 'watch'], ['ingress-uid']),
      source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 providers/gce/gce_clusterid.go (ClusterID watch of ConfigMap kube-system/ingress-uid)',
    },
    {
      // upstream's own role lacks it: kubernetes/cloud-provider-gcp#116
      identity: 'provider', namespace: 'kube-system', rule: core(['configmaps'], ['create']),
      source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 providers/gce/gce_clusterid.go (creates ConfigMap kube-system/ingress-uid when missing)',
    },
    {
      identity: 'node-controller', rule: core(['nodes'], ['list', 'get', 'patch']), when: ['--allocate-node-cidrs=true'],
      source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 cmd/cloud-controller-manager/nodeipamcontroller.go (ClientOrDie("node-controller")), pkg/controller/nodeipam',
    },
    { identity: 'node-controller', rule: core(['nodes/status'], ['patch']), when: ['--allocate-node-cidrs=true'], source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 pkg/controller/nodeipam (node CIDR status)' },
    { identity: 'node-controller', rule: core(['events'], ['create', 'patch']), when: ['--allocate-node-cidrs=true'], source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 pkg/controller/nodeipam (event recorder)' },
    {
      identity: 'root', rule: { apiGroups: ['networking.gke.io'], resources: ['networks', 'gkenetworkparamsets'], verbs: ['list', 'watch'] },
      when: ['--allocate-node-cidrs=true', '--cidr-allocator-type=CloudAllocator'],
      source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 cmd/cloud-controller-manager/nodeipamcontroller.go (networkinformers on the root kubeconfig)',
    },
  ],
  authenticationReader: true,
  entrypoint: { kind: 'binary', binary: '/cloud-controller-manager', source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 Dockerfile (ENTRYPOINT)' },
  leaderElection: { lock: 'leases', name: 'cloud-controller-manager', source: 'kubernetes/cloud-provider@v0.34.2 options/options.go (go.mod of kubernetes/cloud-provider-gcp@ccm/v35.0.0)' },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.34.2 options/options.go (CloudControllerManagerPort)' },
  providerClient: { name: 'cloud-provider', source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 providers/gce/gce.go (Initialize)' },
  tagsFollowKubernetes: false,
  tagMinors: { 'v35.0.0': { minor: '1.34', source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 go.mod (k8s.io/cloud-provider v0.34.2)' } },
  nodeIpamController: {
    name: 'node-ipam-controller',
    source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 cmd/cloud-controller-manager/main.go (nodeipam enabled by default), nodeipamcontroller.go (startNodeIpamController: "the AllocateNodeCIDRs is not enabled" is fatal)',
  },
  upstreamInstall: {
    kind: 'DaemonSet', name: 'cloud-controller-manager', namespace: 'kube-system', selector: { component: 'cloud-controller-manager' },
    source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 deploy/packages/default/manifest.yaml',
  },
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
  grants: [
    { identity: 'provider', rule: core(['nodes'], ['list', 'watch']), source: 'kubernetes/cloud-provider-vsphere@v1.36.0 pkg/cloudprovider/vsphere/cloud.go (Initialize: node informer)' },
    {
      identity: 'provider', namespace: 'kube-system', rule: core(['secrets'], ['list', 'watch']),
      source: 'kubernetes/cloud-provider-vsphere@v1.36.0 pkg/cloudprovider/vsphere/cloud.go (Initialize: secret informer of Global.SecretNamespace)',
    },
  ],
  authenticationReader: true,
  entrypoint: { kind: 'binary', binary: '/bin/vsphere-cloud-controller-manager', source: 'kubernetes/cloud-provider-vsphere@v1.36.0 cluster/images/controller-manager/Dockerfile (ENTRYPOINT)' },
  leaderElection: { lock: 'leases', name: 'cloud-controller-manager', source: 'kubernetes/cloud-provider@v0.36.0 options/options.go (go.mod of kubernetes/cloud-provider-vsphere@v1.36.0)' },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.36.0 options/options.go (CloudControllerManagerPort)' },
  providerClient: { name: 'vsphere-cloud-controller-manager', source: 'kubernetes/cloud-provider-vsphere@v1.36.0 pkg/cloudprovider/vsphere/cloud.go (Initialize: ClientName; secret informer)' },
  tagsFollowKubernetes: true,
  tagMinors: { 'v1.36.0': { minor: '1.36', source: 'kubernetes/cloud-provider-vsphere@v1.36.0 go.mod (k8s.io/cloud-provider v0.36.0)' } },
  upstreamInstall: {
    kind: 'DaemonSet', name: 'vsphere-cpi', namespace: 'kube-system', selector: { app: 'vsphere-cpi' },
    source: 'kubernetes/cloud-provider-vsphere@v1.36.0 charts/vsphere-cpi/templates/daemonset.yaml (the manifest manifests/controller-manager/vsphere-cloud-controller-manager-ds.yaml matches ours)',
  },
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
  grants: [
    { identity: 'provider', rule: core(['events'], ['create', 'patch']), source: 'kubernetes/cloud-provider-openstack@v1.36.0 pkg/openstack/openstack.go (Initialize: eventBroadcaster)' },
    { identity: 'provider', rule: core(['services'], ['patch']), source: 'kubernetes/cloud-provider-openstack@v1.36.0 pkg/openstack/loadbalancer.go (annotations on the Service)' },
  ],
  authenticationReader: true,
  // go-runner is the ENTRYPOINT since the distroless images; before (v1.25 alpine) there was none: either way the binary is only the CMD
  entrypoint: { kind: 'cmd', binary: '/bin/openstack-cloud-controller-manager', source: 'kubernetes/cloud-provider-openstack@v1.36.0 Dockerfile (go-runner base, CMD only); charts/openstack-cloud-controller-manager/templates/daemonset.yaml (args start with the binary)' },
  leaderElection: { lock: 'leases', name: 'cloud-controller-manager', source: 'kubernetes/cloud-provider@v0.36.0 options/options.go (go.mod of kubernetes/cloud-provider-openstack@v1.36.0)' },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.36.0 options/options.go (CloudControllerManagerPort)' },
  providerClient: { name: 'cloud-controller-manager', source: 'kubernetes/cloud-provider-openstack@v1.36.0 pkg/openstack/openstack.go (Initialize)' },
  tagsFollowKubernetes: true,
  tagMinors: {
    'v1.36.0': { minor: '1.36', source: 'kubernetes/cloud-provider-openstack@v1.36.0 go.mod (k8s.io/cloud-provider v0.36.0)' },
    'v1.25.6': { minor: '1.25', source: 'kubernetes/cloud-provider-openstack@v1.25.6 go.mod (k8s.io/cloud-provider v0.25.10)' },
  },
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
  // pprof listens on :6060 of the host network by default (pkg/config/runtime_config.go defaultPprofBindAddr); "0" turns it
  // off (kubernetes-sigs/controller-runtime@v0.15.2, the go.mod version, pkg/manager/manager.go newPprofListener)
  extraFlags: ['--metrics-bind-addr=0', '--pprof-bind-addr=0'],
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
  // controller-runtime: every call runs as the process (no client builder)
  grants: [
    { identity: 'root', rule: core(['events'], ['create', 'patch']), source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller (event recorders)' },
    { identity: 'root', rule: core(['nodes'], ['get', 'list', 'watch', 'patch', 'delete']), source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/node, helper/node_utils.go' },
    { identity: 'root', rule: core(['nodes/status'], ['patch']), source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/helper/node_utils.go (Status().Patch)' },
    {
      identity: 'root', rule: core(['pods'], ['list', 'watch']),
      source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/service/clbv1/vgroups.go, nlbv2/server_groups.go (not-ready endpoints read through the cached client; upstream role lacks it)',
    },
    { identity: 'root', rule: core(['pods/status'], ['patch']), source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/helper/pod_utils.go (readiness gate Status().Patch)' },
    { identity: 'root', rule: core(['services'], ['get', 'list', 'watch', 'patch']), source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/service' },
    { identity: 'root', rule: core(['services/status'], ['patch']), source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/service' },
    { identity: 'root', rule: { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] }, source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/service (EndpointSlice watch)' },
  ],
  authenticationReader: false,
  entrypoint: { kind: 'binary', binary: '/cloud-controller-manager', source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 Dockerfile (ENTRYPOINT)' },
  leaderElection: { lock: 'leases', name: 'ccm', source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/config/runtime_config.go (defaultLeaderElectResourceName)' },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/config/runtime_config.go (defaultHealthProbeBindAddr ":10258", HTTP)' },
  tagsFollowKubernetes: false,
  tagMinors: {
    'v2.12.0': { minor: '1.28', source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 go.mod (k8s.io/cloud-provider v0.28.15; v2.12.0 has no git tag, v2.11.2 to v2.14.0 all pin v0.28.15)' },
    'v2.12.4': { minor: '1.28', source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 go.mod (k8s.io/cloud-provider v0.28.15)' },
    'v2.14.0': { minor: '1.28', source: 'kubernetes/cloud-provider-alibaba-cloud@v2.14.0 go.mod (k8s.io/cloud-provider v0.28.15)' },
  },
  upstreamInstall: {
    kind: 'DaemonSet', name: 'cloud-controller-manager', namespace: 'kube-system', selector: { app: 'cloud-controller-manager' },
    source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 docs/examples/cloud-controller-manager.yml',
  },
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
  grants: [
    { identity: 'provider', rule: core(['nodes'], ['get', 'patch']), source: 'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 pkg/provider/manager.go' },
    {
      identity: 'provider', namespace: 'kube-system', rule: core(['secrets', 'configmaps'], ['list', 'watch']),
      source: 'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 pkg/provider/client.go (Secret and ConfigMap informers of the credentials namespace)',
    },
  ],
  authenticationReader: true,
  env: [{ name: 'POD_NAMESPACE', fieldPath: 'metadata.namespace' }],
  entrypoint: { kind: 'binary', binary: '/ko-app/cloud-provider-nutanix', source: 'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 Makefile (ko build: the ENTRYPOINT is the binary)' },
  leaderElection: { lock: 'leases', name: 'cloud-controller-manager', source: 'kubernetes/cloud-provider@v0.33.3 options/options.go (go.mod of nutanix-cloud-native/cloud-provider-nutanix@v0.5.2)' },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.33.3 options/options.go (CloudControllerManagerPort)' },
  providerClient: { name: 'cloud-provider-nutanix', source: 'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 pkg/provider/provider.go (Initialize)' },
  tagsFollowKubernetes: false,
  tagMinors: { 'v0.5.2': { minor: '1.33', source: 'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 go.mod (k8s.io/cloud-provider v0.33.3)' } },
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
  // releases/digitalocean-cloud-controller-manager/v0.1.68.yml: Deployment digitalocean-cloud-controller-manager, selector app
  selector: { app: 'digitalocean-cloud-controller-manager' },
  grants: [
    { identity: 'provider', rule: core(['events'], ['create']), source: 'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/do/cloud.go (Initialize)' },
    {
      identity: 'provider', rule: core(['services'], ['list', 'watch', 'patch']),
      source: 'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/do/cloud.go (resources and firewall controllers: service informer, annotations)',
    },
  ],
  // main.go sets opts.Authentication.SkipInClusterLookup = true: the secure port never reads extension-apiserver-authentication
  authenticationReader: false,
  entrypoint: { kind: 'binary', binary: '/bin/digitalocean-cloud-controller-manager', source: 'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/cmd/digitalocean-cloud-controller-manager/Dockerfile (ENTRYPOINT)' },
  leaderElection: { lock: 'leases', name: 'cloud-controller-manager', source: 'kubernetes/cloud-provider@v0.36.2 options/options.go (go.mod of digitalocean/digitalocean-cloud-controller-manager@v0.1.68)' },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.36.2 options/options.go (CloudControllerManagerPort)' },
  providerClient: { name: 'do-shared-informers', source: 'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/do/cloud.go (Initialize: service informers, resources and firewall controllers)' },
  tagsFollowKubernetes: false,
  tagMinors: { 'v0.1.68': { minor: '1.36', source: 'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 go.mod (k8s.io/cloud-provider v0.36.2)' } },
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
  grants: [
    {
      identity: 'provider', rule: core(['endpoints', 'services', 'nodes'], ['list', 'watch']),
      source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/eip_controlplane_reconciliation.go, metal/controlplane_load_balancer_manager.go (informers)',
    },
    {
      identity: 'provider', namespace: 'kube-system', rule: core(['endpoints', 'services'], ['create']),
      source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/eip_controlplane_reconciliation.go, metal/controlplane_load_balancer_manager.go (server-side apply creates them)',
    },
    {
      identity: 'provider', namespace: 'kube-system', rule: core(['endpoints', 'services'], ['patch'], ['cloud-provider-equinix-metal-kubernetes-external']),
      source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/eip_controlplane_reconciliation.go, metal/controlplane_load_balancer_manager.go (server-side apply)',
    },
    {
      identity: 'provider', namespace: 'kube-system', rule: core(['services/status'], ['patch'], ['cloud-provider-equinix-metal-kubernetes-external']),
      source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/eip_controlplane_reconciliation.go (Service status of the EIP)',
    },
    // The load-balancer implementation is chosen in cloud-sa.json (`loadbalancer`), which the renderer does not read:
    // spec.kubernetes.equinixMetalLoadBalancer names it, and only its calls are granted (a Role in metallb-system would
    // fail to apply on a cluster without MetalLB).
    ...['kube-vip', 'metallb', 'metallb-crd', 'emlb'].map((lb): ProviderGrant => ({
      identity: 'provider', rule: core(['namespaces'], ['get'], ['kube-system']), whenFeature: `equinix-lb:${lb}`,
      source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers.go (newLoadBalancers: Namespaces().Get("kube-system") for any implementation)',
    })),
    // the BGP implementations (kube-vip and both MetalLB modes)
    ...['kube-vip', 'metallb', 'metallb-crd'].flatMap((lb): ProviderGrant[] => [
      {
        identity: 'provider', rule: core(['nodes'], ['patch']), whenFeature: `equinix-lb:${lb}`,
        source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers.go (annotateNode: BGP peer annotations, when usesBGP)',
      },
      {
        identity: 'provider', rule: core(['services'], ['get', 'update']), whenFeature: `equinix-lb:${lb}`,
        source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers.go (addService, retrieveIPByTag: Get then Update spec.loadBalancerIP)',
      },
    ]),
    {
      identity: 'provider', namespace: 'metallb-system', rule: core(['configmaps'], ['get', 'patch'], ['config']), whenFeature: 'equinix-lb:metallb',
      source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers/metallb/configmap.go (metallb:// default metallb-system/config)',
    },
    {
      identity: 'root', namespace: 'metallb-system', whenFeature: 'equinix-lb:metallb-crd',
      rule: { apiGroups: ['metallb.io'], resources: ['bgppeers', 'ipaddresspools', 'bgpadvertisements'], verbs: ['list', 'create', 'patch', 'delete'] },
      source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers/metallb/cr.go (metallb CRD mode, controller-runtime client on the root kubeconfig)',
    },
    { identity: 'root', rule: core(['services'], ['patch']), whenFeature: 'equinix-lb:emlb', source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers/emlb/emlb.go (emlb: Service annotations)' },
  ],
  authenticationReader: false,
  deprecated: 'the Equinix Metal CCM is deprecated upstream (Equinix Metal is sunset in June 2026) and no longer maintained; plan the move off the platform',
  entrypoint: { kind: 'binary', binary: './cloud-provider-equinix-metal', source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 Dockerfile (ENTRYPOINT)' },
  leaderElection: { lock: 'leases', name: 'cloud-controller-manager', source: 'kubernetes/cloud-provider@v0.30.2 options/options.go (go.mod of kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1)' },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.30.2 options/options.go (CloudControllerManagerPort)' },
  providerClient: { name: 'cloud-provider-equinix-metal-shared-informers', source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/cloud.go (Initialize)' },
  tagsFollowKubernetes: false,
  tagMinors: { 'v3.8.1': { minor: '1.30', source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 go.mod (k8s.io/cloud-provider v0.30.2)' } },
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
