/**
 * The RBAC of an upstream CCM in its two profiles (as their charts and manifests grant it):
 * - `superset` (`--use-service-account-credentials=false`, the upstream
 *   charts' default): every client runs as the CCM ServiceAccount, which
 *   gets the union of what they need;
 * - `least-privilege` (`=true`): kubernetes/cloud-provider options/options.go
 *   (Config) builds the shared informers from the root client
 *   (`rootClientBuilder.ClientOrDie("shared-informers")`), so the CCM
 *   ServiceAccount keeps list/watch on what they cache, leader election,
 *   events and delegated auth; every other client comes from the dynamic
 *   client builder (kubernetes/controller-manager
 *   pkg/clientbuilder/client_builder_dynamic.go): it GETs ServiceAccount
 *   `kube-system/<client name>` (creating it when missing) and requests a
 *   token for it. The client names are the controllers' (`node-controller`,
 *   `service-controller`, `route-controller`: kubernetes/cloud-provider
 *   app/controllermanager.go) and the provider's own (`ClientOrDie` in its
 *   `Initialize`, recorded in each `<provider>/index.ts`); each gets a ClusterRole of its
 *   calls, including the provider extras the bootstrap `system:controller:*`
 *   roles lack (the "forbidden" errors of OCCM #1722/#2049).
 * Lease names come from the binary (`<provider>/index.ts` `leaderElection`) or from
 * `--leader-elect-resource-name`. No wildcard verbs or resources. Pure: no
 * cdk8s import.
 */
import { CloudController, StoppedController } from './provider';
import { ProviderGrant, UpstreamProvider } from './providers';

/** An RBAC policy rule. */
export interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames?: readonly string[];
}

/** The RBAC profiles. */
export type RbacProfile = 'superset' | 'least-privilege';

/** A ClusterRole and the ServiceAccounts it is bound to. */
export interface ClusterRoleGrant {
  /** ClusterRole (and ClusterRoleBinding) name. */
  readonly name: string;
  readonly rules: readonly PolicyRule[];
  /** `namespace/name` of each ServiceAccount bound. */
  readonly serviceAccounts: readonly string[];
}

/** A Role in one namespace and the ServiceAccounts it is bound to. */
export interface RoleGrant extends ClusterRoleGrant {
  readonly namespace: string;
}

/** The whole RBAC of a CCM. */
export interface CcmRbac {
  readonly profile: RbacProfile;
  readonly clusterRoles: readonly ClusterRoleGrant[];
  readonly roles: readonly RoleGrant[];
}

/** The name of the CCM's ClusterRole in the upstream charts. */
export const CCM_CLUSTER_ROLE = 'system:cloud-controller-manager';
/** The namespace the dynamic client builder keeps the client ServiceAccounts in (kubernetes/cloud-provider options/options.go: metav1.NamespaceSystem). */
export const CONTROLLER_SA_NAMESPACE = 'kube-system';

const CP = 'kubernetes/cloud-provider@v0.33.0';
const EVENTS: PolicyRule = { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] };
const core = (resources: string[], verbs: string[]): PolicyRule => ({ apiGroups: [''], resources, verbs });

/** The client names of the k8s.io/cloud-provider controllers (kubernetes/cloud-provider@v0.33.0 app/controllermanager.go, ClientName; cloud-node and cloud-node-lifecycle share node-controller). */
export const CONTROLLER_IDENTITIES = {
  node: ['node-controller'],
  service: ['service-controller'],
  route: ['route-controller'],
} as const;

/**
 * The calls of the k8s.io/cloud-provider app and its generic controllers,
 * whatever the provider (leader election is added from the lease). Informers
 * read through the root client; the controllers write through their own.
 */
const CLOUD_PROVIDER_GRANTS: readonly ProviderGrant[] = [
  {
    identity: 'root',
    rule: core(['nodes'], ['list', 'watch']),
    source: `${CP} options/options.go (rootClientBuilder "shared-informers"), app/core.go (node informer)`,
  },
  // from v0.32 the service informer is taken only after servicecontroller.New passes init() (controllers/service/controller.go New)
  {
    identity: 'root',
    rule: core(['services'], ['list', 'watch']),
    informerOf: 'service',
    source: `${CP} app/core.go (startServiceController: service informer)`,
  },
  {
    identity: 'root',
    rule: { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
    source: 'kubernetes/apiserver pkg/server/options/authentication.go (delegated authentication of the secure port)',
  },
  {
    identity: 'root',
    rule: { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    source: 'kubernetes/apiserver pkg/server/options/authorization.go (delegated authorization of the secure port)',
  },
  {
    identity: 'node-controller',
    rule: core(['nodes'], ['get', 'update', 'patch']),
    whenRunning: ['cloud-node'],
    source: `${CP} controllers/node/node_controller.go (labels: Get, Patch; syncNode: Update)`,
  },
  {
    identity: 'node-controller',
    rule: core(['nodes'], ['get', 'patch', 'delete']),
    whenRunning: ['cloud-node-lifecycle'],
    source: `${CP} controllers/nodelifecycle/node_lifecycle_controller.go (taints: Get, Patch; Delete)`,
  },
  {
    identity: 'node-controller',
    rule: core(['nodes/status'], ['patch']),
    whenRunning: ['cloud-node'],
    source: `${CP} controllers/node/node_controller.go (UpdateNodeAddress: PatchNodeStatus)`,
  },
  {
    identity: 'node-controller',
    rule: EVENTS,
    whenRunning: ['cloud-node', 'cloud-node-lifecycle'],
    source: `${CP} controllers/node/node_controller.go (event broadcaster)`,
  },
  {
    identity: 'service-controller',
    rule: core(['services/status'], ['patch']),
    whenRunning: ['service'],
    source: `${CP} controllers/service/controller.go (servicehelper.PatchService patches status and finalizers through "status")`,
  },
  { identity: 'service-controller', rule: EVENTS, whenRunning: ['service'], source: `${CP} controllers/service/controller.go (event broadcaster)` },
  {
    identity: 'route-controller',
    rule: core(['nodes/status'], ['patch']),
    when: ['--configure-cloud-routes=true'],
    whenRunning: ['route'],
    source: `${CP} controllers/route/route_controller.go (NetworkUnavailable condition)`,
  },
  {
    identity: 'route-controller',
    rule: EVENTS,
    when: ['--configure-cloud-routes=true'],
    whenRunning: ['route'],
    source: `${CP} controllers/route/route_controller.go (event broadcaster)`,
  },
];

/** The canonical name of each generic controller (kubernetes/cloud-provider@v0.33.0 names/controller_names.go). */
const CANONICAL: Readonly<Record<CloudController, string>> = {
  'cloud-node': 'cloud-node-controller',
  'cloud-node-lifecycle': 'cloud-node-lifecycle-controller',
  service: 'service-lb-controller',
  route: 'node-route-controller',
};
/** The client each generic controller asks the client builder for (app/core.go). */
const CLIENT_OF: Readonly<Record<CloudController, string>> = {
  'cloud-node': 'node-controller',
  'cloud-node-lifecycle': 'node-controller',
  service: 'service-controller',
  route: 'route-controller',
};

/**
 * Whether `--controllers` enables a generic controller, by alias or canonical name
 * (kubernetes/controller-manager@v0.33.0 app/helper.go IsControllerEnabled: the first
 * `name` or `-name` decides, else `*`).
 */
export function controllerEnabled(controller: CloudController, flags: readonly string[]): boolean {
  const flag = flags.find((f) => f.startsWith('--controllers='));
  const list = flag ? flag.slice('--controllers='.length).split(',') : ['*'];
  const names = [controller, CANONICAL[controller]];
  let star = false;
  for (const c of list) {
    if (names.includes(c)) {
      return true;
    }
    if (names.some((n) => c === `-${n}`)) {
      return false;
    }
    star ||= c === '*';
  }
  return star;
}

/** The provider's stop of a generic controller that holds with these features, if any. */
function stopOf(provider: UpstreamProvider, controller: CloudController, features: readonly string[]): StoppedController | undefined {
  return (provider.stoppedControllers ?? []).find(
    (s) => s.controller === controller && !(s.unlessFeature && features.some((f) => f.startsWith(s.unlessFeature!))),
  );
}

/** Whether a generic controller runs: enabled and not stopped at start by the provider. */
function controllerRunning(provider: UpstreamProvider, controller: CloudController, flags: readonly string[], features: readonly string[]): boolean {
  return controllerEnabled(controller, flags) && !stopOf(provider, controller, features);
}

/** Whether a generic controller's informers list and watch: it runs, or it stops only after taking them. */
function informerTaken(provider: UpstreamProvider, controller: CloudController, flags: readonly string[], features: readonly string[]): boolean {
  const stop = stopOf(provider, controller, features);
  return controllerEnabled(controller, flags) && (stop === undefined || stop.informersFirst === true);
}

/** The clients the enabled generic controllers ask for before they start or stop (routes only when configured). */
function askedClients(flags: readonly string[]): string[] {
  const controllers: CloudController[] = ['cloud-node', 'cloud-node-lifecycle', 'service'];
  return [...new Set(controllers.filter((c) => controllerEnabled(c, flags)).map((c) => CLIENT_OF[c]))];
}

/**
 * Merges rules that share apiGroups, resources and resourceNames (verbs
 * united, in first-seen order) so each resource appears once per name set.
 */
export function mergeRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] }[] = [];
  for (const rule of rules) {
    for (const resource of rule.resources) {
      const found = out.find(
        (r) =>
          r.apiGroups.join() === rule.apiGroups.join() &&
          r.resources.length === 1 &&
          r.resources[0] === resource &&
          (r.resourceNames ?? []).join() === (rule.resourceNames ?? []).join(),
      );
      if (found) {
        for (const verb of rule.verbs) {
          if (!found.verbs.includes(verb)) {
            found.verbs.push(verb);
          }
        }
      } else {
        out.push({
          apiGroups: [...rule.apiGroups],
          resources: [resource],
          verbs: [...rule.verbs],
          ...(rule.resourceNames ? { resourceNames: [...rule.resourceNames] } : {}),
        });
      }
    }
  }
  return out;
}

/** The leader-election lock the CCM takes. */
export interface LeaderLease {
  readonly name: string;
  readonly namespace: string;
}

/** Properties of `ccmRbac`. */
export interface CcmRbacInput {
  readonly provider: UpstreamProvider;
  /** `--use-service-account-credentials`. */
  readonly useServiceAccountCredentials: boolean;
  /** Namespace of the CCM and its ServiceAccount. */
  readonly namespace: string;
  /** The CCM ServiceAccount name. */
  readonly serviceAccount: string;
  /**
   * The leader-election Lease (`leaderLease`); null with `--leader-elect=false`.
   *
   * @default - the provider's default lock in `namespace`
   */
  readonly leaderLease?: LeaderLease | null;
  /**
   * The rendered flags: grants with `when` apply only when these hold them.
   *
   * @default - none (routes off, node IPAM off)
   */
  readonly flags?: readonly string[];
  /**
   * Features the spec selects (grants with `whenFeature`), e.g. `equinix-lb:metallb`.
   *
   * @default - none
   */
  readonly features?: readonly string[];
  /**
   * The credential Secret namespaces the rendered cloud config names (`configSecretNamespaces`).
   *
   * @default - the config is not rendered: the grant's own namespace
   */
  readonly configSecretNamespaces?: readonly string[];
}

/** The whole RBAC of a CCM. */
export interface CcmRbac {
  readonly profile: RbacProfile;
  readonly clusterRoles: readonly ClusterRoleGrant[];
  readonly roles: readonly RoleGrant[];
  /** `namespace/name` of the client ServiceAccounts rendered beside the CCM's own (least-privilege only). */
  readonly serviceAccounts: readonly string[];
}

/**
 * The lease the binary locks: `--leader-elect-resource-name` and
 * `--leader-elect-resource-namespace` from the rendered args when set, else
 * the provider's default name in the CCM namespace; undefined with
 * `--leader-elect=false`.
 */
export function leaderLease(provider: UpstreamProvider, args: readonly string[], namespace: string): LeaderLease | undefined {
  const flag = (name: string) => {
    const found = args.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    return found === undefined ? undefined : found.includes('=') ? found.slice(found.indexOf('=') + 1) : 'true';
  };
  if (flag('leader-elect') === 'false') {
    return undefined;
  }
  return {
    name: flag('leader-elect-resource-name') ?? provider.leaderElection.name,
    namespace: flag('leader-elect-resource-namespace') ?? namespace,
  };
}

/** Every grant of a CCM with the rendered flags: the app's (k8s.io/cloud-provider), the lease's, then the provider's; `provider` resolved to the client name. */
export function ccmGrants(
  provider: UpstreamProvider,
  lease: LeaderLease | undefined,
  flags: readonly string[],
  features: readonly string[] = [],
  namespaces: { readonly ccm: string; readonly configSecrets?: readonly string[] } = { ccm: 'kube-system' },
): ProviderGrant[] {
  const leaseGrants: ProviderGrant[] = lease
    ? [
        {
          identity: 'root',
          namespace: lease.namespace,
          rule: { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: [lease.name], verbs: ['get', 'update'] },
          source: provider.leaderElection.source,
        },
        // create cannot be restricted by name
        {
          identity: 'root',
          namespace: lease.namespace,
          rule: { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
          source: 'kubernetes/client-go tools/leaderelection/resourcelock/leaselock.go (Create)',
        },
        ...(provider.framework === 'cloud-provider'
          ? [
              {
                identity: 'root',
                namespace: lease.namespace,
                rule: EVENTS,
                source: 'kubernetes/client-go tools/leaderelection/resourcelock/leaselock.go (RecordEvent on the Lease)',
              },
            ]
          : []),
      ]
    : [];
  const all = [...(provider.framework === 'cloud-provider' ? CLOUD_PROVIDER_GRANTS : []), ...leaseGrants, ...provider.grants];
  const controllersFlag = flags.find((f) => f.startsWith('--controllers='));
  const controllers = controllersFlag ? controllersFlag.slice('--controllers='.length).split(',') : [];
  return all
    .filter((g) => (g.when ?? []).every((f) => flags.includes(f)))
    .filter((g) => (g.whenUnset ?? []).every((f) => !flags.some((x) => x.startsWith(`${f}=`) && x.length > f.length + 1)))
    .filter((g) => !g.whenController || g.whenController.some((c) => controllers.includes(c)))
    .filter((g) => !g.whenRunning || g.whenRunning.some((c) => controllerRunning(provider, c, flags, features)))
    .filter((g) => !g.informerOf || informerTaken(provider, g.informerOf, flags, features))
    .filter((g) => !g.whenFeature || features.includes(g.whenFeature))
    .flatMap((g) =>
      g.namespaceFrom === 'ccm'
        ? [{ ...g, namespace: namespaces.ccm }]
        : g.namespaceFrom === 'config-secrets' && namespaces.configSecrets
          ? namespaces.configSecrets.map((namespace) => ({ ...g, namespace }))
          : [g],
    )
    .map((g) => (g.identity === 'provider' ? { ...g, identity: provider.providerClient?.name ?? 'root' } : g));
}

/** The kube-system controller ServiceAccounts the kube-controller-manager also uses: never rendered (pruning them would break it); the CCM may create them. */
const SHARED_WITH_KCM: readonly string[] = [...CONTROLLER_IDENTITIES.node, ...CONTROLLER_IDENTITIES.service, ...CONTROLLER_IDENTITIES.route];

/** Cluster-wide grants as one ClusterRole, namespaced ones as a Role per namespace. */
function rolesOf(
  grants: readonly ProviderGrant[],
  name: string,
  subjects: readonly string[],
): { clusterRoles: ClusterRoleGrant[]; roles: RoleGrant[] } {
  const cluster = grants.filter((g) => g.namespace === undefined).map((g) => g.rule);
  const namespaces = [...new Set(grants.filter((g) => g.namespace !== undefined).map((g) => g.namespace!))].sort();
  return {
    clusterRoles: cluster.length > 0 ? [{ name, serviceAccounts: subjects, rules: mergeRules(cluster) }] : [],
    roles: namespaces.map((ns) => ({
      name,
      namespace: ns,
      serviceAccounts: subjects,
      rules: mergeRules(grants.filter((g) => g.namespace === ns).map((g) => g.rule)),
    })),
  };
}

/** The RBAC of one CCM in the profile its `useServiceAccountCredentials` selects. */
export function ccmRbac(input: CcmRbacInput): CcmRbac {
  const { provider } = input;
  const sa = `${input.namespace}/${input.serviceAccount}`;
  const lease =
    input.leaderLease === undefined ? { name: provider.leaderElection.name, namespace: input.namespace } : (input.leaderLease ?? undefined);
  const grants = ccmGrants(provider, lease, input.flags ?? [], input.features ?? [], {
    ccm: input.namespace,
    configSecrets: input.configSecretNamespaces,
  });
  if (!input.useServiceAccountCredentials) {
    const r = rolesOf(grants, CCM_CLUSTER_ROLE, [sa]);
    return { profile: 'superset', clusterRoles: r.clusterRoles, roles: r.roles, serviceAccounts: [] };
  }
  const clients = [...new Set(grants.map((g) => g.identity).filter((i) => i !== 'root'))];
  // the provider's client is asked for in Initialize, and a stopped controller's before it stops, even without a call we grant
  for (const asked of [
    ...(provider.providerClient ? [provider.providerClient.name] : []),
    ...(provider.framework === 'cloud-provider' ? askedClients(input.flags ?? []) : []),
  ]) {
    if (!clients.includes(asked)) {
      clients.push(asked);
    }
  }
  const order = (name: string) => (SHARED_WITH_KCM.includes(name) ? SHARED_WITH_KCM.indexOf(name) : SHARED_WITH_KCM.length);
  clients.sort((a, b) => order(a) - order(b) || (a < b ? -1 : a > b ? 1 : 0));
  const root = rolesOf(
    grants.filter((g) => g.identity === 'root'),
    CCM_CLUSTER_ROLE,
    [sa],
  );
  const perClient = clients.map((c) =>
    rolesOf(
      grants.filter((g) => g.identity === c),
      `${CCM_CLUSTER_ROLE}:${c}`,
      [`${CONTROLLER_SA_NAMESPACE}/${c}`],
    ),
  );
  const tokenNames = [...clients].sort();
  const rendered = clients
    .filter((c) => !SHARED_WITH_KCM.includes(c) && `${CONTROLLER_SA_NAMESPACE}/${c}` !== sa)
    .map((c) => `${CONTROLLER_SA_NAMESPACE}/${c}`);
  const needsCreate = clients.some((c) => SHARED_WITH_KCM.includes(c));
  return {
    profile: 'least-privilege',
    clusterRoles: [...root.clusterRoles, ...perClient.flatMap((r) => r.clusterRoles)],
    roles: [
      ...root.roles,
      {
        name: `${CCM_CLUSTER_ROLE}:controller-tokens`,
        namespace: CONTROLLER_SA_NAMESPACE,
        serviceAccounts: [sa],
        rules: [
          // the controllers' ServiceAccounts may not exist yet where the kube-controller-manager runs without service-account credentials
          ...(needsCreate ? [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create'] }] : []),
          { apiGroups: [''], resources: ['serviceaccounts'], resourceNames: tokenNames, verbs: ['get'] },
          { apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: tokenNames, verbs: ['create'] },
        ],
      },
      ...perClient.flatMap((r) => r.roles),
    ],
    serviceAccounts: rendered,
  };
}

/** The Azure cloud-node-manager's ClusterRole rules (upstream chart). */
export const CLOUD_NODE_MANAGER_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
  // kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/nodemanager/nodemanager.go (event broadcaster)
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];
