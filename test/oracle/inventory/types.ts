/**
 * The API-call inventory: what each cloud controller manager binary really does against the
 * Kubernetes API, as data read from the upstream source at the pinned image tag. The oracle
 * test (test/kubernetes-oracle.test.ts) renders every provider and checks that the rendered
 * RBAC allows every call for the identity that makes it, and grants nothing unused.
 *
 * Every entry cites its source as `owner/repo@tag path/file.go (function)`.
 */

/**
 * The identity that makes a call.
 *
 * - `'root'`: the process's own credentials (the CCM ServiceAccount): shared informers,
 *   leader election, events of the root broadcaster, delegated authentication/authorization.
 * - any other string: the name passed to `ClientBuilder.ClientOrDie(name)` /
 *   `ConfigOrDie(name)` (kubernetes/controller-manager pkg/clientbuilder). With
 *   `--use-service-account-credentials=true` this becomes ServiceAccount `kube-system/<name>`
 *   (the dynamic client builder GETs/creates that ServiceAccount and requests a token for it
 *   using the root credentials; see clientBuilderCalls() in common.ts); with `false` it is
 *   the root identity.
 * - `'cnm'`: the Azure cloud-node-manager's own ServiceAccount (it has no client builder).
 */
export type ClientName = string;

/** One API call a binary makes. */
export interface ApiCall {
  /** The client that makes it; see {@link ClientName}. */
  readonly client: ClientName;
  /** Kubernetes verbs: get, list, watch, create, update, patch, delete, deletecollection. */
  readonly verbs: readonly string[];
  /** '' for the core group. */
  readonly apiGroup: string;
  /** 'pods/status' for subresources. */
  readonly resource: string;
  /** Absent: cluster-scoped, or all namespaces (a list/watch across namespaces). */
  readonly namespace?: string;
  /**
   * The resourceName when the call targets one named object: get/update/patch/delete of it, a
   * subresource of it (serviceaccounts/token), or a list/watch with a `metadata.name` field
   * selector (the apiserver sets the name: kubernetes/apiserver pkg/endpoints/request/requestinfo.go).
   * Never for create.
   */
  readonly name?: string;
  /**
   * A condition under which the binary makes the call; absent = always; an array = all of
   * them. The oracle test evaluates each key on the rendering (see {@link WHEN_KEYS}).
   */
  readonly when?: WhenKey | readonly WhenKey[];
  /**
   * For the client builder's own calls (ServiceAccount get/create, TokenRequest): the
   * kube-system ServiceAccount the call is about; `serviceAccountMissing` is evaluated for it.
   */
  readonly subject?: string;
  /** 'owner/repo@tag path/file.go' (+ function). */
  readonly source: string;
}

/**
 * The conditions the oracle test evaluates on each rendering (from the rendered container
 * args and objects). A call with `when` is asserted only in renderings where the condition
 * holds. For "is every granted rule used", the keys that describe the process and profile
 * (leaderElect, serviceAccountCredentials, serviceAccountMissing, secureServing,
 * authenticationLookup, client:*, controller:*) are evaluated too; feature keys are not (the renderer may
 * grant a feature's rights whether or not the feature is on).
 */
export const WHEN_KEYS = {
  /** `--leader-elect=true` (the default of every CCM here): the leader-election Lease and its events. */
  leaderElect: 'leader election on',
  /** `--enable-leader-migration=true`: the second (migration) Lease named by the LeaderMigrationConfiguration. */
  leaderMigration: 'leader migration on',
  /** The route controller runs: enabled in `--controllers` AND `--configure-cloud-routes=true` (k8s.io/cloud-provider app/core.go startRouteController). */
  routes: 'route controller running',
  /** Node IPAM runs: the provider's IPAM controller enabled in `--controllers` AND `--allocate-node-cidrs=true`. */
  nodeIpam: 'node IPAM controller running',
  /** GCP `--cidr-allocator-type=CloudAllocator` (node IPAM from the GCE aliases; default RangeAllocator). */
  cloudAllocator: 'GCP CloudAllocator node IPAM',
  /** `--use-service-account-credentials=true`: the dynamic client builder acts (ServiceAccount get, TokenRequest). */
  serviceAccountCredentials: '--use-service-account-credentials=true',
  /** As serviceAccountCredentials, and the controller ServiceAccount is NOT rendered: the client builder creates it. */
  serviceAccountMissing: '--use-service-account-credentials=true and the ServiceAccount is not rendered',
  /** Secure serving on (`--secure-port` != 0) and `--authentication-skip-lookup` not true: the in-cluster authentication ConfigMap is read. */
  authenticationLookup: 'delegated authentication looks up kube-system/extension-apiserver-authentication',
  /** Secure serving on (`--secure-port` != 0): delegated authentication/authorization (TokenReview, SubjectAccessReview). */
  secureServing: 'secure serving enabled',
  /** Azure `--enable-dynamic-reloading=true`: the cloud config is read from a Secret and watched. */
  azureDynamicReloading:
    'Azure dynamic reloading from the cloud-config Secret: --enable-dynamic-reloading=true and no --cloud-config file (with one the binary watches the file)',
  /** Azure cloud-node-manager rendered (spec.kubernetes.cloudNodeManager.enabled). */
  cloudNodeManager: 'Azure cloud-node-manager rendered',
  /** Equinix Metal control-plane EIP (`eipTag` in the cloud config). */
  eipTag: 'Equinix Metal eipTag set',
  /** Equinix Metal control-plane load balancer (load-balancer ID set). */
  controlPlaneLoadBalancer: 'Equinix Metal control-plane load balancer set',
} as const;

/**
 * A condition key: one of {@link WHEN_KEYS}, or
 * - `controller:<canonical name>` = that controller runs: enabled by the rendered `--controllers`
 *   (aliases resolved, disabled-by-default honoured; kubernetes/controller-manager@v0.35.0
 *   app/helper.go IsControllerEnabled) AND it gets past its start (a binary whose cloud has no
 *   LoadBalancer() stops the service controller in servicecontroller.New: ControllerFacts.working);
 * - `client:<canonical name>` = that controller is enabled, so its start function asks the client
 *   builder for its client even if it then stops (the ClientOrDie argument is evaluated first:
 *   kubernetes/cloud-provider app/core.go startServiceController).
 * Canonical names, aliases and working controllers per image are in images.ts.
 */
export type WhenKey = keyof typeof WHEN_KEYS | `controller:${string}` | `client:${string}`;

/** The calls of one provider's binaries at one image tag. */
export interface ProviderInventory {
  /** The provider key as in src/kubernetes/providers.ts (e.g. 'aws', 'azure'). */
  readonly provider: string;
  /** The image tag the inventory was read at (the one pinned in clusters/kubernetes/defaults.yaml). */
  readonly imageTag: string;
  readonly calls: readonly ApiCall[];
  /**
   * The namespaces of the credential Secrets the binary watches, read from the rendered cloud
   * config text (undefined: the config is not rendered, an existing object): the oracle test
   * substitutes them for {@link CONFIG_SECRET_NAMESPACE}. An undefined entry is a watch across
   * all namespaces.
   */
  readonly configSecretNamespaces?: (config: string | undefined) => readonly (string | undefined)[];
  /**
   * The env variable the binary takes its own namespace from ({@link CCM_NAMESPACE} is its value);
   * unset or empty, the binary exits.
   */
  readonly namespaceEnv?: { readonly name: string; readonly source: string };
}

/**
 * Lease name/namespace placeholders. A call on the leader-election Lease uses
 * `name: LEADER_LEASE` and `namespace: LEADER_LEASE_NAMESPACE`; the oracle test substitutes
 * the lock the binary really uses: the image's default (images.ts `leaderElection`), or the
 * value of `--leader-elect-resource-name` / `--leader-elect-resource-namespace` when the
 * rendered container args set them (component-base LeaderElectionConfiguration flags).
 */
export const LEADER_LEASE = '<leader-election-lease>';
export const LEADER_LEASE_NAMESPACE = '<leader-election-namespace>';
/**
 * The leader-migration Lease: `leaderName` of the rendered LeaderMigrationConfiguration, default
 * `cloud-provider-extraction-migration` (kubernetes/controller-manager pkg/leadermigration/config/default.go),
 * in the leader-election namespace (kubernetes/cloud-provider app/controllermanager.go leaderElectAndRun).
 */
export const LEADER_MIGRATION_LEASE = '<leader-migration-lease>';
/**
 * The namespace the CCM takes as its own: the value of {@link ProviderInventory.namespaceEnv} in the
 * rendered container when the binary reads one, else the rendered workload's namespace.
 */
export const CCM_NAMESPACE = '<ccm-namespace>';
/**
 * The namespace of the Azure cloud config Secret read under dynamic reloading: the rendered
 * `--cloud-config-secret-namespace`, default kube-system
 * (kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/options/dynamic.go).
 */
export const AZURE_CONFIG_SECRET_NAMESPACE = '<cloud-config-secret-namespace>';
/**
 * The namespace(s) of the credential Secrets named by the rendered cloud config (one request per
 * namespace); see {@link ProviderInventory.configSecretNamespaces}.
 */
export const CONFIG_SECRET_NAMESPACE = '<cloud-config-secret-namespace>';
