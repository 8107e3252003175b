/** Which objects GitOps never prunes, and how. Pure: no cdk8s import. */

/** Annotations that keep Argo CD and Flux from deleting an object when it leaves git. */
export const PRUNE_PROTECTION: Readonly<Record<string, string>> = {
  'argocd.argoproj.io/sync-options': 'Prune=false',
  'kustomize.toolkit.fluxcd.io/prune': 'disabled',
};

/**
 * Kinds never pruned: deleting a Namespace deletes all it holds; deleting a
 * CredentialsRequest makes the cloud-credential-operator delete the
 * credentials Secret the CCM runs with; the ClusterOperator belongs to the
 * cluster-version operator's bookkeeping; the FeatureGate is the cluster's
 * singleton (a feature set cannot be turned off again); deleting the
 * leader-migration MachineConfig removes the file a kube-controller-manager
 * may still be started with, so the plan deletes it in a step of its own.
 */
export const PRUNE_PROTECTED_KINDS: readonly string[] = ['Namespace', 'CredentialsRequest', 'ClusterOperator', 'FeatureGate', 'MachineConfig'];
