import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { payloadHas } from './release-payload';
import { OPERAND_NAMESPACE, OPERATOR_NAMESPACE, OPERATOR_SERVICE_ACCOUNT, releaseMetadata } from './constants';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch'];

/** Properties for `OperatorRbac`. */
export interface OperatorRbacProps {
  /**
   * The cluster's OpenShift release: the objects and rules its payload ships
   * (`PAYLOAD_PARTS_SINCE`: the kube-system Role, the hostaccess binding, the
   * openshift-config-managed write rules).
   *
   * @default - the current release's rules
   */
  readonly release?: string;
}

/**
 * The operator's own identity and permissions (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_02_rbac_operator.yaml), rendered in
 * `operator` management mode only, exactly as the release payload ships them
 * (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c
 * manifests/0000_26_cloud-controller-manager-operator_02_rbac_operator.yaml,
 * identical on release-4.23 and later): CVO applies the same objects and
 * replaces any difference (`rules` and `roleRef` are compared as a whole,
 * openshift/cluster-version-operator@6e719331fb58 lib/resourcemerge/rbac.go), and a
 * RoleBinding's `roleRef` cannot change at all. So the ClusterRole keeps the
 * rules in the manifest's order (including the stale `endpoints` rule "for
 * the alibaba node manager"), and the operand-namespace RoleBinding keeps
 * ClusterRole `admin`.
 */
export class OperatorRbac extends Construct {
  constructor(scope: Construct, id: string, props: OperatorRbacProps = {}) {
    super(scope, id);
    const meta = releaseMetadata;
    const subject = { kind: 'ServiceAccount', name: OPERATOR_SERVICE_ACCOUNT, namespace: OPERATOR_NAMESPACE };

    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: meta(OPERATOR_SERVICE_ACCOUNT, OPERATOR_NAMESPACE) });

    const clusterRoleName = 'system:openshift:operator:cloud-controller-manager';
    const metrics = payloadHas(props.release, 'operatorServesMetrics');
    new k8s.KubeClusterRole(this, 'ClusterRole', {
      metadata: meta(clusterRoleName),
      rules: [
        { apiGroups: ['config.openshift.io'], resources: ['clusteroperators'], verbs: ['get', 'create', 'list', 'watch'] },
        {
          apiGroups: ['config.openshift.io'],
          resources: ['clusteroperators/status'],
          resourceNames: ['cloud-controller-manager'],
          verbs: ['update'],
        },
        {
          apiGroups: ['config.openshift.io'],
          resources: ['clusterversions', 'infrastructures', 'featuregates', 'networks', 'proxies', ...(metrics ? ['apiservers'] : [])],
          verbs: ['get', 'list', 'watch'],
        },
        { apiGroups: ['operator.openshift.io'], resources: ['kubecontrollermanagers'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [RBAC_GROUP], resources: ['clusterrolebindings', 'clusterroles', 'rolebindings', 'roles'], verbs: WRITE },
        ...(payloadHas(props.release, 'operatorAdmissionPolicyRule')
          ? [
              {
                apiGroups: ['admissionregistration.k8s.io'],
                resources: ['validatingadmissionpolicies', 'validatingadmissionpolicybindings'],
                verbs: WRITE,
              },
            ]
          : []),
        ...(metrics
          ? [
              { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
              { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
            ]
          : []),
        { apiGroups: [''], resources: ['nodes'], verbs: ['update'] },
        { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
        { apiGroups: [''], resources: ['nodes', 'services'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
        { apiGroups: [''], resources: ['endpoints'], verbs: ['get', 'create', 'list', 'watch', 'update'] },
        { apiGroups: [''], resources: ['services', 'services/status'], verbs: ['patch'] },
        { apiGroups: [''], resources: ['nodes'], verbs: ['patch'] },
        { apiGroups: [''], resources: ['events'], verbs: ['update'] },
        { apiGroups: [''], resources: ['services/status'], verbs: ['update'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
      ],
    });
    new k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
      metadata: meta(clusterRoleName),
      roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: clusterRoleName },
      subjects: [subject],
    });

    const roles: [string, string, k8s.PolicyRule[] | undefined][] = [
      [
        'OperatorNamespace',
        OPERATOR_NAMESPACE,
        [
          { apiGroups: [''], resources: ['configmaps'], verbs: [...WRITE, 'delete'] },
          { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'create', 'update'] },
          { apiGroups: [''], resources: ['events'], verbs: ['create', 'watch', 'list', 'patch'] },
        ],
      ],
      ['OpenShiftConfig', 'openshift-config', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }]],
      [
        'OpenShiftConfigManaged',
        'openshift-config-managed',
        [
          {
            apiGroups: [''],
            resources: ['configmaps'],
            verbs: payloadHas(props.release, 'operatorWritesConfigManaged') ? WRITE : ['get', 'list', 'watch'],
          },
        ],
      ],
      // 'list' with resourceNames is kept: the operator renders the Azure Role with it and must hold what it grants.
      [
        'KubeSystem',
        'kube-system',
        payloadHas(props.release, 'operatorKubeSystemRole')
          ? [
              {
                apiGroups: ['coordination.k8s.io'],
                resources: ['leases'],
                resourceNames: ['aks-managed-resource-locker'],
                verbs: ['get', 'list', 'update'],
              },
              { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
            ]
          : undefined,
      ],
    ];
    for (const [idPrefix, namespace, rules] of roles) {
      if (rules === undefined) {
        continue;
      }
      new k8s.KubeRole(this, `${idPrefix}Role`, { metadata: meta(OPERATOR_SERVICE_ACCOUNT, namespace), rules });
      new k8s.KubeRoleBinding(this, `${idPrefix}RoleBinding`, {
        metadata: meta(OPERATOR_SERVICE_ACCOUNT, namespace),
        roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: OPERATOR_SERVICE_ACCOUNT },
        subjects: [subject],
      });
    }

    // roleRef is immutable: CVO created this binding to ClusterRole admin, so it stays admin.
    new k8s.KubeRoleBinding(this, 'OperandNamespaceRoleBinding', {
      metadata: meta(OPERATOR_SERVICE_ACCOUNT, OPERAND_NAMESPACE),
      roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'admin' },
      subjects: [subject],
    });

    if (!payloadHas(props.release, 'operatorHostAccess')) {
      return;
    }
    new k8s.KubeClusterRoleBinding(this, 'HostAccessBinding', {
      metadata: meta('system:openshift:scc:hostaccess:cloud-controller-manager-operator'),
      roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'system:openshift:scc:hostaccess' },
      subjects: [subject],
    });
  }
}
