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
 *   using the root credentials; see `CLIENT_BUILDER` calls in common.ts); with `false` it is
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
  /** The resourceName when the call targets one named object (never for list/watch/create). */
  readonly name?: string;
  /**
   * A condition under which the binary makes the call; absent = always. The oracle test
   * knows how to switch each key on in the rendered spec (see {@link WHEN_KEYS}).
   */
  readonly when?: WhenKey;
  /** 'owner/repo@tag path/file.go' (+ function). */
  readonly source: string;
}

/**
 * The conditions the oracle test renders. A call with `when` is asserted only in the
 * rendering that switches that condition on; a rule justified only by such a call is still
 * "used" in every rendering (the renderer may grant it unconditionally).
 */
export const WHEN_KEYS = {
  /** Node IPAM (`--allocate-node-cidrs=true` + `nodeipam` controller; GCP: `--cidr-allocator-type`). */
  nodeIpam: 'node IPAM controller enabled (allocate-node-cidrs)',
  /** Route controller enabled (`--configure-cloud-routes=true`, the `route` controller). */
  routes: 'route controller enabled',
  /** Equinix Metal control-plane EIP (`eipTag` in the cloud config). */
  eipTag: 'Equinix Metal eipTag set',
  /** Equinix Metal control-plane load balancer (`apiServerPort`/load-balancer ID set). */
  controlPlaneLoadBalancer: 'Equinix Metal control-plane load balancer set',
  /** useServiceAccountCredentials=true: the client builder acts (ServiceAccount get/create, token request). */
  serviceAccountCredentials: '--use-service-account-credentials=true',
  /** Azure cloud-node-manager deployed. */
  cloudNodeManager: 'Azure cloud-node-manager rendered',
} as const;

/** A condition key; see {@link WHEN_KEYS}. */
export type WhenKey = keyof typeof WHEN_KEYS;

/** The calls of one provider's binaries at one image tag. */
export interface ProviderInventory {
  /** The provider key as in src/kubernetes/providers.ts (e.g. 'aws', 'azure'). */
  readonly provider: string;
  /** The image tag the inventory was read at (the one pinned in clusters/kubernetes/defaults.yaml). */
  readonly imageTag: string;
  readonly calls: readonly ApiCall[];
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
