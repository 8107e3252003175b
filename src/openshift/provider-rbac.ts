import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { releaseAtLeast } from './release';
import { CCM_SERVICE_ACCOUNT, CNM_SERVICE_ACCOUNT, OPERAND_NAMESPACE, releaseMetadata } from './constants';

/** Properties for `ProviderRbac`. */
export interface ProviderRbacProps {
  /**
   * Whether the platform runs a cloud node manager DaemonSet (Azure, Azure
   * Stack Hub), which needs the `cloud-node-manager` identity.
   *
   * @default false
   */
  readonly cloudNodeManager?: boolean;
  /**
   * The cluster's OpenShift release: before 4.22 the payload's ClusterRole
   * `cloud-controller-manager` has no metrics rules (tokenreviews,
   * subjectaccessreviews; …@release-4.21 manifests/0000_26_cloud-controller-manager-operator_03_rbac_provider.yaml),
   * and it is rendered that way.
   *
   * @default - the current release's rules
   */
  readonly release?: string;
}

/**
 * The operand RBAC the operator ships statically (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_03_rbac_provider.yaml): the
 * `cloud-controller-manager` and `cloud-node-manager` ServiceAccounts, the
 * lease Role, the kube-system Role that `--use-service-account-credentials`
 * needs, the shared ClusterRole, and the authentication-reader binding.
 *
 * Every object here is also in the release payload, which the
 * cluster-version operator (CVO) keeps applying: each is rendered exactly as
 * the payload ships it (…@bc52198c1c3c
 * manifests/0000_26_cloud-controller-manager-operator_03_rbac_provider.yaml),
 * including the lease rule's `list` next to `resourceNames` (harmless: a
 * named `list` grants nothing), because CVO replaces any other rule set
 * (openshift/cluster-version-operator@6e719331fb58 lib/resourcemerge/rbac.go) and
 * the two writers would flip the Role forever. The `cloud-node-manager` ServiceAccount and its
 * ClusterRole are rendered only for platforms that run a cloud node manager
 * (the operator ships them everywhere, granting node writes to an unused
 * identity; CVO still creates them from the payload: see `cvo-ownership.ts`).
 */
export class ProviderRbac extends Construct {
  constructor(scope: Construct, id: string, props: ProviderRbacProps = {}) {
    super(scope, id);
    const meta = releaseMetadata;
    const ccmSubject = { kind: 'ServiceAccount', name: CCM_SERVICE_ACCOUNT, namespace: OPERAND_NAMESPACE };

    new k8s.KubeServiceAccount(this, 'CcmServiceAccount', { metadata: meta(CCM_SERVICE_ACCOUNT, OPERAND_NAMESPACE) });
    new k8s.KubeRole(this, 'LeaseRole', {
      metadata: meta('cloud-controller-manager', OPERAND_NAMESPACE),
      rules: [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['cloud-controller-manager'], verbs: ['get', 'list', 'update'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      ],
    });
    new k8s.KubeRoleBinding(this, 'LeaseRoleBinding', {
      metadata: meta('cloud-controller-manager', OPERAND_NAMESPACE),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cloud-controller-manager' },
      subjects: [ccmSubject],
    });
    new k8s.KubeRole(this, 'KubeSystemRole', {
      metadata: meta('cloud-controller-manager', 'kube-system'),
      rules: [
        { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create', 'get'] },
        { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
      ],
    });
    new k8s.KubeRoleBinding(this, 'KubeSystemRoleBinding', {
      metadata: meta('cloud-controller-manager', 'kube-system'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cloud-controller-manager' },
      subjects: [ccmSubject],
    });
    new k8s.KubeClusterRole(this, 'ClusterRole', {
      metadata: meta('cloud-controller-manager'),
      rules: [
        { apiGroups: [''], resources: ['nodes', 'services'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
        ...(props.release && !releaseAtLeast(props.release, '4.22')
          ? []
          : [
              { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
              { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
            ]),
      ],
    });
    new k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
      metadata: meta('cloud-controller-manager'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cloud-controller-manager' },
      subjects: [ccmSubject],
    });
    new k8s.KubeRoleBinding(this, 'AuthenticationReaderBinding', {
      metadata: meta('cloud-controller-manager:apiserver-authentication-reader', 'kube-system'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'extension-apiserver-authentication-reader' },
      subjects: [ccmSubject],
    });
    if (!props.cloudNodeManager) {
      return;
    }
    new k8s.KubeServiceAccount(this, 'CnmServiceAccount', { metadata: meta(CNM_SERVICE_ACCOUNT, OPERAND_NAMESPACE) });
    new k8s.KubeClusterRole(this, 'CnmClusterRole', {
      metadata: meta('cloud-node-manager'),
      rules: [
        { apiGroups: [''], resources: ['nodes'], verbs: ['watch', 'list', 'get', 'update', 'patch'] },
        { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
      ],
    });
    new k8s.KubeClusterRoleBinding(this, 'CnmClusterRoleBinding', {
      metadata: meta('cloud-node-manager'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cloud-node-manager' },
      subjects: [{ kind: 'ServiceAccount', name: CNM_SERVICE_ACCOUNT, namespace: OPERAND_NAMESPACE }],
    });
  }
}
