import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';

/** Properties for `LeaderMigrationRbac`. */
export interface LeaderMigrationRbacProps {
  /** Name of the Role and its RoleBinding. */
  readonly name: string;
  /** The lease namespace both controller managers elect leaders in. */
  readonly leaseNamespace: string;
  /** The migration Lease name (`leaderName`). */
  readonly leaderName: string;
  /** The CCM's ServiceAccount, as `namespace/name`. */
  readonly ccmServiceAccount: string;
}

/**
 * Access to the migration Lease for both controller managers, as a Role and
 * RoleBinding of its own instead of a patch of the bootstrap
 * `system::leader-locking-*` roles: get/update on the lease by name (client-go
 * tools/leaderelection/resourcelock/leaselock.go makes only Get, Create and
 * Update calls; kubernetes/client-go@v0.33.0), and create, which RBAC cannot restrict by name. Subjects: the
 * kube-controller-manager user and ServiceAccount, and the CCM's
 * ServiceAccount (leader election uses the pod's own identity).
 */
export class LeaderMigrationRbac extends Construct {
  /** The Role. */
  public readonly role: ApiObject;
  /** The RoleBinding. */
  public readonly binding: ApiObject;

  constructor(scope: Construct, id: string, props: LeaderMigrationRbacProps) {
    super(scope, id);
    const [saNamespace, saName] = props.ccmServiceAccount.split('/');
    if (!saNamespace || !saName) {
      throw new Error(`'ccmServiceAccount' must be namespace/name, got ${JSON.stringify(props.ccmServiceAccount)}`);
    }
    this.role = new k8s.KubeRole(this, 'Resource', {
      metadata: { name: props.name, namespace: props.leaseNamespace },
      rules: [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: [props.leaderName], verbs: ['get', 'update'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      ],
    });
    this.binding = new k8s.KubeRoleBinding(this, 'Binding', {
      metadata: { name: props.name, namespace: props.leaseNamespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: props.name },
      subjects: [
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:kube-controller-manager' },
        { kind: 'ServiceAccount', name: 'kube-controller-manager', namespace: 'kube-system' },
        { kind: 'ServiceAccount', name: saName, namespace: saNamespace },
      ],
    });
  }
}
