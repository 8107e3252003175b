/**
 * The RBAC of an upstream CCM in its two profiles (reference §1.3, §3):
 * - `superset` (`--use-service-account-credentials=false`, the upstream
 *   charts' default): every controller runs as the CCM ServiceAccount, which
 *   gets the union of what they need;
 * - `least-privilege` (`=true`): the CCM ServiceAccount only runs the process
 *   (leader election, events, delegated auth, config reads) and mints tokens
 *   for the kube-system controller ServiceAccounts; each controller's
 *   ServiceAccount gets the rules of that controller, including the provider
 *   extras the bootstrap `system:controller:*` roles lack (the "forbidden"
 *   errors of OCCM #1722/#2049).
 * No wildcard verbs or resources. Pure: no cdk8s import.
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
/** The leader-election Lease of the CCM (k8s.io/controller-manager default name). */
export const CCM_LEASE = 'cloud-controller-manager';
/** The namespace k8s.io/cloud-provider creates the controller ServiceAccounts in. */
export const CONTROLLER_SA_NAMESPACE = 'kube-system';

const READ = ['get', 'list', 'watch'];
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
const DELEGATED_AUTH: readonly PolicyRule[] = [
  { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
  { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
];
/** Node labels on PersistentVolumes (the PVL controller of the providers whose upstream role lists them). */
const VOLUME_RULES: readonly PolicyRule[] = [{ apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get', 'list', 'watch', 'update', 'patch'] }];

/** The kube-system ServiceAccounts k8s.io/cloud-provider mints tokens for, per controller group. */
export const CONTROLLER_IDENTITIES = {
  node: ['cloud-node-controller', 'node-controller'],
  service: ['service-controller'],
  route: ['route-controller'],
  volume: ['pvl-controller'],
} as const;

/** Providers whose upstream role lets the CCM label PersistentVolumes. */
const VOLUME_LABEL_PROVIDERS = new Set(['aws', 'azure', 'vsphere', 'openstack', 'digitalocean']);

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

/** Properties of `ccmRbac`. */
export interface CcmRbacInput {
  readonly provider: UpstreamProvider;
  /** `--use-service-account-credentials`. */
  readonly useServiceAccountCredentials: boolean;
  /** Namespace of the CCM and its ServiceAccount. */
  readonly namespace: string;
  /** The CCM ServiceAccount name. */
  readonly serviceAccount: string;
}

/** The RBAC of one CCM in the profile its `useServiceAccountCredentials` selects. */
export function ccmRbac(input: CcmRbacInput): CcmRbac {
  const { provider } = input;
  const sa = `${input.namespace}/${input.serviceAccount}`;
  const volumes = VOLUME_LABEL_PROVIDERS.has(provider.name);
  const process: PolicyRule[] = [EVENTS, ...(provider.framework === 'cloud-provider' ? DELEGATED_AUTH : []), ...provider.processRules];
  const leaseRole: RoleGrant = {
    name: `${CCM_CLUSTER_ROLE}:leader-election`,
    namespace: input.namespace,
    serviceAccounts: [sa],
    rules: [
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: [CCM_LEASE], verbs: ['get', 'list', 'watch', 'update'] },
      // create cannot be restricted by name
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
    ],
  };
  if (!input.useServiceAccountCredentials) {
    return {
      profile: 'superset',
      clusterRoles: [{
        name: CCM_CLUSTER_ROLE,
        serviceAccounts: [sa],
        rules: mergeRules([...process, ...NODE_RULES, ...SERVICE_RULES, ...provider.serviceRules, ...ROUTE_RULES, ...(volumes ? VOLUME_RULES : [])]),
      }],
      roles: [leaseRole],
    };
  }
  const identity = (names: readonly string[]) => names.map((n) => `${CONTROLLER_SA_NAMESPACE}/${n}`);
  const tokenNames = [...CONTROLLER_IDENTITIES.node, ...CONTROLLER_IDENTITIES.service, ...CONTROLLER_IDENTITIES.route, ...(volumes ? CONTROLLER_IDENTITIES.volume : [])].sort();
  return {
    profile: 'least-privilege',
    clusterRoles: [
      { name: CCM_CLUSTER_ROLE, serviceAccounts: [sa], rules: mergeRules(process) },
      {
        name: `${CCM_CLUSTER_ROLE}:node-controller`,
        serviceAccounts: identity(CONTROLLER_IDENTITIES.node),
        rules: mergeRules([EVENTS, ...NODE_RULES]),
      },
      { name: `${CCM_CLUSTER_ROLE}:service-controller`, serviceAccounts: identity(CONTROLLER_IDENTITIES.service), rules: mergeRules([EVENTS, ...SERVICE_RULES, ...provider.serviceRules]) },
      { name: `${CCM_CLUSTER_ROLE}:route-controller`, serviceAccounts: identity(CONTROLLER_IDENTITIES.route), rules: mergeRules([EVENTS, ...ROUTE_RULES]) },
      ...(volumes ? [{ name: `${CCM_CLUSTER_ROLE}:pvl-controller`, serviceAccounts: identity(CONTROLLER_IDENTITIES.volume), rules: mergeRules([EVENTS, ...VOLUME_RULES]) }] : []),
    ],
    roles: [
      leaseRole,
      {
        name: `${CCM_CLUSTER_ROLE}:controller-tokens`,
        namespace: CONTROLLER_SA_NAMESPACE,
        serviceAccounts: [sa],
        rules: [
          { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create'] },
          { apiGroups: [''], resources: ['serviceaccounts'], resourceNames: tokenNames, verbs: ['get'] },
          { apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: tokenNames, verbs: ['create'] },
        ],
      },
    ],
  };
}

/** The Azure cloud-node-manager's ClusterRole rules (upstream chart). */
export const CLOUD_NODE_MANAGER_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
];
