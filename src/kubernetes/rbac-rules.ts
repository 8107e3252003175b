/**
 * The RBAC of an upstream CCM in its two profiles (reference §1.3, §3):
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
 *   `Initialize`, recorded in providers.ts); each gets a ClusterRole of its
 *   calls, including the provider extras the bootstrap `system:controller:*`
 *   roles lack (the "forbidden" errors of OCCM #1722/#2049).
 * Lease names come from the binary (providers.ts `leaderElection`) or from
 * `--leader-elect-resource-name`. No wildcard verbs or resources. Pure: no
 * cdk8s import.
 */
import { UpstreamProvider } from './providers';

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

const READ = ['get', 'list', 'watch'];
const LIST_WATCH = ['list', 'watch'];
const EVENTS: PolicyRule = { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] };
const NODE_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'update', 'patch', 'delete'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch', 'update'] },
];
const SERVICE_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['nodes'], verbs: READ },
  { apiGroups: [''], resources: ['services'], verbs: ['get', 'list', 'watch', 'patch', 'update'] },
  { apiGroups: [''], resources: ['services/status'], verbs: ['patch', 'update'] },
];
const ROUTE_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['nodes'], verbs: READ },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
];
/** The shared informers of k8s.io/cloud-provider controllers (cloud-node, node-lifecycle, service, route: app/core.go). */
const INFORMER_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['nodes'], verbs: LIST_WATCH },
  { apiGroups: [''], resources: ['services'], verbs: LIST_WATCH },
];
const DELEGATED_AUTH: readonly PolicyRule[] = [
  { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
  { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
];

/** The client names of the k8s.io/cloud-provider controllers (kubernetes/cloud-provider@v0.33.0 app/controllermanager.go, ClientName; cloud-node and cloud-node-lifecycle share node-controller). */
export const CONTROLLER_IDENTITIES = {
  node: ['node-controller'],
  service: ['service-controller'],
  route: ['route-controller'],
} as const;

/**
 * Client names the in-tree kube-controller-manager also uses (with its own
 * `--use-service-account-credentials`) and may already have created: never
 * rendered (pruning them would break it); the CCM may create them.
 */
const SHARED_WITH_KCM: readonly string[] = [...CONTROLLER_IDENTITIES.node, ...CONTROLLER_IDENTITIES.service, ...CONTROLLER_IDENTITIES.route];

/**
 * Merges rules that share apiGroups, resources and resourceNames (verbs
 * united, in first-seen order) so each resource appears once per name set.
 */
export function mergeRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] }[] = [];
  for (const rule of rules) {
    for (const resource of rule.resources) {
      const found = out.find((r) => r.apiGroups.join() === rule.apiGroups.join() && r.resources.length === 1 && r.resources[0] === resource
        && (r.resourceNames ?? []).join() === (rule.resourceNames ?? []).join());
      if (found) {
        for (const verb of rule.verbs) {
          if (!found.verbs.includes(verb)) {
            found.verbs.push(verb);
          }
        }
      } else {
        out.push({ apiGroups: [...rule.apiGroups], resources: [resource], verbs: [...rule.verbs], ...(rule.resourceNames ? { resourceNames: [...rule.resourceNames] } : {}) });
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
   * The leader-election Lease (`leaderLease`); undefined with `--leader-elect=false`.
   *
   * @default - the provider's default lock in `namespace`
   */
  readonly leaderLease?: LeaderLease | null;
  /**
   * Whether node IPAM runs in the CCM (`--allocate-node-cidrs=true`): adds the provider's node IPAM informers.
   *
   * @default false
   */
  readonly nodeIpam?: boolean;
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
    return found === undefined ? undefined : (found.includes('=') ? found.slice(found.indexOf('=') + 1) : 'true');
  };
  if (flag('leader-elect') === 'false') {
    return undefined;
  }
  return { name: flag('leader-elect-resource-name') ?? provider.leaderElection.name, namespace: flag('leader-elect-resource-namespace') ?? namespace };
}

/** The RBAC of one CCM in the profile its `useServiceAccountCredentials` selects. */
export function ccmRbac(input: CcmRbacInput): CcmRbac {
  const { provider } = input;
  const sa = `${input.namespace}/${input.serviceAccount}`;
  const lease = input.leaderLease === undefined ? { name: provider.leaderElection.name, namespace: input.namespace } : input.leaderLease;
  const ipam = input.nodeIpam ? provider.nodeIpamRules ?? [] : [];
  const root: PolicyRule[] = [EVENTS, ...(provider.framework === 'cloud-provider' ? DELEGATED_AUTH : [])];
  const roles: RoleGrant[] = [];
  if (lease) {
    roles.push({
      name: `${CCM_CLUSTER_ROLE}:leader-election`,
      namespace: lease.namespace,
      serviceAccounts: [sa],
      rules: [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: [lease.name], verbs: ['get', 'list', 'watch', 'update'] },
        // create cannot be restricted by name
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      ],
    });
  }
  const providerRoles = (subjects: readonly string[], suffix: string): RoleGrant[] => provider.providerClientRoles.map((r) => ({
    name: `${CCM_CLUSTER_ROLE}:${suffix}`, namespace: r.namespace, serviceAccounts: subjects, rules: mergeRules(r.rules),
  }));
  if (!input.useServiceAccountCredentials) {
    return {
      profile: 'superset',
      clusterRoles: [{
        name: CCM_CLUSTER_ROLE,
        serviceAccounts: [sa],
        rules: mergeRules([...root, ...provider.processRules, ...provider.informerRules, ...ipam, ...NODE_RULES, ...SERVICE_RULES, ...provider.serviceRules,
          ...ROUTE_RULES, ...provider.providerClientRules]),
      }],
      roles: [...roles, ...providerRoles([sa], 'provider')],
      serviceAccounts: [],
    };
  }
  const identity = (names: readonly string[]) => names.map((n) => `${CONTROLLER_SA_NAMESPACE}/${n}`);
  const client = provider.providerClient?.name;
  const clientNames = [...SHARED_WITH_KCM, ...(client ? [client] : [])].filter((n, i, all) => all.indexOf(n) === i).sort();
  const rendered = client && !SHARED_WITH_KCM.includes(client) && `${CONTROLLER_SA_NAMESPACE}/${client}` !== sa ? [`${CONTROLLER_SA_NAMESPACE}/${client}`] : [];
  return {
    profile: 'least-privilege',
    clusterRoles: [
      {
        name: CCM_CLUSTER_ROLE,
        serviceAccounts: [sa],
        rules: mergeRules([...root, ...INFORMER_RULES, ...provider.informerRules, ...ipam, ...(client ? [] : provider.processRules)]),
      },
      { name: `${CCM_CLUSTER_ROLE}:node-controller`, serviceAccounts: identity(CONTROLLER_IDENTITIES.node), rules: mergeRules([EVENTS, ...NODE_RULES]) },
      { name: `${CCM_CLUSTER_ROLE}:service-controller`, serviceAccounts: identity(CONTROLLER_IDENTITIES.service), rules: mergeRules([EVENTS, ...SERVICE_RULES, ...provider.serviceRules]) },
      { name: `${CCM_CLUSTER_ROLE}:route-controller`, serviceAccounts: identity(CONTROLLER_IDENTITIES.route), rules: mergeRules([EVENTS, ...ROUTE_RULES]) },
      ...(client ? [{
        name: `${CCM_CLUSTER_ROLE}:provider`,
        serviceAccounts: identity([client]),
        rules: mergeRules([EVENTS, ...provider.processRules, ...provider.providerClientRules]),
      }] : []),
    ],
    roles: [
      ...roles,
      {
        name: `${CCM_CLUSTER_ROLE}:controller-tokens`,
        namespace: CONTROLLER_SA_NAMESPACE,
        serviceAccounts: [sa],
        rules: [
          // the controllers' ServiceAccounts may not exist yet where the kube-controller-manager runs without service-account credentials
          { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create'] },
          { apiGroups: [''], resources: ['serviceaccounts'], resourceNames: clientNames, verbs: ['get'] },
          { apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: clientNames, verbs: ['create'] },
        ],
      },
      ...(client ? providerRoles(identity([client]), 'provider') : []),
    ],
    serviceAccounts: rendered,
  };
}

/** The Azure cloud-node-manager's ClusterRole rules (upstream chart). */
export const CLOUD_NODE_MANAGER_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
];
