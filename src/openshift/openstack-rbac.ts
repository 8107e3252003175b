import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { releaseMetadata } from './constants';

/**
 * The operator's static OpenStack RBAC (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_04_rbac_provider_openstack.yaml): ServiceAccount
 * `kube-system/cloud-controller-manager` with Service patches and events.
 * The operator applies it on every platform; it is rendered for OpenStack
 * clusters only.
 */
export class OpenStackRbac extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const meta = releaseMetadata;
    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: meta('cloud-controller-manager', 'kube-system') });
    new k8s.KubeClusterRole(this, 'ClusterRole', {
      metadata: meta('openstack-cloud-controller-manager'),
      rules: [
        { apiGroups: [''], resources: ['services'], verbs: ['patch'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
      ],
    });
    new k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
      metadata: meta('openstack-cloud-controller-manager'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'openstack-cloud-controller-manager' },
      subjects: [{ kind: 'ServiceAccount', name: 'cloud-controller-manager', namespace: 'kube-system' }],
    });
  }
}
