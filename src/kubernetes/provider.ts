/**
 * The shape of an upstream CCM of the `kubernetes` distribution
 * (each provider's folder cites its upstream manifest or chart): what a provider's own manifest or chart runs, its flags, where
 * it reads its config, its requests and its RBAC, each fact with its upstream
 * source. One folder per provider (`src/kubernetes/<provider>/`) holds the
 * data; `providers.ts` assembles them. Pure: no cdk8s import.
 */
import { PolicyRule } from './rbac-rules';
import { ImageKey } from '../cluster-spec/images';
import { ClusterSpec, PlatformType } from '../cluster-spec/schema';
import { KubernetesSection } from '../cluster-spec/sections/kubernetes';

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
  /**
   * Where the Role's namespace comes from instead of `namespace`: `ccm`, the CCM's own
   * namespace (a binary that reads POD_NAMESPACE); `config-secrets`, each namespace the
   * rendered cloud config names for its credential Secrets (`configSecretNamespaces`),
   * or `namespace` when the config is not rendered (the upstream manifest's).
   */
  readonly namespaceFrom?: 'ccm' | 'config-secrets';
  /** Only when the rendered args hold all these flags (e.g. `--allocate-node-cidrs=true`). */
  readonly when?: readonly string[];
  /** Only when the rendered args set none of these flags to a value (e.g. `--cloud-config`). */
  readonly whenUnset?: readonly string[];
  /** Only when `--controllers` names one of these (a controller disabled by default, by its name or alias). */
  readonly whenController?: readonly string[];
  /** Only when one of these k8s.io/cloud-provider controllers runs (enabled by `--controllers` and not stopped by the provider). */
  readonly whenRunning?: readonly CloudController[];
  /** An informer this controller takes: granted while it runs, or while it is enabled if it stops after taking it (`informersFirst`). */
  readonly informerOf?: CloudController;
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

/** A problem of a spec: field path and message (with the fix). */
export interface KubernetesProblem {
  readonly path: (string | number)[];
  readonly message: string;
}

/** A knob of `spec.kubernetes` that only one provider reads. */
export interface ProviderKnob {
  /** Its field under `spec.kubernetes`. */
  readonly field: string;
  /** Whether a section sets it. */
  isSet(k: KubernetesSection): boolean;
  /** Why it is refused with another platform, and the fix. */
  refusal(platform: PlatformType): string;
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
  /**
   * Deployment replicas of the upstream manifest or chart, with its source: the default on a
   * HighlyAvailable control plane (more replicas than control-plane nodes stay Pending: each
   * pod needs its own node for the host-network port).
   */
  readonly defaultReplicas?: { readonly replicas: number; readonly source: string };
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
  /** The PriorityClass of the upstream manifest or chart, when it is not system-cluster-critical. */
  readonly priorityClassName?: { readonly name: string; readonly source: string };
  /**
   * Set when the upstream manifest or chart sets no nodeSelector or node affinity, so its pods run on
   * any node that their tolerations admit: no control-plane affinity is rendered (a nodeSelector still
   * places them). Undefined: the control-plane affinity of the scheduling preset.
   */
  readonly anyNode?: { readonly source: string };
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
  /**
   * Whether the CCM takes an IAM role from its ServiceAccount's `eks.amazonaws.com/role-arn` annotation
   * (IRSA: the renderer projects the token the pod identity webhook would).
   *
   * @default false
   */
  readonly serviceAccountRole?: boolean;
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
   * The CCM's node IPAM controller, when its binary registers one (its
   * `main.go`): node IPAM can move from kube-controller-manager to the CCM
   * only then; a CCM without it leaves new nodes without a podCIDR.
   */
  readonly nodeIpam?: { readonly controller: string; readonly source: string };
  /**
   * What its node IPAM controller needs of `spec.kubernetes.extraArgs` (the names given) when
   * node IPAM moves to it in a migration, with the upstream source in its folder.
   *
   * @default - nothing
   */
  nodeIpamMoveProblems?(extraArgNames: readonly string[]): KubernetesProblem[];
  /**
   * What the CCM's route controller needs beyond `--configure-cloud-routes`,
   * when its `Routes()` can return false (the controller then never starts).
   */
  readonly routesNeed?: { readonly what: string; readonly source: string };
  /**
   * The pod selector of the upstream manifest when its workload has our name
   * (`<name>-cloud-controller-manager`): kept so applying over an upstream
   * install updates it in place (a selector is immutable).
   *
   * @default - `k8s-app: <workload name>`
   */
  readonly selector?: Readonly<Record<string, string>>;
  /**
   * Generic controllers the binary registers but that stop at start (a cloud whose
   * LoadBalancer() is false stops the service controller in servicecontroller.New): their
   * calls are not granted; a client asked for before the stop keeps its token.
   */
  readonly stoppedControllers?: readonly StoppedController[];
  /**
   * Every flag the binary at the pinned tag accepts, for a binary that exits on an unknown one:
   * extraArgs outside the list are refused.
   */
  readonly knownFlags?: { readonly tag: string; readonly flags: readonly string[]; readonly source: string };
  /** The upstream installs this replaces whose name or selector differs from ours (adoption: delete them first). */
  readonly upstreamInstalls?: readonly UpstreamInstall[];
  /**
   * The namespaces the binary watches credential Secrets in, read from an inline cloud
   * config (grants with `namespaceFrom: 'config-secrets'`); undefined when the text
   * cannot be read.
   */
  readonly configSecretNamespaces?: (cloudConf: string) => readonly string[] | undefined;
  /**
   * Its checks of a spec beyond those every provider shares, each with the upstream source it follows.
   *
   * @default - none
   */
  specProblems?(spec: ClusterSpec): KubernetesProblem[];
  /**
   * Its checks of an inline cloud config that the rendered RBAC depends on.
   *
   * @default - none
   */
  cloudConfigProblems?(spec: ClusterSpec, cloudConf: string): KubernetesProblem[];
  /**
   * The knobs of `spec.kubernetes` only it reads: refused with any other platform.
   *
   * @default - none
   */
  readonly ownKnobs?: readonly ProviderKnob[];
}

/** A generic controller the binary registers but that stops at start. */
export interface StoppedController {
  readonly controller: CloudController;
  /** It runs after all when the spec selects a feature starting with this (`equinix-lb:`: a load balancer makes LoadBalancer() true). */
  readonly unlessFeature?: string;
  /**
   * The library takes the controller's informers before it stops (k8s.io/cloud-provider up to v0.31:
   * servicecontroller.New calls Informer() before init()), so their list and watch stay granted.
   */
  readonly informersFirst?: boolean;
  /** `owner/repo@tag path (function)`. */
  readonly source: string;
}

/** The generic controllers of k8s.io/cloud-provider, by the alias `--controllers` accepts (names/controller_names.go). */
export type CloudController = 'cloud-node' | 'cloud-node-lifecycle' | 'service' | 'route';

/** A core-group (`""`) policy rule, for the provider tables. */
export const core = (resources: string[], verbs: string[], resourceNames?: string[]): PolicyRule => ({
  apiGroups: [''],
  resources,
  verbs,
  ...(resourceNames ? { resourceNames } : {}),
});
