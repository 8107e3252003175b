/**
 * The apply stages of a cluster, in order. Every rendered object belongs to
 * exactly one stage, chosen by its kind; the stage gives its directory
 * (`NN-name`) and its Argo CD sync wave (NN), and Flux applies the stages as
 * a `dependsOn` chain.
 */
export interface Stage {
  /** Two-digit order, also the Argo CD sync wave. */
  readonly order: number;
  /** Short name. */
  readonly name: string;
  /** Directory name, `NN-name`. */
  readonly directory: string;
  /** What the stage holds, for READMEs and plans. */
  readonly description: string;
}

function stage(order: number, name: string, description: string): Stage {
  return { order, name, directory: `${String(order).padStart(2, '0')}-${name}`, description };
}

export const STAGE_NAMESPACES_RBAC = stage(1, 'namespaces-rbac', 'Namespaces, NetworkPolicies, ServiceAccounts and RBAC');
export const STAGE_CREDENTIALS = stage(2, 'credentials', 'CredentialsRequests (their Secrets must exist before the pods start)');
export const STAGE_CONFIG = stage(3, 'config', 'ConfigMaps: cloud-conf, trust bundle, images');
export const STAGE_WORKLOADS = stage(4, 'workloads', 'Deployments and DaemonSets');
export const STAGE_POLICIES = stage(
  5,
  'policies',
  'PodDisruptionBudgets, Services, admission policies, ClusterOperator, the leader-migration lease RBAC (kept until the CCM has rolled)',
);

/** All stages in apply order. */
export const STAGES: readonly Stage[] = [STAGE_NAMESPACES_RBAC, STAGE_CREDENTIALS, STAGE_CONFIG, STAGE_WORKLOADS, STAGE_POLICIES];

/** Stage of each kind the generator renders (keyed `group/Kind`, core group empty). */
const STAGE_BY_KIND: Readonly<Record<string, Stage>> = {
  '/Namespace': STAGE_NAMESPACES_RBAC,
  'networking.k8s.io/NetworkPolicy': STAGE_NAMESPACES_RBAC,
  '/ServiceAccount': STAGE_NAMESPACES_RBAC,
  'rbac.authorization.k8s.io/ClusterRole': STAGE_NAMESPACES_RBAC,
  'rbac.authorization.k8s.io/ClusterRoleBinding': STAGE_NAMESPACES_RBAC,
  'rbac.authorization.k8s.io/Role': STAGE_NAMESPACES_RBAC,
  'rbac.authorization.k8s.io/RoleBinding': STAGE_NAMESPACES_RBAC,
  'cloudcredential.openshift.io/CredentialsRequest': STAGE_CREDENTIALS,
  '/ConfigMap': STAGE_CONFIG,
  'machineconfiguration.openshift.io/MachineConfig': STAGE_CONFIG,
  'apps/Deployment': STAGE_WORKLOADS,
  'apps/DaemonSet': STAGE_WORKLOADS,
  'policy/PodDisruptionBudget': STAGE_POLICIES,
  '/Service': STAGE_POLICIES,
  'monitoring.coreos.com/ServiceMonitor': STAGE_POLICIES,
  // Cluster API: the ConfigMaps holding the workload cluster's objects come first (config stage)
  'addons.cluster.x-k8s.io/ClusterResourceSet': STAGE_WORKLOADS,
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': STAGE_POLICIES,
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': STAGE_POLICIES,
  'config.openshift.io/ClusterOperator': STAGE_POLICIES,
  // after the CCM is ready: the gate makes the operators switch kube-controller-manager and the kubelets to external
  'config.openshift.io/FeatureGate': STAGE_POLICIES,
};

/** Name of the Role and RoleBinding granting both controller managers the migration lease. */
export const LEADER_MIGRATION_RBAC_NAME = 'cloud-provider-leader-migration';
/** Name of the Role and RoleBinding for the CCM's own lease in the KCM's lease namespace. */
export const CCM_LEASE_NAMESPACE_RBAC_NAME = 'cloud-controller-manager-leader-election';

/**
 * Objects whose stage is not their kind's: the lease RBAC of leader migration comes after the workloads, so that
 * when a phase drops it the engine deletes it only once the CCM has rolled off leader migration (a CCM that still
 * runs it and loses access to a lease it holds exits). It is first rendered in a phase with no CCM deployed, so
 * the CCM never waits for it. Keyed `group/Kind/name`.
 */
const STAGE_BY_NAME: Readonly<Record<string, Stage>> = Object.fromEntries(
  ['Role', 'RoleBinding'].flatMap((kind) =>
    [LEADER_MIGRATION_RBAC_NAME, CCM_LEASE_NAMESPACE_RBAC_NAME].map((name) => [`rbac.authorization.k8s.io/${kind}/${name}`, STAGE_POLICIES]),
  ),
);

/** The stage of an object by apiVersion, kind and name. Throws for a kind no stage is declared for. */
export function stageOf(apiVersion: string, kind: string, name?: string): Stage {
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const byName = name === undefined ? undefined : STAGE_BY_NAME[`${group}/${kind}/${name}`];
  if (byName) {
    return byName;
  }
  const found = STAGE_BY_KIND[`${group}/${kind}`];
  if (!found) {
    throw new Error(`no stage is declared for ${apiVersion} ${kind}; add it to STAGE_BY_KIND in src/gitops/stages.ts`);
  }
  return found;
}

/** Annotation carrying the Argo CD sync wave. */
export const SYNC_WAVE_ANNOTATION = 'argocd.argoproj.io/sync-wave';

/** Every kind the generator renders, as API group (core: empty) and kind, sorted. */
export function declaredKinds(): { group: string; kind: string }[] {
  return Object.keys(STAGE_BY_KIND)
    .sort()
    .map((k) => ({ group: k.slice(0, k.indexOf('/')), kind: k.slice(k.indexOf('/') + 1) }));
}
