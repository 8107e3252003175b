import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { OPERAND_NAMESPACE, OPERATOR_NAMESPACE, OPERATOR_SERVICE_ACCOUNT, releaseMetadata } from './constants';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch'];

/**
 * The operator's own identity and permissions (reference §1.5), rendered in
 * `operator` management mode only: in `gitops` mode no operator runs, and an
 * unused identity holding RBAC-write and namespace-admin rights is a risk.
 *
 * Fixed, not copied:
 * - the `endpoints` rule kept "for the alibaba node manager" is gone (Alibaba
 *   operands were removed from the operator);
 * - the binding to ClusterRole `admin` in the operand namespace is replaced by
 *   a Role listing what the operator creates and reads there (workloads,
 *   PodDisruptionBudgets, Services, ConfigMaps, leases, events) plus the
 *   Secret and ConfigMap reads its operand Roles grant (it has no `escalate`,
 *   so it must hold every permission it grants).
 */
export class OperatorRbac extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const meta = releaseMetadata;
    const subject = { kind: 'ServiceAccount', name: OPERATOR_SERVICE_ACCOUNT, namespace: OPERATOR_NAMESPACE };

    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: meta(OPERATOR_SERVICE_ACCOUNT, OPERATOR_NAMESPACE) });

    const clusterRoleName = 'system:openshift:operator:cloud-controller-manager';
    new k8s.KubeClusterRole(this, 'ClusterRole', {
      metadata: meta(clusterRoleName),
      rules: [
        { apiGroups: ['config.openshift.io'], resources: ['clusteroperators'], verbs: ['get', 'create', 'list', 'watch'] },
        { apiGroups: ['config.openshift.io'], resources: ['clusteroperators/status'], resourceNames: ['cloud-controller-manager'], verbs: ['update'] },
        {
          apiGroups: ['config.openshift.io'],
          resources: ['clusterversions', 'infrastructures', 'featuregates', 'networks', 'proxies', 'apiservers'],
          verbs: ['get', 'list', 'watch'],
        },
        { apiGroups: ['operator.openshift.io'], resources: ['kubecontrollermanagers'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [RBAC_GROUP], resources: ['clusterrolebindings', 'clusterroles', 'rolebindings', 'roles'], verbs: WRITE },
        { apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingadmissionpolicies', 'validatingadmissionpolicybindings'], verbs: WRITE },
        { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
        { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
        // Held so that the operator can grant them to the operand roles it renders.
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
        { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
        { apiGroups: [''], resources: ['services'], verbs: ['get', 'list', 'watch', 'patch'] },
        { apiGroups: [''], resources: ['services/status'], verbs: ['patch', 'update'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
      ],
    });
    new k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
      metadata: meta(clusterRoleName),
      roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: clusterRoleName },
      subjects: [subject],
    });

    const roles: [string, string, k8s.PolicyRule[]][] = [
      ['OperatorNamespace', OPERATOR_NAMESPACE, [
        { apiGroups: [''], resources: ['configmaps'], verbs: [...WRITE, 'delete'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'create', 'update'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create', 'watch', 'list', 'patch'] },
      ]],
      ['OpenShiftConfig', 'openshift-config', [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] },
      ]],
      ['OpenShiftConfigManaged', 'openshift-config-managed', [
        { apiGroups: [''], resources: ['configmaps'], verbs: WRITE },
      ]],
      // 'list' with resourceNames is kept: the operator renders the Azure Role with it and must hold what it grants.
      ['KubeSystem', 'kube-system', [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['aks-managed-resource-locker'], verbs: ['get', 'list', 'update'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      ]],
      ['OperandNamespace', OPERAND_NAMESPACE, [
        { apiGroups: ['apps'], resources: ['deployments', 'daemonsets'], verbs: [...WRITE, 'delete'] },
        { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: [...WRITE, 'delete'] },
        { apiGroups: [''], resources: ['services', 'configmaps'], verbs: [...WRITE, 'delete'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'watch', 'create', 'update'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
      ]],
    ];
    for (const [idPrefix, namespace, rules] of roles) {
      new k8s.KubeRole(this, `${idPrefix}Role`, { metadata: meta(OPERATOR_SERVICE_ACCOUNT, namespace), rules });
      new k8s.KubeRoleBinding(this, `${idPrefix}RoleBinding`, {
        metadata: meta(OPERATOR_SERVICE_ACCOUNT, namespace),
        roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: OPERATOR_SERVICE_ACCOUNT },
        subjects: [subject],
      });
    }

    new k8s.KubeClusterRoleBinding(this, 'HostAccessBinding', {
      metadata: meta('system:openshift:scc:hostaccess:cloud-controller-manager-operator'),
      roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'system:openshift:scc:hostaccess' },
      subjects: [subject],
    });
  }
}
